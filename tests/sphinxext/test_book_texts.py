"""The book's title, author and credit come from the catalogs of the build's language."""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest

from jaxbook.sphinxext.book_texts import TEXTS

ROOT = Path(__file__).resolve().parents[1] / "roots" / "test-book-texts"


class Page(HTMLParser):
    """A page's ``<title>`` and its footer credit: the credit's text and its links."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.title = ""
        self.credit = ""
        self.links: list[str] = []
        self._in: str | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "title" and not self.title:
            self._in = "title"
        elif tag == "p" and "jb-credit" in (attributes.get("class") or "").split():
            self._in = "credit"
        elif tag == "a" and self._in == "credit":
            self.links.append(attributes["href"])

    def handle_endtag(self, tag):
        if (tag, self._in) in {("title", "title"), ("p", "credit")}:
            self._in = None

    def handle_data(self, data):
        if self._in == "title":
            self.title += data
        elif self._in == "credit":
            self.credit += data


@pytest.mark.sphinx("html", testroot="book-texts", confoverrides={"language": "en"})
def test_a_translation_takes_its_title_author_and_credit_from_its_catalogs(built):
    page = Page(built.page())
    assert page.title == "A Small Book — A Small Book"  # the page's heading, then the book's
    assert page.credit == "Drawn from the course Course."
    assert page.links == ["https://example.org/course/one"]
    config = built.app.config
    assert (config.project, config.author) == ("A Small Book", "The small book's authors")
    assert config.jaxbook_publisher == "The small book project"
    assert config.jaxbook_translators == {"en": "The small book's translators"}
    assert config.copyright == "2026 The small book's authors"
    assert config.jaxbook_description == "A small book drawn from a course"
    assert config.jaxbook_keywords == "small book, course"
    assert built.warnings == ""


@pytest.mark.sphinx("html", testroot="book-texts")
def test_the_source_keeps_the_texts_of_conf_py(built):
    page = Page(built.page())
    assert page.title == "小书 — 小书"
    assert page.credit == "整理自课程《课程》。"
    assert page.links == ["https://example.org/zh/course/one"]
    assert built.app.config.copyright == "2026 小书的作者"
    assert built.app.config.jaxbook_description == "一本依据课程整理的小书"


@pytest.mark.sphinx("html", testroot="book-texts", confoverrides={"language": "ja"})
def test_a_language_without_catalogs_shows_the_source_texts(built):
    """As an untranslated page shows its source; the course's address falls back too."""
    page = Page(built.page())
    assert page.title == "小书 — 小书"
    assert page.credit == "整理自课程《课程》。"
    assert page.links == ["https://example.org/zh/course/one"]
    assert built.app.config.author == "小书的作者"


def test_a_fuzzy_translation_is_not_used(tmp_path, make_app):
    srcdir = Path(shutil.copytree(ROOT, tmp_path / "book"))
    for name in ("index.po", "book.po"):
        path = srcdir / "locale" / "en" / "LC_MESSAGES" / name
        catalog = polib.pofile(str(path))
        for entry in catalog:
            entry.flags.append("fuzzy")
        catalog.save(str(path))
    app = make_app("html", srcdir=srcdir, confoverrides={"language": "en"})
    assert (app.config.project, app.config.author) == ("小书", "小书的作者")
    assert "整理自课程" in app.config.html_context["jaxbook_credit"]


@pytest.mark.sphinx("gettext", testroot="book-texts", srcdir="book-texts-gettext")
def test_the_gettext_builder_writes_the_texts_into_book_pot(built):
    template = polib.pofile(str(built.app.outdir / "book.pot"))
    conf = (ROOT / "conf.py").read_text(encoding="utf-8").splitlines()
    where = {entry.msgid: entry.occurrences for entry in template}
    assert list(where) == [
        "小书的作者",
        "小书项目",
        "一本依据课程整理的小书",
        "小书，课程",
        '整理自课程<a href="%(course)s/one">《课程》</a>。',
    ]  # not the translators: each edition names its own, in its language
    settings = tuple(f"{name} =" for name in TEXTS)
    for msgid, [(path, line)] in where.items():
        assert Path(path).name == "conf.py"
        assert conf[int(line) - 1].startswith(settings), msgid
