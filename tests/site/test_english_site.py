"""The English edition: built from the catalogs, with no stray Chinese text."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from tests.site.test_editions import pdf_text, the_pdf

CJK = re.compile(r"[\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]")


@pytest.fixture(scope="module")
def site(built_site) -> Path:
    return built_site / "en"


class VisibleText(HTMLParser):
    """Collects text and alt/title attributes, minus deliberate Chinese mentions."""

    def __init__(self, quotes_source: bool = False) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.chinese: list[str] = []
        # A guide for authors quotes the Chinese source's markers as code
        # (``# 参考答案 E1``), which a translation keeps as they are.
        self.quotes_source = quotes_source

    def skipping(self) -> bool:
        return any(skip for _tag, skip in self.stack)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        # Deliberate mentions: the :zh: role, code examples marked as showing one, and
        # the parallel view's Chinese text (jaxbook.sphinxext.parallel_text), marked zh-CN too.
        skip = (
            tag in {"script", "style"}
            or attributes.get("lang") == "zh-CN"
            or "jb-zh-example" in attributes.get("class", "").split()
            or (self.quotes_source and tag == "code")
        )
        if tag not in {"img", "br", "meta", "link", "input", "hr", "col", "source"}:
            self.stack.append((tag, skip))
        for name in ("alt", "title", "aria-label", "placeholder"):
            if attributes.get(name) and CJK.search(attributes[name]) and not self.skipping():
                self.chinese.append(f"{tag}[{name}]={attributes[name]!r}")

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if not self.skipping() and CJK.search(data):
            self.chinese.append(data.strip()[:80])


@pytest.mark.parametrize("built", ["book", "guides"])
def test_english_pages_have_no_chinese_outside_term_mentions(site, built_guides, built):
    """The book's pages, and the guides' (a site of their own)."""
    site = site if built == "book" else built_guides / "en"
    pages = [p for p in site.rglob("*.html") if "_static" not in p.parts]
    assert len(pages) >= (14 if built == "book" else 4)
    offenders = {}
    for page in pages:
        parser = VisibleText(quotes_source=page.name in GUIDES)
        parser.feed(page.read_text(encoding="utf-8"))
        if parser.chinese:
            offenders[str(page.relative_to(site))] = parser.chinese[:5]
    assert not offenders


# The guides that quote the Chinese source in inline code (of the guides' site).
GUIDES = {"authoring.html", "translating.html"}


def test_inline_code_is_skipped_only_on_a_guide():
    page = "<p>Start the cell with <code>作答区</code>.</p>"
    for quotes_source, found in ((True, []), (False, ["作答区"])):
        parser = VisibleText(quotes_source=quotes_source)
        parser.feed(page)
        assert parser.chinese == found


def test_the_chinese_check_skips_the_parallel_views_chinese_and_only_that():
    page = (
        '<p><span class="jb-parallel-source">Arrays</span>'
        '<span class="jb-parallel no-search" lang="zh-CN" hidden>数组</span></p>'
        '<p><span class="jb-parallel-source">未翻译的一段</span>'
        '<span class="jb-parallel jb-parallel-marker" lang="en" hidden>not yet translated</span>'
        "</p>"
    )
    parser = VisibleText()
    parser.feed(page)
    assert parser.chinese == ["未翻译的一段"]


def test_english_pages_are_english(site):
    html = (site / "ch01" / "what-is-jax.html").read_text(encoding="utf-8")
    assert re.search(r'<html [^>]*lang="en"', html)
    # Its number is the toctree's, which the HTML writer prints before the title.
    assert '<h1><span class="section-number">1.1 </span>What is JAX?' in html
    assert "❌ Broken" in (site / "ch01" / "jax-vs-numpy.html").read_text(encoding="utf-8")
    assert "Translation in progress" not in html


def test_english_code_is_translated_too(site):
    html = (site / "ch01" / "jax-vs-numpy.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", html)
    assert "Default JAX float type" in text or "default JAX float" in text.lower()


def test_no_page_of_a_complete_translation_says_it_is_incomplete(site):
    flagged = [
        p.name for p in site.rglob("*.html") if "jb-translation-notice" in p.read_text("utf-8")
    ]
    assert flagged == []


# "a" before a vowel sound: "a answer area" is what a reader, a screen reader and pdftotext
# get of "a ✍️ answer area" once the emoji is gone. Words that begin with a vowel letter but
# not a vowel sound take "a" ("a one-off", "a uniform", "a user", "a uint32 array"). In
# print, code is text too: "a and b are …", "a is unchanged" name a variable, and a word that
# no article comes before (and, is, on) follows it.
A_BEFORE_VOWEL = re.compile(
    r"(?<![\w'’.-])a\s+"
    r"(?!(?:one|once|u[bcfgklmnprstv]?[aeiou]|ui|eu|ure)[\w-]*)"
    r"(?!(?:and|are|as|at|if|in|is|it|its|of|on|or)\b)([aeiou][\w-]*)",
    re.IGNORECASE,
)
# Emoji and their presentation selector: the PDF draws them as pictures, text has none.
EMOJI = re.compile(r"[\u2600-\u27bf\U0001f000-\U0001faff\ufe0f]")


def misplaced_articles(text: str) -> list[str]:
    """Each "a" before a vowel sound in ``text``, once its emoji are gone; the option names
    of the quiz ("A is wrong") are capitals, not articles."""
    text = " ".join(EMOJI.sub("", text).split())
    return [
        text[max(0, m.start() - 30) : m.end() + 10]
        for m in A_BEFORE_VOWEL.finditer(text)
        if text[m.start()] == "a"
    ]


def reading_text(html: str) -> str:
    """What a reader reads of a page's article: its code and outputs stand as one word with
    no vowel to sound, and the parallel view's Chinese goes."""
    soup = BeautifulSoup(html, "html.parser")
    article = soup.select_one('article[role="main"]') or soup
    for element in article.select("pre, script, style, [lang='zh-CN']"):
        element.decompose()
    for code in article.select("code"):
        code.replace_with(" CODE ")
    return article.get_text(" ")


