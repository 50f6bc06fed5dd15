"""The PDF and EPUB of each language, read as a publisher and a reader would, and the site that
holds them.

The PDF is read back with poppler (``pdftotext``, ``pdffonts``, ``pdfinfo``) and its LaTeX
run's log (loose lines, missing glyphs); the EPUB is checked with the W3C's EPUBCheck, read
as XML, and laid out at a phone's width in Chromium. Who wrote, translated and publishes the
book is taken from where it is set (``conf.py``, ``locale/languages.csv``, the catalogs),
so that a title page or a package that says otherwise fails.
"""

from __future__ import annotations

import functools
import html
import math
import re
import runpy
import shutil
import subprocess
import zipfile
import zlib
from collections import Counter
from itertools import pairwise
from pathlib import Path
from xml.etree import ElementTree

import polib
import pytest
from bs4 import BeautifulSoup
from sphinx.util.tags import Tags

from jaxbook import project
from jaxbook.sphinxext.editions.latex import CODE_COLUMN_PT, code_columns

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ["zh_CN", "en"]
# The table's widest headers (the narrow "No." wraps letter by letter).
TABLE_HEADERS = {
    "zh_CN": ["要点", "参见", "版本变化"],
    "en": ["Note", "See", "Changed"],
}
HEADING = re.compile(r"<h([1-6])>(.*?)<a class=\"headerlink\"", re.DOTALL)
EPUBCHECK = Path("/usr/share/java/epubcheck.jar")
OPF = "{http://www.idpf.org/2007/opf}"
DC = "{http://purl.org/dc/elements/1.1/}"
XHTML = "{http://www.w3.org/1999/xhtml}"
OPS = "{http://www.idpf.org/2007/ops}"
# Each edition's trim size in PostScript points: 185 by 260 mm, and 7 by 9.25 in.
TRIM = {"zh_CN": (524.41, 737.01), "en": (504.0, 666.0)}
# The page a cross-reference leads to, as each edition prints it.
PAGE_REFERENCE = {"zh_CN": r"（第 ?\d+ ?页）", "en": r"\(page \d+\)"}
# What every edition calls the root page's text.
PREFACE = {"zh_CN": "前言", "en": "Preface"}
NUMBERED = {
    "zh_CN": {"figure": "图 1-1", "listing": "代码清单 1-1"},
    "en": {"figure": "Figure 1-1", "listing": "Listing 1-1"},
}


def squeeze(text: str) -> str:
    """Text without whitespace or hyphens, so that line breaks and hyphenation do not count,
    and without emoji, which the PDF shows as pictures."""
    return re.sub(r"[\s\-\u2010\u2300-\u27bf\ufe0f\U0001f000-\U0001faff]+", "", text)


