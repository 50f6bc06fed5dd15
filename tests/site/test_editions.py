"""The PDF and EPUB of each language: complete, with CJK fonts embedded, valid, and linked.

The PDF is read back with poppler (``pdftotext``, ``pdffonts``) and the EPUB
checked with the W3C's EPUBCheck, as a reader's tools would see them.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from jaxbook.sphinxext.editions import WEBSITE_ONLY

LANGUAGES = ["zh_CN", "en"]
# The table's widest headers (the narrow "No." wraps letter by letter).
TABLE_HEADERS = {
    "zh_CN": ["要点", "参见", "版本变化"],
    "en": ["Note", "See", "Changed"],
}
HEADING = re.compile(r"<h([1-6])>(.*?)<a class=\"headerlink\"", re.DOTALL)
EPUBCHECK = Path("/usr/share/java/epubcheck.jar")


def squeeze(text: str) -> str:
    """Text without whitespace or hyphens, so that line breaks and hyphenation do not count."""
    return re.sub(r"[\s\-\u2010]+", "", text)


def plain(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def pages(site: Path, language: str) -> list[Path]:
    """The pages of the site that the books hold too (not the contributors' guides)."""
    root = site / language
    left_out = {"genindex.html", "search.html", *(f"{page}.html" for page in WEBSITE_ONLY)}
    return [p for p in sorted(root.rglob("*.html")) if p.name not in left_out]


def section_titles(site: Path, language: str) -> list[str]:
    titles = []
    for page in pages(site, language):
        for _level, title in HEADING.findall(page.read_text(encoding="utf-8")):
            titles.append(plain(title).strip())
    return titles


def pdf_text(pdf: Path, *options: str) -> str:
    return subprocess.run(
        ["pdftotext", "-enc", "UTF-8", *options, str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def pdf_fonts(pdf: Path) -> list[dict[str, str]]:
    lines = subprocess.run(
        ["pdffonts", str(pdf)], capture_output=True, text=True, check=True
    ).stdout.splitlines()[2:]
    # name type... encoding emb sub uni object-id gen: the flags are counted from the end.
    return [
        {"name": line.split()[0], "emb": line.split()[-5], "uni": line.split()[-3]}
        for line in lines
    ]


def the_pdf(builddir: Path, language: str) -> Path:
    [pdf] = (builddir / "pdf").glob(f"*-{language}.pdf")
    return pdf


def the_epub(builddir: Path, language: str) -> Path:
    [epub] = (builddir / "epub").glob(f"*-{language}.epub")
    return epub


@pytest.mark.parametrize("language", LANGUAGES)
def test_pdf_holds_every_section_title(built_site, built_editions, language):
    # In the order the page draws it: a long title that wraps stays whole.
    text = squeeze(pdf_text(the_pdf(built_editions, language), "-raw"))
    titles = section_titles(built_site, language)
    assert len(titles) > 40
    assert [title for title in titles if squeeze(title) not in text] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_pdf_shows_pairs_outputs_and_the_update_notes_table(built_site, built_editions, language):
    text = pdf_text(the_pdf(built_editions, language))
    squeezed = squeeze(text)
    # The ❌ / ✅ labels, as the website shows them.
    page = (built_site / language / "ch01" / "jax-vs-numpy.html").read_text(encoding="utf-8")
    labels = set(re.findall(r'<p class="jb-half-label">([^<]+)</p>', page))
    assert {label[0] for label in labels} == {"❌", "✅"}
    for label in labels:
        assert squeeze(html.unescape(label)) in squeezed, label
    # Every row of the update-notes table, as the website shows it. The table
    # spans pages that repeat its header; read in layout mode, the first line
    # of each cell stays whole, so each row is found by the start of its point.
    table_pages = squeeze(
        "".join(
            page
            for page in pdf_text(the_pdf(built_editions, language), "-layout").split("\f")
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
def test_pdf_embeds_cjk_fonts(built_editions, language):
    fonts = pdf_fonts(the_pdf(built_editions, language))
    assert [font for font in fonts if font["emb"] != "yes"] == []
    assert any("CJK" in font["name"] for font in fonts), fonts


@pytest.mark.skipif(
    not EPUBCHECK.exists(), reason="EPUBCheck (Debian package epubcheck) is not installed"
)
@pytest.mark.parametrize("language", LANGUAGES)
def test_epub_is_valid(built_editions, language):
    # The JIT's first tier only, and the serial collector: a run this short spends half its
    # CPU time optimising code it will not run again (10.6 s against 4.7 s per book).
    fast_start = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]
    result = subprocess.run(
        ["java", *fast_start, "-jar", str(EPUBCHECK), str(the_epub(built_editions, language))],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 fatals / 0 errors" in result.stdout


@pytest.mark.parametrize("language", LANGUAGES)
def test_epub_keeps_the_text_of_its_language(built_site, built_editions, language):
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        page = epub.read("ch01/arrays.xhtml").decode("utf-8")
        package = epub.read("content.opf").decode("utf-8")
    [title] = [t for t in section_titles(built_site, language) if t.startswith("1.5 ")]
    assert title in plain(page)
    assert f"<dc:language>{language.replace('_', '-')}</dc:language>" in package
    # Each page declares it too: a reader picks Chinese glyphs and line breaking from it.
    with zipfile.ZipFile(the_epub(built_editions, language)) as epub:
        pages = [name for name in epub.namelist() if name.endswith(".xhtml")]
        roots = [BeautifulSoup(epub.read(name), "html.parser").find("html").attrs for name in pages]
    tag = language.replace("_", "-")
    assert pages
    assert all(root.get("lang") == tag and root.get("xml:lang") == tag for root in roots)


def test_the_tools_are_there():
    """The PDF checks need poppler; name what is missing rather than fail obscurely."""
    assert shutil.which("pdftotext"), "install poppler-utils"
    assert shutil.which("pdffonts"), "install poppler-utils"


def test_the_chinese_pdf_spaces_a_link_that_begins_with_a_digit(built_editions):
    """见 1.2 节, as on the site: a link's macro keeps xeCJK from adding its own space."""
    text = pdf_text(the_pdf(built_editions, "zh_CN"))
    assert re.findall(r"见 \d\.\d 节", text)
    assert not re.findall(r"见\d\.\d 节", text)
