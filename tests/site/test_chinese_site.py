"""The Chinese edition reads as Chinese: full-width punctuation, and its chrome in Chinese."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from jaxbook.chinese import HAN_RANGES

# A half-width mark with a Chinese character on either side (spaces between allowed).
HALF_WIDTH_BY_CHINESE = re.compile(rf"[{HAN_RANGES}] *[,;:?!]|[,;:?!] *[{HAN_RANGES}]")
LITERAL = {"code", "pre", "kbd", "samp", "math", "script", "style", "svg", "tt"}
BLOCK = {
    "p",
    "li",
    "td",
    "th",
    "h1",
    "h2",
    "h3",
    "h4",
    "dt",
    "dd",
    "div",
    "summary",
    "caption",
    "figcaption",
    "title",
    "a",
    "span",
    "button",
    "label",
    "aside",
    "nav",
    "footer",
}


@pytest.fixture(scope="module")
def site(built_site) -> Path:
    return built_site / "zh_CN"


def pages(site: Path) -> list[Path]:
    found = [p for p in site.rglob("*.html") if "_static" not in p.parts]
    assert len(found) >= 14
    return found


class Prose(HTMLParser):
    """The page's text with code, math and URLs replaced by a Latin placeholder."""

    def __init__(self) -> None:
        super().__init__()
        self.literal = 0
        self.parts: list[str] = []
        self.other: list[str] = []  # open tags of the parallel view's English text

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if self.other or (
            "jb-parallel" in (attributes.get("class") or "").split()
            and attributes.get("lang", "zh-CN") != "zh-CN"
        ):
            self.other.append(tag)  # English punctuation rules, not Chinese ones
            return
        if tag in LITERAL:
            if not self.literal:
                self.parts.append("X")
            self.literal += 1
        elif tag in BLOCK:
            self.parts.append("\n")
        for name, value in attrs:
            if name in {"alt", "title", "aria-label", "placeholder"} and value:
                self.parts.append(f"\n{value}\n")

    def handle_endtag(self, tag):
        if self.other:
            if tag in self.other:
                del self.other[len(self.other) - 1 - self.other[::-1].index(tag) :]
            return
        if tag in LITERAL and self.literal:
            self.literal -= 1
        elif tag in BLOCK:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.literal and not self.other:
            self.parts.append(re.sub(r"https?://\S+", "X", data))

    def text(self) -> str:
        return "".join(self.parts)


def half_width_by_chinese(html: str) -> list[str]:
    parser = Prose()
    parser.feed(html)
    return [
        line.strip()[:80]
        for line in parser.text().split("\n")
        if HALF_WIDTH_BY_CHINESE.search(line)
    ]


def test_no_half_width_punctuation_next_to_chinese(site):
    offenders = {}
    for page in pages(site):
        found = half_width_by_chinese(page.read_text(encoding="utf-8"))
        if found:
            offenders[str(page.relative_to(site))] = found[:5]
    assert not offenders


def test_the_punctuation_check_sees_a_planted_colon():
    assert half_width_by_chinese("<p>密钥:<code>key:1</code></p>") == ["密钥:X"]
    assert half_width_by_chinese("<p>密钥：<code>print('a:', 1)</code></p>") == []


def code_touching_chinese(html: str) -> list[str]:
    """Inline code with a Chinese character right beside it, where clreq and the book's
    pages put a space (a full-width mark beside code needs none)."""
    from bs4 import BeautifulSoup

    page = BeautifulSoup(html, "html.parser")
    found = []
    for code in page.select("p code.literal, li code.literal, td code.literal"):
        before, after = code.previous_sibling, code.next_sibling
        left = before[-1:] if isinstance(before, str) else ""
        right = after[:1] if isinstance(after, str) else ""
        if re.fullmatch(f"[{HAN_RANGES}]", left) or re.fullmatch(f"[{HAN_RANGES}]", right):
            found.append(f"{left}{code.get_text()}{right}".strip())
    return found


def test_inline_code_is_spaced_from_chinese(site):
    offenders = {}
    for page in pages(site):
        found = code_touching_chinese(page.read_text(encoding="utf-8"))
        if found:
            offenders[str(page.relative_to(site))] = found[:5]
    assert not offenders


def test_the_code_spacing_check_sees_code_against_a_character():
    assert code_touching_chinese('<p>轴是<code class="literal">Auto</code> 类型</p>') == ["是Auto"]
    assert code_touching_chinese('<p>轴是 <code class="literal">Auto</code>。</p>') == []


