"""The book's index as a publisher's editor reads it, in the web's, the EPUB's and the PDF's
index of each language: each page once under an entry, each subentry one place (no
"[1]"), page numbers before "see also",
English entries in lower case but for names and code, and an option under its own name;
no entry with more than four bare places (a row of page numbers gives the reader no way
in: subentries say what each place says), and the main discussion of a much-indexed topic
in bold.

Each check also runs on a planted fault, to show that it can fail.
"""

from __future__ import annotations

import itertools
import re
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from bs4 import BeautifulSoup

from jaxbook.sphinxext.pinyin_index import is_api

if TYPE_CHECKING:
    from collections.abc import Set

LANGUAGES = ["zh_CN", "en"]
# Names an English entry may begin with in capitals, beside acronyms (JIT, TF32) and names
# with a capital inside (NumPy, StableHLO, TensorFloat-32), which need no listing.
PROPER_NOUNS = ("Python", "Accelerated Linear Algebra", "High Level Operations")


def web_index(html: str) -> list[tuple[str, list[tuple[str, list[str]]]]]:
    """A web or EPUB index page: each entry, and each of its subitems with the pages (the
    addresses without their fragments) its links lead to; the entry's own links first, as
    a subitem named ""."""
    soup = BeautifulSoup(html, "html.parser")
    entries = []
    for item in soup.select("table.indextable > tr > td > ul > li"):
        sub = item.find("ul")
        if sub:
            sub.extract()
        subitems = [("", pages(item))]
        for li in sub.find_all("li", recursive=False) if sub else []:
            subitems.append((first_text(li), pages(li)))
        entries.append((first_text(item), subitems))
    return entries


def first_text(element) -> str:
    """An item's name: its first text, before the links to its further pages ("[1]")."""
    return " ".join(next(text for text in element.strings if text.strip()).split())


def pages(element) -> list[str]:
    return [a["href"].split("#")[0] for a in element.find_all("a", href=True)]


def twice_on_a_page(entries) -> list[str]:
    """Each entry or subentry that leads to a page twice, or names a subitem twice."""
    found = []
    for name, subitems in entries:
        names = [sub for sub, _pages in subitems]
        found += [f"{name}: {sub}" for sub in names if sub and names.count(sub) > 1]
        for sub, links in subitems:
            if len(links) != len(set(links)):
                found.append(f"{name}: {sub or '(the entry)'} {links}")
    return sorted(set(found))


def numbered(entries) -> list[str]:
    """Each subentry that leads to more than one place, which the index numbers "[1]": a
    subentry names one place (an entry's pages are named by their titles)."""
    return sorted(
        f"{name}: {sub}" for name, subitems in entries for sub, links in subitems if len(links) > 1
    )


SEE = re.compile(r"^(see|see also|见|另请参见) ")


def see_before_pages(entries) -> list[str]:
    """Each entry whose "see" or "see also" comes before one of its pages."""
    found = []
    for name, subitems in entries:
        kinds = [bool(SEE.match(sub)) for sub, _links in subitems if sub]
        if any(see and not later for see, later in itertools.pairwise(kinds)):
            found.append(name)
    return found


def titles(site: Path) -> set[str]:
    """Each page's title: under an entry of the web's index it names a page, not a
    subentry."""
    found = set()
    for page in site.rglob("*.html"):
        h1 = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").find("h1")
        if h1 is not None:
            # The index names a page by its title, without the number the toctree gives it.
            for number in h1.select("span.section-number"):
                number.decompose()
            found.add(" ".join(h1.get_text(" ").replace("¶", "").split()))
    return found


def miscased(name: str) -> bool:
    """Whether an English entry begins with a capital it should not have: entries are in
    lower case, but for names and code."""
    shown = SEE.sub("", name)
    if not shown or is_api(shown.split()[0]) or not shown[0].isupper():
        return False
    first = shown.split()[0]
    named = first.isupper() or any(c.isupper() or c.isdigit() for c in first[1:])
    return not named and not shown.startswith(PROPER_NOUNS)


def index_of(site: Path, language: str) -> list:
    return web_index((site / language / "genindex.html").read_text(encoding="utf-8"))


