"""The generated pages read as prose: examples named by their place, pages in reading order."""

from __future__ import annotations

import html as html_module
import re

import pytest

TITLES = re.compile(r'<p class="rubric">(.*?)</p>', re.S)


def text(fragment: str) -> str:
    return html_module.unescape(" ".join(re.sub(r"<[^>]+>", " ", fragment).split()))


def reading_order(site, language) -> list[str]:
    """The book's page titles in the order of its navigation tree."""
    index = (site / language / "index.html").read_text(encoding="utf-8")
    tree = index[index.index('class="sidebar-tree"') :]
    return [
        text(title)
        for title in re.findall(r'<a class="reference internal" href="[^"]*">(.*?)</a>', tree)
    ]


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_other_releases_page_names_examples_by_section_in_reading_order(built_site, language):
    page = (built_site / language / "ch01" / "other-releases.html").read_text(encoding="utf-8")
    body = text(page)
    assert not re.search(r"\bline \d+\b|第 \d+ 行", body)
    environments = re.findall(r"<p>((?:Tested with|运行环境).*?)</p>", page, re.S)
    assert len(environments) == page.count('<section id="jax-'), environments  # one a release
    for environment in environments:
        assert "==" not in environment  # versions as a reader names them, not pip pins
    order = reading_order(built_site, language)
    for release in re.split(r'<section id="jax-', page)[1:]:
        shown = [text(t) for t in TITLES.findall(release)]
        assert [order.index(title) for title in shown] == sorted(order.index(t) for t in shown)
    cells = re.findall(r'<p class="jb-drift-cell">(.*?)</p>', page, re.S)
    assert len(cells) > 10
    assert all(re.search(r'href="[\w/.-]+\.html#[\w-]+"', cell) for cell in cells)
