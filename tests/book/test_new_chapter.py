"""Chapter 2, added in MyST as the author's guide says, on a copy of the book, through the
targets of ``make test``: its outputs, catalogs and translation, its doctests in both
languages, both sites, the PDF's LaTeX and the EPUB, with warnings as errors; and
chapter 1's generated pages say the same with it as without it, on the site and in the
PDF's LaTeX.

The chapter (``tests/book/chapter2/``) has what an author writes: a float, an array and
an exception, a ❌/✅ pair, an update note, a glossary term, a link to a section of
chapter 1, and the chapter's own update-notes and other-releases pages.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest

from jaxbook.doctest.environment import doctest_environment
from jaxbook.site.editions import sphinx_command

HERE = Path(__file__).parent
LANGUAGES = ["zh_CN", "en"]
PAGES = ["index", "basics", "update-notes", "other-releases"]


def step(project: Path, *command: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", *command], cwd=project, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, f"{' '.join(command)}:\n{result.stdout}\n{result.stderr}"
    return result.stdout + result.stderr


class Article(HTMLParser):
    """The text of a page's article, without the parallel text or the page's navigation."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.hidden = 0
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in {"br", "img", "hr", "input", "meta", "link", "col"}:
            return
        if tag == "article":
            self.depth = 1
        elif self.depth:
            self.depth += 1
            if self.hidden or "jb-parallel" in (dict(attrs).get("class") or "").split():
                self.hidden += 1

    def handle_endtag(self, tag):
        if self.depth and tag not in {"br", "img", "hr", "input", "meta", "link", "col"}:
            self.depth -= 1
            self.hidden = max(0, self.hidden - 1) if self.hidden else 0

    def handle_data(self, data):
        if self.depth and not self.hidden:
            self.text.append(data)


def article(page: Path) -> str:
    parser = Article()
    parser.feed(page.read_text(encoding="utf-8"))
    return " ".join(" ".join(parser.text).split())


def messages(catalog: bytes) -> list[tuple[str, str, bool]]:
    entries = polib.pofile(catalog.decode("utf-8"))
    return [(e.msgid, e.msgstr, e.obsolete) for e in entries]


def translate(created: Path, translated: Path) -> None:
    """Fill a new catalog as the translator did (``tests/book/chapter2/locale``): prose and
    code translated, outputs left empty for ``refresh`` to fill."""
    catalog = polib.pofile(str(created))
    translation = {entry.msgid: entry.msgstr for entry in polib.pofile(str(translated))}
    assert {entry.msgid for entry in catalog} == set(translation), created.name
    for entry in catalog:
        entry.msgstr = translation[entry.msgid]
    catalog.save(str(created))


