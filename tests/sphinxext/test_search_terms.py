"""The Chinese search's user dictionary: where it is pointed to, and that conf.py's
``html_search_options`` is read, never written."""

from __future__ import annotations

from pathlib import Path

import pytest

# One object, so that a test can tell whether the extension changed it in place.
OPTIONS: dict[str, str] = {"hmm": "False"}
OWN_DICT = {"dict": "own-dict.txt"}


@pytest.mark.sphinx("html", testroot="glossary", confoverrides={"html_search_options": OPTIONS})
def test_the_dictionary_is_added_to_a_copy_of_the_books_options(app):
    options = app.config.html_search_options
    assert Path(options["dict"]).name == "jieba-dict.txt"
    assert options["hmm"] == "False"
    # The book's own dict, as its conf.py wrote it.
    assert OPTIONS == {"hmm": "False"}


@pytest.mark.sphinx("html", testroot="glossary", confoverrides={"html_search_options": OWN_DICT})
def test_the_books_own_dictionary_wins_and_is_warned_of(app, warning):
    assert app.config.html_search_options == {"dict": "own-dict.txt"}
    assert "html_search_options sets jieba's dictionary" in warning.getvalue()
    assert "[jaxbook.search_terms]" in warning.getvalue()
