"""Figures, tables and code listings are numbered per chapter, and referred to by number, in
the same words on the website, in the EPUB and in the PDF: "图 1-2", "Listing 2-1"."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

ROOT = Path(__file__).parent.parent / "roots" / "test-numbering"
NAMES = {
    "zh_CN": {"figure": "图", "listing": "代码清单", "table": "表"},
    "en": {"figure": "Figure", "listing": "Listing", "table": "Table"},
}


@pytest.fixture
def book(make_app, tmp_path):
    def build(builder: str, language: str):
        from PIL import Image

        srcdir = shutil.copytree(ROOT, tmp_path / f"{builder}-{language}")
        Image.new("RGB", (40, 30), "white").save(srcdir / "plot.png")
        app = make_app(builder, srcdir=srcdir, confoverrides={"language": language})
        app.build()
        assert "WARNING" not in app.warning.getvalue(), app.warning.getvalue()
        return app

    return build


def page(app, name: str) -> BeautifulSoup:
    suffix = ".xhtml" if app.builder.name == "epub" else ".html"
    return BeautifulSoup((app.outdir / f"{name}{suffix}").read_text("utf-8"), "html.parser")


def captions(soup: BeautifulSoup) -> list[str]:
    """The numbers the page's captions carry, in page order."""
    return [" ".join(span.get_text().split()) for span in soup.select("span.caption-number")]


def references(soup: BeautifulSoup) -> list[tuple[str, str]]:
    """Each reference by number on the page: its text and where it leads."""
    return [
        (" ".join(a.get_text().split()), a["href"])
        for a in soup.select("a.reference")
        if a.select_one("span.std-numref")
    ]


@pytest.mark.parametrize("builder", ["html", "epub"])
@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_website_and_the_epub_number_per_chapter(book, builder, language):
    app = book(builder, language)
    figure, listing, table = NAMES[language].values()
    suffix = ".xhtml" if builder == "epub" else ".html"
    one, section, two = (page(app, name) for name in ("one", "section", "two"))
    # The table without a caption has no number.
    assert captions(one) == [f"{figure} 1-1", f"{listing} 1-1", f"{table} 1-1"]
    # A page below the chapter's first goes on counting; the next chapter starts again.
    assert captions(section) == [f"{figure} 1-2"]
    assert captions(two) == [f"{figure} 2-1", f"{listing} 2-1"]
    assert references(one) == [
        (f"{figure} 2-1", f"two{suffix}#fig-two"),
        (f"{listing} 1-1", "#listing-one"),
    ]
    assert references(two) == [(f"{figure} 1-1", f"one{suffix}#fig-one")]


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_pdf_refers_by_number_in_the_same_words(book, language):
    """LaTeX numbers them per chapter (jaxbook.sty); a reference takes the same words."""
    app = book("latex", language)
    tex = next(app.outdir.glob("*.tex")).read_text("utf-8")
    figure, listing, _table = NAMES[language].values()
    assert rf"{{{figure} \ref{{\detokenize{{two:fig-two}}}}}}" in tex
    assert rf"{{{listing} \ref{{\detokenize{{one:listing-one}}}}}}" in tex


def test_a_build_with_nothing_changed_writes_no_page_again(make_app, book):
    """Sphinx compares its numbers with the last build's to know which pages to write again:
    it is given its own, not the numbers per chapter, which would differ on every page
    that has one, and have each such page written at every build."""
    app = book("html", "zh_CN")
    pages = [app.outdir / f"{name}.html" for name in ("index", "one", "section", "two")]
    written = [path.stat().st_mtime_ns for path in pages]
    again = make_app("html", srcdir=app.srcdir, confoverrides={"language": "zh_CN"})
    again.build()
    assert [path.stat().st_mtime_ns for path in pages] == written
    assert captions(page(again, "two")) == ["图 2-1", "代码清单 2-1"]
