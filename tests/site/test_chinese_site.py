"""The Chinese edition reads as Chinese: full-width punctuation, and its chrome in Chinese."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# A half-width mark with a Chinese character on either side (spaces between allowed).
HALF_WIDTH_BY_CHINESE = re.compile(rf"[{HAN}] *[,;:?!]|[,;:?!] *[{HAN}]")
LITERAL = {"code", "pre", "kbd", "samp", "math", "script", "style", "svg", "tt"}
BLOCK = {
    "p",
    "li",
    "td",
    "th",
    "h1",
    "h2",
    "h3",
    "h4",
    "dt",
    "dd",
    "div",
    "summary",
    "caption",
    "figcaption",
    "title",
    "a",
    "span",
    "button",
    "label",
    "aside",
    "nav",
    "footer",
}


@pytest.fixture(scope="module")
def site(built_site) -> Path:
    return built_site / "zh_CN"


def pages(site: Path) -> list[Path]:
    found = [p for p in site.rglob("*.html") if "_static" not in p.parts]
    assert len(found) >= 14
    return found


class Prose(HTMLParser):
    """The page's text with code, math and URLs replaced by a Latin placeholder."""

    def __init__(self) -> None:
        super().__init__()
        self.literal = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in LITERAL:
            if not self.literal:
                self.parts.append("X")
            self.literal += 1
        elif tag in BLOCK:
            self.parts.append("\n")
        for name, value in attrs:
            if name in {"alt", "title", "aria-label", "placeholder"} and value:
                self.parts.append(f"\n{value}\n")

    def handle_endtag(self, tag):
        if tag in LITERAL and self.literal:
            self.literal -= 1
        elif tag in BLOCK:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.literal:
            self.parts.append(re.sub(r"https?://\S+", "X", data))

    def text(self) -> str:
        return "".join(self.parts)


def half_width_by_chinese(html: str) -> list[str]:
    parser = Prose()
    parser.feed(html)
    return [
        line.strip()[:80]
        for line in parser.text().split("\n")
        if HALF_WIDTH_BY_CHINESE.search(line)
    ]


def test_no_half_width_punctuation_next_to_chinese(site):
    offenders = {}
    for page in pages(site):
        found = half_width_by_chinese(page.read_text(encoding="utf-8"))
        if found:
            offenders[str(page.relative_to(site))] = found[:5]
    assert not offenders


def test_the_punctuation_check_sees_a_planted_colon():
    assert half_width_by_chinese("<p>密钥:<code>key:1</code></p>") == ["密钥:X"]
    assert half_width_by_chinese("<p>密钥：<code>print('a:', 1)</code></p>") == []
