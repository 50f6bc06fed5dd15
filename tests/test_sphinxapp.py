"""The book's Sphinx application, as the tools start it in their own process."""

from __future__ import annotations

import shutil

import pytest
from sphinx.locale import get_translator
from sphinx.util.docutils import docutils_namespace

from jaxbook.sphinxapp import read_pages


@pytest.mark.parametrize("languages", [("en", "zh_CN"), ("zh_CN", "en")])
def test_each_application_reads_in_its_own_language(rootdir, tmp_path, languages):
    """One process reading both languages, in either order (a doctest worker, ``refresh``
    with two languages): Sphinx keeps its loaded catalogs per process, so the second
    language would keep the first one's pages (en, then zh_CN) or labels (zh_CN, then en)."""
    book = tmp_path / "book"
    shutil.copytree(rootdir / "test-languages", book)
    expected = {"zh_CN": ("书", "第一段。", "前言"), "en": ("Book", "First paragraph.", "Preface")}
    for language in languages:
        with docutils_namespace():
            app = read_pages(book / "docs", book, language, tmp_path / language)
        doctree = app.env.get_doctree("index")
        title, paragraph, label = expected[language]
        assert app.env.titles["index"].astext() == title
        assert paragraph in doctree.astext()
        assert get_translator("jaxbook").gettext("Preface") == label