@pytest.fixture(scope="module")
def chapter2(book_copier, tmp_path_factory) -> Path:
    """A copy of the book with chapter 2 added as the guide says, its pages built."""
    project = book_copier(tmp_path_factory.mktemp("book"))
    chapter = HERE / "chapter2"
    # 1–3. The chapter's pages, and its place in the book's contents.
    shutil.copytree(chapter / "docs" / "ch02", project / "docs" / "ch02")
    index = project / "docs" / "index.rst"
    text = index.read_text(encoding="utf-8")
    index.write_text(text.replace("   ch01/index\n", "   ch01/index\n   ch02/index\n"), "utf-8")
    # The copy's builds run chapter 2's code, which is what the chapter adds; chapter 1's is
    # the book's own, which make test's build runs (jaxbook.sphinxext.doctest).
    with (project / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(f"jaxbook_run = {[f'ch02/{page}' for page in PAGES]!r}\n")
    # 4. Outputs from real runs, through the guide's pattern; no English catalog yet.
    refreshed = step(
        project, "jaxbook", "refresh", "--language", "zh_CN", "--language", "en", "docs/ch02/*"
    )
    assert "docs/ch02/basics.md: 4 output(s) rewritten" in refreshed, refreshed
    assert "docs/ch02/basics.md: no en catalog yet, left out" in refreshed, refreshed
    assert "TODO" not in (project / "docs/ch02/basics.md").read_text(encoding="utf-8")
    # 8. The catalogs, created for the new pages only; the translation; English outputs.
    before = {p: p.read_bytes() for p in (project / "locale").rglob("*.po")}
    step(project, "jaxbook", "po", "gettext", "_build/gettext")
    merged = step(project, "jaxbook", "po", "update", "_build/gettext", "locale/en/LC_MESSAGES")
    for page in PAGES:
        assert f"locale/en/LC_MESSAGES/ch02/{page}.po: created" in merged, merged
        translate(
            project / f"locale/en/LC_MESSAGES/ch02/{page}.po",
            chapter / f"locale/en/LC_MESSAGES/ch02/{page}.po",
        )
    # Another page's catalog keeps its messages and their translations (docs/index.rst's
    # own may name new lines: its contents list grew by a line).
    for path, old in before.items():
        if path.read_bytes() != old:
            assert messages(path.read_bytes()) == messages(old), path
    step(project, "jaxbook", "po", "wrap", "locale/en/LC_MESSAGES")
    refreshed = step(project, "jaxbook", "refresh", "--language", "en", "docs/ch02/*")
    assert "docs/ch02/basics.md [en]: 4 output(s) rewritten in the catalog" in refreshed
    return project


def test_the_chapter_passes_the_catalog_checks_and_its_doctests(chapter2):
    step(chapter2, "jaxbook", "po", "check", "locale/en/LC_MESSAGES")
    step(chapter2, "jaxbook", "zh-lint", "docs", "snippets")
    verdict = step(chapter2, "jaxbook", "doctest", "--only", "docs/ch02/basics.md", *LANGUAGES)
    assert verdict.strip().splitlines()[-1] == "10 passed, 0 failed"


@pytest.fixture(scope="module")
def sites(chapter2, html_builder) -> Path:
    """Both sites, side by side as make html builds them, into the doctrees the doctests
    read: chapter 2's pages are read, and run, already."""
    out = chapter2 / "_build"
    with ThreadPoolExecutor(len(LANGUAGES)) as pool:
        list(pool.map(html_builder, [chapter2] * 2, LANGUAGES, [out] * 2))
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_chapter_1s_generated_pages_say_the_same_with_a_second_chapter(sites, built_site, language):
    for page in ("update-notes", "other-releases"):
        with_two = article(sites / language / "ch01" / f"{page}.html")
        with_one = article(built_site / language / "ch01" / f"{page}.html")
        assert with_two == with_one, page


@pytest.mark.parametrize("language", LANGUAGES)
def test_chapter_2s_own_pages_speak_of_chapter_2(sites, language):
    notes = article(sites / language / "ch02" / "update-notes.html")
    assert re.search(r"jnp\.where", notes)
    report = article(sites / language / "ch02" / "other-releases.html")
    no_data = {"zh_CN": "还没有", "en": "No other JAX release has run"}[language]
    assert no_data in report, report[:300]
    title = {"zh_CN": "第 2 章 jit 入门", "en": "Chapter 2: Getting started with jit"}[language]
    assert title in (sites / language / "ch02" / "index.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def books(sites) -> Path:
    """The EPUB of the book with chapter 2 as `make epub` builds it, and the LaTeX that
    `make pdf` writes (warnings are errors in both: the single document is where a chapter's
    pages could speak of another's), beside the sites, as `make` builds them: from the
    doctrees the sites read, so they read and run nothing again. TeX itself sets chapter 2
    as it sets chapter 1, whose PDF `make test` builds; that run is left to it (40 s)."""
    doctrees = sites / "doctrees"
    step(sites.parent, "jaxbook", "editions", "--format", "epub", "--builddir", str(sites), "zh_CN")
    latex = sphinx_command(
        sites.parent, "latex", "zh_CN", sites / "latex" / "zh_CN",
        doctrees / "zh_CN", "-q", "--fail-on-warning",
    )  # fmt: skip
    environment = doctest_environment(os.environ, sites.parent, "zh_CN")
    result = subprocess.run(
        latex, cwd=sites.parent, capture_output=True, text=True, timeout=900, env=environment
    )
    assert result.returncode == 0, result.stderr[-5000:]
    return sites


def test_the_epub_builds_with_the_second_chapter(books):
    [book] = (books / "epub").glob("*-zh_CN.epub")
    with zipfile.ZipFile(book) as epub:
        pages = {name for name in epub.namelist() if name.endswith(".xhtml")}
    assert {"ch02/index.xhtml", "ch01/index.xhtml"} <= pages
    # The contributors' guides are the website's, not the book's.
    assert not pages & {"contributing.xhtml", "authoring.xhtml", "translating.xhtml"}


def latex_of(builddir: Path) -> str:
    """The one LaTeX document `make pdf` wrote into ``builddir`` for the Chinese book."""
    [tex] = (builddir / "latex" / "zh_CN").glob("*.tex")
    return tex.read_text(encoding="utf-8")


def page_in(tex: str, docname: str) -> str:
    """A page's part of the one LaTeX document: from its label to the next page's, or to the
    next chapter's heading (which comes before that chapter's label)."""
    start = tex.index(rf"\label{{\detokenize{{{docname}::doc}}}}")
    following = re.compile(r"\\label\{\\detokenize\{[^}:]+::doc\}\}|\\chapter\{")
    end = following.search(tex, start + 1)
    return " ".join(tex[start : end.start() if end else len(tex)].split())


def test_in_the_pdf_chapter_1s_generated_pages_say_the_same(books, built_editions):
    with_one, with_two = latex_of(built_editions), latex_of(books)
    for page in ("ch01/update-notes", "ch01/other-releases"):
        assert page_in(with_two, page) == page_in(with_one, page), page
    assert "jnp.where" in page_in(with_two, "ch02/update-notes")
