"""What a deploy build (site and repository URLs set) holds for search engines, link previews
and Colab.

Sitemap with hreflang alternates, a 404 page per language, a description and
OpenGraph tags per page, social cards that render Chinese, absolute canonical
and hreflang links, "last updated" from git, the edit / translate / report
links, the "open in Colab" links, the notebooks branch they open, and the links to
the PDF and EPUB. (Every test of the deploy build is here, so that one worker builds it
and uses it.)
"""

from __future__ import annotations

import datetime
import html
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import polib
import pytest

from jaxbook.project import languages
from jaxbook.site.build import html_command

ROOT = Path(__file__).resolve().parents[2]
SITE = "https://example.org/jaxbook"
REPO = "https://github.com/example/jaxbook"
# Every language of the book, the source first: each is every page's alternate.
LANGUAGES = list(languages(ROOT))
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"


def bcp47(code: str) -> str:
    """A language's code as hreflang writes it: zh-CN for zh_CN."""
    return code.replace("_", "-")


def build(project: Path, language: str, out: Path, **env: str) -> subprocess.CompletedProcess:
    command = html_command(
        project, language, out / language, out / "doctrees" / language, "--fail-on-warning"
    )
    return subprocess.run(
        command, capture_output=True, text=True, timeout=600, env={**os.environ, **env}
    )


@pytest.fixture(scope="module")
def deploy(deploy_site) -> dict[str, object]:
    assert (deploy_site["url"], deploy_site["repo"]) == (SITE, REPO)
    return deploy_site


def pages(root: Path) -> list[Path]:
    skip = {"genindex.html", "search.html", "404.html"}
    return [p for p in sorted(root.rglob("*.html")) if p.name not in skip]


