"""Section numbers come from the chapter's ``:numbered:`` toctree, never typed by hand: the
sources and the catalogs carry none, and every edition prints them ("1.5 使用 JAX 数组", a
reference "1.6 节“数据放置”" / "“Data placement” in section 1.6")."""

from __future__ import annotations

import html
import re
import zipfile
from pathlib import Path

import polib
import pytest
from bs4 import BeautifulSoup

from jaxbook.project import SOURCE_SUFFIX
from tests.site.test_editions import pdf_text, the_epub, the_pdf

ROOT = Path(__file__).resolve().parents[2]
# A book section's number typed in prose: "1.5 节", "section 1.5", or a title's "1.5 ". The
# course's own sections ("课程第 2 章 2.6 节", "Section 2.6 of the course") are not the book's.
TYPED = re.compile(
    r"(?<![\d.])(?<!章)(?<!章 )\d+\.\d+ ?节|(?<![\w.])[Ss]ection \d+\.\d+(?!\d)(?! of the course)"
)
TITLE = re.compile(r"^\d+\.\d+ \S")


def typed_numbers(text: str) -> list[str]:
    """The hand-typed section numbers in a piece of prose (its inline code left out)."""
    prose = re.sub(r"``.*?``|`[^`]*`(?!_)", "", text, flags=re.S)
    return [m.group().strip() for m in TYPED.finditer(prose)]


# The guides' catalogs are the guides' (a site of their own): the book's pages only. (Their
# pages: not their conf.py.)
GUIDES = {path.stem for path in (ROOT / "guides").glob("*.*") if path.suffix in SOURCE_SUFFIX}


def book_catalogs(directory: Path, pattern: str) -> list[Path]:
    return [path for path in sorted(directory.glob(pattern)) if path.stem not in GUIDES]


def prose_entries(catalog: polib.POFile) -> list[polib.POEntry]:
    # Code blocks keep their lines; a paragraph or a title is one line.
    return [e for e in catalog if not e.obsolete and "\n" not in e.msgid]


def test_the_pattern_finds_typed_numbers():
    assert typed_numbers("见 1.4 节）") == ["1.4 节"]
    assert typed_numbers("see section 1.4.") == ["section 1.4"]
    assert typed_numbers("课程第 2 章 2.6 节对") == []
    assert typed_numbers("见\\ :book:secnum:`installation`") == []


def test_no_section_number_is_typed_in_the_sources_or_the_catalogs():
    found = []
    for template in book_catalogs(ROOT / "locale" / "pot", "**/*.pot"):
        for entry in prose_entries(polib.pofile(str(template))):
            if TITLE.match(entry.msgid) or typed_numbers(entry.msgid):
                found.append(f"{template.name}: {entry.msgid[:80]}")
    for catalog in book_catalogs(ROOT / "locale", "*/LC_MESSAGES/**/*.po"):
        for entry in prose_entries(polib.pofile(str(catalog))):
            if TITLE.match(entry.msgstr) or typed_numbers(entry.msgstr):
                found.append(f"{catalog.relative_to(ROOT)}: {entry.msgstr[:80]}")
    # A page's title, as its source has it ("1.5 使用 JAX 数组" was typed there).
    for page in sorted((ROOT / "docs").rglob("*.rst")) + sorted((ROOT / "docs").rglob("*.md")):
        lines = page.read_text(encoding="utf-8").splitlines()
        for at, line in enumerate(lines[1:-1], 1):
            underlined = re.fullmatch(r"([#=*\-~^])\1{2,}", lines[at + 1])
            if (underlined or line.startswith("# ")) and TITLE.match(line.lstrip("# ")):
                found.append(f"{page.relative_to(ROOT)}:{at + 1}: {line}")
    assert found == []


# -- As the editions print them ---------------------------------------------------------

TITLES = {"zh_CN": "1.5 使用 JAX 数组", "en": "1.5 Working with JAX arrays"}
REFERENCES = {"zh_CN": "1.6 节“数据放置”", "en": "“Data placement” in section 1.6"}
BACK_MATTER = {"zh_CN": "第 1 章小结与速查表", "en": "Chapter 1 summary"}


def squeezed(text: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(text)).strip()


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_site_numbers_titles_sidebar_and_references(built_site, language):
    page = BeautifulSoup(
        (built_site / language / "ch01" / "arrays.html").read_text("utf-8"), "html.parser"
    )
    assert squeezed(page.find("h1").get_text()).rstrip("¶").strip() == TITLES[language]
    sidebar = [squeezed(a.get_text()) for a in page.select(".sidebar-tree a")]
    assert TITLES[language] in sidebar
    assert not any(text.endswith(BACK_MATTER[language]) and text[0].isdigit() for text in sidebar)
    other = (built_site / language / "ch01" / "other-releases.html").read_text("utf-8")
    links = [
        squeezed(a.get_text()) for a in BeautifulSoup(other, "html.parser").select("a.reference")
    ]
    assert REFERENCES[language] in links


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_books_number_titles_contents_and_references(built_editions, language):
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        nav = squeezed(re.sub(r"<[^>]+>", "\n", epub.read("nav.xhtml").decode("utf-8")))
        page = squeezed(re.sub(r"<[^>]+>", "", epub.read("ch01/arrays.xhtml").decode("utf-8")))
    assert TITLES[language] in nav
    assert TITLES[language] in page
    assert f"1.8 {BACK_MATTER[language]}" not in nav
    pdf = the_pdf(built_editions, language)
    contents = squeezed(pdf_text(pdf, "-f", "1", "-l", "8"))
    assert TITLES[language] in contents
    assert BACK_MATTER[language] in contents
    assert f"1.8 {BACK_MATTER[language]}" not in contents
    text = squeezed(pdf_text(pdf))
    # The reference keeps its page ("（第 73 页）", " (page 73)").
    assert re.search(re.escape(REFERENCES[language]) + r" ?[（(]", text)


@pytest.mark.parametrize(
    ("language", "page", "says"),
    [
        ("zh_CN", "answers", "For the problem, see “Exercise E1” in section 1.7."),
        ("en", "answers", "题目见 1.7 节“练习 E1”。"),
        # A title with an emoji: the catalog's, in words.
        ("zh_CN", "other-releases", "“In detail: Inspecting a jaxpr” in section 1.1"),
    ],
)
def test_the_parallel_text_says_a_section_reference_as_its_language_does(
    built_site, language, page, says
):
    """Beside each passage, the other language's text names a section as that language's
    pages do, never a label or a ``{number}`` to fill."""
    soup = BeautifulSoup(
        (built_site / language / "ch01" / f"{page}.html").read_text(encoding="utf-8"),
        "html.parser",
    )
    texts = [" ".join(span.get_text().split()) for span in soup.select(".jb-parallel")]
    assert any(says in text for text in texts), texts
    raw = [t for t in texts if re.search(r"\{number\}|\{name\}|\bch01-[a-z-]+\b", t)]
    assert raw == []