def plain(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def the_pdf(builddir: Path, language: str) -> Path:
    [pdf] = (builddir / "pdf").glob(f"*-{language}.pdf")
    return pdf


def the_epub(builddir: Path, language: str) -> Path:
    [epub] = (builddir / "epub").glob(f"*-{language}.epub")
    return epub


def latex_log(builddir: Path, language: str) -> str:
    [log] = (builddir / "latex" / language).glob("*.log")
    return log.read_text(encoding="utf-8", errors="replace")


def book_pages(builddir: Path, language: str) -> set[str]:
    """The site's pages that the books hold: those in the EPUB, by their HTML names."""
    with zipfile.ZipFile(the_epub(builddir, language)) as epub:
        names = epub.namelist()
    # The copyright page is the EPUB's own (the PDF has it on the title page's back).
    return {
        name.removesuffix(".xhtml") + ".html"
        for name in names
        if name.endswith(".xhtml") and name != "copyright.xhtml"
    }


def section_titles(site: Path, builddir: Path, language: str) -> list[str]:
    held = book_pages(builddir, language) - {"genindex.html", "epub-cover.html", "nav.html"}
    titles = []
    for name in sorted(held):
        page = (site / language / name).read_text(encoding="utf-8")
        titles += [plain(title).strip() for _level, title in HEADING.findall(page)]
    return titles


def pdf_text(pdf: Path, *options: str) -> str:
    """The PDF's text as ``pdftotext OPTIONS`` reads it. The tests read each PDF some twenty
    times in a few ways: each reading is made once per state of the file (its size and
    modification time), not once per test."""
    status = pdf.stat()
    return _pdf_text(pdf.resolve(), status.st_size, status.st_mtime_ns, options)


@functools.cache
def _pdf_text(pdf: Path, _size: int, _mtime_ns: int, options: tuple[str, ...]) -> str:
    return subprocess.run(
        ["pdftotext", "-enc", "UTF-8", *options, str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def pdf_pages(pdf: Path) -> list[str]:
    return pdf_text(pdf, "-layout").split("\f")[:-1]


# The glossary's and the index's headings, in each edition.
GLOSSARY_HEADINGS = {"zh_CN": ("术语表", "索引"), "en": ("Glossary", "Index")}


# What the index says under its heading (jaxbook.sphinxext.editions.latex.index_note).
INDEX_NOTE = {
    "zh_CN": "粗体页码表示正文主要讲解该条目的地方。",
    "en": "Page numbers in bold mark the main discussion of an entry.",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_index_says_what_its_bold_page_numbers_mean(built_editions, language):
    """As a publisher's index does; the editors found bold numbers with no word of them."""
    pages = [
        [line.strip() for line in page.splitlines() if line.strip()]
        for page in pdf_pages(the_pdf(built_editions, language))
    ]
    noted = [page[:2] for page in pages if INDEX_NOTE[language] in page]
    assert noted == [[GLOSSARY_HEADINGS[language][1], INDEX_NOTE[language]]]


NCX = {"n": "http://www.daisy.org/z3986/2005/ncx/"}


def ncx_entry(point: ElementTree.Element) -> tuple[str | None, str | None]:
    """An entry of an EPUB's contents: its label and the place it leads to."""
    content = point.find("n:content", NCX)
    return point.findtext("n:navLabel/n:text", namespaces=NCX), (
        content.get("src") if content is not None else None
    )


def repeated_entries(ncx: str) -> list[str]:
    """The entries of an EPUB's contents (``toc.ncx``) whose first child is the entry itself:
    the same label and the same place."""
    found = []
    for point in ElementTree.fromstring(ncx).iter(f"{{{NCX['n']}}}navPoint"):
        children = point.findall("n:navPoint", NCX)
        if children and ncx_entry(children[0]) == ncx_entry(point):
            found.append(ncx_entry(point)[0] or "")
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_epubs_contents_list_each_entry_once(built_editions, language):
    """The Chinese editor found "第 1 章 JAX 简介" listed again as a child of itself, and so
    every page of the chapter (Sphinx's epub_tocdup)."""
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        ncx = epub.read("toc.ncx").decode("utf-8")
    assert "<navPoint" in ncx
    assert repeated_entries(ncx) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_glossary_term_never_ends_a_page_without_its_definition(built_editions, language):
    """The en editor found "host" alone at the foot of a glossary page, its definition on the
    next: a term's line goes over with its definition's first lines."""
    pages = pdf_pages(the_pdf(built_editions, language))
    heading, index = GLOSSARY_HEADINGS[language]

    def starts(title: str) -> int:
        return next(i for i, page in enumerate(pages) if re.search(rf"^ *{title} *$", page, re.M))

    terms = {term.names.get(language, "") for term in project.glossary(ROOT / project.GLOSSARY)}
    terms -= {""}
    ended = []
    for number in range(starts(heading), starts(index)):
        lines = [line.strip() for line in pages[number].splitlines() if line.strip()]
        # The last line is the footer (its folio, and on an even page the running title).
        if lines[-2] in terms:
            ended.append((number + 1, lines[-2]))
    assert len(terms) > 20
    assert ended == []


def pdf_fonts(pdf: Path) -> list[dict[str, str]]:
    lines = subprocess.run(
        ["pdffonts", str(pdf)], capture_output=True, text=True, check=True
    ).stdout.splitlines()[2:]
    # name type... encoding emb sub uni object-id gen: the flags are counted from the end.
    # A subset's name starts with six random capitals and "+" ("GCJKHX+CMSY7"), which may
    # spell anything: "face" is the name without them.
    return [
        {
            "name": line.split()[0],
            "face": line.split()[0].split("+", 1)[-1],
            "emb": line.split()[-5],
            "uni": line.split()[-3],
        }
        for line in lines
    ]


# The edition statement, as conf.py's edition (1, 2026-12) reads in each language.
EDITION = {"zh_CN": "第 1 版，2026 年 12 月", "en": "First edition, December 2026"}


def test_the_edition_statement_is_conf_pys():
    conf = runpy.run_path(str(ROOT / "conf.py"), {"tags": Tags()})
    assert (conf["jaxbook_edition"], conf["jaxbook_edition_date"]) == (1, "2026-12")


def credits(language: str) -> dict[str, str]:
    """Who wrote, translated and publishes the book, and what it is (its description and
    keywords), in ``language``, from where they are set:
    ``conf.py`` and ``locale/languages.csv``, through the language's ``book.po``."""
    conf = runpy.run_path(str(ROOT / "conf.py"), {"tags": Tags()})
    names = {
        "authors": conf["author"],
        "publisher": conf["jaxbook_publisher"],
        "translators": project.languages(ROOT)[language].translators,
        "description": conf["jaxbook_description"],
        "keywords": conf["jaxbook_keywords"],
    }
    po = ROOT / "locale" / language / "LC_MESSAGES" / "book.po"
    translated = (
        {e.msgid: e.msgstr for e in polib.pofile(str(po)) if e.msgstr} if po.exists() else {}
    )
    return {role: translated.get(name, name) for role, name in names.items()}


# -- The PDF -----------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_pdf_holds_every_section_title(built_site, built_editions, language):
    # In the order the page draws it: a long title that wraps stays whole.
    text = squeeze(pdf_text(the_pdf(built_editions, language), "-raw"))
    titles = section_titles(built_site, built_editions, language)
    assert len(titles) > 40
    assert [title for title in titles if squeeze(title) not in text] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_pdf_shows_pairs_outputs_and_the_update_notes_table(built_site, built_editions, language):
    text = pdf_text(the_pdf(built_editions, language))
    squeezed = squeeze(text)
    # The ❌ / ✅ labels, as the website shows them: the emoji are pictures in the PDF.
    page = (built_site / language / "ch01" / "jax-vs-numpy.html").read_text(encoding="utf-8")
    labels = set(re.findall(r'<p class="jb-half-label">([^<]+)</p>', page))
    assert {label[0] for label in labels} == {"❌", "✅"}
    for label in labels:
        assert squeeze(html.unescape(label)[1:]) in squeezed, label
    # Every row of the update-notes table, as the website shows it. The table
    # spans pages that repeat its header; read in layout mode, the first line
    # of each cell stays whole, so each row is found by the start of its point.
    table_pages = squeeze(
        "".join(
            page
            for page in pdf_pages(the_pdf(built_editions, language))
            # A header may be hyphenated or wrapped ("Chan- ged"): two of three will do.
            if sum(squeeze(header) in squeeze(page) for header in TABLE_HEADERS[language]) >= 2
        )
    )
    assert table_pages
    table = (built_site / language / "ch01" / "update-notes.html").read_text(encoding="utf-8")
    rows = re.findall(r'<tr class="row-[^"]*" id="update-row-[^"]+">(.*?)</tr>', table, re.DOTALL)
    assert len(rows) > 10
    for row in rows:
        number, point = (plain(c) for c in re.findall(r"<td>(.*?)</td>", row, re.S)[:2])
        assert squeeze(point)[:5] in table_pages, (number, point)
    # Both backends' outputs of a cell, each under its own label.
    cpu, gpu = (
        ("CPU 上的输出", "GPU 上的输出")
        if language == "zh_CN"
        else ("Output on CPU", "Output on GPU")
    )
    assert squeeze(cpu) in squeezed
    assert squeeze(gpu) in squeezed


# Where an output comes from: "CPU 上的输出：", "Output on GPU (recorded on ...):".
OUTPUT_LABEL = {
    "zh_CN": re.compile(r"(上的输出|运行环境).*[:：]\s*$"),
    "en": re.compile(r"(Output on|Measured on).*:\s*$"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_ends_with_an_outputs_label(built_editions, language):
    """The label goes over with its output: "Output on CPU:" ended a page of the English
    edition, its output on the next."""
    ends = []
    for number, page in enumerate(pdf_pages(the_pdf(built_editions, language)), start=1):
        lines = [line.strip() for line in page.splitlines() if line.strip()]
        body = lines[:-1]  # the foot: folio and section
        if body and OUTPUT_LABEL[language].search(body[-1]):
            ends.append((number, body[-1]))
    assert ends == []


def code_and_outputs(site: Path, pages: set[str]) -> list[tuple[str, str, str | None]]:
    """Each code block of the book's pages on the site with the output right under it: (the
    page, the code, the output; None for outputs per backend, which print under a label)."""
    found: list[tuple[str, str, str | None]] = []
    for name in sorted(pages):
        for code in soup(site / name).select("div.highlight-python"):
            after = code.find_next_sibling()
            classes = after.get("class", []) if after is not None else []
            if any(c.startswith("highlight-") and c != "highlight-python" for c in classes):
                found.append((name, code.get_text(), after.get_text()))
            elif "jb-backend-tabs" in classes:
                found.append((name, code.get_text(), None))
    return found


def parted_outputs(
    pages: list[list[tuple[float, str]]],
    blocks: list[tuple[str, str, str | None]],
    label: re.Pattern[str],
) -> list[tuple[int, str, str]]:
    """Each output of ``blocks`` that starts a page whose page before ends with its code: (the
    page, the code's last line, the output's first line or its ``label``'s). ``pages`` are
    ``page_lines``'."""
    parted = []
    for number, (page, next_page) in enumerate(pairwise(pages), start=1):
        if not page or not next_page:
            continue
        top = html.unescape(next_page[0][1])
        last, first = squeeze(html.unescape(page[-1][1])), squeeze(top)
        for _name, code, output in blocks:
            code_lines = [squeeze(line) for line in code.split("\n") if squeeze(line)]
            if not (last and first and code_lines and code_lines[-1].endswith(last[-20:])):
                continue
            if output is None:
                starts = bool(label.search(top))
            else:
                output_lines = [squeeze(line) for line in output.split("\n") if squeeze(line)]
                starts = bool(output_lines) and output_lines[0].startswith(first[:20])
            if starts:
                parted.append((number, code_lines[-1], first))
                break
    return parted


def test_the_parted_output_check_sees_an_output_overleaf():
    label = OUTPUT_LABEL["en"]
    blocks = [("p.html", "x = 1\nprint(x)\n", "1\n2\n3\n4\n"), ("p.html", "print(y)\n", None)]
    code_at_foot = [(0.5, "x = 1"), (0.9, "print(x)")]
    assert parted_outputs([code_at_foot, [(0.1, "1")]], blocks, label) == [(1, "print(x)", "1")]
    assert parted_outputs([[(0.5, "print(x)"), (0.9, "1")], [(0.1, "2")]], blocks, label) == []
    labelled = [[(0.9, "print(y)")], [(0.1, "Output on CPU:"), (0.2, "2")]]
    assert parted_outputs(labelled, blocks, label) == [(1, "print(y)", "OutputonCPU:")]


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_output_goes_on_on_the_page_its_code_ends_on(built_site, built_editions, language):
    """A page that ends with a code block and one that starts with what it printed part a
    question from its answer (the en editor counted eleven). Each output goes on right under
    its code, at least its first three lines; a code block long enough to break over pages
    (over twelve lines) may still end at a page's foot, where LaTeX's frame splits it."""
    pages = book_pages(built_editions, language) - {"genindex.html", "epub-cover.html", "nav.html"}
    blocks = [
        (name, code, output)
        for name, code, output in code_and_outputs(built_site / language, pages)
        if code.strip("\n").count("\n") + 1 <= 12
    ]
    assert len([block for block in blocks if block[2] is None]) >= 5
    assert len(blocks) > 40
    pages = page_lines(the_pdf(built_editions, language))
    assert parted_outputs(pages, blocks, OUTPUT_LABEL[language]) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_pdf_shows_measured_figures_not_wildcards(built_editions, language):
    text = pdf_text(the_pdf(built_editions, language))
    label = "运行环境：" if language == "zh_CN" else "Measured on: "
    # Two timing cells (jax-vs-numpy, answers); the installation cell's versions too.
    assert squeeze(text).count(squeeze(label)) >= 2
    # pdftotext may put a right-aligned figure on the line after its label; the code that
    # prints the line has an f-string field there instead ("{real_ms:.3f}").
    timings = re.findall(r"block_until_ready\s*[:：]\s*([^\s{]\S*)\s+ms", text)
    assert timings
    assert all(re.fullmatch(r"\d+\.\d+", t) for t in timings), timings
    assert not re.search(r"\.\.\. ms", text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_title_page_names_the_authors_the_translators_and_the_publisher(
    built_editions, language
):
    names = credits(language)
    title_page = " ".join(pdf_pages(the_pdf(built_editions, language))[0].split())
    assert names["authors"] in title_page
    assert names["publisher"] in title_page
    if language == project.SOURCE_LANGUAGE:
        assert not names["translators"]
    else:
        assert names["translators"]
        assert names["translators"] in title_page


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_credits_name_the_project_as_a_publishers_credits_would(built_editions, language):
    """No person is named: the project's authors, its translators and the project itself
    (the publisher) are credited as a publisher credits them, each by a name of its own (a
    creator who is not also the publisher), not as a "team" or "编写组"."""
    names = credits(language)
    named = [name for name in names.values() if name]
    assert len(set(named)) == len(named), names
    assert names["authors"] != names["publisher"]
    assert not re.search(r"\bteam\b|组", " ".join(named), re.IGNORECASE), names
    copyright_page = " ".join(pdf_pages(the_pdf(built_editions, language))[1].split())
    assert f"© 2026 {names['authors']}" in copyright_page


# The English credit lines, as a publisher words them: a sentence names the project with its
# article ("the ... Project"); the name alone is the EPUB's creator and the copyright line's.
ENGLISH_CREDIT_LINES = {
    "title": ["Written by the Bilingual JAX Book Authors"],
    "copyright": [
        "Written by the Bilingual JAX Book Authors",
        "Translated by the Bilingual JAX Book Translators",
        "Published by the Bilingual JAX Book Project",
        "© 2026 Bilingual JAX Book Authors",
    ],
}


def test_the_english_credit_lines_name_the_project_with_its_article(built_editions):
    """The editor read "Written by Bilingual JAX Book Project" on the title page."""
    pages = pdf_pages(the_pdf(built_editions, "en"))
    title_page, copyright_page = (" ".join(page.split()) for page in pages[:2])
    assert [line for line in ENGLISH_CREDIT_LINES["title"] if line not in title_page] == []
    assert [line for line in ENGLISH_CREDIT_LINES["copyright"] if line not in copyright_page] == []
    assert not re.search(r"\bby Bilingual\b", title_page + copyright_page)
    metadata = package_of(built_editions, "en").find(f"{OPF}metadata")
    assert [c.text for c in metadata.findall(f"{DC}creator")] == ["Bilingual JAX Book Authors"]
    # A creator who is not also the publisher.
    assert [c.text for c in metadata.findall(f"{DC}publisher")] == ["Bilingual JAX Book Project"]


# The line under the title: what the edition holds, then the JAX series it is for.
SUBTITLE = {
    "zh_CN": "第 1 章 JAX 简介（适用于 JAX 0.12）",
    "en": "Chapter 1: Introduction to JAX · For JAX 0.12",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_subtitle_says_the_books_scope_on_the_web_in_the_pdf_and_the_epub(
    built_site, built_editions, language
):
    title_page = " ".join(pdf_pages(the_pdf(built_editions, language))[0].split())
    # xeCJK sets the dot between Chinese words with no space around it.
    dot = re.compile(r"\s*·\s*")
    assert dot.sub("·", SUBTITLE[language]) in dot.sub("·", title_page)
    [epub] = (built_editions / "epub").glob(f"*-{language}.epub")
    with zipfile.ZipFile(epub) as book:
        copyright_page = book.read("copyright.xhtml").decode("utf-8")
    assert SUBTITLE[language] in " ".join(BeautifulSoup(copyright_page, "html.parser").text.split())
    # A reader's library shows the scope beside the title: the package's subtitle.
    metadata = package_of(built_editions, language).find(f"{OPF}metadata")
    titles = {t.get("id"): t.text for t in metadata.findall(f"{DC}title")}
    assert titles["subtitle"] == SUBTITLE[language]
    kinds = {m.get("refines"): m.text for m in metadata.findall(f"{OPF}meta")}
    assert kinds["#title"] == "main"
    assert kinds["#subtitle"] == "subtitle"
    for name in ("index.html", "ch01/arrays.html"):
        page = soup(built_site / language / name)
        subtitle = page.select_one(".sidebar-brand + .jb-subtitle")
        assert subtitle is not None, name
        assert " ".join(subtitle.text.split()) == SUBTITLE[language], name
        # The sidebar's narrow column never breaks the release's name.
        assert "JAX\N{NO-BREAK SPACE}0.12" in subtitle.text, name


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_copyright_page_has_the_edition_the_licences_and_the_course_credit(
    built_editions, language
):
    page = " ".join(pdf_pages(the_pdf(built_editions, language))[1].split())
    assert project.pinned_release(ROOT) in page  # the JAX release it runs on
    assert EDITION[language] in page  # the edition statement
    assert "CC BY 4.0" in page
    assert "https://creativecommons.org/licenses/by/4.0/" in page
    assert "MIT" in page
    assert "ApX Machine Learning" in page
    assert "https://apxml.com/" in page
    assert f"© 2026 {credits(language)['authors']}" in page


@pytest.mark.parametrize(("language", "preface"), [("zh_CN", "前言"), ("en", "Preface")])
def test_the_preface_is_roman_numbered_and_in_the_contents_and_bookmarks(
    built_editions, language, preface
):
    pages = pdf_pages(the_pdf(built_editions, language))
    contents = next(page for page in pages if preface in page)
    entry = next(line for line in contents.splitlines() if line.strip().startswith(preface))
    assert re.search(r"\s[ivx]+\s*$", entry), entry  # its folio is roman
    chapter = re.compile(r"\s*(第 1 章|Chapter 1:)")
    first_chapter = next(line for line in contents.splitlines() if chapter.match(line))
    assert first_chapter.split()[-1] == "1", first_chapter  # the first chapter starts at 1
    [out] = (built_editions / "latex" / language).glob("*.out")
    assert bookmarks(out.read_text(encoding="utf-8"))[0] == preface


def bookmarks(out: str, levels: set[int] | None = None) -> list[str]:
    """The PDF's bookmarks as hyperref writes them (``.out``): UTF-16 in octal escapes;
    those of ``levels`` only, if given (0: a chapter, 1: a section)."""
    titles = []
    for level, escaped in re.findall(r"\\BOOKMARK \[(\d+)\]\[-?\]\{[^}]*\}\{([^}]*)\}", out):
        if levels is not None and int(level) not in levels:
            continue
        data = re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m[1], 8)]), escaped.encode())
        titles.append(data.decode("utf-16"))
    return titles


def margins(pdf: Path) -> list[tuple[str, list[tuple[float, str]]]]:
    """Each page's running head (its text, "" where it has none) and its foot (each word's
    middle as a share of the page's width, and the word)."""
    page_tag = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
    word = re.compile(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>'
    )
    found = []
    for width, height, words in page_tag.findall(pdf_text(pdf, "-bbox")):
        w, h = float(width), float(height)
        placed = [
            (float(a), float(b), float(c), float(d), t) for a, b, c, d, t in word.findall(words)
        ]
        head = " ".join(html.unescape(t) for _a, _b, _c, d, t in placed if d < 0.075 * h)
        foot = [((a + c) / 2 / w, html.unescape(t)) for a, b, c, _d, t in placed if b > 0.93 * h]
        found.append((head, foot))
    return found


# The contents' heading, which no bookmark names (the contents list the bookmarks' pages).
CONTENTS = {"zh_CN": "目录", "en": "Contents"}
ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}


def folio_number(folio: str) -> int:
    """A folio's number: arabic, or roman in the front matter."""
    if folio.isdigit():
        return int(folio)
    values = [ROMAN[letter] for letter in folio]
    return sum(-v if v < after else v for v, after in zip(values, [*values[1:], 0], strict=True))


def contents_pages(toc: str) -> list[tuple[int, str]]:
    """The folio of each chapter's and section's first page, in the order of the contents
    (the LaTeX ``.toc``), with its level (0: a chapter, 1: a section)."""
    entries = re.findall(
        r"\\contentsline \{(chapter|section)\}\{.*\}\{([ivxlc\d]+)\}\{[^{}]*\}%$", toc, re.M
    )
    return [(0 if kind == "chapter" else 1, folio) for kind, folio in entries]


@pytest.mark.parametrize("language", LANGUAGES)
def test_running_heads_name_the_chapter_and_the_section_and_the_foot_its_folio(
    built_editions, language
):
    """A book's running heads: the chapter over an even page and, over an odd one, the section
    in force where the page begins (or the one it opens with), the folio alone at the foot's
    outer corner. The heads once gave the book's title on every page, and the chapter and
    section at the foot, which the editors read as a manual's; then a section begun low on a
    page named it from its top."""
    [out] = (built_editions / "latex" / language).glob("*.out")
    [toc] = (built_editions / "latex" / language).glob("*.toc")
    titles = bookmarks(out.read_text(encoding="utf-8"), {0, 1})
    starts = contents_pages(toc.read_text(encoding="utf-8"))
    assert len(titles) == len(starts) > 8
    pdf = the_pdf(built_editions, language)
    pages = margins(pdf)
    # Each page's folio, and the PDF page of each heading's folio.
    folios = [
        next((w for _x, w in foot if re.fullmatch(r"\d+|[ivxlc]+", w)), "") for _h, foot in pages
    ]
    headings = [
        (folios.index(folio), level, squeeze(title))
        for (level, folio), title in zip(starts, titles, strict=True)
    ]
    wrong, headless, checked = [], [], 0
    for index, ((head, foot), (inside, _margin), lines) in enumerate(
        zip(pages, body_words(pdf), page_lines(pdf), strict=True)
    ):
        if not head:
            if inside:
                headless.append(index + 1)
            continue  # the title page, a chapter's first page, a blank one
        words = [w for _x, w in foot]
        if len(words) != 1 or words[0] != folios[index]:
            wrong.append((index + 1, "foot", words))
            continue
        even = folio_number(folios[index]) % 2 == 0
        if (foot[0][0] < 0.5) != even:
            wrong.append((index + 1, "folio on the inner side", words))
        before = [h for h in headings if h[0] < index]
        opens = [h for h in headings if h[0] == index and lines and squeeze(lines[0][1]) == h[2]]
        if even:
            chapters = [h for h in headings if h[0] <= index and h[1] == 0]
            expected = chapters[-1][2] if chapters else squeeze(CONTENTS[language])
        else:
            expected = (opens or before or [(0, 0, squeeze(CONTENTS[language]))])[-1][2]
        checked += 1
        if squeeze(head) != expected:
            wrong.append((index + 1, head, expected))
    assert checked > 100  # nearly every page has a head
    assert wrong == []
    # A page with text and no head opens a chapter (the contents' too), or is the title page
    # or its back, the copyright page: the glossary's odd pages had an empty head.
    chapter_count = sum(1 for level, _folio in starts if level == 0)
    assert len(headless) == chapter_count + 1 + 2, headless


def body_words(pdf: Path) -> list[tuple[int, int]]:
    """(text in the type area, text in the margins) on each page, as word counts. The type
    area is where the text block sits, below the running head and above the foot."""
    page_tag = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
    word = re.compile(r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">')
    counts = []
    for _width, height, words in page_tag.findall(pdf_text(pdf, "-bbox")):
        ys = [(float(top), float(bottom)) for top, bottom in word.findall(words)]
        # The running head ends 7.2 % down the page and the type area starts 9.2 % down; the
        # type area ends 90 % down and the foot starts 93 % down (both trim sizes).
        top_of_text, foot = 0.08 * float(height), 0.915 * float(height)
        inside = [1 for top, bottom in ys if top > top_of_text and bottom < foot]
        counts.append((len(inside), len(ys) - len(inside)))
    return counts


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_blank_page_carries_a_running_head_or_folio(built_editions, language):
    pages = body_words(the_pdf(built_editions, language))
    blank = [i for i, (inside, margins) in enumerate(pages, start=1) if not inside]
    assert blank  # the check looks at the pages left blank before a chapter
    assert [(i, pages[i - 1][1]) for i in blank if pages[i - 1][1]] == []


# A code block's wrapped line goes on after a hook (\sphinxafterbreak), which poppler reads
# at the start of the next line.
HOOK = "↪"
# An identifier fragment ending in "_" at the end of a line, with no mark on the next (the
# hook of a code block's wrapped line): inline code breaks before its underscores, so the
# next line starts with one.
UNMARKED_BREAK = re.compile(rf"\S*[A-Za-z0-9]_\n(?![ \t]*{HOOK})\S*")


# A foot: the folio, and the chapter or section beside it.
FOOT = re.compile(r"^(\d+|[ivxlc]+)(\s.*)?$|^.*\s(\d+|[ivxlc]+)$")


def body_text(pdf: Path) -> str:
    """The PDF's text in reading order, without running heads and feet: a line broken at
    the foot of a page goes on at the top of the next."""
    heads = [head for head, _foot in margins(pdf)]
    pages = []
    for page, head in zip(pdf_text(pdf, "-raw").split("\f"), [*heads, ""], strict=True):
        lines = page.splitlines()
        if head and lines and squeeze(lines[0]) == squeeze(head):
            lines = lines[1:]
        if lines and FOOT.match(lines[-1].strip()):
            lines = lines[:-1]
        pages.append("\n".join(lines))
    return "\n".join(pages)


# A name broken before an underscore, as Chicago (7.42) breaks a name: "jax.default" at a
# line's end and "_matmul_precision" at the next one's start, with no mark; not with the
# code blocks' hook (HOOK), which a code block never puts before an
# underscore (it breaks only at a space or after a comma) and a reader of running text took
# for a stray symbol.
BEFORE_UNDERSCORE = re.compile(r"\S*[A-Za-z0-9]\n_[A-Za-z0-9]\S*")
HOOKED_UNDERSCORE = re.compile(rf"[A-Za-z0-9]\n{HOOK}_[A-Za-z0-9]")


# A quoted string of inline code broken before one of its underscores: "jax_debug_key" at a
# line's end, "_reuse" at the next one's start.
STRING_BROKEN = re.compile(r"""(["'])[A-Za-z0-9_.]*[A-Za-z0-9]\n_[A-Za-z0-9_.]*\1""")


@pytest.mark.parametrize("language", LANGUAGES)
def test_names_break_only_before_an_underscore_and_with_no_hook(built_editions, language):
    raw = body_text(the_pdf(built_editions, language))
    assert UNMARKED_BREAK.findall(raw) == []
    assert HOOKED_UNDERSCORE.findall(raw) == []
    assert BEFORE_UNDERSCORE.search(raw)  # the book does break names, before "_"
    # A name breaks; a string does not (the editors read "jax_debug_key" / "_reuse" as a typo).
    assert [m.group(0) for m in STRING_BROKEN.finditer(raw)] == []


# A name broken at a line's end: "jax.config" / ".update", "jax.default" / "_matmul_precision".
NAME_BROKEN = re.compile(r"[A-Za-z0-9)\]]\n[._][A-Za-z]")
# At most one name broken at a line's end in this many pages: a Chinese line may end between
# any two characters, an English line only at a space. With TeX's cost for such a break (50,
# not jaxbook.sty's \exhyphenpenalty), there were 29 in the Chinese edition's 141 pages and
# 62 in the English's 136; the editors counted them against print.
PAGES_PER_BROKEN_NAME = {"zh_CN": 10, "en": 4}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_line_breaks_inside_a_name_only_where_it_must(built_editions, language):
    pdf = the_pdf(built_editions, language)
    broken = NAME_BROKEN.findall(body_text(pdf))
    assert len(broken) <= len(pdf_pages(pdf)) / PAGES_PER_BROKEN_NAME[language]


# pdftotext's words, with their boxes: a run of Chinese characters is one word.
WORD_BOX = re.compile(
    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>'
)


def test_a_reference_sets_its_closing_quote_and_its_pages_bracket_as_a_pair(built_editions):
    """clreq (3.1.6): two marks side by side take one and a half characters, not two. A
    reference whose title ends with its closing quote ("见 1.7 节“练习 E1”（第 99 页）") set
    the quote and the page's bracket full width each, 3 characters for "”（第": the link
    ended between them."""
    words = WORD_BOX.findall(pdf_text(the_pdf(built_editions, "zh_CN"), "-bbox"))
    pairs = [
        (float(x1) - float(x0)) / (float(y1) - float(y0))
        for x0, y0, x1, y1, word in words
        if word in {"”（第", "”，第"}
    ]
    assert pairs
    assert [round(width, 2) for width in pairs if width > 2.6] == []


def split_across_pages(pages: list[list[tuple[float, str]]]) -> list[tuple[int, str]]:
    """The pages (``page_lines``') whose last line ends inside a name ("jax.lax" / ".psum")
    or a hyphenated word that the next page's first line finishes: the page and the break."""
    split = []
    for number, (lines, following) in enumerate(pairwise(pages), start=1):
        if not lines or not following:
            continue
        last, first = lines[-1][1].rstrip(), following[0][1].lstrip()
        name = re.search(r"[A-Za-z0-9]$", last) and re.match(r"[._][A-Za-z]", first)
        word = re.search(r"[A-Za-z]-$", last) and re.match(r"[a-z]", first)
        if name or word:
            split.append((number, f"{last[-20:]} / {first[:20]}"))
    return split


# A line that ends a paragraph, and one that stops mid-sentence (at a word or a comma, not a
# colon, a bracket or a code block's last character).
ENDS_PARAGRAPH = re.compile(r"[.!?。！？）)」”’]$")
MID_SENTENCE = re.compile(r"[\w，、,；;]$")


def lines_with_ends(pdf: Path) -> list[list[tuple[float, float, float, str]]]:
    """Each page's lines of text in the type area, top to bottom, as (the line's foot as a
    share of the page's height, its left and right edges as shares of the page's width, its
    text): no running head, foot or footnote. A blank page has none."""
    page_tag = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
    line_tag = re.compile(
        r'<line xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</line>',
        re.S,
    )
    pages = []
    for width, height, page in page_tag.findall(pdf_text(pdf, "-bbox-layout")):
        lines = sorted(
            (
                float(top) / float(height),
                float(bottom) / float(height),
                " ".join(re.findall(r">([^<]*)</word>", words)),
                float(left) / float(width),
                float(right) / float(width),
            )
            for left, top, right, bottom, words in line_tag.findall(page)
        )
        # The type area, as body_words has it; a footnote is its number and an address.
        body = [(b, lft, r, text) for top, b, text, lft, r in lines if top > 0.08 and b < 0.915]
        while len(body) > 1 and re.match(r"\d+ https?://", body[-1][3]):
            body.pop()
        pages.append(body)
    return pages


def widows(
    pages: list[list[tuple[float, float, float, str]]], titles: set[str]
) -> list[tuple[int, str]]:
    """The pages (``lines_with_ends``') that open with a paragraph's last line alone, carried
    over from a page whose last line runs to the margin, stops mid-sentence and starts where
    the carried line does (not a list item's, indented): the line is followed by the space
    between two blocks, not by the next line of its paragraph."""
    found = []
    for number, (lines, following) in enumerate(pairwise(pages), start=2):
        if not lines or len(following) < 3:
            continue
        _bottom, left, right, last = lines[-1]
        first = following[0][3].rstrip()
        margin = max(r for _b, _l, r, _t in lines)
        indent = left - min(lft for _b, lft, _r, _t in lines)
        indent_next = following[0][1] - min(lft for _b, lft, _r, _t in following)
        steps = [b[0] - a[0] for a, b in pairwise(following[1:]) if b[0] > a[0]]
        gap = following[1][0] - following[0][0]
        if (
            MID_SENTENCE.search(last.rstrip())
            and right > margin - 0.02
            and abs(indent - indent_next) < 0.01
            and ENDS_PARAGRAPH.search(first)
            and not any(first in marks for marks in CONTINUED.values())  # a box goes on
            and squeeze(first) not in titles
            and steps
            and gap > 1.5 * min(steps)
        ):
            found.append((number, f"{last.rstrip()[-20:]} / {first[:30]}"))
    return found


def test_the_widow_check_sees_a_last_line_carried_over():
    pages = [
        [
            (0.78, 0.1, 0.85, "For the releases the code was run on and what changed, by release,"),
            (0.80, 0.1, 0.85, "of the release notes, see “Running chapter 1 on other JAX"),
        ],
        [
            (0.10, 0.12, 0.3, "releases” (page 116)."),
            (0.16, 0.12, 0.85, "Next paragraph starts"),
            (0.18, 0.12, 0.6, "and goes on."),
        ],
    ]
    assert widows(pages, set()) == [(2, "apter 1 on other JAX / releases” (page 116).")]
    items = [pages[0][0], (0.80, 0.13, 0.85, "• an item that ends according to the specs")]
    assert widows([items, pages[1]], set()) == []  # a list's item, indented, ends there
    pages[0][1] = (0.80, 0.1, 0.5, "a line that ends short")
    assert widows(pages, set()) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_opens_with_a_paragraphs_last_line_alone(built_site, built_editions, language):
    """Both editors found widows: "的内存分配，因运行而异…" and "见 JAX 的随机数教程。" at the
    top of a page of the Chinese edition, "releases” (page 116)." of the English."""
    titles = {squeeze(title) for title in section_titles(built_site, built_editions, language)}
    assert widows(lines_with_ends(the_pdf(built_editions, language)), titles) == []


def test_the_page_turn_check_sees_a_name_split_over_it():
    pages = [[(0.9, "such as jax.lax")], [(0.1, ".psum, a sum")], [(0.1, "Updates (.at[i].set,")]]
    assert split_across_pages(pages) == [(1, "such as jax.lax / .psum, a sum")]
    assert split_across_pages([[(0.9, "drop out-")], [(0.1, "side the loop")]])
    assert split_across_pages([*pages[1:], [(0.1, ".add, and the like")]]) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_name_or_word_is_split_across_a_page_turn(built_editions, language):
    """ "jax.lax" / ".psum" (the English edition) and "JAX_ENABLE" / "_X64=1" (the Chinese)
    were split across a page turn: a line broken inside a name or a word does not end a
    page (\brokenpenalty)."""
    assert split_across_pages(page_lines(the_pdf(built_editions, language))) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_image_is_printed_at_300_pixels_to_the_inch_or_more(built_editions, language):
    """Figure 1-1 was printed at 157 ppi, which both editors held against printing: a print
    book asks 300."""
    listed = subprocess.run(
        ["pdfimages", "-list", str(the_pdf(built_editions, language))],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()[2:]  # fmt: skip
    # page num type width height color comp bpc enc interp object generation x-ppi y-ppi ...
    images = [(int(r[0]), int(r[3]), int(r[12]), int(r[13])) for r in map(str.split, listed)]
    assert any(width > 500 for _page, width, _x, _y in images)  # the figure is among them
    assert [i for i in images if min(i[2:]) < 300] == []


def test_the_chinese_index_runs_see_into_its_term(built_editions):
    """ "见 即时编译", "另请参见 异步派发": the zh editor read a space where Chinese sets none
    (before a Latin term, "见 XLA", the space is the one Chinese sets beside Latin)."""
    raw = pdf_text(the_pdf(built_editions, "zh_CN"), "-raw")
    # An index entry's "see" follows its comma; "see also", its pages.
    see = r"(?:，见|另请参见)"
    assert re.search(rf"{see}[\u4e00-\u9fff]", raw)  # the index has such entries
    assert re.findall(rf"{see}[ \t]+[\u4e00-\u9fff]+", raw) == []  # a line may end there


def test_the_english_glossary_sets_each_chinese_term_whole(built_editions):
    """The en editor found "钳" / "制" and "追踪" / "器" broken over two lines in the
    glossary's "(Chinese: ...)"."""
    raw = pdf_text(the_pdf(built_editions, "en"), "-raw")
    quoted = re.findall(r"Chinese:\s*([\u3400-\u9fff\s]+?)\)", raw)
    assert len(quoted) > 20
    assert [term for term in quoted if "\n" in term.strip()] == []


def test_a_range_keeps_its_en_dash_with_its_ends_in_english(built_editions):
    """The English preface broke "exercises E1–" / "E4": xeCJK set the en dash in the CJK
    font, as a character a line may end after. In English it is the Latin font's."""
    raw = body_text(the_pdf(built_editions, "en"))
    assert re.findall(r"\S*[A-Za-z0-9]–\n\S*", raw) == []
    assert re.search(r"[A-Za-z0-9]–[A-Za-z0-9]", raw)  # the book has ranges


def test_the_break_check_sees_a_break_after_an_underscore_or_a_hook():
    assert UNMARKED_BREAK.findall("jax.default_matmul_\nprecision") == [
        "jax.default_matmul_\nprecision"
    ]
    assert UNMARKED_BREAK.findall("jax.default_matmul\n_precision") == []
    assert BEFORE_UNDERSCORE.findall("such as jax\n_enable_x64. The") == ["jax\n_enable_x64."]
    assert HOOKED_UNDERSCORE.findall(f"such as jax\n{HOOK}_enable_x64. The")
    assert STRING_BROKEN.findall('jax.config.update("jax_debug_key\n_reuse", True)')
    assert not STRING_BROKEN.findall('with jax.default_matmul\n_precision("highest")')
    assert not HOOKED_UNDERSCORE.findall("such as jax\n_enable_x64. The")


LOOSE_LINE = re.compile(
    r"Underfull \\hbox \(badness (\d+)\) in paragraph at lines [\d-]+\n(.*?)\n\n", re.S
)


def loose_chinese_lines(log: str) -> list[str]:
    """The lines TeX reports it spread too far (jaxbook.sty sets the threshold) that hold
    Chinese: a Chinese line spread is letter-spaced. A line of code alone cannot stretch,
    and is merely short."""
    return [
        f"badness {badness}: {text[:80]}"
        for badness, text in LOOSE_LINE.findall(log)
        if re.search(r"[\u4e00-\u9fff]", text)
    ]


def test_no_chinese_line_is_letter_spaced(built_editions):
    log = latex_log(built_editions, "zh_CN")
    style = (built_editions / "latex" / "zh_CN" / "jaxbook.sty").read_text(encoding="utf-8")
    assert "\\hbadness=200" in style  # TeX reports each line spread 0.15 em a character
    assert loose_chinese_lines(log) == []


# TeX's report of a loose line, with where its paragraph stands in the LaTeX source.
LOOSE_LINE_AT = re.compile(
    r"Underfull \\hbox \(badness (\d+)\) in paragraph at lines (\d+)--(\d+)\n(.*?)\n\n", re.S
)
# A line of Latin text spread to more than about 2.5 times its spaces' stretch: loose to any
# reader ("Multi-device parallelism:   JAX 0.12 offers three ways.   In", 3439). A milder
# one is the price of the English edition's short ragged break (3 em): with an unlimited one
# an editor found forty lines ending far from the margin before inline code; with 3 em a few
# lines in the narrow boxes of the update notes are set at 400 to 1400.
LATIN_LOOSE = 1500
# Inline code as long as half a line: its spaces do not stretch, and where it holds no place
# to break (a command with an address), the lines around it cannot be set well.
LONG_CODE = 40


def long_inline_code(source: str) -> bool:
    """Whether LaTeX ``source`` holds inline code of ``LONG_CODE`` characters or more."""
    for code in re.findall(r"\\sphinxupquote\{(.*?)\}\}", source):
        text = re.sub(r"\\[A-Za-z]+(\{\})?|[{}]", "", code)
        if len(text) >= LONG_CODE:
            return True
    return False


def loose_latin_lines(log: str, tex: str) -> list[str]:
    """The lines of an edition in a Latin script that TeX reports spread past ``LATIN_LOOSE``,
    but in a paragraph with long inline code, which no setting of the text can make good."""
    source = tex.splitlines()
    return [
        f"badness {badness}: {text[:80]}"
        for badness, first, last, text in LOOSE_LINE_AT.findall(log)
        if int(badness) > LATIN_LOOSE
        and not long_inline_code("\n".join(source[int(first) - 1 : int(last)]))
    ]


def test_no_english_line_is_spread(built_editions):
    """The summary's bullets were set loose ("Multi-device parallelism:   JAX 0.12 offers three
    ways.   In", badness 3439): a glossary term's words, never hyphenated, and inline code that
    breaks only before a dot or an underscore left the line before them nowhere to end. Such a
    line now ends a little short, ragged (jaxbook.sty's \\jbraggedbreak, at most 3 em), and
    a sentence takes one space; the index and headings are ragged."""
    [tex] = (built_editions / "latex" / "en").glob("*.tex")
    log = latex_log(built_editions, "en")
    assert "Underfull \\hbox" in log  # the log does report loose lines
    assert loose_latin_lines(log, tex.read_text(encoding="utf-8")) == []


def test_the_latin_loose_line_check_sees_a_spread_line():
    tex = "\n".join(
        [
            r"\sphinxstylestrong{Multi\sphinxhyphen{}device parallelism}: JAX 0.12 offers",
            r"Older tutorials: \sphinxcode{\sphinxupquote{pip install "
            r"\sphinxhyphen{}\sphinxhyphen{}upgrade "
            r'"jax{[}cuda11\_cudnn82{]}" \sphinxhyphen{}f https://storage.googleapis.com/jax}}',
        ]
    )
    log = (
        "Underfull \\hbox (badness 3439) in paragraph at lines 1--1\n"
        "[]\\TU/NotoSerif(0)/b/n/10 Multi-device parallelism: JAX 0.12 offers\n\n"
        "Underfull \\hbox (badness 3482) in paragraph at lines 2--3\n"
        "[]\\TU/NotoSerif(0)/m/n/10 Older tutorials\n\n"
        "Underfull \\hbox (badness 293) in paragraph at lines 1--1\n"
        "[]\\TU/NotoSerif(0)/m/n/10 Update notes\n\n"
    )
    assert loose_latin_lines(log, tex) == [
        "badness 3439: []\\TU/NotoSerif(0)/b/n/10 Multi-device parallelism: JAX 0.12 offers"
    ]


def test_the_loose_line_check_sees_a_spread_line():
    log = (
        "Underfull \\hbox (badness 1199) in paragraph at lines 2604--2609\n"
        "[]\\TU/NotoSerif(0)/m/n/10 NVIDIA GPU \\TU/NotoSerifCJKSC(0)/m/n/10 用 （推 荐）\n\n"
        "Underfull \\hbox (badness 10000) in paragraph at lines 2549--2552\n"
        '\\TU/NotoSansMonoCJKSC(0)/m/n/10 "jax[[]cuda11_[]cudnn82]" []f https:/[]/\n\n'
    )
    assert len(loose_chinese_lines(log)) == 1


# TeX's report of a page, or of the part of a box set on it, taller than the room it had.
OVERFULL_PAGE = re.compile(r"Overfull \\vbox \(([\d.]+)pt too high\) (?:detected at line \d+|.*)")
# What a page may run over by unseen: under its last line's depth.
FOOTER_TOLERANCE = 2.0


def overfull_pages(log: str) -> list[str]:
    """TeX's reports of what ran more than ``FOOTER_TOLERANCE`` points past the foot of the
    type area, into the footer: a box whose last code block or output crossed the rule over
    the folio."""
    return [
        report.group(0)
        for report in OVERFULL_PAGE.finditer(log)
        if float(report.group(1)) > FOOTER_TOLERANCE
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_box_or_code_block_runs_into_the_footer(built_editions, language):
    """The ✅ box of the installation page's check once ran 18 pt into the footer of page 53 of
    the Chinese edition, "GPU 上的输出：" and its output's frame over the rule (framed.sty
    split the box below a code block as if the block's lower half took no room)."""
    log = latex_log(built_editions, language)
    assert overfull_pages(log) == []
    # jaxbook.sty's patch to framed.sty applied (a box split at a page's top keeps its height).
    assert "Package jaxbook Warning" not in log


def test_the_footer_check_sees_a_box_in_the_footer():
    log = (
        "Overfull \\vbox (18.41153pt too high) detected at line 3390\n []\n\n"
        "Overfull \\vbox (1.49484pt too high) detected at line 4274\n []\n\n"
        "Overfull \\vbox (3.5pt too high) has occurred while \\output is active\n"
        "Overfull \\hbox (25.0pt too wide) in paragraph at lines 10--12\n"
    )
    assert overfull_pages(log) == [
        "Overfull \\vbox (18.41153pt too high) detected at line 3390",
        "Overfull \\vbox (3.5pt too high) has occurred while \\output is active",
    ]


# Where a code block's or an output's frame has its rule, in points left of the first letter
# of an unindented line: Sphinx sets code flush with the text and draws the frame in the
# margin, 3 pt out. A box's own rule lies 7 pt out, past its padding.
FRAME_RULE = (1.5, 5.0)
# Darker than a box's ground (the ❌ box's grey is 247), as dark as a frame's rule of 0.4 pt
# drawn across two pixels.
RULE_GREY = 210
LINE_TAG = re.compile(
    r'<line xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">(.*?)</line>', re.S
)


def inline_code_texts(site: Path, pages: set[str]) -> set[str]:
    """The inline code of the book's pages on the site, squeezed."""
    return {squeeze(text) for name in sorted(pages) for text in page_code(site / name)[1]}


def unframed_code_lines(
    pdf: Path, code: str, inline: set[str], scratch: Path
) -> tuple[int, list[tuple[int, str]]]:
    """How many lines of ``pdf`` are whole, unindented lines of ``code`` (as the site shows
    the book's code and outputs), and those of them set with no frame's rule at their left,
    with their pages: a code block that Sphinx set without its frame, its lines run into the
    box's text and the output's under it."""
    from PIL import Image

    # A line that the code also has indented ("except TypeError as e:" in a function), or
    # that the text has as inline code (the cheat sheet's "import jax.numpy as jnp"), is not
    # known to start at a frame.
    indented = {squeeze(line) for line in code.splitlines() if line[:1].isspace()}
    lines = {squeeze(line) for line in code.splitlines() if line[:1].strip()} - indented - inline
    lines = {line for line in lines if len(line) >= 6}
    scale = 2  # 144 dpi: two pixels to the point
    page_tag = re.compile(r"<page [^>]*>(.*?)</page>", re.S)
    found = []  # each code line's page, its left, top and bottom edge, and its text
    for number, page in enumerate(page_tag.findall(pdf_text(pdf, "-bbox-layout")), start=1):
        for left, top, bottom, words in LINE_TAG.findall(page):
            text = html.unescape(" ".join(re.findall(r">([^<]*)</word>", words)))
            if squeeze(text) in lines:
                found.append((number, float(left), float(top), float(bottom), text))
    if not found:
        return 0, []
    # Only the pages that hold such lines, and only the band of them where a rule at the
    # left of any of them would be: half the CPU time of drawing every page whole.
    band = (
        math.floor((min(line[1] for line in found) - FRAME_RULE[1]) * scale),
        math.ceil((max(line[1] for line in found) - FRAME_RULE[0]) * scale),
    )
    pages = (min(line[0] for line in found), max(line[0] for line in found))
    crop = ["-x", str(band[0]), "-W", str(band[1] - band[0]), "-H", "0"]
    first_last = ["-f", str(pages[0]), "-l", str(pages[1])]
    subprocess.run(
        [
            "pdftoppm",
            "-gray",
            "-r",
            str(72 * scale),
            *first_last,
            *crop,
            str(pdf),
            scratch / "page",
        ],
        check=True,
    )
    images = {int(image.stem.rsplit("-", 1)[1]): image for image in scratch.glob("page-*.pgm")}
    seen, unframed = len(found), []
    opened: dict[int, Image.Image] = {}
    for number, left, top, bottom, text in found:
        if number not in opened:
            opened[number] = Image.open(images[number])
        image = opened[number]
        margin = (bottom - top) / 4
        strip = (
            round((left - FRAME_RULE[1]) * scale) - band[0],
            round((top + margin) * scale),
            round((left - FRAME_RULE[0]) * scale) - band[0],
            round((bottom - margin) * scale),
        )
        # Outside the image, a crop reads black: a rule that is not there.
        assert 0 <= strip[0] < strip[2] <= image.width, strip
        assert strip[3] <= image.height, strip
        if image.crop(strip).getextrema()[0] > RULE_GREY:
            unframed.append((number, text))
    return seen, unframed


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_code_block_and_output_keeps_its_frame(
    built_site, built_editions, language, tmp_path
):
    """In a box broken over two pages too: where the "Requesting float64" ❌ box began near the
    foot of page 16 of the English edition, its code and its output ran together on page 17
    with no frame or ground, as one listing (Sphinx measured the room for a block in a box on
    the page where the box began)."""
    pages = book_pages(built_editions, language) - {"genindex.html", "epub-cover.html", "nav.html"}
    code = code_texts(built_site / language, pages)
    inline = inline_code_texts(built_site / language, pages)
    pdf = the_pdf(built_editions, language)
    seen, unframed = unframed_code_lines(pdf, code, inline, tmp_path)
    assert seen > 500  # the check finds the book's code
    assert unframed == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_glyph_the_text_uses_is_in_a_font(built_editions, language):
    log = latex_log(built_editions, language)
    assert re.findall(r"Missing character: There is no .*", log) == []
    glyphs = (built_editions / "latex" / language / "jaxbook-glyphs.sty").read_text(
        encoding="utf-8"
    )
    # 🧪, newer than the symbol font, is its picture from Noto Color Emoji, not ⚗.
    assert "\\newunicodechar{🧪}{\\jbemoji{emoji-1f9ea.png}}" in glyphs
    assert (built_editions / "latex" / language / "emoji-1f9ea.png").is_file()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pdf_embeds_noto_serif_and_the_cjk_fonts(built_editions, language):
    fonts = pdf_fonts(the_pdf(built_editions, language))
    names = " ".join(font["face"] for font in fonts)
    assert [font for font in fonts if font["emb"] != "yes"] == []
    assert "NotoSerif-Regular" in names
    assert "NotoSans-Bold" in names  # the headings
    assert "CJK" in names
    # Sphinx's own faces (DejaVu) set no text: the formulas' signs alone are DejaVu Math's.
    assert "DejaVu" not in names.replace("DejaVuMathTeXGyre", "")


@pytest.mark.parametrize("language", LANGUAGES)
def test_formulas_are_set_in_the_texts_faces(built_editions, language):
    """The formulas (the linear model's loss, exercise E1's standardization) were set in
    Computer Modern, LaTeX's default, beside Noto Serif's heavier, wider letters, which the
    editors saw: a formula's letters and digits are Noto Serif's, its signs one maths font's,
    and nothing is Computer Modern's or Latin Modern's."""
    fonts = pdf_fonts(the_pdf(built_editions, language))
    faces = {font["face"] for font in fonts}
    assert [face for face in faces if re.match(r"CM[A-Z]+\d|LM|LatinModern", face)] == []
    assert "NotoSerif-Italic" in faces  # a formula's letters (the text has no italics in zh)
    assert "DejaVuMathTeXGyre-Regular" in faces  # its signs: =, the summation, the brackets


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_cjk_text_is_set_in_the_simplified_chinese_faces(built_editions, language):
    """Each CJK font the PDF embeds is named as the SC face it is: Noto CJK's collections name
    their shared font program after the JP face, which pdffonts and a printer's preflight
    listed ("NotoSansCJKjp-Regular") though the glyphs were SC's."""
    fonts = pdf_fonts(the_pdf(built_editions, language))
    cjk = [font["name"] for font in fonts if "CJK" in font["face"]]
    assert cjk
    assert [name for name in cjk if not re.search(r"\+Noto(Sans|Serif|SansMono)CJKsc-", name)] == []


# The language each PDF declares in its catalog (/Lang): the region whose conventions it follows.
PDF_LANGUAGE = {"zh_CN": "zh-CN", "en": "en-US"}


def catalog_languages(pdf: Path) -> set[str]:
    """The /Lang entries of the PDF's objects, read in its compressed object streams too."""
    data = pdf.read_bytes()
    texts = [data]
    for stream in re.findall(rb"stream\r?\n(.*?)endstream", data, re.S):
        try:
            texts.append(zlib.decompress(stream))
        except zlib.error:
            continue  # an image or a font
    return {found.decode() for text in texts for found in re.findall(rb"/Lang\s*\(([^)]*)\)", text)}


def test_the_language_check_reads_a_compressed_catalog(tmp_path):
    catalog = zlib.compress(b"<< /Type /Catalog /Lang (en-US) >>")
    (tmp_path / "a.pdf").write_bytes(b"%PDF-1.5\n1 0 obj\n<< >>\nstream\n" + catalog + b"endstream")
    assert catalog_languages(tmp_path / "a.pdf") == {"en-US"}


def pdf_info(pdf: Path) -> dict[str, str]:
    """The PDF's information dictionary, as pdfinfo prints it."""
    printed = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    return dict(re.findall(r"^(\w+):\s+(.*)$", printed, re.M))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pdf_says_its_language_title_authors_subject_and_keywords(built_editions, language):
    """In the edition's language: a screen reader picks its voice by /Lang, and a library
    lists the book by its information."""
    pdf = the_pdf(built_editions, language)
    assert catalog_languages(pdf) == {PDF_LANGUAGE[language]}
    info = pdf_info(pdf)
    metadata = package_of(built_editions, language).find(f"{OPF}metadata")
    assert info["Title"] == metadata.find(f"{DC}title").text
    assert info["Author"] == credits(language)["authors"]
    assert info["Subject"] == metadata.find(f"{DC}description").text  # the EPUB's description
    keywords = re.split("[,，] ?", info["Keywords"])
    assert "JAX" in keywords
    assert len(keywords) > 4
    # As conf.py and the language's book.po say them, hyphens and all ("just-in-time", not
    # "justintime").
    assert info["Subject"] == credits(language)["description"]
    assert keywords == re.split("[,，] ?", credits(language)["keywords"])
    for text in (info["Subject"], info["Keywords"]):
        # Chinese in the Chinese edition; none in the English one.
        assert bool(re.search(r"[\u4e00-\u9fff]", text)) == (language == "zh_CN"), text


XMP = {
    "rdf": "{http://www.w3.org/1999/02/22-rdf-syntax-ns#}",
    "pdf": "{http://ns.adobe.com/pdf/1.3/}",
    "xmpMM": "{http://ns.adobe.com/xap/1.0/mm/}",
    "xmpRights": "{http://ns.adobe.com/xap/1.0/rights/}",
    "xmpTPg": "{http://ns.adobe.com/xap/1.0/t/pg/}",
    "prism": "{http://prismstandard.org/namespaces/basic/3.0/}",
}


def xmp_metadata(pdf: Path) -> dict[str, list[str]]:
    """The PDF's XMP metadata (``pdfinfo -meta``): each property of its description, as the
    texts of its items (a list's ``rdf:li``) or its own text."""
    packet = subprocess.run(
        ["pdfinfo", "-meta", str(pdf)], capture_output=True, text=True, check=True
    ).stdout
    start, end = packet.find("<x:xmpmeta"), packet.find("</x:xmpmeta>")
    if start < 0:
        return {}
    root = ElementTree.fromstring(packet[start : end + len("</x:xmpmeta>")])
    return {
        prop.tag: [li.text or "" for li in prop.iter(f"{XMP['rdf']}li")] or [prop.text or ""]
        for description in root.iter(f"{XMP['rdf']}Description")
        for prop in description
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pdf_says_the_same_in_its_xmp_metadata(built_editions, language):
    """What an archive's or a library's tools read (XMP) says what the information says, in
    the edition's language, with the publisher, the licence and the EPUB's identifier: the
    PDF had no metadata stream."""
    pdf = the_pdf(built_editions, language)
    xmp = xmp_metadata(pdf)
    info = pdf_info(pdf)
    metadata = package_of(built_editions, language).find(f"{OPF}metadata")
    assert xmp.get(f"{DC}title") == [info["Title"]]
    assert xmp[f"{DC}creator"] == [credits(language)["authors"]]
    assert xmp[f"{DC}description"] == [info["Subject"]]
    assert xmp[f"{DC}language"] == [PDF_LANGUAGE[language]]
    assert xmp[f"{XMP['pdf']}Keywords"] == [info["Keywords"]]
    assert xmp[f"{DC}publisher"] == [credits(language)["publisher"]]
    assert xmp[f"{XMP['xmpRights']}WebStatement"] == [
        "https://creativecommons.org/licenses/by/4.0/"
    ]
    identifier = metadata.find(f"{DC}identifier").text
    assert xmp[f"{XMP['xmpMM']}DocumentID"] == [identifier.removeprefix("urn:")]
    # The count the last xelatex pass read from the one before: the passes that leave the
    # packet out (jaxbook.sty) must not leave it to one whose count is not the book's.
    assert xmp[f"{XMP['xmpTPg']}NPages"] == xmp[f"{XMP['prism']}pageCount"] == [info["Pages"]]


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_edition_has_its_trim_size(built_editions, language):
    info = subprocess.run(
        ["pdfinfo", str(the_pdf(built_editions, language))],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    width, height = map(float, re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info).groups())
    assert (round(width, 1), round(height, 1)) == tuple(round(v, 1) for v in TRIM[language])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_code_measure_is_the_columns_the_type_area_holds(built_editions, language):
    # The measure that tests/site/test_code_width.py holds each listing's source lines to.
    log = latex_log(built_editions, language)
    textwidth = float(re.search(r"^\* \\textwidth=([\d.]+)pt$", log, re.M)[1])
    assert int(textwidth / CODE_COLUMN_PT) == code_columns(language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_figures_and_listings_are_numbered_per_chapter(built_editions, language):
    text = pdf_text(the_pdf(built_editions, language))
    for label in NUMBERED[language].values():
        assert label in text
    assert not re.search(
        r"(图|Figure|代码清单|Listing) \d+[:：]", text
    )  # numbered through the book


@pytest.mark.parametrize("language", LANGUAGES)
def test_cross_references_in_print_carry_their_pages(built_editions, language):
    text = pdf_text(the_pdf(built_editions, language))
    assert len(re.findall(PAGE_REFERENCE[language], text)) > 50


# A page reference set inside the quotes of the title it follows, or before the full stop
# inside them (“How to read this book (page v).”); in US English a comma after the quotes
# (“Random numbers”, page 50), in Chinese one or a full stop before them.
MISPLACED_PAGE = {
    "zh_CN": re.compile(r"第 ?[ivxlc\d]+ ?页）?[。，]?[”’」』]|[。，][”’」』]（第"),
    "en": re.compile(r"\(page [ivxlc\d]+\)[.,]?[”’]|[.,][”’] \(page|[”’], page [ivxlc\d]"),
}
# And as the editions set them: “How to read this book” (page v). (see “Random numbers,”
# page 50) “阅读说明”（第 5 页）。
PLACED_PAGE = {
    "zh_CN": [re.compile(r"[”’]（第 ?[ivxlc\d]+ ?页）[。，]"), re.compile(r"[”’]，第 ?\d+ ?页")],
    "en": [re.compile(r"[”’] \(page [ivxlc\d]+\)[.,]"), re.compile(r",[”’] page \d+")],
}


def test_the_page_reference_check_sees_a_misplaced_page():
    assert MISPLACED_PAGE["en"].search("under “How to read this book (page v).” Next")
    assert MISPLACED_PAGE["en"].search("(see “Random numbers”, page 50 in section 1.5)")
    assert not MISPLACED_PAGE["en"].search("under “How to read this book” (page v). Next")
    assert MISPLACED_PAGE["zh_CN"].search("见“阅读说明（第 5 页）”。")
    assert not MISPLACED_PAGE["zh_CN"].search("见“阅读说明”（第 5 页）。")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_page_reference_stands_outside_the_quotes_and_before_the_full_stop(
    built_editions, language
):
    text = " ".join(pdf_text(the_pdf(built_editions, language)).split())
    assert MISPLACED_PAGE[language].findall(text) == []
    for placed in PLACED_PAGE[language]:
        assert placed.search(text), placed.pattern


def page_lines(pdf: Path) -> list[list[tuple[float, str]]]:
    """Each page's lines of text in the type area, top to bottom, as (the line's foot as a
    share of the page's height, its text): no running head, foot or footnote. A blank page
    has none."""
    return [[(bottom, text) for bottom, _l, _r, text in page] for page in lines_with_ends(pdf)]


def has_running_head(pdf: Path) -> list[bool]:
    """Whether each page has its running head: a chapter's first page has none."""
    page_tag = re.compile(r'<page width="[\d.]+" height="([\d.]+)">(.*?)</page>', re.S)
    word = re.compile(r'<word xMin="[\d.]+" yMin="[\d.]+" xMax="[\d.]+" yMax="([\d.]+)">')
    return [
        any(float(bottom) < 0.075 * float(height) for bottom in word.findall(page))
        for height, page in page_tag.findall(pdf_text(pdf, "-bbox"))
    ]


def pages_ending_with(pdf: Path, titles: set[str]) -> list[tuple[int, str]]:
    """The pages of ``pdf`` whose last line (or last two: a long title wraps) is one of
    ``titles``, with that line."""
    ends = []
    for number, lines in enumerate(page_lines(pdf), start=1):
        texts = [text for _bottom, text in lines]
        for count in (1, 2):
            if len(texts) > count and squeeze(" ".join(texts[-count:])) in titles:
                ends.append((number, " ".join(texts[-count:])))
    return ends


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_ends_with_a_heading(built_site, built_editions, language):
    """A heading goes over with the text under it: "The overall pipeline" ended page 5 of the
    English edition, and "练习 5：逐元素函数" page 88 of the Chinese one, each with a need for
    room asked for after it."""
    titles = {squeeze(title) for title in section_titles(built_site, built_editions, language)}
    assert pages_ending_with(the_pdf(built_editions, language), titles) == []


def headings_at_the_foot(pdf: Path, titles: set[str], under: int = 2) -> list[tuple[int, str]]:
    """The pages of ``pdf`` that end ``under`` lines or fewer below a heading, one of
    ``titles`` at the type area's left edge (not a box's title, inside its frame: "Question
    8" over a quiz's answer), the next page going on with that heading's text (not a
    chapter's end, nor the next section's heading: a section of two lines may end a page),
    with those lines."""
    pages, heads = page_lines(pdf), has_running_head(pdf)
    page_tag = re.compile(r"<page [^>]*>(.*?)</page>", re.S)
    lefts = [
        {
            html.unescape(" ".join(re.findall(r">([^<]*)</word>", words))): float(left)
            for left, _top, _bottom, words in LINE_TAG.findall(page)
        }
        for page in page_tag.findall(pdf_text(pdf, "-bbox-layout"))
    ]
    found = []
    for index, lines in enumerate(pages[:-1]):
        if not heads[index + 1] or not pages[index + 1]:
            continue  # the chapter ends here
        following = [text for _bottom, text in pages[index + 1][:2]]
        if any(squeeze(" ".join(following[:size])) in titles for size in (1, 2)):
            continue  # the next section begins the next page
        texts = [html.unescape(text) for _bottom, text in lines]
        # The left edge of the type area, on a left-hand or a right-hand page: where most
        # lines start (a Chinese line that opens with a bracket starts a little left of it).
        edge = Counter(
            round(left) for page in lefts[index % 2 :: 2] for left in page.values()
        ).most_common(1)[0][0]
        for count in range(2, under + 2):
            for size in (1, 2):  # a long title wraps
                at = len(texts) - count - size + 1
                if (
                    at > 0
                    and squeeze(" ".join(texts[at : at + size])) in titles
                    and abs(lefts[index].get(texts[at], 1e9) - edge) < 1
                ):
                    found.append((index + 1, " / ".join(texts[at:])))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_heading_starts_a_pages_foot_only_with_room_under_it(
    built_site, built_editions, language
):
    """Not with a line or two of text under it: the title of the Chinese edition's quiz
    ended page 105 with the two lines that introduce it, its first question on page 106."""
    titles = {squeeze(title) for title in section_titles(built_site, built_editions, language)}
    assert headings_at_the_foot(the_pdf(built_editions, language), titles) == []


def term_links(site: Path, pages: set[str]) -> set[str]:
    """The texts of the links from a term's first use to its entry in the glossary, squeezed."""
    texts = set()
    for name in sorted(pages):
        texts |= {squeeze(link.get_text()) for link in soup(site / name).select("a.jb-term-link")}
    return texts - {""}


def broken_links(xml: str) -> list[str]:
    """The links of ``pdftohtml -xml``'s reading of a PDF that end one line and go on at the
    start of the next (the same target), as their two parts: "inter- / mediate
    representation"."""
    parts = []  # (target, text, line's top, at the line's start, at its end)
    for top, inner in re.findall(r'<text top="(\d+)"[^>]*>(.*?)</text>', xml):
        for match in re.finditer(r'<a href="([^"]*)">(.*?)</a>', inner):
            text = html.unescape(re.sub(r"<[^>]+>", "", match[2]))
            first, last = match.start() == 0, match.end() == len(inner)
            parts.append((match[1], text, int(top), first, last))
    return [
        f"{one} / {two}"
        for (target, one, top, _s, end), (target2, two, top2, start, _e) in pairwise(parts)
        if target == target2 and top2 > top and end and start
    ]


def test_the_broken_link_check_sees_a_term_over_two_lines():
    xml = (
        '<text top="100" left="50">the <a href="b.html#12">inter-</a></text>\n'
        '<text top="112" left="50"><a href="b.html#12">mediate representation</a>, the</text>\n'
        '<text top="124" left="50">a <a href="b.html#12">jaxpr</a> and</text>\n'
    )
    assert broken_links(xml) == ["inter- / mediate representation"]
    assert broken_links(xml)[0].split(" / ")[0].endswith("-")  # hyphenated inside a word


def test_a_terms_link_to_the_glossary_breaks_only_between_its_words(built_site, built_editions):
    """In the English edition a term's first use, which links to its entry, is never broken
    inside a word ("inter-" / "mediate representation", "im-" / "mutable" on page 80); it may
    break between its words ("explicit" / "sharding"), as running text does, where a line
    set whole would have been letter-spaced ("jit"). A Chinese term breaks between its
    characters, as the text does."""
    pages = book_pages(built_editions, "en") - {"genindex.html", "epub-cover.html", "nav.html"}
    terms = term_links(built_site / "en", pages)
    assert len(terms) > 50
    # The reading the other tests make (pdf_xml), once: a link's target is named the same in
    # both of its parts.
    broken = broken_links(pdf_xml(the_pdf(built_editions, "en")))
    assert broken  # a long cross-reference does break
    split_terms = [link for link in broken if squeeze(link.replace(" / ", "")) in terms]
    hyphenated = [link for link in split_terms if link.split(" / ")[0].endswith(("-", "\u2010"))]
    assert hyphenated == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_page_is_left_short_only_where_a_chapter_ends(built_editions, language):
    """A page whose text ends in the top third of its type area is the last of a chapter (a
    blank page, the next chapter's first page or the book's end follow): "In detail:
    Inspecting a jaxpr" stood alone on page 7 of the English edition, its text on page 8."""
    pdf = the_pdf(built_editions, language)
    pages, heads = page_lines(pdf), has_running_head(pdf)
    short = []
    for index, lines in enumerate(pages[:-1]):
        following = next((i for i in range(index + 1, len(pages)) if pages[i]), None)
        ends_chapter = following is None or following > index + 1 or not heads[following]
        fill = (lines[-1][0] - 0.08) / (0.915 - 0.08) if lines else 1
        if fill < 1 / 3 and not ends_chapter:
            short.append((index + 1, round(fill, 2), lines[-1][1]))
    assert short == []


# A footnote at a page's foot, as poppler reads it: its number and the address it gives.
FOOTNOTE = re.compile(r"^\s*(\d+)\s+https?://", re.M)


def footnote_numbers_by_chapter(pdf: Path) -> list[list[int]]:
    """The footnotes' numbers, in reading order, in runs that each start at a page with text
    and no running head: the preface's first page, or a chapter's."""
    runs: list[list[int]] = [[]]
    for text, head in zip(pdf_pages(pdf), has_running_head(pdf), strict=True):
        if text.strip() and not head:
            runs.append([])
        runs[-1] += [int(number) for number in FOOTNOTE.findall(text)]
    return [run for run in runs if run]


def footnote_feet(pdf: Path) -> list[tuple[int, float]]:
    """Each page whose type area ends with a footnote (an address, as the book's footnotes
    are): the page, and how far down the page the footnote's last line ends."""
    page_tag = re.compile(r'<page width="[\d.]+" height="([\d.]+)">(.*?)</page>', re.S)
    line_tag = re.compile(
        r'<line xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">(.*?)</line>', re.S
    )
    feet = []
    for number, (height, page) in enumerate(page_tag.findall(pdf_text(pdf, "-bbox-layout")), 1):
        lines = sorted(
            (float(bottom) / float(height), " ".join(re.findall(r">([^<]*)</word>", words)))
            for top, bottom, words in line_tag.findall(page)
            if float(top) / float(height) > 0.08 and float(bottom) / float(height) < 0.915
        )
        if lines and re.fullmatch(r"(\d+ )?https?://\S+", lines[-1][1]):
            feet.append((number, round(lines[-1][0], 3)))
    return feet


@pytest.mark.parametrize("language", LANGUAGES)
def test_footnotes_stand_at_the_foot_of_the_page(built_editions, language):
    """A reader looks for a footnote at the page's foot: on a page left short the notes stood
    under the text, mid-page, with the white below them (both editors)."""
    feet = footnote_feet(the_pdf(built_editions, language))
    assert len(feet) > 5
    assert [(page, at) for page, at in feet if at < 0.88] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_footnotes_are_numbered_from_one_in_each_chapter(built_editions, language):
    """The preface's footnotes went on into chapter 1 (its first footnote was 3): Sphinx
    numbers them through the book, jaxbook.sty from 1 in each chapter."""
    runs = footnote_numbers_by_chapter(the_pdf(built_editions, language))
    assert len(runs) >= 2  # the preface's, and chapter 1's
    assert [run for run in runs if run != list(range(1, len(run) + 1))] == []


def code_texts(site: Path, pages: set[str]) -> str:
    """The code and outputs of the book's pages on the site, line by line."""
    return "\n".join(text for name in sorted(pages) for text in page_code(site / name)[0])


def soup(page: Path) -> BeautifulSoup:
    """A page of the site, parsed. The tests read the same pages some six times a language
    (their code, inline code, tables' headers, boxes' titles, links to the glossary, the
    edition statement), and none changes the tree: each page is parsed once per state of
    its file, as ``pdf_text`` reads each PDF (0.7-0.9 s a language each time)."""
    status = page.stat()
    return _soup(page.resolve(), status.st_size, status.st_mtime_ns)


@functools.cache
def _soup(page: Path, _size: int, _mtime_ns: int) -> BeautifulSoup:
    return BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")


def page_code(page: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The texts of a page's code blocks and outputs, and of its inline code."""
    parsed = soup(page)
    blocks = tuple(pre.get_text() for pre in parsed.select("div.highlight pre"))
    return blocks, tuple(code.get_text() for code in parsed.select("code.literal"))


# A line of code or output that goes on past a break (the hook at the start of the next
# line), the two sides of the break.
WRAPPED = re.compile(rf"^(.*)\n{HOOK}(.*)$", re.M)
CJK_TEXT = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def broken_inside(text: str, code: str) -> list[str]:
    """The wrapped lines of ``text`` broken inside a number, a name or a word: where the code
    has the two sides joined with nothing between them. A break at a space, after a comma,
    or beside a Chinese character is no such break."""
    inside = []
    for before, after in WRAPPED.findall(text):
        before, after = before.rstrip(), after.lstrip()
        if not before or not after or before.endswith(","):
            continue
        if CJK_TEXT.match(before[-1]) or CJK_TEXT.match(after[0]):
            continue
        if f"{before} {after}" not in code and f"{before}{after}" in code:
            inside.append(f"{before} / {after}")
    return inside


def test_the_wrap_check_sees_a_number_broken_in_two():
    code = "'w': Array([-10.886865, 7.03], dtype=float32)}\nnormalize_indices=True"
    assert broken_inside(f"'w': Array([-10\n{HOOK}.886865, 7.03], dtype=float32)}}", code)
    assert broken_inside(f"normalize_\n{HOOK}indices=True", code)
    assert not broken_inside(f"'w':\n{HOOK}Array([-10.886865, 7.03], dtype=float32)}}", code)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_long_code_line_breaks_only_at_a_space_or_after_a_comma(
    built_site, built_editions, language
):
    """Never inside a number, a name or a word ("Array([-10" / ".886865", "normalize_" /
    "indices"), and with no visible space at the end of the broken line."""
    pages = book_pages(built_editions, language) - {"genindex.html", "epub-cover.html", "nav.html"}
    code = code_texts(built_site / language, pages)
    text = pdf_text(the_pdf(built_editions, language), "-raw")
    assert "␣" not in text
    assert WRAPPED.search(text)  # long lines do wrap
    assert broken_inside(text, code) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_table_cell_starts_with_an_index_entry_or_a_target(built_editions, language):
    [tex] = (built_editions / "latex" / language).glob("*.tex")
    cells = re.findall(
        r"\\begin\{varwidth\}\[t\]\{[^\n]*\}\n(?:\\sphinxstyletheadfamily )?(\\\w+)",
        tex.read_text(encoding="utf-8"),
    )
    assert len(cells) > 100
    # Each cell starts with its text, or ends there empty.
    assert set(cells) == {"\\sphinxAtStartPar", "\\sphinxbeforeendvarwidth"}


def test_the_tools_are_there():
    """The PDF checks need poppler; name what is missing rather than fail obscurely."""
    assert shutil.which("pdftotext"), "install poppler-utils"
    assert shutil.which("pdffonts"), "install poppler-utils"


def test_the_chinese_pdf_spaces_a_link_that_begins_with_a_digit(built_editions):
    """见 1.2 节, as on the site: a link's macro keeps xeCJK from adding its own space."""
    text = pdf_text(the_pdf(built_editions, "zh_CN"))
    assert re.findall(r"见 \d\.\d 节", text)
    assert not re.findall(r"见\d\.\d 节", text)


# A word of Chinese with curly quotes at its ends, and no other punctuation, or a quote
# alone (where the Latin font sets it, poppler reads it as a word of its own).
QUOTED = re.compile(r"[“‘]?[\u4e00-\u9fff]*[”’]?")


def quote_widths(pdf: Path) -> list[tuple[str, float]]:
    """Each word of Chinese with a curly quote at an end, with its width in ems (the width
    of a character of the words of Chinese alone): as many as its characters where each
    quote takes a whole em, as GB/T 15834 has it."""
    words = [
        (html.unescape(text), float(right) - float(left))
        for left, right, text in re.findall(
            r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>',
            pdf_text(pdf, "-bbox"),
        )
    ]
    chinese = sorted(
        width / len(text) for text, width in words if re.fullmatch(r"[\u4e00-\u9fff]{4,}", text)
    )
    em = chinese[len(chinese) // 2]
    return [
        (text, round(width / em, 2))
        for text, width in words
        if QUOTED.fullmatch(text) and re.search("[“”‘’]", text)
    ]


def test_the_chinese_pdf_sets_curly_quotes_a_whole_em_wide(built_editions):
    """A curly quote beside Chinese is the CJK font's full-width quote (xeCJK's FullLeft
    and FullRight classes), not the Latin font's narrow one; code keeps its straight quotes."""
    pdf = the_pdf(built_editions, "zh_CN")
    widths = quote_widths(pdf)
    assert len(widths) > 5
    assert [(text, ems) for text, ems in widths if abs(ems - len(text)) > 0.1] == []
    assert 'print("' in pdf_text(pdf)


# -- The EPUB ----------------------------------------------------------------------------


# EPUBCheck's command line on each EPUB in turn, in one JVM (Java runs a one-file program from
# its source): arguments are pairs of an EPUB and the file that takes its report, its exit
# status last. Apart, each book paid the JVM's start and the loading of EPUBCheck's schemas:
# 9.7 s of CPU for the two, 5.9 s in one JVM.
EACH_EPUB = """
import com.adobe.epubcheck.tool.EpubChecker;
import java.io.PrintStream;

public class EachEpub {
  public static void main(String[] args) throws Exception {
    for (int i = 0; i < args.length; i += 2) {
      try (PrintStream report = new PrintStream(args[i + 1], "UTF-8")) {
        System.setOut(report);
        System.setErr(report);
        report.println("exit status " + new EpubChecker().run(new String[] {args[i]}));
      }
    }
  }
}
"""


@pytest.fixture(scope="module")
def epubcheck_reports(built_editions, tmp_path_factory) -> dict[str, str]:
    """EPUBCheck's report on each language's EPUB (what its command line prints, then its
    exit status), every EPUB checked by one JVM."""
    scratch = tmp_path_factory.mktemp("epubcheck")
    program = scratch / "EachEpub.java"
    program.write_text(EACH_EPUB, encoding="utf-8")
    reports = {language: scratch / f"{language}.txt" for language in LANGUAGES}
    pairs = [
        str(part) for lang in LANGUAGES for part in (the_epub(built_editions, lang), reports[lang])
    ]
    # The JIT's first tier only, and the serial collector: a run this short spends half its
    # CPU time optimising code it will not run again (10.6 s against 4.7 s per book).
    fast_start = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]
    result = subprocess.run(
        ["java", *fast_start, "-cp", str(EPUBCHECK), str(program), *pairs],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return {language: report.read_text(encoding="utf-8") for language, report in reports.items()}


@pytest.mark.skipif(
    not EPUBCHECK.exists(), reason="EPUBCheck (Debian package epubcheck) is not installed"
)
@pytest.mark.parametrize("language", LANGUAGES)
def test_epub_is_valid(epubcheck_reports, language):
    report = epubcheck_reports[language]
    assert report.rstrip().endswith("\nexit status 0"), report
    assert "0 fatals / 0 errors / 0 warnings / 0 infos" in report, report


@pytest.mark.parametrize("language", LANGUAGES)
def test_epub_keeps_the_text_of_its_language(built_site, built_editions, language):
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        page = epub.read("ch01/arrays.xhtml").decode("utf-8")
        package = epub.read("content.opf").decode("utf-8")
    [title] = [
        t for t in section_titles(built_site, built_editions, language) if t.startswith("1.5 ")
    ]
    assert title in plain(page)
    assert f"<dc:language>{language.replace('_', '-')}</dc:language>" in package
    # Each page declares it too: a reader picks Chinese glyphs and line breaking from it.
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        pages = [name for name in epub.namelist() if name.endswith(".xhtml")]
        roots = [BeautifulSoup(epub.read(name), "html.parser").find("html").attrs for name in pages]
    tag = language.replace("_", "-")
    assert pages
    assert all(root.get("lang") == tag and root.get("xml:lang") == tag for root in roots)


def package_of(builddir: Path, language: str) -> ElementTree.Element:
    with zipfile.ZipFile(the_epub(builddir, language)) as epub:
        return ElementTree.fromstring(epub.read("content.opf"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_epub_metadata_names_the_authors_translators_publisher_and_access(built_editions, language):
    names = credits(language)
    metadata = package_of(built_editions, language).find(f"{OPF}metadata")
    assert [c.text for c in metadata.findall(f"{DC}creator")] == [names["authors"]]
    assert [p.text for p in metadata.findall(f"{DC}publisher")] == [names["publisher"]]
    contributors = metadata.findall(f"{DC}contributor")
    roles = {
        m.get("refines"): m.text
        for m in metadata.findall(f"{OPF}meta")
        if m.get("property") == "role"
    }
    if names["translators"]:
        assert [c.text for c in contributors] == [names["translators"]]
        assert roles[f"#{contributors[0].get('id')}"] == "trl"
    else:
        assert contributors == []
    properties: dict[str, list[str]] = {}
    for meta in metadata.findall(f"{OPF}meta"):
        properties.setdefault(meta.get("property"), []).append(meta.text)
    assert {"textual", "visual"} <= set(properties["schema:accessMode"])
    assert {"structuralNavigation", "tableOfContents", "index", "alternativeText"} <= set(
        properties["schema:accessibilityFeature"]
    )
    assert len(properties["schema:accessibilitySummary"][0]) > 40
    # The book's version is its edition's number, not the JAX release it runs on.
    assert properties["ibooks:version"] == ["1"]
    [identifier] = metadata.findall(f"{DC}identifier")
    assert re.fullmatch(r"urn:uuid:[0-9a-f-]{36}", identifier.text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_epub_has_a_cover_landmarks_and_the_credit_once(built_editions, language):
    package = package_of(built_editions, language)
    items = {item.get("id"): item for item in package.iter(f"{OPF}item")}
    [cover] = [i for i in items.values() if i.get("properties") == "cover-image"]
    first = items[package.find(f"{OPF}spine/{OPF}itemref").get("idref")]
    assert first.get("href") == "epub-cover.xhtml"
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        assert len(epub.read(cover.get("href"))) > 10_000
        nav = ElementTree.fromstring(epub.read("nav.xhtml"))
        pages = [n for n in epub.namelist() if n.endswith(".xhtml")]
        credited = [n for n in pages if 'class="jb-credit"' in epub.read(n).decode("utf-8")]
    [landmarks] = [n for n in nav.iter(f"{XHTML}nav") if n.get(f"{OPS}type") == "landmarks"]
    kinds = [a.get(f"{OPS}type") for a in landmarks.iter(f"{XHTML}a")]
    assert kinds == ["cover", "toc", "bodymatter", "glossary", "index"]
    # The body opens at chapter 1; the preface before it is named as the PDF names it.
    marks = {a.get(f"{OPS}type"): a.get("href") for a in landmarks.iter(f"{XHTML}a")}
    assert marks["bodymatter"] == "ch01/index.xhtml"
    [toc] = [n for n in nav.iter(f"{XHTML}nav") if n.get(f"{OPS}type") == "toc"]
    entries = {a.get("href"): "".join(a.itertext()) for a in toc.iter(f"{XHTML}a")}
    assert entries["index.xhtml"] == PREFACE[language]
    assert credited == ["copyright.xhtml"]  # once, on the copyright page
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        copyright_page = plain(epub.read("copyright.xhtml").decode("utf-8"))
    assert EDITION[language] in copyright_page  # as the PDF's says it


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_web_page_states_the_edition_as_the_books_do(built_site, language):
    pages = sorted((built_site / language).rglob("*.html"))
    assert pages
    for page in pages:
        parsed = soup(page)
        if parsed.select_one("footer") is None:
            continue  # a redirect, or the not-found page's plain layout
        statements = [p.get_text() for p in parsed.select("p.jb-edition")]
        assert statements == [EDITION[language]], page


@pytest.fixture(scope="module")
def phone(tmp_path_factory):
    from jaxbook.testing.browser import chromium

    driver = chromium(tmp_path_factory.mktemp("chromium"), console=False)
    driver.set_window_size(480, 900)
    yield driver
    driver.quit()


LAYOUT = """
const code = document.querySelector('div.highlight-python div.highlight');
const output = document.querySelector('div.highlight-none div.highlight');
const wide = [...document.querySelectorAll('pre')].filter(p => p.scrollWidth > p.clientWidth + 1);
return {
  page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  cut: wide.length,
  wrap: getComputedStyle(code.querySelector('pre')).whiteSpace,
  codeGround: getComputedStyle(code).backgroundColor,
  outputGround: getComputedStyle(output).backgroundColor,
  outputRule: getComputedStyle(output).borderLeftWidth,
};
"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_epub_code_wraps_on_a_phone_and_output_reads_apart(
    built_editions, phone, tmp_path, language
):
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        epub.extractall(tmp_path)
    phone.get((tmp_path / "ch01" / "jax-vs-numpy.xhtml").as_uri())
    layout = phone.execute_script(LAYOUT)
    assert layout["wrap"] == "pre-wrap"
    assert layout["page"] <= 0  # nothing runs off the side of a 480 px screen
    assert layout["cut"] == 0
    assert layout["codeGround"] != layout["outputGround"]
    assert layout["outputRule"] != "0px"


# Each indented line of code that wraps, as laid out: its text, where its first character
# stands and where its wrapped part starts, in pixels from the left.
WRAPPED_INDENTED = """
const found = [];
for (const line of document.querySelectorAll('span.jb-line')) {
  const text = line.textContent;
  if (!/^ +\\S/.test(text)) continue;
  const whole = document.createRange();
  whole.selectNodeContents(line);
  const rects = [...whole.getClientRects()].filter(r => r.width > 0);
  const tops = [...new Set(rects.map(r => Math.round(r.top)))].sort((a, b) => a - b);
  if (tops.length < 2) continue;
  const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
  let node, first = null;
  while (first === null && (node = walker.nextNode())) {
    const at = node.data.search(/\\S/);
    if (at < 0) continue;
    const character = document.createRange();
    character.setStart(node, at);
    character.setEnd(node, at + 1);
    first = character.getBoundingClientRect().left;
  }
  const next = rects.filter(r => Math.round(r.top) === tops[1]).map(r => r.left);
  found.push([text.trim().slice(0, 40), first, Math.min(...next)]);
}
return found;
"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_epub_a_wrapped_line_goes_on_right_of_its_own_indentation(
    built_editions, phone, tmp_path, language
):
    """The en editor read an indented line's wrapped part, two characters from the block's
    edge, as a statement dedented out of its function (``predict``'s ``params['b']``)."""
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        epub.extractall(tmp_path)
    wrapped = []
    for page in ("transformations", "jax-vs-numpy", "arrays"):
        phone.get((tmp_path / "ch01" / f"{page}.xhtml").as_uri())
        wrapped += phone.execute_script(WRAPPED_INDENTED)
    assert wrapped  # indented lines do wrap on a phone
    assert [line for line in wrapped if line[2] <= line[1]] == []


# Each column of the index's tables, and the page, as laid out: their widths in pixels.
INDEX_COLUMNS = """
const page = document.body.getBoundingClientRect().width;
const columns = [...document.querySelectorAll('table.indextable td')];
return {page: page, columns: columns.map(td => td.getBoundingClientRect().width)};
"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_epub_index_reads_in_one_column_as_wide_as_a_phone(
    built_editions, phone, tmp_path, language
):
    """The index's columns stack on a phone, each as wide as the page: with a third of the
    width each (Sphinx's inline style), an entry broke after each word ("JAX" / "and" /
    "NumPy")."""
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        epub.extractall(tmp_path)
    phone.get((tmp_path / "genindex.xhtml").as_uri())
    layout = phone.execute_script(INDEX_COLUMNS)
    assert len(layout["columns"]) > 10
    assert min(layout["columns"]) > 0.9 * layout["page"], layout


# Where the text of the elements arguments[0] selects (a table cell's inline code, a cell)
# breaks between two characters of a word (arguments[1]: a regular expression of one), as
# laid out: the element's text, with " / " at the break.
MID_WORD_BREAKS = """
const found = [];
const inWord = new RegExp(arguments[1]);
for (const code of document.querySelectorAll(arguments[0])) {
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  const chars = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.data.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      chars.push([node.data[i], rect ? rect.top : null]);
    }
  }
  const text = chars.map(c => c[0]).join('');
  for (let i = 1; i < chars.length; i++) {
    const [before, top0] = chars[i - 1], [after, top1] = chars[i];
    if (top0 !== null && top1 !== null && top1 > top0 + 2
        && inWord.test(before) && inWord.test(after))
      found.push(text.slice(0, i) + ' / ' + text.slice(i));
  }
}
return found;
"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_epub_tables_break_code_only_between_its_parts_on_a_phone(
    built_editions, phone, tmp_path, language
):
    """At 480 px a name in a table cell breaks before a dot or an underscore, as in print,
    not between two letters: "random_array.de" / "vices", "jax_debu" / "g_key_reuse"."""
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        epub.extractall(tmp_path)
    found, tables = {}, 0
    for page in sorted((tmp_path / "ch01").glob("*.xhtml")):
        phone.get(page.as_uri())
        tables += phone.execute_script("return document.querySelectorAll('table.docutils').length")
        if breaks := phone.execute_script(MID_WORD_BREAKS, *CODE_IN_A_CELL):
            found[page.name] = breaks
    assert tables > 5
    assert found == {}


# A name of code in a table cell, and a character of it; a table cell, and a letter.
CODE_IN_A_CELL = ("table.docutils code", "[A-Za-z0-9]")
WORD_IN_A_CELL = ("table.docutils td, table.docutils th", "[A-Za-z]")


@pytest.mark.parametrize("language", LANGUAGES)
def test_epub_tables_keep_each_word_whole_on_a_390_px_phone(
    built_editions, phone, tmp_path, language
):
    """The en editor found "Mutabil" / "ity" and "Hardwar" / "e" in the EPUB's tables at
    390 px: a column's width (the source's ``:widths:``) holds its longest word. A long
    number may still break between its digits."""
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        epub.extractall(tmp_path)
    found = {}
    phone.set_window_size(390, 844)
    try:
        for page in sorted((tmp_path / "ch01").glob("*.xhtml")):
            phone.get(page.as_uri())
            if breaks := phone.execute_script(MID_WORD_BREAKS, *WORD_IN_A_CELL):
                found[page.name] = breaks
    finally:
        phone.set_window_size(480, 900)
    assert found == {}


@pytest.mark.parametrize(("language", "style"), [("zh_CN", "normal"), ("en", "italic")])
def test_a_figures_number_is_upright_in_the_chinese_epub(
    built_editions, phone, tmp_path, language, style
):
    """The zh editor found "图 1-1", and then "代码清单 1-4", in a slanted, synthetic italic:
    Chinese is never set in italics (clreq), where Sphinx's EPUB style sheet slants every
    figure's and listing's number."""
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        epub.extractall(tmp_path)
    for caption, marker in [
        ("figcaption", "<figcaption"),
        ("div.code-block-caption", 'class="code-block-caption"'),
    ]:
        [page, *_] = [
            p for p in sorted((tmp_path / "ch01").glob("*.xhtml")) if marker in p.read_text("utf-8")
        ]
        phone.get(page.as_uri())
        number = f"{caption} span.caption-number"
        assert phone.execute_script(f"return getComputedStyle(document.querySelector('{number}'))"
                                    ".fontStyle") == style, caption  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_epubs_figure_is_as_wide_as_its_text_on_a_phone(
    built_editions, phone, tmp_path, language
):
    """The en editor found the exercises' plot 279 px wide on a 390 px phone, its labels too
    small to read: the reader's default margins of a figure, 40 px on each side."""
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        epub.extractall(tmp_path)
    [page] = [
        p for p in (tmp_path / "ch01").glob("*.xhtml") if "<figcaption" in p.read_text("utf-8")
    ]
    phone.set_window_size(390, 844)
    try:
        phone.get(page.as_uri())
        widths = phone.execute_script(
            "return [document.querySelector('figure img').getBoundingClientRect().width,"
            " document.querySelector('figure').parentElement.getBoundingClientRect().width]"
        )
    finally:
        phone.set_window_size(480, 900)
    image, column = widths
    assert image >= column - 1, widths


def header_cell_rules(css: str) -> dict[str, str]:
    """The declarations of the EPUB stylesheet's last rule for table header cells alone."""
    rules = re.findall(r"table\.docutils th \{([^}]*)\}", css)
    return dict(
        (name.strip(), value.strip())
        for rule in rules
        for name, value in (d.split(":", 1) for d in rule.split(";") if ":" in d)
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_epub_table_headers_wrap_only_between_words(built_editions, language):
    """A header cell took the cells' overflow-wrap: anywhere, and wrapped inside a word with no
    mark ("N" / "o.", "编" / "号"): it breaks between words only."""
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        [name] = [n for n in epub.namelist() if n.endswith("jaxbook-epub.css")]
        rules = header_cell_rules(epub.read(name).decode("utf-8"))
    assert rules.get("overflow-wrap") == "normal"
    assert rules.get("word-break") == "keep-all"


def test_the_table_break_check_sees_a_name_broken_between_letters(phone, tmp_path):
    page = tmp_path / "table.html"
    page.write_text(
        '<table class="docutils" style="width: 90px"><tr><td><code>random_array.devices()'
        "</code></td></tr></table>",
        encoding="utf-8",
    )
    phone.get(page.as_uri())
    phone.execute_script("document.querySelector('code').style.overflowWrap = 'anywhere';")
    assert phone.execute_script(MID_WORD_BREAKS, *CODE_IN_A_CELL)
    # A word of a cell's text, in a column narrower than it.
    page.write_text(
        '<table class="docutils" style="width: 60px; table-layout: fixed"><tr><td '
        'style="overflow-wrap: anywhere">Mutability</td></tr></table>',
        encoding="utf-8",
    )
    phone.get(page.as_uri())
    assert phone.execute_script(MID_WORD_BREAKS, *WORD_IN_A_CELL)


# -- The website -------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_links_the_books_its_site_holds(built_editions, language):
    site = built_editions / "html" / language
    held = sorted(p.name for p in site.iterdir() if p.suffix in {".pdf", ".epub"})
    assert [Path(name).suffix for name in held] == [".epub", ".pdf"]
    pages = sorted(site.rglob("*.html"))
    for page in pages:
        links = re.findall(r'<a class="jb-edition-link" href="([^"]+)"', page.read_text("utf-8"))
        assert sorted((page.parent / link).resolve().name for link in links) == held, page


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_website_links_the_preface_by_its_name(built_site, language):
    """The first chapter's "previous" page is the preface, as the books' contents call it."""
    page = BeautifulSoup(
        (built_site / language / "ch01/index.html").read_text("utf-8"), "html.parser"
    )
    assert page.find("link", rel="prev")["title"] == PREFACE[language]


def heading(page: BeautifulSoup) -> str:
    """A page's heading as it reads: its number and title, without the link to it."""
    h1 = page.select_one("article h1")
    return " ".join(h1.get_text().replace(h1.select_one("a.headerlink").text, "").split())


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_home_pages_heading_and_title_name_the_preface_and_the_book(built_site, language):
    """The home page is the preface: its heading says so, as the books' contents and the
    links to it do, and the browser's title is the preface's and the book's, as every other
    page's is its own and the book's ("前言 - JAX 入门", "1.5 使用 JAX 数组 - JAX 入门")."""
    book = BeautifulSoup((built_site / language / "index.html").read_text("utf-8"), "html.parser")
    assert heading(book) == PREFACE[language]
    brand = " ".join(book.select_one(".sidebar-brand-text").text.split())
    assert book.title.string == f"{PREFACE[language]} - {brand}"
    other = BeautifulSoup(
        (built_site / language / "ch01/arrays.html").read_text("utf-8"), "html.parser"
    )
    assert other.title.string == f"{heading(other)} - {brand}"
    # Link previews still show the book's title.
    assert book.find("meta", property="og:title")["content"] == brand


@pytest.mark.parametrize(("language", "other"), [("zh_CN", "en"), ("en", "zh_CN")])
def test_the_preface_links_the_other_languages_edition(built_site, built_editions, language, other):
    """The preface says where the edition in the other language is: a link in its text to
    that site's root, as the language switcher links it (with no site address known, the
    sibling directory); the EPUB, which holds one language, has no such link."""
    page = BeautifulSoup((built_site / language / "index.html").read_text("utf-8"), "html.parser")
    links = [a["href"] for a in page.select("article p a.jb-edition-language")]
    assert links == [f"../{other}/index.html"]
    assert (built_site / language / links[0]).resolve() == (built_site / other / "index.html")
    [epub] = (built_editions / "epub").glob(f"*-{language}.epub")
    with zipfile.ZipFile(epub) as book:
        preface = book.read("index.xhtml").decode("utf-8")
    assert f"{other}/index" not in preface


def bookmark_titles(builddir: Path, language: str) -> list[str]:
    [out] = (builddir / "latex" / language).glob("*.out")
    return bookmarks(out.read_text(encoding="utf-8"))


EMOJI = re.compile("[\u2300-\u27bf\ufe0f\U0001f000-\U0001faff]")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_bookmarks_are_plain_text(built_editions, language):
    """A heading's emoji is a picture on the page; its bookmark has neither it nor the space
    after it ("补充：查看 jaxpr", not "🔍 补充：查看 jaxpr")."""
    titles = bookmark_titles(built_editions, language)
    detail = {"zh_CN": "补充：", "en": "In detail: "}[language]
    assert any(title.startswith(detail) for title in titles)
    assert [title for title in titles if EMOJI.search(title) or title != title.strip()] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_epub_contents_are_plain_text(built_editions, language):
    """The e-reader's contents name a heading in words, as the PDF's bookmarks do."""
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        for name in ("nav.xhtml", "toc.ncx"):
            page = ElementTree.fromstring(epub.read(name))
            titles = [
                "".join(element.itertext())
                for element in page.iter()
                if element.tag.rpartition("}")[2] in {"a", "text"}
            ]
            detail = {"zh_CN": "补充：", "en": "In detail: "}[language]
            assert any(title.startswith(detail) for title in titles), name
            assert [title for title in titles if EMOJI.search(title)] == [], name


def test_the_bookmark_check_sees_an_emoji():
    escaped = "".join(f"\\{byte:03o}" for byte in "🔍 补充".encode("utf-16"))
    [title] = bookmarks(f"\\BOOKMARK [2][-]{{section.1}}{{{escaped}}}{{}}% 1")
    assert EMOJI.search(title)


# What a code block or a table says where it goes on over a page, in each edition: one form.
CONTINUED = {
    "zh_CN": {"（续下页）", "（接上页）"},
    "en": {"(continues on next page)", "(continued from previous page)"},
}
CONTINUATION = re.compile(
    r"[（(]?(续下页|接上页|continues on next page|continued from previous page)[）)]?"
)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_continuation_label_has_one_form(built_site, built_editions, language):
    """Code blocks said "（续下页）" and tables "续下页", centred at their top in sans serif."""
    pages = pdf_pages(the_pdf(built_editions, language))
    labels = [
        line.strip()
        for page in pages
        for line in page.splitlines()
        if CONTINUATION.fullmatch(line.strip())
    ]
    assert set(labels) == CONTINUED[language]
    # A table that goes on over a page says so too: its header row, repeated at the top of
    # the next page, comes under a label (whose form the check above covers). Which tables
    # break is the layout's, found here from the PDF (the installation table did in both
    # editions and no longer does in the Chinese one; the summary's and the update notes'
    # do in both): where none breaks, there is no table's label to check.
    headers = table_headers(built_site, built_editions, language)
    assert {header for page in pages for _at, header in header_rows(page, headers)} == set(
        headers
    )  # each table's header row is found where it is printed
    breaks = table_breaks(pages, headers)
    assert [(number, header) for number, header, labelled in breaks if not labelled] == []


def table_breaks(
    pages: list[str], headers: list[tuple[str, ...]]
) -> list[tuple[int, tuple[str, ...], bool]]:
    """Where a table goes on over a page: (the page it goes on to, its header row, whether the
    line above the repeated header row is a continuation label). A table goes on where its
    header row is printed on a page and on the page before."""
    rows = [header_rows(page, headers) for page in pages]
    found = []
    for number in range(2, len(pages) + 1):
        before = {header for _at, header in rows[number - 2]}
        for at, header in rows[number - 1]:
            if header in before:
                above = [line for line in pages[number - 1].splitlines()[:at] if line.strip()]
                found.append(
                    (
                        number,
                        header,
                        bool(above) and bool(CONTINUATION.fullmatch(above[-1].strip())),
                    )
                )
    return found


def test_the_table_break_check_sees_an_unlabelled_break():
    headers = [("平台", "命令", "说明")]
    first = "正文\n平台   命令   说明\nCPU    pip install -U jax\n"
    labelled = "（接上页）\n\n平台   命令   说明\nTPU    pip install -U jax[tpu]\n"
    assert table_breaks([first, labelled], headers) == [(2, headers[0], True)]
    unlabelled = "平台   命令   说明\nTPU    pip install -U jax[tpu]\n"
    assert table_breaks([first, unlabelled], headers) == [(2, headers[0], False)]
    assert table_breaks([first, "正文"], headers) == []


def first_parts(pages: list[str], headers: list[tuple[str, ...]]) -> list[tuple[int, list[str]]]:
    """Where a table begins on one page and goes on over the next: the page (from 1), and the
    lines of its rows there, between its header row and the continuation label."""
    parts = []
    for number, header, _labelled in table_breaks(pages, headers):
        page = pages[number - 2].splitlines()
        for at, found in header_rows(pages[number - 2], headers):
            above = [line for line in page[:at] if line.strip()]
            if found != header or (above and CONTINUATION.fullmatch(above[-1].strip())):
                continue  # a part that goes on from the page before
            rows = []
            for line in page[at + 1 :]:
                if CONTINUATION.fullmatch(line.strip()):
                    break
                rows += [line] if line.strip() else []
            parts.append((number - 1, rows))
    return parts


MIN_TABLE_LINES = 3


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_table_breaks_only_after_its_first_rows(built_site, built_editions, language):
    """A table that begins at the foot of a page has its first rows there, not one: the
    chapter's contents broke after "1.1 What is JAX?" at the foot of page 2 of the English
    edition."""
    pages = pdf_pages(the_pdf(built_editions, language))
    headers = table_headers(built_site, built_editions, language)
    parts = first_parts(pages, headers)
    assert [(number, rows) for number, rows in parts if len(rows) < MIN_TABLE_LINES] == []


def test_the_table_start_check_sees_a_table_broken_after_one_row():
    headers = [("Section", "Contents")]
    first = "Text\nSection    Contents\n1.1 What   What JAX is for\n(continues on next page)\n"
    second = "(continued from previous page)\nSection    Contents\n1.2 JAX    Similarities\n"
    assert first_parts([first, second], headers) == [(1, ["1.1 What   What JAX is for"])]


def table_headers(site: Path, builddir: Path, language: str) -> list[tuple[str, ...]]:
    """The header rows of the tables on the pages the books hold, each as the first word of
    each cell (the edition's own text, without the other language's, which the web keeps
    hidden); not a row with an empty cell, which the PDF does not show as a word."""
    held = book_pages(builddir, language) - {"genindex.html", "epub-cover.html", "nav.html"}
    headers = []
    for name in sorted(held):
        for row in soup(site / language / name).select("table thead tr"):
            cells = [
                (cell.select_one(".jb-parallel-source") or cell).get_text(" ").split()
                for cell in row.select("th")
            ]
            if cells and all(cells):
                headers.append(tuple(words[0] for words in cells))
    assert headers  # the book has tables: without them the checks that use these hold nothing
    return headers


def header_rows(page: str, headers: list[tuple[str, ...]]) -> list[tuple[int, tuple[str, ...]]]:
    """Where on ``page`` (its line) each table header row is printed: a line that starts with
    the first word of each cell, the first cell's perhaps wrapped ("编" of "编号",
    "Transforma-" of "Transformation")."""
    found = []
    for at, line in enumerate(page.splitlines()):
        words = line.split()
        for header in headers:
            if (
                len(words) >= len(header)
                and header[0].startswith(words[0].removesuffix("-"))
                and list(header[1:]) == words[1 : len(header)]
            ):
                found.append((at, header))
    return found


def next_words(page: str, at: int) -> list[str]:
    """The words of the first line after line ``at`` of ``page`` that has any."""
    return next((line.split() for line in page.splitlines()[at + 1 :] if line.strip()), [])


# A pair's title that once ended a page of the Chinese edition (1.2).
PAIR_TITLE = {"zh_CN": "显式指定 float64", "en": "Requesting float64"}


def box_titles(site: Path, builddir: Path, language: str) -> set[str]:
    """The titles of the boxes (a pair's title, each box's own) on the pages the books hold."""
    held = book_pages(builddir, language) - {"genindex.html", "epub-cover.html", "nav.html"}
    titles = set()
    for name in held:
        for title in soup(site / language / name).select("p.jb-pair-title, p.admonition-title"):
            source = title.select_one(".jb-parallel-source")
            titles.add(squeeze((source or title).get_text()))
    return titles - {""}


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_ends_with_a_boxs_title(built_site, built_editions, language):
    """A pair's title and a box's title go over with what they head ("显式指定 float64"
    ended page 16 of the Chinese edition, its ❌ box on page 17)."""
    titles = box_titles(built_site, built_editions, language)
    assert squeeze(PAIR_TITLE[language]) in titles
    assert pages_ending_with(the_pdf(built_editions, language), titles) == []


# The reader's way to check an exercise in print: the reference answer, with its page.
CHECK = {
    "zh_CN": r"核对答案：参考答案见“参考答案 E(\d)” ?（第 ?\d+ ?页） ?。",
    "en": r"Check your answer: see “Reference answer E(\d)” \(page \d+\)\.",
}
CHECK_LABEL = {"zh_CN": "核对答案", "en": "Check your answer"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_printed_exercises_are_checked_from_the_book(built_editions, language):
    """Print sends no reader to "this page's notebook", which it has no address for (the
    build knows no site): each exercise says where its answer is printed, and on what page."""
    text = re.sub(r"\s+", " ", pdf_text(the_pdf(built_editions, language)))
    assert sorted(re.findall(CHECK[language], text)) == ["1", "2", "3", "4"]
    assert "本页" not in text
    assert "this page" not in text.lower()
    assert "笔记本里" not in text
    assert "page's notebook" not in text.replace("’", "'")
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        exercises = epub.read("ch01/exercises.xhtml").decode("utf-8")
    page = BeautifulSoup(exercises, "html.parser")
    checks = [p for p in page.find_all("p") if p.strong and CHECK_LABEL[language] in p.get_text()]
    assert [a["href"] for p in checks for a in p.find_all("a")] == [
        f"answers.xhtml#ch01-answer-e{n}" for n in range(1, 5)
    ]
    assert "notebook" not in exercises.lower()
    assert "笔记本" not in exercises


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_website_keeps_its_notebooks(built_site, language):
    page = (built_site / language / "ch01/exercises.html").read_text("utf-8")
    assert ("Jupyter 笔记本" if language == "zh_CN" else "Jupyter notebook") in page
    assert CHECK_LABEL[language] not in plain(page)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_quizs_answers_follow_its_questions_in_print(built_editions, language):
    """In the PDF the answers come after the last question, each linked from its question,
    on a page of their own."""
    heading = {"zh_CN": "答案与解析", "en": "Answers and explanations"}[language]
    pages = pdf_pages(the_pdf(built_editions, language))
    lines = [[squeeze(line) for line in page.splitlines()] for page in pages]
    first = squeeze({"zh_CN": "第 1 题", "en": "Question 1"}[language])
    quiz = next(i for i, page in enumerate(lines) if first in page)
    answers = next(i for i, page in enumerate(lines) if squeeze(heading) in page)
    assert answers > quiz
    seen = {"zh_CN": "见本测验末尾的", "en": "at the end of the quiz"}[language]
    between = "".join(pages[quiz : answers + 1])
    assert squeeze(between).count(squeeze(seen)) == 8
    # The zh editor found the answers begun on the page of the last question, under it.
    assert squeeze(seen) not in squeeze(pages[answers])


# -- Set as a publisher sets a book ------------------------------------------------------


@functools.cache
def _pdf_xml(pdf: Path, _size: int, _mtime_ns: int) -> str:
    return subprocess.run(
        ["pdftohtml", "-xml", "-i", "-q", "-stdout", str(pdf)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def pdf_xml(pdf: Path) -> str:
    """``pdftohtml -xml``'s reading of ``pdf`` (its texts with their fonts, italics as <i>),
    made once per state of the file."""
    status = pdf.stat()
    return _pdf_xml(pdf.resolve(), status.st_size, status.st_mtime_ns)


def inline_code_raw(site: Path, pages: set[str]) -> set[str]:
    """The inline code of the book's pages on the site, as written (its spaces as one)."""
    texts = set()
    for name in sorted(pages):
        texts |= {" ".join(code.split()) for code in page_code(site / name)[1]}
    return texts - {""}


# Prose around a name of code at a line's start or end.
PROSE_BEFORE = "(“‘"
PROSE_AFTER = ".,;:”’)"


def inline_code_breaks(text: str, codes: set[str]) -> list[str]:
    """The line breaks of ``text`` inside inline code (the word that ends a line and the one
    that starts the next, joined with nothing between them, are in one of ``codes``) at a
    place inline code may not break: after an opening parenthesis or bracket, at a hyphen, or
    inside a number ("2" / ".0")."""
    found = []
    for line, next_line in pairwise(text.splitlines()):
        if not line.split() or not next_line.split():
            continue
        before, after = line.split()[-1].lstrip(PROSE_BEFORE), next_line.split()[0]
        if not before or not after:
            continue
        bad = before[-1] in "([-" or (before[-1].isdigit() and re.match(r"\.\d", after))
        if not bad:
            continue
        candidates = {after, after.rstrip(PROSE_AFTER), after[:-1] if len(after) > 1 else after}
        if any(before + tail in code for tail in candidates for code in codes):
            found.append(f"{before} / {after}")
    return found


def test_the_inline_code_break_check_sees_a_break_after_a_bracket():
    codes = {"data[2:5]", "2.0", "jax.numpy", "jax.random.key(seed)", "jax[rocm7-local]"}
    text = (
        "slice data[\n2:5] and write 2\n.0 with jax\n.numpy, then call\n"
        "jax.random.key(\nseed). Install jax[rocm7-\nlocal] or call f(\nx)"
    )
    assert inline_code_breaks(text, codes) == [
        "data[ / 2:5]",
        "2 / .0",
        "jax.random.key( / seed).",
        "jax[rocm7- / local]",
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_inline_code_breaks_only_before_a_dot_or_an_underscore_or_at_a_space(
    built_site, built_editions, language
):
    """Never after "(" or "[" ("jax.random.key(" / "seed)", "devices[" / "1]"), at a hyphen
    ("jax[rocm7-" / "local]") or inside a number ("write 2" / ".0")."""
    pages = book_pages(built_editions, language) - {"genindex.html", "epub-cover.html", "nav.html"}
    codes = inline_code_raw(built_site / language, pages)
    text = body_text(the_pdf(built_editions, language))
    assert inline_code_breaks(text, codes) == []


# What a code block (or a table) broken over a page says at the break, as each edition
# prints it.
BLOCK_CONTINUES = re.compile(r"^[(（](continues on next page|续下页)[)）]$")
BLOCK_CONTINUED = re.compile(r"^[(（](continued from previous page|接上页)[)）]$")


FULL_WIDTH_MARKS = re.compile(r"[\u3000-\u303f\uff00-\uffef]+")


def split_code_blocks(
    pages: list[list[tuple[float, str]]], code: str
) -> list[tuple[int, int, int]]:
    """Each code block or output broken over a page, as (the page it starts on, its lines
    there, its lines on the next page): the lines of code (by the site's code and outputs,
    ``code`` squeezed; a wrapped line's second part too) above the page's "continues on next
    page" and under the next page's "continued from previous page", each line counted once
    (a comment beside the code is read apart). ``pages`` are ``page_lines``'. A table broken
    over a page says the same, and has no lines of code there."""

    def run(lines: list[tuple[float, str]]) -> int:
        heights = set()
        for bottom, line in lines:
            squeezed = squeeze(html.unescape(line).lstrip(f"{HOOK} "))
            if not squeezed:  # a wrapped line's hook, read on its own
                continue
            # A full-width mark read as a line of its own ("：" after a lead-in's inline code)
            # is the text's, not code's.
            if squeezed not in code or FULL_WIDTH_MARKS.fullmatch(squeezed):
                if round(bottom, 3) in heights:
                    return 0  # text beside code on its line: a table's row, not a block
                break
            heights.add(round(bottom, 3))
        return len(heights)

    found = []
    for number, (page, next_page) in enumerate(pairwise(pages), start=1):
        ends = [i for i, (_b, line) in enumerate(page) if BLOCK_CONTINUES.match(line.strip())]
        starts = [
            i for i, (_b, line) in enumerate(next_page) if BLOCK_CONTINUED.match(line.strip())
        ]
        if not ends or not starts:
            continue
        above, below = run(page[: ends[-1]][::-1]), run(next_page[starts[0] + 1 :])
        if above and below:
            found.append((number, above, below))
    return found


def test_the_split_block_check_counts_the_lines_on_each_side():
    code = squeeze("x = jnp.zeros((2, 3))  # zeros\nprint(x)\n[[0. 0. 0.]\n [0. 0. 0.]]")
    first = [(0.1, "Some text."), (0.2, "x = jnp.zeros((2, 3))"), (0.2, "# zeros")]
    second = [(0.1, "(continued from previous page)"), (0.2, "[[0. 0. 0.]")]
    pages = [
        [*first, (0.3, "print(x)"), (0.4, "(continues on next page)")],
        [*second, (0.3, " [0. 0. 0.]]"), (0.4, "More text.")],
        [(0.1, "Rows of a table"), (0.2, "(continues on next page)")],
        [(0.1, "(continued from previous page)"), (0.2, "Its next row")],
        # A table's row whose cell holds code: text beside it on its line.
        [(0.1, "Its description"), (0.1, "print(x)"), (0.2, "(continues on next page)")],
        [(0.1, "(continued from previous page)"), (0.2, "print(x)"), (0.2, "Prints it")],
    ]
    assert split_code_blocks(pages, code) == [(1, 2, 2)]
    # A wrapped line's hook, read on a line of its own, does not end the block's lines.
    hooked = [
        [
            (0.1, "x = jnp.zeros((2, 3))"),
            (0.2, HOOK),
            (0.3, "print(x)"),
            (0.4, "(continues on next page)"),
        ],
        second,
    ]
    assert split_code_blocks(hooked, code) == [(1, 2, 1)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_code_block_breaks_over_a_page_only_with_three_lines_on_each_side(
    built_site, built_editions, language
):
    """ "[0. 0. 0.]]" alone at the top of a page, a "print(...)" alone at a page's foot: a block
    of twelve lines or fewer is never broken, a longer one keeps three lines on each side. An
    output under its code may break sooner, as soon as it has three lines on each side: it
    goes on from its code, which it would otherwise send over with it."""
    pages = book_pages(built_editions, language) - {"genindex.html", "epub-cover.html", "nav.html"}
    code = squeeze(code_texts(built_site / language, pages))
    lines = page_lines(the_pdf(built_editions, language))
    splits = split_code_blocks(lines, code)
    assert splits  # long blocks do break over pages
    printed = "\n".join(o for *_, o in code_and_outputs(built_site / language, pages) if o)
    outputs = {page for page, *_ in split_code_blocks(lines, squeeze(printed))}
    whole = [s for s in splits if sum(s[1:]) <= 12 and s[0] not in outputs]
    assert [s for s in splits if min(s[1:]) < 3] + whole == []


def layout_lines(pdf: Path) -> list[list[tuple[float, list[tuple[float, float, str]]]]]:
    """Each page's lines in the type area (no running head or foot), top to bottom: the line's
    foot as a share of the page's height, and its words with their left and right edges."""
    page_tag = re.compile(r'<page width="[\d.]+" height="([\d.]+)">(.*?)</page>', re.S)
    line_tag = re.compile(
        r'<line xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">(.*?)</line>', re.S
    )
    word_tag = re.compile(
        r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>'
    )
    pages = []
    for height, page in page_tag.findall(pdf_text(pdf, "-bbox-layout")):
        lines = []
        for top, bottom, words in line_tag.findall(page):
            if float(top) / float(height) > 0.08 and float(bottom) / float(height) < 0.915:
                found = [
                    (float(x0), float(x1), html.unescape(w))
                    for x0, x1, w in word_tag.findall(words)
                ]
                lines.append((float(bottom) / float(height), found))
        pages.append(sorted(lines, key=lambda line: (line[0], line[1][0][0] if line[1] else 0)))
    return pages


INDEX_TITLE = {"zh_CN": "索引", "en": "Index"}


def index_lines(pdf: Path, language: str) -> list[list[tuple[float, float, str]]]:
    """The lines of the book's index: the pages from the one it begins on (its title the
    page's first line) to the end."""
    pages = layout_lines(pdf)
    first = max(
        i
        for i, page in enumerate(pages)
        if page and " ".join(w for *_x, w in page[0][1]) == INDEX_TITLE[language]
    )
    lines = [words for page in pages[first:] for _bottom, words in page[1:] if words]
    # poppler reads the two columns' lines at one height as one line: part them where the
    # right column's entries begin (the leftmost start of a line beyond the left column's).
    left = min(words[0][0] for words in lines)
    right = min(words[0][0] for words in lines if words[0][0] > left + 100)
    parted = []
    for words in lines:
        parted += [
            part
            for part in (
                [w for w in words if w[0] < right - 0.5],
                [w for w in words if w[0] >= right - 0.5],
            )
            if part
        ]
    return parted


def widest_gaps(lines: list[list[tuple[float, float, str]]]) -> list[float]:
    """The widest space between two words of each line, in points."""
    return [
        max(right[0] - left[1] for left, right in pairwise(words))
        for words in lines
        if len(words) > 2
    ]


# A name of code in the text of an index entry, as LaTeX's index file writes it.
INDEXED_CODE = re.compile(r"(?:jax|jnp)\.[A-Za-z_]|jax\\_[a-z]|\.at\{\[\}")
# A group in code type, with the braces of an escaped bracket inside it.
TEXTTT = re.compile(r"\\texttt\{(?:[^{}]|\{[^{}]*\})*\}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_names_of_code_in_the_index_are_in_code_type_and_asides_upright(built_editions, language):
    """Both editors found the index's names of code set three ways: an entry's own in code
    type, one inside an entry's text ("开启（jax_enable_x64）") in the text's type, one in an
    aside ("enabling (jax_enable_x64)") in italics. Each is in code type now, and an aside is
    upright."""
    [ind] = (built_editions / "latex" / language).glob("*.ind")
    group = r"((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)"  # braces nested two deep
    entries = re.findall(
        rf"\\spxentry\{{\\textrm\{{{group}\}}\}}|\\spxextra\{{{group}\}}",
        ind.read_text("utf-8"),
    )
    texts = [text or aside for text, aside in entries]
    assert sum(1 for text in texts if TEXTTT.search(text)) >= 3  # the check finds names in text
    assert [text for text in texts if INDEXED_CODE.search(TEXTTT.sub("", text))] == []
    style = (built_editions / "latex" / language / "jaxbook.sty").read_text("utf-8")
    assert r"\def\sphinxstyleindexextra#1{ (#1)}" in style


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_index_is_ragged_right_and_never_hyphenated(built_editions, language):
    """Justified, its narrow columns were spread and its words broken ("Ja-" / "cobian",
    "multi-" / "device")."""
    lines = index_lines(the_pdf(built_editions, language), language)
    assert len(lines) > 100
    assert [" ".join(w for *_x, w in words) for words in lines if words[-1][2].endswith("-")] == []
    # Ragged: each space as wide as the font sets it (some 2.6 pt, a Latin space beside a
    # Chinese character a little more), not spread to fill the column.
    assert max(widest_gaps(lines)) < 4.5


def test_the_gap_check_sees_a_spread_line():
    assert widest_gaps([[(0, 10, "among"), (12.5, 20, "the"), (29, 40, "three")]]) == [9.0]


def hyphenated_sans_lines(xml: str) -> list[str]:
    """The lines of ``pdftohtml -xml``'s reading set in the sans-serif text face (a table's
    header cells, headings, running heads and feet) that end with a hyphen: a word broken
    ("Transforma-" / "tion")."""
    fonts = dict(re.findall(r'<fontspec id="(\d+)"[^>]*family="([^"]+)"', xml))
    return [
        plain(inner)
        for font, inner in re.findall(r'<text [^>]*font="(\d+)"[^>]*>(.*?)</text>', xml)
        if re.search(r"NotoSans(?!Mono)", fonts[font]) and re.search(r"\w-$", plain(inner))
    ]


def test_the_header_check_sees_a_hyphenated_header():
    xml = (
        '<fontspec id="1" size="15" family="AB+NotoSans" color="#000000"/>\n'
        '<fontspec id="2" size="15" family="AB+NotoSerif" color="#000000"/>\n'
        '<text top="1" left="1" width="9" height="9" font="1"><b>Transforma-</b></text>\n'
        '<text top="1" left="1" width="9" height="9" font="2">in-</text>\n'
    )
    assert hyphenated_sans_lines(xml) == ["Transforma-"]


def hyphenated_bold_lines(xml: str) -> list[str]:
    """The lines of ``pdftohtml -xml``'s reading set whole in the serif text face's bold (an
    update note's point, which heads its box) that end with a hyphen."""
    fonts = dict(re.findall(r'<fontspec id="(\d+)"[^>]*family="([^"]+)"', xml))
    return [
        plain(inner)
        for font, inner in re.findall(r'<text [^>]*font="(\d+)"[^>]*>(<b>.*?</b>)</text>', xml)
        if re.search(r"NotoSerif", fonts[font]) and re.search(r"\w-$", plain(inner))
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_update_notes_point_is_hyphenated(built_editions, language):
    """ "The 10.811179161071777 that the course example prints cannot be repro-" / "duced":
    an update note's point heads its box as a heading does, and breaks between words only."""
    assert hyphenated_bold_lines(pdf_xml(the_pdf(built_editions, language))) == []


def test_the_bold_line_check_sees_a_hyphenated_point():
    xml = (
        '<fontspec id="2" size="15" family="AB+NotoSerif" color="#000000"/>\n'
        '<text top="1" left="1" width="9" height="9" font="2"><b>cannot be repro-</b></text>\n'
        '<text top="1" left="1" width="9" height="9" font="2">post-</text>\n'
    )
    assert hyphenated_bold_lines(xml) == ["cannot be repro-"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_table_header_is_hyphenated(built_editions, language):
    """ "Transforma-" / "tion" over the table of transformations in the English edition: a
    header cell (sans serif, as headings are) breaks between words only."""
    assert hyphenated_sans_lines(pdf_xml(the_pdf(built_editions, language))) == []


def footnote_marks_inside_quotes(pdf: Path) -> tuple[list[str], int]:
    """The footnote marks of ``pdf``'s pages (the numbers of the footnotes at each page's foot)
    set before a closing quote ("Bits7 ”"), and how many are set after one ("Bits”7")."""
    inside, after = [], 0
    for page in pdf_text(pdf, "-raw").split("\f"):
        page_inside, page_after = footnote_marks_inside_quotes_of(page)
        inside, after = inside + page_inside, after + page_after
    return inside, after


@pytest.mark.parametrize("language", ["en"])
def test_a_footnotes_mark_follows_the_closing_quote(built_editions, language):
    """Chicago 14.26: “The Sharp Bits”⁷, not “The Sharp Bits⁷ ”."""
    inside, after = footnote_marks_inside_quotes(the_pdf(built_editions, language))
    assert inside == []
    assert after  # the book has such marks: "The Sharp Bits", quoted, is a link


def test_the_footnote_check_sees_a_mark_inside_the_quotes():
    page = "JAX’s “The Sharp Bits7\n” page\n7 https://docs.jax.dev/\n"
    assert footnote_marks_inside_quotes_of(page) == (["Bits7\n”"], 0)
    assert footnote_marks_inside_quotes_of(page.replace("Bits7\n”", "Bits”7")) == ([], 1)


def footnote_marks_inside_quotes_of(page: str) -> tuple[list[str], int]:
    """The same, on one page's text."""
    inside, after = [], 0
    for number in re.findall(r"^\s*(\d+)\s+https?://", page, re.M):
        inside += re.findall(rf"\S*[A-Za-z]{number}\s?[”’]", page)
        after += len(re.findall(rf"[”’][.,;:!?]?{number}\b", page))
    return inside, after


def sentence_space_ratios(lines: list[list[tuple[float, float, str]]]) -> list[float]:
    """For each line of prose with a sentence's end in it (a word ending in "." or ":" before
    one that begins with a capital): the space after that word over the line's narrowest
    other space. A justified line spreads its spaces alike; TeX's sentence spacing set the
    space after a full stop or a colon wider ("ways.   In")."""
    ratios = []
    for words in lines:
        gaps = [(left[2], right[2], right[0] - left[1]) for left, right in pairwise(words)]
        ends = [
            gap for word, nxt, gap in gaps if re.search(r"[a-z][.:]$", word) and nxt[:1].isupper()
        ]
        others = [gap for word, _nxt, gap in gaps if not re.search(r"[.:!?]$", word) and gap > 0]
        if ends and len(others) >= 3:
            ratios.append(max(ends) / min(others))
    return ratios


def test_the_sentence_space_check_sees_a_wide_sentence_space():
    line = [(0, 20, "three"), (22.5, 40, "ways."), (46, 50, "In"), (52.5, 60, "a"), (62.5, 70, "b")]
    assert sentence_space_ratios([line]) == [6 / 2.5]


@pytest.mark.parametrize("language", ["en"])
def test_a_sentence_is_followed_by_one_space(built_editions, language):
    """\\frenchspacing, as US house style sets an English book: one word space after a full
    stop or a colon."""
    lines = [
        words for page in layout_lines(the_pdf(built_editions, language)) for _b, words in page
    ]
    ratios = sorted(sentence_space_ratios(lines))
    assert len(ratios) > 100
    # Each line's spaces alike: the median sentence space no wider than the others.
    assert ratios[len(ratios) // 2] < 1.1


ITALIC_TITLE = {"en": "Getting Started with JAX"}


def course_titles(xml: str, title: str) -> tuple[int, int]:
    """How many times ``pdftohtml -xml``'s reading of a PDF names the course ("the course
    Getting Started with JAX", "Based on the course ...") and how many of them in italics."""
    text = re.sub(r"<(?!/?i>)[^>]*>", "", xml.replace("\n", " "))
    text = re.sub(r"</i>\s*<i>", " ", text)
    named = len(re.findall(rf"course\s+(?:<i>)?{title}", text))
    italic = len(re.findall(rf"course\s+<i>{title}", text))
    return named, italic


def test_the_italic_check_tells_italic_from_roman():
    xml = '<text top="1">the course </text>\n<text top="1"><i>Getting Started</i></text>\n' + (
        '<text top="2"><i>with JAX</i> by</text>'
    )
    assert course_titles(xml, "Getting Started with JAX") == (1, 1)
    assert course_titles("the course Getting Started with JAX by", "Getting Started with JAX") == (
        1,
        0,
    )


def test_the_courses_title_is_italic_in_the_english_pdf_and_marked_in_the_chinese(built_editions):
    """In the preface, on the copyright page and where the chapter begins, as on the web; the
    Chinese edition's 《JAX 入门》 is set apart by its marks, upright."""
    named, italic = course_titles(pdf_xml(the_pdf(built_editions, "en")), ITALIC_TITLE["en"])
    assert named >= 3
    assert italic == named
    chinese = pdf_xml(the_pdf(built_editions, "zh_CN"))
    assert "《JAX入门》" in squeeze(re.sub(r"<[^>]+>", "", chinese))
    assert not re.search(r"<i>[^<]*JAX 入门", chinese)


NOTES_HEADERS = {"zh_CN": ("参见", "版本变化"), "en": ("See", "Changed in")}


def notes_table_pages(xml: str, language: str) -> list[str]:
    """The pages of ``pdftohtml -xml``'s reading that hold the update-notes table: those with
    its header row (repeated on each page it continues on)."""
    see, changed = NOTES_HEADERS[language]
    return [
        page
        for page in re.findall(r"<page .*?</page>", xml, re.S)
        if re.search(rf">(<b>)?{see}(</b>)?</text>", page)
        and re.search(rf">(<b>)?{changed}(</b>)?</text>", page)
    ]


def column_lefts(page: str, headers: tuple[str, ...]) -> list[int]:
    """Where each of ``headers`` (a header row's cells) begins on ``page``."""
    return [
        int(
            re.search(rf'<text top="\d+" left="(\d+)"[^>]*>(?:<b>)?{header}(?:</b>)?</text>', page)[
                1
            ]
        )
        for header in headers
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_update_notes_table_gives_its_see_column_the_room(built_editions, language):
    """Its "See" cells (sections by number, title and page) ran eight to ten lines a row
    beside a "Changed in" column of a release or a dash: "See" is at least twice as wide."""
    pages = notes_table_pages(pdf_xml(the_pdf(built_editions, language)), language)
    assert pages
    for page in pages:
        see, changed = column_lefts(page, NOTES_HEADERS[language])
        # The type area's right edge: where the longest line (a row's, the folio) ends.
        right = max(
            int(left) + int(width)
            for left, width in re.findall(r'<text top="\d+" left="(\d+)" width="(\d+)"', page)
        )
        assert changed - see >= 2 * (right - changed)


def code_face_names(pages: list[str], fonts: dict[str, str], name: str) -> list[str]:
    """The fonts in which ``pages`` set ``name``."""
    return [
        fonts[font]
        for page in pages
        for font, inner in re.findall(r'<text [^>]*font="(\d+)"[^>]*>(.*?)</text>', page)
        if name in re.sub(r"<[^>]+>", "", inner)
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_update_notes_table_sets_code_in_a_title_as_code(built_editions, language):
    """A section named in its "See" cells ("1.5 jax.random.key and ...") keeps its title's
    code in the code face, not the text's."""
    xml = pdf_xml(the_pdf(built_editions, language))
    fonts = dict(re.findall(r'<fontspec id="(\d+)"[^>]*family="([^"]+)"', xml))
    faces = code_face_names(notes_table_pages(xml, language), fonts, "jax.random.key")
    assert faces
    assert [face for face in faces if "Mono" not in face] == []