def test_the_punctuation_check_leaves_the_parallel_views_english_alone():
    english = '<span class="jb-parallel" lang="en" hidden>the term <em>密钥</em>: a key</span>'
    assert half_width_by_chinese(f"<p>密钥：键{english}</p>") == []
    # Only that English: the page's own text next to it, or a Chinese marker, is checked.
    assert half_width_by_chinese(f"<p>密钥:键{english}</p>") == ["密钥:键"]
    marker = '<span class="jb-parallel" lang="zh-CN" hidden>尚未翻译:</span>'
    assert half_width_by_chinese(f"<p>密钥{marker}</p>") == ["尚未翻译:"]


# Names that stay as they are in Chinese: the software, the publisher, the licences.
PROPER_NAMES = {
    "JAX",
    "NumPy",
    "CPU",
    "GPU",
    "TPU",
    "Sphinx",
    "Furo",
    "pradyunsg",
    "ApX",
    "Machine",
    "Learning",
    "CC",
    "BY",
    "MIT",
    "Python",
    "XLA",
    # File formats, named as they are in Chinese too (the book's downloads).
    "PDF",
    "EPUB",
    # The devices and plugin the accelerators' outputs were recorded with, as JAX names them
    # ("TPU v5 lite", "NVIDIA H200", "CUDA 13", "libtpu 0.0.50.1"): a backend tab's title
    # says where its outputs ran.
    "NVIDIA",
    "CUDA",
    "lite",
    "libtpu",
}
TITLE_ECHOES = {"toc-tree", "sidebar-tree", "title"}
LABELS = ("title", "aria-label", "placeholder", "alt")
ENGLISH_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")
QUOTED = re.compile(r"“[^”]*”")


class Chrome(HTMLParser):
    """English words in what the theme and the extensions put on a page.

    That is all text outside the article, and the labels (title, aria-label,
    placeholder, alt) anywhere; code and anything marked ``lang="en"`` (the
    language switcher's "English") are left out.
    """

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool, bool]] = []
        self.english: list[str] = []

    def skipping(self) -> bool:
        return any(skip for _tag, skip, _article in self.stack)

    def in_article(self) -> bool:
        return any(article for _tag, _skip, article in self.stack)

    def check(self, where: str, text: str) -> None:
        # A label may quote a title ("展开或折叠“第 2 章 jit 入门”的导航"): the title is
        # content, not chrome.
        words = set(ENGLISH_WORD.findall(QUOTED.sub("", text))) - PROPER_NAMES
        if words:
            self.english.append(f"{where}: {text.strip()[:70]!r}")

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = set(attributes.get("class", "").split())
        skip = tag in LITERAL or attributes.get("lang", "zh-CN") != "zh-CN"
        # The page's own titles, repeated by the navigation, the local table of
        # contents, the next / previous links and <title>, are content.
        titles = tag == "title" or bool(classes & TITLE_ECHOES)
        if tag not in {"img", "br", "meta", "link", "input", "hr", "col", "source", "use", "path"}:
            self.stack.append((tag, skip, tag == "article" or titles))
        if self.skipping():
            return
        labels = ("title", "aria-label") if self.in_article() else LABELS
        for name in labels:
            if attributes.get(name) and not (tag == "link" and name == "title"):
                self.check(f"{tag}[{name}]", attributes[name])

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if not self.skipping() and not self.in_article():
            self.check("text", data)


def english_chrome(page: str) -> list[str]:
    parser = Chrome()
    parser.feed(page)
    return parser.english


def test_no_english_ui_words_on_chinese_pages(site):
    offenders = {}
    for page in pages(site):
        found = english_chrome(page.read_text(encoding="utf-8"))
        if found:
            offenders[str(page.relative_to(site))] = found[:6]
    assert not offenders


def test_the_chrome_check_sees_english_labels():
    page = (
        '<html lang="zh-CN"><body><a class="skip">Skip to content</a>'
        '<input aria-label="Toggle site navigation sidebar"><article>'
        "<p>用 JAX 和 tracing</p></article>"
        '<button aria-label="展开或折叠“第 2 章 jit 入门”的导航"></button>'
        '<span lang="en">English</span></body></html>'
    )
    assert english_chrome(page) == [
        "text: 'Skip to content'",
        "input[aria-label]: 'Toggle site navigation sidebar'",
    ]


