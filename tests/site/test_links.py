"""Every local link of every built site leads to a file the site holds, and to its anchor.

A site's pages link the PDF and EPUB it holds, and no other: a plain ``make html``
holds neither and links neither; ``jaxbook editions`` copies them into the site and
writes its pages again, which then link them.
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


def test_no_local_link_of_the_sites_is_dead(built_site):
    # Every language and the landing page; an absolute path (the not-found page's) is
    # taken from the root they share, where the site is served.
    dead = dead_links(built_site)
    assert dead == [], "\n".join(dead[:20])


def test_the_walk_finds_a_dead_link(tmp_path):
    """The check can fail: a missing file, a missing anchor and a good link."""
    (tmp_path / "a.html").write_text(
        '<p id="here"><a href="b.html">b</a> <a href="a.html#here">ok</a>'
        ' <a href="a.html#gone">gone</a> <a href="#here">self</a></p>',
        encoding="utf-8",
    )
    assert dead_links(tmp_path) == ["a.html:1: b.html", "a.html:1: a.html#gone (no such anchor)"]


def books_linked(site: Path, language: str) -> dict[str, set[str]]:
    """The PDF and EPUB files each page of a language's site links, by page."""
    return {
        page.relative_to(site).as_posix(): {
            (page.parent / link).resolve().name
            for link, _line in parsed(page).links
            if link.endswith((".pdf", ".epub"))
        }
        for page in sorted((site / language).rglob("*.html"))
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_site_links_the_books_it_holds_and_no_other(built_site, language):
    """A plain `make html` holds no book and links none; `make test`'s site holds both."""
    held = {
        path.name
        for path in (built_site / language).glob("*-*.*")
        if path.suffix in {".pdf", ".epub"}
    }
    linked = books_linked(built_site, language)
    assert linked
    assert {page: books for page, books in linked.items() if books != held} == {}


def test_the_check_sees_a_book_linked_but_not_held(tmp_path):
    """The check can fail: a page that links a PDF its site does not hold."""
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "index.html").write_text(
        '<a href="jaxbook-en.pdf">PDF</a>', encoding="utf-8"
    )
    assert books_linked(tmp_path, "en") == {"en/index.html": {"jaxbook-en.pdf"}}


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_shows_a_placeholder_of_the_build(built_site, language):
    """Sphinx pads a translated block that ends in "::" with a "dummy literal" line that
    a code block then shows; no page may show it."""
    for page in sorted((built_site / language).rglob("*.html")):
        assert "dummy literal" not in page.read_text(encoding="utf-8"), page