def test_no_english_page_reads_a_before_a_vowel(site):
    """The editor read "Each exercise has a answer area" in print."""
    found = {
        page.name: misplaced_articles(reading_text(page.read_text(encoding="utf-8")))
        for page in site.rglob("*.html")
        if "_static" not in page.parts and page.name != "genindex.html"
    }
    assert {name: lines for name, lines in found.items() if lines} == {}


def test_the_article_check_sees_an_emoji_gone():
    assert misplaced_articles("Each exercise has a ✍️ answer area.") == [
        "Each exercise has a answer area."
    ]
    fine = "a uniform key, a user, a one-off, a uint32 array, A is wrong, an answer area (✍️)"
    fine += "; print(a) # a is unchanged; a and b are equal"
    assert misplaced_articles(fine) == []


# What the editor reported in the English edition, which no page may say again.
ERRATA = {
    # The print labels name where an output was recorded, not what it "holds on".
    "the devices it holds on": "ch01/index.html",
    # The course's other chapters: "not part of this book" read as if the book left out a
    # part of itself; the book holds chapter 1 (its subtitle says so).
    "not part of this book": "ch01/what-is-jax.html",
}


@pytest.mark.parametrize("phrase", ERRATA)
def test_an_errata_phrase_is_gone(site, phrase):
    assert (site / ERRATA[phrase]).is_file()
    text = {
        page.relative_to(site).as_posix(): " ".join(reading_text(page.read_text("utf-8")).split())
        for page in site.rglob("*.html")
        if "_static" not in page.parts
    }
    assert [name for name, words in text.items() if phrase in words] == []


def test_the_chapter_says_where_the_labelled_outputs_were_recorded(site):
    text = " ".join(reading_text((site / "ch01" / "index.html").read_text("utf-8")).split())
    assert (
        "the PDF and EPUB editions label each device-dependent output with the devices it was "
        "recorded on"
    ) in text


def test_the_english_pdf_reads_no_a_before_a_vowel(built_editions):
    """In print the emoji is a picture, which pdftotext, as a reader's eye, skips."""
    text = pdf_text(the_pdf(built_editions, "en"), "-raw")
    assert misplaced_articles(text) == []
