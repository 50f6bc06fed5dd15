"""The Chinese search's user dictionary: where it is pointed to, that conf.py's
``html_search_options`` is read, never written, and that jieba loads the one named."""

from __future__ import annotations

import json
import shutil
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


@pytest.mark.parametrize("named_by", ["the-glossary", "conf-py", "confoverrides"])
def test_jieba_loads_the_dictionary_named_and_keeps_its_word_whole(
    make_app, rootdir, tmp_path, named_by
):
    """A page says 向量化不是量化, which jieba's own dictionary alone cuts into 向 / 量化 /
    不是 / 量化. The dictionary a book names, the glossary's (test-glossary) or one of its own
    (here 向量化 alone, named in conf.py or by -D), is loaded: the tests' builds leave out
    only the second load of jieba's own (tests/conftest.py)."""
    srcdir = tmp_path / "book"
    overrides = {}
    if named_by == "the-glossary":
        shutil.copytree(rootdir / "test-glossary", srcdir)
        page = "ch1/page"
    else:
        words = tmp_path / "own-dict.txt"
        words.write_text("向量化 100000 n\n", encoding="utf-8")
        options = {"dict": words.as_posix()}
        conf = 'language = "zh_CN"\n'
        if named_by == "conf-py":
            conf += f"html_search_options = {options!r}\n"
        else:
            overrides = {"html_search_options": options}
        srcdir.mkdir()
        (srcdir / "conf.py").write_text(conf, encoding="utf-8")
        (srcdir / "index.rst").write_text("一页\n====\n\n向量化不是量化。\n", encoding="utf-8")
        page = "index"
    app = make_app("html", srcdir=srcdir, confoverrides=overrides)
    app.build()

    script = (app.outdir / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(script[script.index("(") + 1 : script.rindex(")")])
    pages = index["terms"]["向量化"]  # a page's number, or a list of them
    assert index["docnames"].index(page) in (pages if isinstance(pages, list) else [pages])
    assert "向" not in index["terms"]
