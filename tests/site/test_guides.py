"""The guides (guides/: how the book is made, authoring, translating, the lab's report) are a
site of their own: the reader's site holds the book only, and the guides link the book."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from bs4 import BeautifulSoup

from jaxbook.project import find_root, languages

ROOT = find_root(Path(__file__).parent)
assert ROOT is not None
LANGUAGES = list(languages(ROOT))
# Each guide, by its page's name: the sources under guides/.
GUIDES = {path.stem for path in (ROOT / "guides").glob("*.rst")}


def search_index(site: Path) -> dict:
    script = (site / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(script[script.index("(") + 1 : script.rindex(")")])


def guide_traces(site: Path) -> list[str]:
    """What a site of the reader's book holds of the guides: a page, a link to one (a footer's
    among them), an entry in its search; and any page the search lists without a title."""
    found = [page.relative_to(site).as_posix() for page in site.rglob("*.html")]
    traces = [f"page {name}" for name in found if Path(name).stem in GUIDES]
    for page in sorted(site.rglob("*.html")):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for link in soup.select("a[href]"):
            url = urlsplit(link["href"])
            if not url.scheme and Path(url.path).stem in GUIDES:
                traces.append(f"link {page.relative_to(site)} -> {link['href']}")
    index = search_index(site)
    traces += [f"search {name}" for name in index["docnames"] if name in GUIDES]
    traces += [
        f"search {name} has no title"
        for name, title in zip(index["docnames"], index["titles"], strict=True)
        if not title
    ]
    return traces


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_readers_site_holds_the_book_only(built_site, language):
    assert {"contributing", "authoring", "translating", "lab"} == GUIDES
    assert guide_traces(built_site / language) == []


def test_a_guide_back_in_the_readers_site_is_found(built_site, tmp_path):
    """The check above fails on a site that holds a guide page, links it from a footer, and
    lists it in its search without a title (as the site did when the guides were its pages)."""
    site = tmp_path / "site"
    shutil.copytree(built_site / "zh_CN", site, ignore=shutil.ignore_patterns("_*", "ch01"))
    assert guide_traces(site) == []
    (site / "lab.html").write_text("<html><body></body></html>", encoding="utf-8")
    home = site / "index.html"
    footer = '<p class="jb-contributors"><a href="contributing.html">本书是怎样制作的</a></p>'
    home.write_text(home.read_text(encoding="utf-8").replace("</footer>", footer + "</footer>"))
    index = search_index(site)
    index["docnames"].append("lab")
    index["titles"].append("")
    (site / "searchindex.js").write_text(f"Search.setIndex({json.dumps(index)})", "utf-8")
    assert guide_traces(site) == [
        "page lab.html",
        "link index.html -> contributing.html",
        "search lab",
        "search lab has no title",
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_guides_are_a_site_that_links_the_books(built_guides, built_site, language):
    """Every guide is a page of the guides' site, whose landing page opens their root page;
    a link that leaves it reaches a page of the book's site in the same language."""
    site = built_guides / language
    assert {page.stem for page in site.glob("*.html")} >= GUIDES
    assert 'url=zh_CN/contributing.html"' in (built_guides / "index.html").read_text("utf-8")
    book = (built_site / language).resolve()
    to_the_book = set()
    # (Their 404 page is never served: the site's root, the book's, has its own.)
    for page in sorted(set(site.glob("*.html")) - {site / "404.html"}):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for link in soup.select("article a[href]"):
            url = urlsplit(link["href"])
            if url.scheme or not url.path:
                continue
            target = (page.parent / url.path).resolve()
            if not target.is_relative_to(site.resolve()):
                assert target.is_relative_to(book), (page.name, link)
                assert target.is_file(), (page.name, link)
                to_the_book.add(target.relative_to(book).as_posix())
    # The lab's report links the chapter's examples and its note on other releases.
    assert {"ch01/other-releases.html", "ch01/what-is-jax.html"} <= to_the_book


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_guides_are_no_edition_of_the_book(built_guides, language):
    """The guides' root page is theirs, not the book's preface, wherever a page names it; and
    no page offers the book's PDF or EPUB or carries its edition statement."""
    site = built_guides / language
    root = BeautifulSoup((site / "contributing.html").read_text("utf-8"), "html.parser")
    h1 = root.select_one("article h1")
    heading = " ".join(h1.get_text().replace(h1.select_one("a.headerlink").text, "").split())
    following = BeautifulSoup((site / "authoring.html").read_text("utf-8"), "html.parser")
    assert following.find("link", rel="prev")["title"] == heading
    for page in sorted(site.glob("*.html")):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        assert not soup.select(".jb-edition, .jb-editions, a[href$='.pdf'], a[href$='.epub']"), page