def meta(page: str, key: str, attribute: str = "property") -> list[str]:
    return [
        html.unescape(m)
        for m in re.findall(rf'<meta {attribute}="{re.escape(key)}" content="([^"]*)"', page)
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_sitemap_lists_every_page_with_its_alternates(deploy, language):
    root = deploy["site"] / language
    tree = ET.parse(root / "sitemap.xml")
    urls = {u.findtext(f"{SITEMAP}loc"): u for u in tree.getroot().iter(f"{SITEMAP}url")}
    expected = {f"{SITE}/{language}/{p.relative_to(root).as_posix()}" for p in pages(root)}
    assert set(urls) == expected
    for loc, url in urls.items():
        alternates = {link.get("hreflang"): link.get("href") for link in url.iter(f"{XHTML}link")}
        page = loc.removeprefix(f"{SITE}/{language}/")
        assert alternates == {bcp47(code): f"{SITE}/{code}/{page}" for code in LANGUAGES}


def test_no_sitemap_without_a_site_url(built_site):
    assert not (built_site / "zh_CN" / "sitemap.xml").exists()


def not_found_title(language: str) -> str:
    """The 404 page's title in ``language``: its translator's (``locale/<language>/``), else
    the extension's own catalog's, else the English message itself."""
    for catalog in (
        ROOT / "locale" / language / "LC_MESSAGES" / "jaxbook.po",
        ROOT / "src/jaxbook/sphinxext/locales" / language / "LC_MESSAGES" / "jaxbook.po",
    ):
        if catalog.is_file():
            entry = polib.pofile(str(catalog)).find("Page not found")
            if entry is not None and entry.msgstr and "fuzzy" not in entry.flags:
                return entry.msgstr
    return "Page not found"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_404_page_per_language(deploy, language):
    page = (deploy["site"] / language / "404.html").read_text(encoding="utf-8")
    assert f'lang="{language.replace("_", "-")}"' in page
    assert f"<h1>{html.escape(not_found_title(language))}</h1>" in page
    # Served for any missing path, so its links must not be relative.
    stylesheets = re.findall(r'<link rel="stylesheet"[^>]* href="([^"]+)"', page)
    assert stylesheets
    assert all(href.startswith(f"/jaxbook/{language}/_static/") for href in stylesheets)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_is_described_by_its_opening_paragraph(deploy, language):
    root = deploy["site"] / language
    seen = set()
    for path in pages(root):
        page = path.read_text(encoding="utf-8")
        [description] = meta(page, "description", "name")
        assert description, path
        assert meta(page, "og:description") == [description], path
        # The opening paragraph of the article, as the page shows it, after the notices a
        # draft edition or a page not yet translated puts first.
        article = page[page.index('<article role="main"') :]
        article = re.sub(
            r'<div class="jb-(?:draft|translation)-notice[^"]*">.*?</div>', "", article, flags=re.S
        )
        # A paragraph of the text (an index entry may give it an id; one a draft has not
        # translated yet, its language), not a link bar.
        first = re.search(r"<p(?: (?:id|lang)=\"[^\"]*\")*>(.*?)</p>", article, re.DOTALL)
        shown = " ".join(html.unescape(re.sub(r"<[^>]+>", "", first[1])).split())
        assert description.rstrip("…") in shown, path
        seen.add(description)
    assert len(seen) == len(pages(root))


@pytest.mark.parametrize("language", LANGUAGES)
def test_opengraph_tags_and_social_cards(deploy, language):
    root = deploy["site"] / language
    page = (root / "ch01" / "arrays.html").read_text(encoding="utf-8")
    assert meta(page, "og:url") == [f"{SITE}/{language}/ch01/arrays.html"]
    assert meta(page, "og:title")
    [image] = meta(page, "og:image")
    assert image.startswith(f"{SITE}/{language}/_images/social_previews/")
    card = root / image.removeprefix(f"{SITE}/{language}/")
    assert card.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # matplotlib says so when a font lacks a glyph of the title or description.
    assert "missing from font" not in deploy["logs"][language]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_social_card_carries_the_books_mark(deploy, language):
    from matplotlib import image as mpimg

    from jaxbook.sphinxext.discovery import MARK_COLOUR

    root = deploy["site"] / language
    page = (root / "ch01" / "devices.html").read_text(encoding="utf-8")
    [url] = meta(page, "og:image")
    card = mpimg.imread(root / url.removeprefix(f"{SITE}/{language}/"))
    wanted = [int(MARK_COLOUR[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    height, width = card.shape[:2]
    corner = card[height // 2 :, width * 3 // 4 :, :3]
    close = (abs(corner - wanted) < 0.02).all(axis=-1)
    # The mark is a filled square of its colour; Sphinx's default logo has none of it.
    assert close.sum() > 1000


@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_without_a_source_describe_themselves(deploy, language):
    root = deploy["site"] / language
    found = {}
    for name in ("404.html", "search.html", "genindex.html"):
        [description] = meta((root / name).read_text(encoding="utf-8"), "description", "name")
        found[name] = description
    assert len(set(found.values())) == 3
    chinese = [bool(re.search(r"[\u4e00-\u9fff]", text)) for text in found.values()]
    assert chinese == [language == "zh_CN"] * 3, found


def test_no_social_card_without_a_site_url(built_site):
    page = (built_site / "zh_CN" / "ch01" / "arrays.html").read_text(encoding="utf-8")
    assert meta(page, "og:image") == []
    assert meta(page, "description", "name")


@pytest.mark.parametrize("language", LANGUAGES)
def test_canonical_and_hreflang_are_absolute(deploy, language):
    page = (deploy["site"] / language / "ch01" / "devices.html").read_text(encoding="utf-8")
    canonical = re.findall(r'<link rel="canonical" href="([^"]+)"', page)
    assert canonical == [f"{SITE}/{language}/ch01/devices.html"]
    alternates = dict(re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)"', page))
    assert alternates == {
        **{bcp47(code): f"{SITE}/{code}/ch01/devices.html" for code in LANGUAGES},
        "x-default": f"{SITE}/{LANGUAGES[0]}/ch01/devices.html",
    }


def _git_date(*paths: Path) -> str:
    """The day of the last commit that changed any of ``paths``, a merge among them where it
    differs from a parent (``-m``), as sphinx-last-updated-by-git dates a file."""
    return subprocess.run(
        ["git", "log", "-m", "-1", "--format=%cd", "--date=format:%Y-%m-%d", "--"]
        + [str(path) for path in paths],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


# A day as each language's book writes it in its text.
BOOK_DATE = {
    "zh_CN": lambda day: f"{day.year} 年 {day.month} 月 {day.day} 日",
    "en": lambda day: f"{day:%B} {day.day}, {day.year}",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_last_updated_comes_from_git(deploy, language):
    page = (deploy["site"] / language / "ch01" / "quiz.html").read_text(encoding="utf-8")
    updated = re.search(r'<div class="last-updated">\s*(.*?)</div>', page, re.DOTALL)
    assert updated
    # A page changes with its source, and with the English catalog that translates it (on a
    # Chinese page, its parallel text): the page depends on both.
    catalog = ROOT / "locale" / "en" / "LC_MESSAGES" / "ch01" / "quiz.po"
    day = datetime.date.fromisoformat(_git_date(ROOT / "docs" / "ch01" / "quiz.rst", catalog))
    assert BOOK_DATE[language](day) in updated[1]


# The form of a day as each language's book writes it ("2026 年 12 月 6 日", "December 6, 2026").
BOOK_DAY = {"zh_CN": r"\d{4} 年 \d{1,2} 月 \d{1,2} 日", "en": r"[A-Z][a-z]+ \d{1,2}, \d{4}"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_footer_dates_a_page_as_the_book_writes_a_day(built_site, language):
    """Not as "2026-12-06", which the footer said."""
    page = (built_site / language / "ch01" / "quiz.html").read_text(encoding="utf-8")
    updated = re.search(r'<div class="last-updated">\s*(.*?)</div>', page, re.DOTALL)
    assert updated
    assert re.search(rf"{BOOK_DAY[language]}\s*$", updated[1]), updated[1]


def test_edit_translate_and_report_links(deploy):
    zh = (deploy["site"] / "zh_CN" / "ch01" / "arrays.html").read_text(encoding="utf-8")
    en = (deploy["site"] / "en" / "ch01" / "arrays.html").read_text(encoding="utf-8")
    assert f'href="{REPO}/edit/main/docs/ch01/arrays.rst">编辑本页</a>' in zh
    assert (
        f'href="{REPO}/edit/main/locale/en/LC_MESSAGES/ch01/arrays.po">Translate this page</a>'
    ) in en
    for page in (zh, en):
        assert f'href="{REPO}/issues/new?title=' in page


def test_no_repository_links_without_a_repository(built_site):
    page = (built_site / "en" / "ch01" / "arrays.html").read_text(encoding="utf-8")
    assert "jb-edit-link" not in page
    assert "jb-report-link" not in page


# -- Colab and the notebooks branch ----------------------------------------------


def test_colab_link_only_with_a_repository(deploy_site, built_site):
    # The deploy build is given a repository (JAXBOOK_REPO_URL); the plain one is not.
    assert deploy_site["repo"] == "https://github.com/example/jaxbook"
    html = (deploy_site["site"] / "en" / "ch01" / "arrays.html").read_text(encoding="utf-8")
    assert (
        'href="https://colab.research.google.com/github/example/jaxbook/blob/notebooks/'
        'en/_notebooks/ch01/arrays.ipynb"'
    ) in html
    plain = (built_site / "en" / "ch01" / "arrays.html").read_text(encoding="utf-8")
    assert "colab.research.google.com" not in plain


def branch_files(repo: Path, branch: str) -> set[str]:
    listing = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", branch],
        cwd=repo, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return set(listing.stdout.split())


def test_every_colab_link_opens_a_notebook_on_the_published_branch(deploy_site, jaxbook, tmp_path):
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    builddir = deploy_site["site"].parent / "deploy-build"
    (builddir / "html").mkdir(parents=True, exist_ok=True)
    for language in LANGUAGES:
        link = builddir / "html" / language
        if not link.exists():
            link.symlink_to(deploy_site["site"] / language)

    for _ in range(2):  # a second deploy replaces the branch
        result = jaxbook(
            "publish-notebooks", "--remote", remote, "--builddir", builddir, *LANGUAGES
        )
        assert result.returncode == 0, result.stderr
    built = {
        p.relative_to(deploy_site["site"]).as_posix()
        for p in deploy_site["site"].glob("*/_notebooks/**/*.ipynb")
    }
    assert result.stdout.strip() == f"published {len(built)} notebooks to branch notebooks"
    files = branch_files(remote, "notebooks")
    log = subprocess.run(
        ["git", "rev-list", "--count", "notebooks"], cwd=remote, capture_output=True, text=True
    )
    assert log.stdout.strip() == "1"

    prefix = "https://colab.research.google.com/github/example/jaxbook/blob/notebooks/"
    links = set()
    for page in deploy_site["site"].glob("*/ch*/*.html"):
        links |= set(re.findall(rf'href="{re.escape(prefix)}([^"]+)"', page.read_text("utf-8")))
    assert links == built
    assert files == built | {"README.md"}
    assert "en/_notebooks/ch01/arrays.ipynb" in files


def test_nothing_to_publish_is_one_sentence(jaxbook, tmp_path):
    result = jaxbook("publish-notebooks", "--remote", tmp_path, "--builddir", tmp_path, "en")
    assert result.returncode == 1
    assert (
        result.stderr.strip()
        == f"{tmp_path}/html/en/_notebooks: no notebooks; run `make html` first"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_deployed_notebooks_links_lead_to_the_site(deploy, built_site, language):
    """A notebook is read in Colab or after a download, away from the site: where the site
    is known, its links to the book's pages are absolute; a plain build (it knows no
    address) keeps their words and no link, since a relative one would lead nowhere."""
    deployed = (deploy["site"] / language / "_notebooks" / "ch01" / "arrays.ipynb").read_text(
        encoding="utf-8"
    )
    plain = (built_site / language / "_notebooks" / "ch01" / "arrays.ipynb").read_text(
        encoding="utf-8"
    )
    targets = re.findall(r"\]\(([^)\s]+)\)", deployed)
    assert f"{SITE}/{language}/glossary.html#" in deployed
    assert targets
    assert not [t for t in targets if not t.startswith(("https://", "http://"))]
    plain_targets = re.findall(r"\]\(([^)\s]+)\)", plain)
    assert plain_targets
    assert not [t for t in plain_targets if not t.startswith(("https://", "http://"))]
    assert "glossary.html" not in plain