class Code(HTMLParser):
    """The text of every code block and output (``<pre>``) on a page, line by line."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.lines: list[str] = []
        self.current: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "pre":
            self.depth += 1

    def handle_endtag(self, tag):
        if tag == "pre" and self.depth:
            self.depth -= 1
            self.lines += "".join(self.current).split("\n")
            self.current = []

    def handle_data(self, data):
        if self.depth:
            self.current.append(data)


HALF_WIDTH_IN_CODE = re.compile(rf"[{HAN_RANGES}][,;:?!()]|[,;:?!()][{HAN_RANGES}]")


def half_width_in_code(page: str) -> list[str]:
    parser = Code()
    parser.feed(page)
    return [line.strip() for line in parser.lines if HALF_WIDTH_IN_CODE.search(line)]


def test_code_comments_strings_and_outputs_use_full_width_marks(site):
    offenders = {}
    for page in pages(site):
        found = half_width_in_code(page.read_text(encoding="utf-8"))
        if found:
            offenders[str(page.relative_to(site))] = found[:5]
    assert not offenders


def test_the_code_check_sees_a_planted_comma():
    assert half_width_in_code("<pre>x = 1  # 注释,再说</pre><p>正文,不算</p>") == [
        "x = 1  # 注释,再说"
    ]


def test_the_general_index_is_in_pinyin_order(site):
    html = (site / "genindex.html").read_text(encoding="utf-8")
    letters = re.findall(r"<h2>([^<]+)</h2>", html)
    assert len(letters) >= 8
    # Symbols and digits first ("64 位类型"), as Sphinx orders them, then A to Z.
    assert letters == sorted(letters, key=lambda letter: (letter != "符号", letter))
    assert all(re.fullmatch(r"[A-Z]|符号", letter) for letter in letters)
    assert "归约" in html.split("<h2>G</h2>")[1].split("<h2")[0]


def test_the_404_page_links_home_and_needs_no_sidebar(site):
    html = (site / "404.html").read_text(encoding="utf-8")
    assert re.search(r'请从<a href="/zh_CN/">首页</a>重新开始', html)
    assert "左侧" not in html


class ChineseText(HTMLParser):
    """A page's text outside code, scripts and the parallel view's English text."""

    def __init__(self) -> None:
        super().__init__()
        self.skipped: list[str] = []
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        other = "jb-parallel" in (attributes.get("class") or "").split() and (
            attributes.get("lang", "zh-CN") != "zh-CN"
        )
        if self.skipped or tag in {"pre", "script", "style"} or other:
            self.skipped.append(tag)

    def handle_endtag(self, tag):
        if tag in self.skipped:
            del self.skipped[len(self.skipped) - 1 - self.skipped[::-1].index(tag) :]

    def handle_data(self, data):
        if not self.skipped:
            self.parts.append(data)


def chinese_text(page: str) -> str:
    parser = ChineseText()
    parser.feed(page)
    return " ".join(parser.parts)


def test_the_wording_check_reads_the_parallel_views_chinese_and_not_its_english():
    page = (
        '<p><span class="jb-parallel-source">下载笔记本</span>'
        '<span class="jb-parallel" lang="en" hidden>Download the <code>notebook</code></span>'
        '<span class="jb-parallel" lang="zh-CN" hidden>请您</span></p><pre>notebook</pre>'
    )
    text = chinese_text(page)
    assert "下载笔记本" in text
    assert "您" in text
    assert "notebook" not in text


def added_translations(text: str) -> dict[str, object]:
    """The messages of each ``Documentation.addTranslations({...})`` call in ``text``."""
    found: dict[str, object] = {}
    for call in text.split("Documentation.addTranslations(")[1:]:
        catalog, _end = json.JSONDecoder().raw_decode(call)
        found.update(catalog["messages"])
    return found


def test_search_and_copy_messages_speak_as_the_book(site):
    # Sphinx's translations.js, then the book's messages over it (an inline script).
    messages = added_translations((site / "_static" / "translations.js").read_text("utf-8"))
    messages.update(added_translations((site / "search.html").read_text("utf-8")))
    assert messages
    assert not [text for text in messages.values() if "您" in str(text)]
    copy_button = (site / "_static" / "copybutton.js").read_text(encoding="utf-8")
    assert '"copy_success": "复制成功！"' in copy_button
    for page in pages(site):
        text = chinese_text(page.read_text("utf-8"))
        assert "您" not in text, page
        assert not re.search(r"\bnotebooks?\b", text), page


def test_the_footer_states_the_copyright_without_reserving_rights(site):
    """The text is offered under CC BY 4.0: the footer says "© 2026 …", not 版权所有
    ("all rights reserved", as a Chinese reader takes it)."""
    footer = BeautifulSoup(
        (site / "ch01" / "arrays.html").read_text(encoding="utf-8"), "html.parser"
    ).select_one("div.copyright")
    assert " ".join(footer.get_text().split()).startswith("© 2026 ")
