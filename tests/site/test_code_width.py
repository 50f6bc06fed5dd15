"""The source lines of a listing fit the printed page: the PDF wraps a longer line with a
continuation mark, and a reader who types the code from the page gets it wrong. An
output's lines may wrap. The measure is the edition's (``CODE_COLUMNS`` in
``jaxbook.sphinxext.editions.latex``, beside the type area that sets it)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from jaxbook.project import find_root, languages
from jaxbook.sphinxext.editions.latex import code_columns

ROOT = find_root(Path(__file__).parent)
LANGUAGES = list(languages(ROOT))  # locale/languages.csv


def columns(line: str) -> int:
    """The columns ``line`` takes in the code font: a wide (Chinese) character two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def source_lines(page: Path) -> list[str]:
    """Every line of the listings on ``page`` that a reader may type: code in any language
    (Python, the shell's, a diagram's text), not the outputs (``highlight-none``)."""
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    article = soup.select_one("article") or soup
    return [
        line
        for block in article.select("div[class*='highlight-']:not(.highlight-none) pre")
        for line in block.get_text().splitlines()
    ]


def too_wide(site: Path, language: str) -> list[str]:
    measure = code_columns(language)
    return [
        f"{page.relative_to(site / language).as_posix()}: {columns(line)} columns: {line}"
        for page in sorted((site / language).glob("ch*/*.html"))
        for line in source_lines(page)
        if columns(line) > measure
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_source_line_of_a_listing_fits_the_printed_page(built_site, language):
    pages = sorted((built_site / language).glob("ch*/*.html"))
    assert sum(len(source_lines(page)) for page in pages) > 500  # the listings were found
    assert not too_wide(built_site, language)


def test_a_source_line_wider_than_the_measure_is_named_and_an_output_line_is_not(tmp_path):
    measure = code_columns("en")
    code = "x = 1  # " + "a" * (measure - 9)
    page = tmp_path / "en" / "ch01" / "page.html"
    page.parent.mkdir(parents=True)
    page.write_text(
        "<article>"
        f'<div class="highlight-python notranslate"><pre>{code}\n{code}b</pre></div>'
        f'<div class="highlight-none notranslate"><pre>{code}b</pre></div>'
        "</article>",
        encoding="utf-8",
    )
    assert too_wide(tmp_path, "en") == [f"ch01/page.html: {measure + 1} columns: {code}b"]


def test_a_chinese_character_takes_two_columns():
    assert columns('print(f"旧式密钥：{key}")') == 25  # 15 Latin, 5 wide
