"""The pages made from the lab's data: the chapter's note, the update-notes table, and the
lab's report among the guides (a site of their own), a summary first, then the details.

Checked on the built site, both languages, by parsing the pages.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

LANGUAGES = ["zh_CN", "en"]
ROOT = Path(__file__).resolve().parents[2]


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


def lab(guides, language: str) -> BeautifulSoup:
    """The lab's report, a page of the guides' site (``built_guides``)."""
    return BeautifulSoup(
        (guides / language / "lab.html").read_text(encoding="utf-8"), "html.parser"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_chapters_note_on_other_releases_is_prose_without_tallies_or_diffs(
    built_site, language
):
    note = page(built_site, language, "other-releases").find("article")
    # The parallel view's other language, and the examples the data has not seen yet (named
    # by their places, "example 2 of 3", until make release-report runs them), are not tallies.
    for hidden in note.select(".jb-parallel, .jb-drift-unseen"):
        hidden.decompose()
    said = text(note)
    assert not re.search(r"\b\d+ (examples|prints?|cannot run)\b|\d+ 个(示例|输出|无法)", said)
    assert note.select("pre") == []
    assert note.select("details") == []
    # It names the chapter in its title; the lab's report is the guides', not a reader's page
    # (tests/site/test_guides.py: no page of the reader's site links a guide).
    assert {"zh_CN": "第 1 章", "en": "chapter 1"}[language] in text(note.h1)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_labs_report_sums_up_before_the_details(built_guides, language):
    report = lab(built_guides, language).find("article")
    runs = report.select("ul.jb-drift-runs > li")
    assert len(runs) >= 2  # one a release
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
    for run in runs:
        # What ran, where and when, with versions as a reader names them, not pip pins.
        assert re.search(r"\b(CPU|cpu)\b", text(run))
        assert re.search(r"2026", text(run))
        assert "==" not in text(run)
    for fold in folds:
        captions = [text(p) for p in fold.select("p.jb-drift-cell")]
        assert len(set(captions)) == len(captions), captions  # each example its own caption
        for caption in fold.select("p.jb-drift-cell"):
            # On the book's site, beside the guides'.
            href = caption.a["href"]
            assert re.fullmatch(rf"\.\./\.\./html/{language}/ch01/[\w/.-]+\.html#[\w-]+", href)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_summary_lists_examples_in_reading_order(built_site, built_guides, language):
    summary = lab(built_guides, language).select_one("table.jb-drift-summary")
    order = reading_order(built_site, language)
    pages = {}
    for row in summary.select("tbody tr"):
        href = row.td.a["href"].split("#")[0].removeprefix(f"../../html/{language}/ch01/")
        pages.setdefault(href, len(pages))
    titles = [text(page(built_site, language, href.removesuffix(".html")).h1) for href in pages]
    ranks = [next(i for i, title in enumerate(order) if title in t) for t in titles]
    assert ranks == sorted(ranks)
    assert not re.search(r"\bline \d+\b|第 \d+ 行", text(summary))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_changed_in_cells_are_short_phrases(built_site, language):
    table = page(built_site, language, "update-notes").select_one("table.jb-update-notes")
    header = text(table.select("thead th")[-1])
    assert header == {"zh_CN": "版本变化", "en": "Changed in"}[language]
    said = {text(row.select("td")[-1]) for row in table.select("tbody tr")}
    phrase = {
        "zh_CN": r"—|\d+(\.\d+)+ 以来均如此|自 \d+(\.\d+)+ 起",
        "en": r"—|no change since \d+(\.\d+)+|since \d+(\.\d+)+",
    }[language]
    assert all(re.fullmatch(phrase, cell) for cell in said), said
    assert len(said) > 2
    # A note that never changed holds from the first release the evidence file asked its
    # probes of: the release is the file's, never typed in.
    steady = {"zh_CN": r"(\S+) 以来均如此", "en": r"no change since (\S+)"}[language]
    named = {m[1] for cell in said if (m := re.fullmatch(steady, cell))}
    evidence = json.loads((ROOT / "docs" / "release-evidence.json").read_text(encoding="utf-8"))
    firsts = {probe["eras"][0]["first"] for probe in evidence["probes"].values()}
    assert named
    assert named <= firsts, (named, firsts)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_labs_report_gives_the_update_notes_evidence(built_guides, language):
    assert lab(built_guides, language).select("dl.jb-evidence-report dt")


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


# What the editors called too slight for an update note, and the page that says it as prose.
PROSE = {
    "what-is-jax": {"zh_CN": "docs.jax.dev", "en": "docs.jax.dev"},
    "arrays": {"zh_CN": "import numpy as np", "en": "import numpy as np"},
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_trivial_points_are_prose_not_update_notes(built_site, language):
    """Where the docs are and that NumPy code needs its import are said in the text: no row of
    the table, no note box, and the text still says them."""
    table = page(built_site, language, "update-notes").select_one("table.jb-update-notes")
    rows = {row["id"].removeprefix("update-row-") for row in table.select("tbody tr")}
    assert rows
    assert not rows & {"docs-url", "import-numpy"}
    for name, said in PROSE.items():
        html = page(built_site, language, name)
        paragraphs = [p for p in html.select("article p") if said[language] in text(p)]
        assert paragraphs, name
        prose = [p for p in paragraphs if not p.find_parent(class_="jb-update-note")]
        assert prose, (name, [text(p) for p in paragraphs])
        notes = [text(n) for n in html.select(".jb-update-note") if said[language] in text(n)]
        assert notes == [], name


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_table_scrolls_in_furos_wrapper(built_site, language):
    """On a phone a wide table scrolls inside its own box (furo's ``div.table-wrapper``, which
    its style sheet lets scroll sideways): every table of the chapter, list-tables and the
    generated update-notes table alike."""
    tables = 0
    for path in sorted((built_site / language / "ch01").glob("*.html")):
        html = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        for table in html.select("article table"):
            tables += 1
            wrapper = table.parent
            assert "table-wrapper" in wrapper.get("class", []), (path.name, table.get("class"))
            assert wrapper.get("tabindex") == "0", path.name  # reachable from the keyboard
    assert tables >= 9
