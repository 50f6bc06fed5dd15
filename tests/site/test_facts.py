"""The prose names the pinned JAX release through ``:fact:``, never as a typed copy.

Printed outputs (code and literal blocks) show what ran and may say it; a sentence
of the text must take it from the one place it is kept.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from jaxbook import project
from jaxbook.backends import chip
from jaxbook.formats import recorded_on

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ["zh_CN", "en"]
# Where a release may stand as it is: code and outputs, the role's own output, and what
# the extensions write from the config and the data files (labels of measured
# outputs, the update-notes table, and what the lab's data gives: the releases a
# note names, and the lab's report).
EXEMPT = {"code", "pre", "script", "style", "title", "meta"}
GENERATED = (
    "jb-fact",
    "pagerun-measured-label",
    "jb-update-notes",
    "jb-drift",
    "jb-evidence",
)


class Prose(HTMLParser):
    """The text of a page that is prose: outside code, outputs and ``:fact:`` spans."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[bool] = []  # whether each open element is exempt
        self.text: list[tuple[int, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        exempt = tag in EXEMPT or any(c.startswith(GENERATED) for c in classes)
        if tag not in {"br", "img", "meta", "link", "input", "hr", "wbr"}:
            self.open.append(exempt)

    def handle_endtag(self, tag: str) -> None:
        if self.open:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        if not any(self.open):
            self.text.append((self.getpos()[0], data))


def typed_copies(page: Path, fact: str) -> list[str]:
    parser = Prose()
    parser.feed(page.read_text(encoding="utf-8"))
    return [f"{page}:{line}: {text.strip()[:80]}" for line, text in parser.text if fact in text]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_prose_takes_the_pinned_release_from_the_fact_role(built_site, language):
    pinned = project.pinned_release(ROOT)
    found = [
        copy
        for page in sorted((built_site / language).rglob("*.html"))
        for copy in typed_copies(page, pinned)
    ]
    assert found == [], "\n".join(found[:10])


def test_a_typed_copy_is_found(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(
        '<p>Runs on JAX <span class="jb-fact">0.12.0.1</span>.</p>'
        "<pre>JAX    : 0.12.0.1</pre><p>Typed: 0.12.0.1.</p>",
        encoding="utf-8",
    )
    assert typed_copies(page, "0.12.0.1") == [f"{page}:1: Typed: 0.12.0.1."]


def fact_spans(page: Path) -> list[str]:
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    return [span.get_text() for span in soup.select("article span.jb-fact")]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_preface_names_the_chip_as_it_is_sold(built_site, language):
    """The editors read "a TPU v5 lite", the device kind JAX reports, where the product is
    the TPU v5e: the prose names the chip (``:fact:`tpu-chip```); outputs show the kind."""
    device = recorded_on(ROOT / "records" / "tpu" / "zh_CN.json")["device"]
    assert chip("TPU v5 lite") == "TPU v5e"
    for page in ("index.html", "ch01/index.html"):
        spans = fact_spans(built_site / language / page)
        assert chip(device) in spans, page
        assert device == chip(device) or device not in spans, page
