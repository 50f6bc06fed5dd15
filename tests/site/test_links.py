"""Every local link of every built site leads to a file the site holds, and to its anchor:
the site as published, with the PDF and EPUB its pages link (``make html pdf epub``).
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from jaxbook.project import find_root, languages

LANGUAGES = list(languages(find_root(Path(__file__).parent)))  # locale/languages.csv


class Links(HTMLParser):
    """The local links of one page (``href`` and ``src``) and the ids it defines."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, int]] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in {"id", "name"} and value:
                self.ids.add(value)
            if name in {"href", "src"} and value:
                self.links.append((value, self.getpos()[0]))


def parsed(page: Path) -> Links:
    parser = Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


def dead_links(site: Path) -> list[str]:
    """``page:line: link`` for each local link whose file or anchor the site lacks."""
    pages = {page: parsed(page) for page in sorted(site.rglob("*.html"))}
    dead = []
    for page, found in pages.items():
        for link, line in found.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("data:", "mailto:", "#")):
                if link.startswith("#") and link[1:] and unquote(link[1:]) not in found.ids:
                    dead.append(f"{page.relative_to(site)}:{line}: {link} (no such anchor)")
                continue
            path = unquote(parts.path)
            target = site / path.lstrip("/") if path.startswith("/") else page.parent / path
            target = target.resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                dead.append(f"{page.relative_to(site)}:{line}: {link}")
            elif parts.fragment and target.suffix == ".html":
                anchors = pages[target].ids if target in pages else parsed(target).ids
                if unquote(parts.fragment) not in anchors:
                    dead.append(f"{page.relative_to(site)}:{line}: {link} (no such anchor)")
    return dead


def test_no_local_link_of_the_sites_is_dead(built_editions):
    # Every language and the landing page; an absolute path (the not-found page's) is
    # taken from the root they share, where the site is served.
    dead = dead_links(built_editions / "html")
    assert dead == [], "\n".join(dead[:20])


def test_the_walk_finds_a_dead_link(tmp_path):
    """The check can fail: a missing file, a missing anchor and a good link."""
    (tmp_path / "a.html").write_text(
        '<p id="here"><a href="b.html">b</a> <a href="a.html#here">ok</a>'
        ' <a href="a.html#gone">gone</a> <a href="#here">self</a></p>',
        encoding="utf-8",
    )
    assert dead_links(tmp_path) == ["a.html:1: b.html", "a.html:1: a.html#gone (no such anchor)"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_shows_a_placeholder_of_the_build(built_site, language):
    """Sphinx pads a translated block that ends in "::" with a "dummy literal" line that
    a code block then shows; no page may show it."""
    for page in sorted((built_site / language).rglob("*.html")):
        assert "dummy literal" not in page.read_text(encoding="utf-8"), page
