"""The generated pages of the book read as its appendix: a summary first, then the details.

Checked on the built site, both languages, by parsing the pages.
"""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

LANGUAGES = ["zh_CN", "en"]


def page(site, language: str, name: str) -> BeautifulSoup:
    return BeautifulSoup(
        (site / language / "ch01" / f"{name}.html").read_text(encoding="utf-8"), "html.parser"
    )


def text(element) -> str:
    return " ".join(element.get_text().split())


def reading_order(site, language) -> list[str]:
    """The book's page titles in the order of its navigation tree."""
    index = BeautifulSoup((site / language / "index.html").read_text("utf-8"), "html.parser")
    return [text(a) for a in index.select(".sidebar-tree a.reference.internal")]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_other_releases_page_sums_up_before_the_details(built_site, language):
    report = page(built_site, language, "other-releases").find("article")
    tallies = report.select("ul.jb-drift-tallies > li")
    assert len(tallies) >= 2  # one a release
    summary = report.select_one("table.jb-drift-summary")
    folds = report.select("details.jb-drift-fold")
    assert summary is not None
    assert folds
    # The summary comes before every fold; the raw differences are all folded.
    assert summary.sourceline < folds[0].sourceline
    assert report.select("pre") == [pre for fold in folds for pre in fold.select("pre")]
    legend = text(report.select_one("p.jb-drift-legend"))
    assert "JAX 0.12.0.1" in legend
    assert "“-”" in legend
    assert "“+”" in legend
    for fold in folds:
        environment = text(fold.find("p"))
        assert "==" not in environment  # versions as a reader names them, not pip pins
        captions = [text(p) for p in fold.select("p.jb-drift-cell")]
        assert len(set(captions)) == len(captions), captions  # each example its own caption
        for caption in fold.select("p.jb-drift-cell"):
            assert re.fullmatch(r"[\w/.-]+\.html#[\w-]+", caption.a["href"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_summary_lists_examples_in_reading_order(built_site, language):
    summary = page(built_site, language, "other-releases").select_one("table.jb-drift-summary")
    order = reading_order(built_site, language)
    pages = {}
    for row in summary.select("tbody tr"):
        href = row.td.a["href"].split("#")[0]
        pages.setdefault(href, len(pages))
    titles = [text(page(built_site, language, href.removesuffix(".html")).h1) for href in pages]
    ranks = [next(i for i, title in enumerate(order) if title in t) for t in titles]
    assert ranks == sorted(ranks)
    assert not re.search(r"\bline \d+\b|第 \d+ 行", text(summary))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_changed_in_cells_are_plain_sentences(built_site, language):
    table = page(built_site, language, "update-notes").select_one("table.jb-update-notes")
    header = text(table.select("thead th")[-1])
    assert header == {"zh_CN": "版本变化", "en": "Changed in"}[language]
    cells = [row.select("td")[-1] for row in table.select("tbody tr")]
    said = [text(cell) for cell in cells]
    # A sentence per era of a probe ("Since JAX …. In JAX …, …."), each short: a cell may
    # hold two probes' sentences, never a log.
    statements = [
        part
        for cell in said
        for part in re.split(
            r"(?=Since JAX |In JAX |Older releases |自 JAX |JAX [\d.～]+ 中，|更早的版本"
            r"|No checked release|所查的)",
            cell,
        )
    ]
    assert all(len(part) < 300 for part in statements), max(statements, key=len)
    for cell in cells:
        for code in cell.select("code"):
            assert "…" not in code.get_text()  # code is never cut
    # Nothing repeats: a row whose evidence repeats an earlier row's points to it
    # (tests/sphinxext/test_evidence_column.py shows the pointer).
    sentences = [s for s in said if s != "—" and "No change" not in s and "行为都相同" not in s]
    assert len(set(sentences)) == len(sentences)
    # Nothing says "the same on every release" twice in one cell.
    for cell in said:
        assert cell.count("Since JAX") + cell.count("起，") <= 2


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_update_notes_see_cell_lists_its_sections_in_reading_order(built_site, language):
    table = page(built_site, language, "update-notes").select_one("table.jb-update-notes")
    hrefs = [a["href"].split("#")[0] for a in page(built_site, language, "index").select(
        ".sidebar-tree a.reference.internal"
    )]  # fmt: skip
    rank = {href.removeprefix("ch01/"): i for i, href in enumerate(hrefs)}
    rows = table.select("tbody tr")
    assert len(rows) > 10
    for row in rows:
        see = [a["href"].split("#")[0] for a in row.select("td")[2].select("a")]
        assert see, text(row)
        ranks = [rank[href] for href in see]
        assert ranks == sorted(ranks), (text(row.td), see)
