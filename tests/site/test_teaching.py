"""A reader meets a book, not a test report: teaching code in front, the checks behind it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

LANGUAGES = ["zh_CN", "en"]
# The asserts a reader sees make a lesson's point: the ❌/✅ pairs, an in-cell wrong/right
# contrast, a measured conclusion, and the cells whose accelerator outputs hold their code to
# a record. The checks that keep a page honest (a printed value is what the prose says) run
# hidden (testcode :hide:), compared all the same. Chapter 1 showed 86 before they moved.
SEED_ASSERTS = 42
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


def printed_outputs(page: Path) -> list[str]:
    """What the cells on ``page`` print, as the page shows it (outputs, not code)."""
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    article = soup.select_one("article") or soup
    return [pre.get_text() for pre in article.select("div.highlight-none pre")]


# Sphinx's markup, as a docstring holds it: a role (:func:`jax.jit`, :py:class:`...`) or an
# inline literal (``fun``). A reader of an output sees what the code teaches, not markup.
MARKUP = re.compile(r":(?:[a-z]+:)?[a-z]+:`[^`]+`|``[^`]+``")


def markup_in(outputs: list[str]) -> list[str]:
    return [line for text in outputs for line in text.splitlines() if MARKUP.search(line)]


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
def test_no_output_shows_sphinx_markup(built_site, language):
    outputs = {page: printed_outputs(page) for page in chapter_pages(built_site, language)}
    assert sum(map(len, outputs.values())) > 100
    found = {page.name: markup_in(texts) for page, texts in outputs.items() if markup_in(texts)}
    assert found == {}


def test_the_markup_check_sees_a_docstring(tmp_path):
    html = """<article><div class="highlight-python"><div class="highlight"><pre>print(``x``)</pre>
      </div></div><div class="highlight-none"><div class="highlight"><pre>Old way of doing
    parallel map. Use :py:func:`jax.shard_map` instead.
    Creates a function which maps ``fun`` over argument axes.
    x: :func: 3</pre></div></div></article>"""
    page = tmp_path / "page.html"
    page.write_text(html, encoding="utf-8")
    assert markup_in(printed_outputs(page)) == [
        "    parallel map. Use :py:func:`jax.shard_map` instead.",
        "    Creates a function which maps ``fun`` over argument axes.",
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_printed_book_prints_no_test_report(built_editions, language):
    pdf = built_editions / "pdf" / f"jaxbook-{language}.pdf"
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    for line in REPORT_LINES:
        assert line not in text, line


def unbalanced_quotes(page: Path) -> list[tuple[str, str, str]]:
    """Each output line on ``page`` with an odd number of double quotes, and what the reader
    reads before it: the cell that printed it (the code block before the output) and the
    paragraph before that cell."""
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    article = soup.select_one("article") or soup
    found = []
    for output in article.select("div.highlight-none pre"):
        for line in output.get_text().splitlines():
            if line.count('"') % 2:
                code = output.find_previous("div", class_="highlight-python")
                before = code.find_previous("p") if code is not None else None
                # The paragraph in the page's language (the parallel text's is hidden).
                for hidden in before.select(".jb-parallel") if before is not None else []:
                    hidden.extract()
                said = before.get_text(" ") if before is not None else ""
                found.append((line, code.get_text() if code is not None else "", said))
    return found


def unexplained(quotes: list[tuple[str, str, str]]) -> list[str]:
    """The lines whose stray quote neither the code's comment nor the paragraph before the
    code explains: a reader would report it as the book's erratum, where it is what the code
    prints."""
    return [
        line
        for line, code, paragraph in quotes
        if not any(
            line.split(":")[0] in said and "JAX" in said
            for said in (
                *(c for c in code.splitlines() if c.lstrip().startswith("#")),
                " ".join(paragraph.split()),
            )
        )
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_stray_quote_in_an_output_is_said_to_be_jaxs_own(built_site, language):
    """jax.print_environment_info() ends its "device info" line with a quote of its own (its
    f-string has one too many); the text before the cell says so, in each language."""
    quotes = [q for page in chapter_pages(built_site, language) for q in unbalanced_quotes(page)]
    assert [line.split(":")[0] for line, _code, _paragraph in quotes] == ["device info"]
    assert unexplained(quotes) == []


def test_jax_prints_the_stray_quote_the_comment_explains():
    """Where a JAX release no longer prints it, the explanation goes (and the output changes)."""
    import contextlib
    import io

    import jax

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        jax.print_environment_info()
    [line] = [line for line in printed.getvalue().splitlines() if line.startswith("device info")]
    assert line.endswith('local devices"')


def test_the_quote_check_sees_a_cell_without_its_comment():
    line = 'device info: cpu-1, 1 local devices"'
    code = "jax.print_environment_info()\n"
    assert unexplained([(line, code, "")]) == [line]
    commented = '# The quote that ends the "device info" line is JAX\'s own.\n' + code
    assert unexplained([(line, commented, "")]) == []
    said = 'Here is one run (the quote that ends the "device info" line is JAX\'s own):'
    assert unexplained([(line, code, said)]) == []
    assert unexplained([(line, code, "Here is one run, with no such variable set:")]) == [line]
