"""A reader meets a book, not a test report: teaching code in front, the checks behind it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

LANGUAGES = ["zh_CN", "en"]
# The source notes' own asserts: each makes a lesson's point, and a reader sees them. The
# checks that keep a page honest run hidden (testcode :hide:), compared all the same.
SEED_ASSERTS = 153
# What a test report says, which a reader's page never prints.
REPORT_LINES = ["All checks passed", "全部检查通过", "not answered yet", "尚未作答"]


def chapter_pages(site: Path, language: str) -> list[Path]:
    return sorted((site / language).glob("ch*/*.html"))


def visible_code(page: Path) -> list[str]:
    """The code cells a reader sees on ``page`` (not the outputs), one string each."""
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    article = soup.select_one("article") or soup
    return [
        pre.get_text()
        for pre in article.select("div.highlight-python pre, div.highlight-pycon pre")
    ]


def assert_lines(code: str) -> int:
    return sum(1 for line in code.splitlines() if line.strip().startswith("assert "))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_chapter_shows_no_more_asserts_than_its_source_notes_teach(built_site, language):
    counts = {
        page.name: sum(assert_lines(code) for code in visible_code(page))
        for page in chapter_pages(built_site, language)
    }
    assert sum(counts.values()) <= SEED_ASSERTS, counts


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_reader_page_prints_a_test_report(built_site, language):
    for page in (built_site / language).rglob("*.html"):
        text = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").get_text()
        for line in REPORT_LINES:
            assert line not in text, f"{page.relative_to(built_site)}: {line!r}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_printed_book_prints_no_test_report(built_editions, language):
    pdf = built_editions / "pdf" / f"jaxbook-{language}.pdf"
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    for line in REPORT_LINES:
        assert line not in text, line