def epub_index_of(builddir: Path, language: str) -> list:
    [epub] = (builddir / "epub").glob(f"*-{language}.epub")
    with zipfile.ZipFile(epub) as book:
        return web_index(book.read("genindex.xhtml").decode("utf-8"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_web_and_epub_indexes_name_each_page_once_and_see_last(
    built_site, built_editions, language
):
    for entries in (index_of(built_site, language), epub_index_of(built_editions, language)):
        assert len(entries) > 150
        assert twice_on_a_page(entries) == []
        assert numbered(entries) == []
        assert see_before_pages(entries) == []


# A quiz locator's name in each language's index: "quiz question 3", "测验第 3 题".
QUIZ_LOCATOR = re.compile(r"^(quiz question|测验第) \d+")


def quiz_locators(index_html: str) -> list[tuple[str, str]]:
    """Each quiz locator of the index, as its entry's name and the link's address."""
    soup = BeautifulSoup(index_html, "html.parser")
    found = []
    for link in soup.select("table.indextable a[href]"):
        if QUIZ_LOCATOR.match(" ".join(link.get_text(" ").split())):
            entry = link.find_parent("ul").find_parent("li")
            name = first_text(entry) if entry is not None else ""
            found.append((f"{name}: {' '.join(link.get_text(' ').split())}", link["href"]))
    return found


def quiz_places_outside_answers(index_html: str, quiz_html: str, quiz: str) -> list[str]:
    """Each quiz locator of the index (a subentry "quiz question N") whose place on the quiz
    page is not inside a folded answer: every quiz locator leads to the answer, where the
    topic is discussed, not to the question."""
    quiz_page = BeautifulSoup(quiz_html, "html.parser")
    found = []
    for name, href in quiz_locators(index_html):
        page, _, anchor = href.partition("#")
        target = quiz_page.find(id=anchor) if page == quiz and anchor else None
        if target is None or target.find_parent("details", class_="sd-dropdown") is None:
            found.append(name)
    return sorted(found)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_quiz_locator_leads_to_the_answer(built_site, language):
    """The editor found "jnp.array … quiz question 3" led to the question, where every other
    quiz locator led to the answer."""
    site = built_site / language
    index_html = (site / "genindex.html").read_text(encoding="utf-8")
    quiz_html = (site / "ch01" / "quiz.html").read_text(encoding="utf-8")
    assert len(quiz_locators(index_html)) >= 15
    assert quiz_places_outside_answers(index_html, quiz_html, "ch01/quiz.html") == []


def test_the_quiz_locator_check_sees_a_question_indexed():
    index_html = """<table class="indextable"><tr><td><ul>
      <li>jnp.array<ul><li><a href="ch01/quiz.html#index-1">quiz question 3</a></li></ul></li>
      <li>XLA<ul><li><a href="ch01/quiz.html#index-2">quiz question 1</a></li></ul></li>
    </ul></td></tr></table>"""
    quiz_html = """<section><span id="index-1"></span><p>Question 3</p>
      <details class="sd-dropdown"><summary>Answer</summary><span id="index-2"></span></details>
    </section>"""
    assert quiz_places_outside_answers(index_html, quiz_html, "ch01/quiz.html") == [
        "jnp.array: quiz question 3"
    ]


def test_english_entries_are_lower_case_but_names_and_code(built_site):
    pages_named = titles(built_site / "en")
    found = [
        name
        for entry, subitems in index_of(built_site, "en")
        for name in [entry, *(sub for sub, _links in subitems if sub not in pages_named)]
        if miscased(name)
    ]
    assert found == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_option_is_indexed_under_its_own_name(built_site, language):
    """``jax.threefry_partitionable`` is the option ``jax_threefry_partitionable``'s context
    manager: one entry, the option's."""
    names = [name for name, _subitems in index_of(built_site, language)]
    assert "jax_threefry_partitionable" in names
    assert "jax_enable_x64" in names
    assert not [
        name for name in names if re.fullmatch(r"jax\.(threefry_partitionable|enable_x64)", name)
    ]


# An entry with more places than this gives them subentries that say what each place says.
MOST_BARE = 4
# An entry with more places than this (its subentries' too) has its main discussion in bold.
MOST_UNMARKED = 2


def bare_places(entries, page_titles: Set[str]) -> dict[str, int]:
    """Each entry's bare places: its own links, and its subitems that merely name a page (the
    web's index names an entry's pages by their titles, where the PDF gives page numbers)."""
    return {
        name: sum(len(links) for sub, links in subitems if not sub or sub in page_titles)
        for name, subitems in entries
    }


def overloaded(entries, page_titles: Set[str]) -> list[str]:
    """Each entry with more than MOST_BARE bare places."""
    return sorted(
        f"{name}: {count}"
        for name, count in bare_places(entries, page_titles).items()
        if count > MOST_BARE
    )


def main_places(html: str) -> dict[str, list[str]]:
    """Each entry's main places, set in bold (Sphinx's ``!single: ...``): the pages, without
    their fragments, that its bold links and its subentries' bold links lead to."""
    soup = BeautifulSoup(html, "html.parser")
    return {
        first_text(item): [
            strong.parent["href"].split("#")[0]
            for strong in item.select("a > strong")
            if strong.parent.get("href")
        ]
        for item in soup.select("table.indextable > tr > td > ul > li")
    }


def unmarked(entries, mains: dict[str, list[str]], glossary: str) -> list[str]:
    """Each entry with more than MOST_UNMARKED places in all (its subentries' too) whose main
    discussion is not in bold: no bold link to a page of the text (the glossary's definition
    is bold, but is not where the book discusses the term)."""
    return sorted(
        name
        for name, subitems in entries
        if sum(len(links) for _sub, links in subitems) > MOST_UNMARKED
        and not [page for page in mains.get(name, []) if not page.endswith(glossary)]
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_entry_has_more_than_four_bare_places_and_main_discussions_are_bold(
    built_site, built_editions, language
):
    page_titles = titles(built_site / language)
    html = (built_site / language / "genindex.html").read_text(encoding="utf-8")
    entries = web_index(html)
    assert overloaded(entries, page_titles) == []
    assert overloaded(epub_index_of(built_editions, language), page_titles) == []
    mains = main_places(html)
    # Main entries there are, on pages of the text, and each much-indexed entry has one.
    assert [page for pages in mains.values() for page in pages if page.startswith("ch")]
    assert unmarked(entries, mains, "glossary.html") == []


def test_the_web_checks_see_a_planted_fault():
    html = """<table class="indextable"><tr><td><ul>
      <li>pure function<ul>
        <li><a href="a.html#x">Page A</a></li>
        <li><a href="b.html#y">and side effects</a>, <a href="b.html#z">[1]</a></li>
        <li><a href="a.html#w">Page A</a></li></ul></li>
      <li>lazy evaluation<ul><li>see also asynchronous dispatch</li>
        <li><a href="a.html">Page A</a></li></ul></li>
      <li>Array attributes<ul><li><a href="c.html">Requirements</a></li></ul></li>
    </ul></td></tr></table>"""
    entries = web_index(html)
    assert twice_on_a_page(entries) == [
        "pure function: Page A",
        "pure function: and side effects ['b.html', 'b.html']",
    ]
    assert numbered(entries) == ["pure function: and side effects"]
    assert see_before_pages(entries) == ["lazy evaluation"]
    assert [miscased(name) for name in ["Array attributes", "Requirements"]] == [True, True]
    unflagged = ["NumPy", "JIT", "TF32", "Python lists", "jax.jit", "XLA_FLAGS", "see also JIT"]
    assert [name for name in unflagged if miscased(name)] == []


# -- The PDF's index (makeindex's output) ------------------------------------------------

LOCATOR = re.compile(r"\\hyperpage\{(\w+)\}|\\hyperindexformat\{\\spxpagem\}\{(\w+)\}")
SEE_LOCATOR = re.compile(r"\\hyperindexformat\{\\(?:see|seealso)\{")


def ind_items(ind: str) -> list[str]:
    """Each entry and subentry of a makeindex index, its continued lines joined."""
    items: list[str] = []
    for line in ind.splitlines():
        if re.match(r"\s*\\(sub)*item ", line):
            items.append(line.strip())
        elif items and line.startswith("\t"):
            items[-1] += " " + line.strip()
    return items


def pdf_faults(ind: str) -> list[str]:
    """Each entry of the PDF's index that gives a page twice, or its "see" or "see also"
    before a page number."""
    found = []
    for item in ind_items(ind):
        numbers = [plain or main for plain, main in LOCATOR.findall(item)]
        if len(numbers) != len(set(numbers)):
            found.append(f"page twice: {item}")
        see = SEE_LOCATOR.search(item)
        if see and LOCATOR.search(item, see.end()):
            found.append(f"see before a page: {item}")
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pdf_index_gives_each_page_once_and_see_after_the_pages(built_editions, language):
    [ind] = (built_editions / "latex" / language).glob("*.ind")
    text = ind.read_text(encoding="utf-8")
    assert len(ind_items(text)) > 150
    assert SEE_LOCATOR.search(text)  # there are "see" entries to check
    assert pdf_faults(text) == []


PAGES = re.compile(r"\\hyperpage\{([^{}]*)\}|\\hyperindexformat\{\\spxpagem\}\{(\w+)\}")
MAIN = re.compile(r"\\hyperindexformat\{\\spxpagem\}")


def page_count(item: str) -> int:
    """How many page numbers an entry or subentry gives: makeindex writes two pages in a row
    as one locator ("\\hyperpage{95，96}")."""
    return sum(
        len(re.findall(r"\w+", plain)) if plain else 1 for plain, _main in PAGES.findall(item)
    )


def pdf_overloaded(ind: str) -> list[str]:
    """Each entry of the PDF's index with more than MOST_BARE bare page numbers (its own, not
    its subentries')."""
    return [
        item
        for item in ind_items(ind)
        if item.startswith("\\item ") and page_count(item) > MOST_BARE
    ]


def pdf_unmarked(ind: str) -> list[str]:
    """Each entry with more than MOST_UNMARKED page numbers in all (its subentries' too) and
    none of them bold."""
    found, entry = [], []
    for item in [*ind_items(ind), "\\item (end)"]:
        if item.startswith("\\item ") and entry:
            total = sum(page_count(line) for line in entry)
            if total > MOST_UNMARKED and not any(MAIN.search(line) for line in entry):
                found.append(entry[0])
            entry = []
        entry.append(item)
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pdf_index_has_no_row_of_bare_pages_and_bold_main_pages(built_editions, language):
    latex = built_editions / "latex" / language
    [ind] = latex.glob("*.ind")
    [idx] = latex.glob("*.idx")
    text = ind.read_text(encoding="utf-8")
    # The main entries reach makeindex (.idx) and come out bold (.ind).
    assert "|hyperindexformat{\\spxpagem}}" in idx.read_text(encoding="utf-8")
    assert MAIN.search(text)
    assert pdf_overloaded(text) == []
    assert pdf_unmarked(text) == []


def test_the_pdf_check_sees_a_planted_fault():
    ind = (
        "  \\item \\spxentry{\\textrm{纯函数}}，\\hyperpage{1}，\\hyperpage{6}，\n"
        "\t\t\\hyperindexformat{\\spxpagem}{27}，\\hyperpage{27}\n"
        "  \\item \\spxentry{\\textrm{惰性求值}}，\\hyperindexformat{\\seealso{异步派发}}{13}，\n"
        "\t\t\\hyperpage{13}，\\hyperpage{95}\n"
        "  \\item \\spxentry{\\textrm{异步派发}}，\\hyperpage{13}，"
        "\\hyperindexformat{\\seealso{派发}}{140}\n"
    )
    faults = pdf_faults(ind)
    assert [fault.split(":")[0] for fault in faults] == ["page twice", "see before a page"]
    assert "纯函数" in faults[0]
    assert "惰性求值" in faults[1]


def test_the_bare_places_checks_see_a_planted_fault():
    """Five pages named under "device", none bold but the glossary's; "host" has two bare
    places and subentries, one bold."""
    pages = "".join(f'<li><a href="ch01/p{i}.html#x">Page {i}</a></li>' for i in range(5))
    html = f"""<table class="indextable"><tr><td><ul>
      <li>device<ul>{pages}<li><a href="glossary.html#t"><strong>Glossary</strong></a></li>
        </ul></li>
      <li><a href="ch01/p0.html#h">host</a>, <a href="ch01/p1.html#h">[1]</a><ul>
        <li><a href="ch01/p2.html#a"><strong>and device</strong></a></li>
        <li><a href="ch01/p3.html#b">transfers</a></li>
        <li><a href="ch01/p4.html#c">memory</a></li></ul></li>
    </ul></td></tr></table>"""
    entries = web_index(html)
    page_titles = {f"Page {i}" for i in range(5)} | {"Glossary"}
    assert bare_places(entries, page_titles) == {"device": 6, "host": 2}
    assert overloaded(entries, page_titles) == ["device: 6"]
    mains = main_places(html)
    assert mains == {"device": ["glossary.html"], "host": ["ch01/p2.html"]}
    assert unmarked(entries, mains, "glossary.html") == ["device"]

    ind = (
        "  \\item \\spxentry{\\textrm{设备}}，\\hyperpage{1}，\\hyperpage{4}，\\hyperpage{12}，\n"
        "\t\t\\hyperpage{95，96}\n"
        "    \\subitem \\spxentry{\\textrm{放置}}，\\hyperpage{67}\n"
        "  \\item \\spxentry{\\textrm{主机}}，\\hyperpage{3}，\\hyperindexformat{\\spxpagem}{69}\n"
        "    \\subitem \\spxentry{\\textrm{传输}}，\\hyperpage{70}，\\hyperpage{97}\n"
        "    \\subitem \\spxentry{\\textrm{内存}}，\\hyperpage{102}\n"
    )
    [device] = pdf_overloaded(ind)  # five pages, two of them in one locator
    assert "设备" in device
    assert page_count(device) == 5
    [unmarked_entry] = pdf_unmarked(ind)  # 主机 has five pages too, one bold
    assert "设备" in unmarked_entry
