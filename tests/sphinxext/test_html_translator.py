"""The book's HTML translator: scrolling regions take the keyboard, captions have a level,
and each highlighted block carries its number of lines."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup


@pytest.mark.sphinx("html", testroot="html-translator")
def test_every_region_that_scrolls_sideways_takes_the_keyboards_focus(built):
    page = BeautifulSoup(built.page(), "html.parser")
    scrolling = page.select("pre") + page.select("div.table-wrapper, div.math-wrapper")
    assert len(scrolling) == 4
    assert [region.get("tabindex") for region in scrolling] == ["0"] * 4


@pytest.mark.sphinx("html", testroot="html-translator")
def test_a_named_table_has_its_id_once(built):
    """furo wraps a table in a container that copies its attributes, ids too: the id is the
    table's alone, so the page has no duplicate id and a link reaches the table."""
    page = BeautifulSoup(built.page(), "html.parser")
    assert [tag.name for tag in page.select("#a-named-table")] == ["table"]


@pytest.mark.sphinx("html", testroot="html-translator")
def test_a_toctree_caption_is_a_heading_of_level_two_in_the_page_and_the_sidebar(built):
    page = BeautifulSoup(built.page(), "html.parser")
    captions = page.select('[role="heading"]')
    assert len(captions) == 2  # the page's toctree, and furo's navigation
    assert [caption.get("aria-level") for caption in captions] == ["2", "2"]


@pytest.mark.parametrize(
    ("language", "numbers"),
    [
        pytest.param(
            language,
            numbers,
            marks=pytest.mark.sphinx(
                builder,
                testroot="html-translator",
                freshenv=True,
                confoverrides={"numfig": True, "language": language, "epub_copyright": "x"},
            ),
            id=f"{builder}-{language}",
        )
        for builder in ("html", "epub")
        for language, numbers in [
            ("en", ["Listing 1.", "Table 1."]),
            ("zh_CN", ["列表 1", "表 1"]),  # Sphinx's own words
        ]
    ],
)
def test_a_captions_number_ends_as_the_pdf_ends_it(app, language, numbers):
    """A period after the number in a Latin-script edition, a space alone in a CJK one."""
    app.build()
    suffix = ".xhtml" if app.builder.name == "epub" else ".html"
    page = BeautifulSoup((app.outdir / f"other{suffix}").read_text("utf-8"), "html.parser")
    found = [span.get_text() for span in page.select("span.caption-number")]
    assert found == [f"{number} " for number in numbers]
    # A reference by number is the number alone.
    assert not page.select("a span.caption-number")


@pytest.mark.sphinx("html", testroot="html-translator")
def test_a_highlighted_block_carries_its_number_of_lines(built):
    page = BeautifulSoup(built.page(), "html.parser")
    [highlighted] = page.select("div.highlight pre")
    assert highlighted["style"] == "--jb-lines: 4"
    assert not page.select_one("pre.literal-block").get("style")


@pytest.mark.sphinx("epub", testroot="html-translator")
def test_in_the_epub_each_line_of_a_highlighted_block_is_a_block_of_its_own(app):
    app.build()
    page = BeautifulSoup((app.outdir / "index.xhtml").read_text(encoding="utf-8"), "html.parser")
    [highlighted] = page.select("div.highlight pre")
    assert highlighted["style"] == "--jb-lines: 4"
    assert highlighted["tabindex"] == "0"
    lines = highlighted.find_all("span", class_="jb-line", recursive=False)
    # Each ends in its line feed, which keeps the lines apart in a reader that drops the
    # stylesheet (the text of the <pre> as such a reader sets it).
    assert [line.get_text() for line in lines] == ["x = 1\n", "y = 2\n", " \n", "z = 3\n"]
    assert not [child for child in highlighted.children if child not in lines]
    assert highlighted.get_text() == "x = 1\ny = 2\n \nz = 3\n"
