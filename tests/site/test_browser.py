"""The site as readers meet it: a real HTTP server and a headless Chromium.

Every check here also runs against a deliberately broken page, to show that it
can fail. Screenshots of a Chinese and an English page go to _build/screenshots/.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlparse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from jaxbook.project import find_root, languages
from jaxbook.site import landing
from jaxbook.testing.browser import chromium

ROOT = find_root(Path(__file__).parent)
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
# Every language of the book (locale/languages.csv): the served site holds each one's.
LANGUAGES = list(languages(ROOT))

BROKEN_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>broken</title>
<script src="http://127.0.0.2:9/third-party.js"></script>
</head><body>
<script>console.error("deliberate error");</script>
<script>
addEventListener("load", () => fetch("http://127.0.0.3:9/late.json").catch(() => {}));
</script>
<p><div>unclosed</p>
<img src="missing.png">
<a href="no-such-page.html">dead link</a>
</body></html>
"""


@pytest.fixture(scope="module")
def site(built_editions, tmp_path_factory) -> Path:
    """Every language's site with its books, as `make test` builds them."""
    root = tmp_path_factory.mktemp("served")
    for language in LANGUAGES:
        shutil.copytree(built_editions / "html" / language, root / language)
    landing.write(root, LANGUAGES)
    (root / "broken.html").write_text(BROKEN_PAGE, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def server(site, serve) -> str:
    return serve(site)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = chromium(tmp_path_factory.mktemp("chromium"))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def pages(site: Path) -> list[str]:
    return sorted(
        f"{language}/{p.relative_to(site / language).as_posix()}"
        for language in LANGUAGES
        for p in (site / language).rglob("*.html")
        if not p.relative_to(site / language).as_posix().startswith("_")
    )


def load(browser, url: str) -> tuple[list[str], list[str]]:
    """Open a page; return (console errors, request URLs)."""
    browser.get_log("browser")
    browser.get_log("performance")
    browser.get(url)
    # What the page starts as it loads (its fonts, its scripts' own requests) is asked for
    # before the browser is next idle; a fixed pause cost 0.2 s on every page.
    browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "document.fonts.ready.then(() => requestIdleCallback(() => done(), {timeout: 2000}));"
    )
    errors = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    requests = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            requests.append(message["params"]["request"]["url"])
    return errors, requests


def foreign(requests: list[str], base: str) -> list[str]:
    origin = urlparse(base).netloc
    return [
        url
        for url in requests
        # chrome:// is the browser's own interface, loading as it starts: no page can ask for it.
        if urlparse(url).scheme not in {"data", "blob", "about", "chrome"}
        and urlparse(url).netloc != origin
    ]


@functools.cache
def axe_script() -> str:
    return AXE.read_text(encoding="utf-8")


def axe_violations(browser) -> list[str]:
    browser.execute_script(axe_script())
    found = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run({resultTypes: ['violations']}).then(r => done(r.violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '))));"
    )
    return list(found)


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids.add(attributes["id"])
        if tag == "a" and attributes.get("href"):
            self.hrefs.append(attributes["href"])
        if tag == "link" and attributes.get("rel") in {"stylesheet"}:
            self.hrefs.append(attributes["href"])


def broken_links(base: str, start: list[str]) -> list[str]:
    """Crawl the site over HTTP from ``start``; report dead links and missing anchors."""
    seen: dict[str, set[str] | None] = {}
    queue = [f"{base}/{path}" for path in start]
    wanted: list[tuple[str, str, str]] = []
    broken = []
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                body = response.read().decode("utf-8", "replace")
                kind = response.headers.get_content_type()
        except OSError as exc:
            seen[url] = None
            broken.append(f"{url}: {exc}")
            continue
        if kind != "text/html":
            seen[url] = set()
            continue
        parser = Links()
        parser.feed(body)
        seen[url] = parser.ids
        for href in parser.hrefs:
            target, fragment = urldefrag(urljoin(url, href))
            if not target.startswith(base):
                continue
            wanted.append((url, target, fragment))
            if target not in seen:
                queue.append(target)
    for page, target, fragment in wanted:
        ids = seen.get(target)
        if ids is None:
            broken.append(f"{page}: dead link to {target}")
        elif fragment and ids and fragment not in ids:
            broken.append(f"{page}: no #{fragment} in {target}")
    return sorted(set(broken))


def vnu_errors(files: list[Path]) -> list[str]:
    # As for EPUBCheck (test_editions.py), the JIT's first tier and the serial collector:
    # 3 s of CPU where the default spends 5.5 s. That tier needs a deeper stack for the
    # checker's schema than the default thread's (it stops with a StackOverflowError).
    fast_start = ["-Xss8m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]
    result = subprocess.run(
        ["java", *fast_start, "-jar", str(VNU), "--errors-only", "--format=gnu", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    errors = [line for line in result.stderr.splitlines() if ": error:" in line]
    # It exits 1 on errors; any other failure (a checker that did not start) is no verdict.
    assert result.returncode == 0 or (result.returncode == 1 and errors), result.stderr[-3000:]
    return errors


# -- the checks ----------------------------------------------------------------


def test_switcher_lands_on_the_same_page(browser, server):
    browser.get(f"{server}/zh_CN/ch01/arrays.html")
    browser.find_element(By.CSS_SELECTOR, 'a.jb-language-link[hreflang="en"]').click()
    WebDriverWait(browser, 10).until(expected_conditions.url_contains("/en/ch01/arrays.html"))
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    browser.find_element(By.CSS_SELECTOR, 'a.jb-language-link[hreflang="zh-CN"]').click()
    WebDriverWait(browser, 10).until(expected_conditions.url_contains("/zh_CN/ch01/arrays.html"))
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "zh-CN"


def test_landing_page_sends_the_reader_to_a_language(browser, server):
    browser.get(f"{server}/")
    WebDriverWait(browser, 10).until(
        lambda b: re.search(r"/(en|zh_CN)/index\.html$", b.current_url)
    )


def search(browser, server: str, language: str, query: str) -> list[str]:
    browser.get(f"{server}/{language}/search.html?q={query}")
    WebDriverWait(browser, 20).until(
        lambda b: (
            b.find_elements(By.CSS_SELECTOR, "#search-results li a")
            or "0" in (b.find_element(By.CSS_SELECTOR, "#search-results").text or "x")
        )
    )
    links = [
        urlparse(a.get_attribute("href"))
        for a in browser.find_elements(By.CSS_SELECTOR, "#search-results li a")
    ]
    return [link.path + (f"#{link.fragment}" if link.fragment else "") for link in links]


def test_search_in_both_languages(browser, server):
    zh = [link.split("#")[0] for link in search(browser, server, "zh_CN", "向量化")]
    assert any(path.endswith("/ch01/what-is-jax.html") for path in zh), zh
    assert any(path.endswith("/ch01/transformations.html") for path in zh), zh
    assert any(path.endswith("/zh_CN/glossary.html") for path in zh), zh  # the entry itself
    # The summary says 向量化 only: its words are segmented whole, so 量化 finds it only
    # through its index entry for 向量化 (Sphinx matches part of an index entry).
    quantization = search(browser, server, "zh_CN", "量化")
    assert not any(link.endswith("/ch01/summary.html") for link in quantization), quantization
    en = [link.split("#")[0] for link in search(browser, server, "en", "vectorization")]
    assert any(path.endswith("/ch01/what-is-jax.html") for path in en), en


def test_a_listings_number_stands_apart_from_its_caption(browser, server):
    """furo sets a listing's caption as a flex row, where the space after the number
    collapsed: "Listing 1-1x64_startup.py"."""
    browser.get(f"{server}/en/ch01/jax-vs-numpy.html")
    gap = browser.execute_script(
        "const c = document.querySelector('.code-block-caption');"
        "const n = c.querySelector('.caption-number').getBoundingClientRect();"
        "const t = c.querySelector('.caption-text').getBoundingClientRect();"
        "return t.left - n.right;"
    )
    assert gap >= 6, gap


def test_search_snippets_quote_the_pages_language_only(browser, server):
    """A Chinese page holds its English beside each passage (hidden, ``no-search``): a
    result's snippet quotes the Chinese text around the word, never that English."""
    search(browser, server, "zh_CN", "密钥")
    WebDriverWait(browser, 20).until(
        lambda b: b.find_elements(By.CSS_SELECTOR, "#search-results li p.context")
    )
    snippets = [p.text for p in browser.find_elements(By.CSS_SELECTOR, "#search-results p.context")]
    assert snippets
    english = [s for s in snippets if re.search(r"\b(?:the|of|and|is|in) [a-z]+ [a-z]+", s)]
    assert not english, english


def test_copy_button_copies_code_without_prompts_or_output(browser, server):
    browser.get(f"{server}/en/ch01/what-is-jax.html")
    # The second code cell: the one that prints jax.vmap's docstring.
    cell = browser.find_elements(By.CSS_SELECTOR, "div.highlight-python div.highlight")[1]
    code = cell.find_element(By.TAG_NAME, "pre").text
    browser.execute_script(
        "window.__copied = null;"
        "document.execCommand = () => { window.__copied = document.activeElement.value ??"
        " window.getSelection().toString(); return true; };"
        "if (navigator.clipboard) navigator.clipboard.writeText ="
        " (t) => { window.__copied = t; return Promise.resolve(); };"
    )
    browser.execute_script("arguments[0].querySelector('button.copybtn').click();", cell)
    WebDriverWait(browser, 5).until(lambda b: b.execute_script("return window.__copied"))
    copied = browser.execute_script("return window.__copied")
    assert copied.strip() == code.strip()
    assert ">>>" not in copied
    outputs = browser.find_elements(By.CSS_SELECTOR, "div.highlight-none button.copybtn")
    assert not outputs, "expected outputs must not get a copy button"
    following = browser.execute_script(
        "let n = arguments[0].closest('div.highlight-python').nextElementSibling;"
        "while (n && !n.matches('div.highlight-none')) n = n.nextElementSibling;"
        "return n ? n.innerText : '';",
        cell,
    )
    assert following.strip()
    assert following.strip() not in copied


def test_pages_make_no_foreign_requests_and_log_no_errors(browser, server, site):
    problems = {}
    for path in pages(site):
        errors, requests = load(browser, f"{server}/{path}")
        if errors or foreign(requests, server):
            problems[path] = errors + foreign(requests, server)
    assert len(pages(site)) > 30
    assert not problems


def test_no_internal_link_is_broken(server):
    assert broken_links(server, [f"{language}/index.html" for language in LANGUAGES]) == []


def test_html_is_valid(site):
    assert vnu_errors([site / path for path in pages(site)] + [site / "index.html"]) == []


# axe on every page at two widths takes a minute or more: `make lighthouse` runs it, with
# Lighthouse; the broken page below shows here that the check can fail.
@pytest.mark.audit
def test_no_serious_accessibility_violations(browser, server, site):
    problems = {}
    for path in pages(site):
        browser.get(f"{server}/{path}")
        violations = axe_violations(browser)
        if violations:
            problems[path] = violations
    assert not problems


@pytest.mark.audit
def test_no_serious_accessibility_violations_on_a_phone(browser, server, site):
    # At 390 px tables and formulas scroll sideways; the keyboard must reach them.
    scrolling = [
        path
        for path in pages(site)
        if re.search(r'class="(?:table|math)-wrapper', (site / path).read_text(encoding="utf-8"))
    ]
    assert len(scrolling) >= 4, scrolling
    problems = {}
    browser.set_window_size(390, 844)
    try:
        for path in scrolling:
            browser.get(f"{server}/{path}")
            violations = axe_violations(browser)
            if violations:
                problems[path] = violations
    finally:
        browser.set_window_size(1280, 900)
    assert not problems


# A term's link to the glossary, as laid out: its underline, and the colours of its text and line.
TERM_LINK = """
const link = document.querySelector('a.jb-term-link');
const style = getComputedStyle(link);
return {style: style.textDecorationStyle, thickness: style.textDecorationThickness,
        color: style.color, line: style.textDecorationColor};
"""


def test_a_terms_link_is_underlined_lightly(browser, server):
    """Thin, dotted and grey under the text's colour: the editors found the text's colour and
    the font's weight of line dense under every term of a page."""
    browser.get(f"{server}/en/ch01/arrays.html")
    link = browser.execute_script(TERM_LINK)
    assert link["style"] == "dotted"
    assert link["thickness"] == "1px"
    assert link["line"] != link["color"]


# The sidebar's top-level entries (chapter 1, the glossary, the index): each one's box, and
# the space between it and the next.
SIDEBAR_GAPS = """
const items = [...document.querySelectorAll('.sidebar-tree li.toctree-l1')];
const boxes = items.map(li => li.getBoundingClientRect());
return boxes.slice(1).map((box, i) => [
  items[i].textContent.trim().split(/\\s+/)[0], box.top - boxes[i].bottom]);
"""


def test_the_index_follows_the_glossary_in_the_sidebar_without_a_gap(browser, server):
    """The index's link is a tree of its own after the contents' (jaxbook-index.html), which
    furo set 1.5rem below them: an unexplained gap between "Glossary" and "Index"."""
    browser.set_window_size(1280, 900)
    for language in LANGUAGES:
        browser.get(f"{server}/{language}/glossary.html")
        gaps = browser.execute_script(SIDEBAR_GAPS)
        assert len(gaps) == 2, gaps  # chapter 1 to the glossary, the glossary to the index
        (_first, within), (_glossary, before_index) = gaps
        assert abs(before_index - within) < 1, gaps


def test_figure_and_folded_answers(browser, server):
    browser.get(f"{server}/zh_CN/ch01/exercises.html")
    figure = browser.find_element(By.CSS_SELECTOR, "img[src*='.png']")
    assert browser.execute_script(
        "return arguments[0].complete && arguments[0].naturalWidth", figure
    )
    browser.get(f"{server}/en/ch01/quiz.html")
    answers = browser.find_elements(By.CSS_SELECTOR, "details.sd-dropdown")
    assert len(answers) == 8
    assert not any(a.get_attribute("open") for a in answers)
    answer_text = answers[0].find_element(By.CSS_SELECTOR, ".sd-summary-content")
    assert not answer_text.is_displayed()
    answers[0].find_element(By.TAG_NAME, "summary").click()
    assert answer_text.is_displayed()


# Each code block laid out late (content-visibility): its height before and after layout.
DEFERRED_HEIGHTS = """
const blocks = [...document.querySelectorAll(
  'article[role="main"] > section > section ~ section div.highlight > pre')];
window.scrollTo(0, 0);
const deferred = blocks.map(b => getComputedStyle(b).contentVisibility === 'auto');
const before = blocks.map(b => b.getBoundingClientRect().height);
for (const b of blocks) b.style.contentVisibility = 'visible';
return blocks.map((b, i) => [deferred[i], before[i], b.getBoundingClientRect().height]);
"""


def test_code_blocks_laid_out_late_keep_their_height(browser, server):
    """A link to a later section lands on it, and the page does not move as blocks appear."""
    browser.set_window_size(390, 844)
    try:
        off = {}
        for language in LANGUAGES:
            for page in ["arrays", "transformations", "jax-vs-numpy", "devices"]:
                browser.get(f"{server}/{language}/ch01/{page}.html")
                heights = browser.execute_script(DEFERRED_HEIGHTS)
                assert len(heights) >= 10, (language, page)
                assert all(deferred for deferred, _, _ in heights), (language, page)
                # A horizontal scrollbar (long lines) is the only height a block cannot know.
                wrong = [(a, b) for _, a, b in heights if abs(a - b) > 12]
                if wrong:
                    off[f"{language}/{page}"] = wrong
    finally:
        browser.set_window_size(1280, 900)
    assert off == {}


# Each element that the script's argument selects and that takes more than one line, laid
# out: its text, and its text by line (a heading's anchor, the "¶" shown on hover, left out).
# A line starts where a character stands left of the one before it: inline code sits a little
# higher or lower on the same line.
LINES_OF = """
const found = [];
for (const element of document.querySelectorAll(arguments[0])) {
  const lines = [''];
  let left = -Infinity;
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('.headerlink')) continue;
    for (let i = 0; i < node.data.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect || !rect.width) continue;
      if (rect.left < left - 1) lines.push('');
      lines[lines.length - 1] += node.data[i];
      left = rect.left;
    }
  }
  const text = lines.map(line => line.trim());
  if (text.length > 1) found.push({text: element.textContent.replace(/\\s+/g, ' '), lines: text});
}
return found;
"""


def short_last_lines(headings: list[dict]) -> list[str]:
    """The headings whose last line holds a character or two, or one short word."""
    return [
        " / ".join(heading["lines"])
        for heading in headings
        if len(heading["lines"][-1].replace(" ", "")) < 4
    ]


def test_the_heading_check_sees_a_last_line_of_one_or_two_characters():
    found = [{"lines": ["1.1 JAX 是什", "么？"]}, {"lines": ["1.1 JAX", "是什么？"]}]
    assert short_last_lines(found) == ["1.1 JAX 是什 / 么？"]


# Two Han characters, or two letters or digits, that a line break may not part.
IN_A_WORD = re.compile(r"[\u3400-\u9fff]{2}|[A-Za-z0-9]{2}")


def broken_words(cells: list[dict]) -> list[str]:
    """The cells whose lines part two Han characters, or two letters or digits the text
    writes together ("版本" / "变化", "recomme" / "nded"), not at a space or a bracket."""
    return [
        " / ".join(cell["lines"])
        for cell in cells
        if any(
            IN_A_WORD.fullmatch(before[-1] + after[0]) and before[-1] + after[0] in cell["text"]
            for before, after in zip(cell["lines"], cell["lines"][1:], strict=False)
            if before and after
        )
    ]


def test_the_table_header_check_sees_a_word_broken_and_not_one_kept():
    cells = [
        {"text": "版本变化", "lines": ["版本", "变化"]},
        {"text": "Changed in", "lines": ["Changed", "in"]},
        {"text": "jax.random.key(0)（推荐）", "lines": ["jax.random.key(0)", "（推荐）"]},
    ]
    assert broken_words(cells) == ["版本 / 变化"]


def test_headings_wrap_evenly_on_a_phone(browser, server):
    """The zh editor found "1.1 JAX 是什" / "么？" at 390 px: a heading that wraps leaves more
    than a character or two on its last line."""
    browser.set_window_size(390, 844)
    try:
        short, wrapping = {}, 0
        for language in LANGUAGES:
            for page in ["index", "what-is-jax", "jax-vs-numpy", "transformations", "devices"]:
                browser.get(f"{server}/{language}/ch01/{page}.html")
                headings = browser.execute_script(LINES_OF, "article h1, article h2, article h3")
                wrapping += len(headings)
                if found := short_last_lines(headings):
                    short[f"{language}/{page}"] = found
    finally:
        browser.set_window_size(1280, 900)
    assert wrapping > 5
    assert short == {}


def test_table_headers_break_only_between_words_on_a_phone(browser, server):
    """The zh editor found the update notes' "编号" header as "编" / "号" at 390 px: a header
    cell wraps between its words only, as the EPUB's does."""
    browser.set_window_size(390, 844)
    try:
        broken = {}
        for language in LANGUAGES:
            for page in ["update-notes", "installation", "arrays"]:
                browser.get(f"{server}/{language}/ch01/{page}.html")
                cells = browser.execute_script(LINES_OF, "article table.docutils th")
                if found := broken_words(cells):
                    broken[f"{language}/{page}"] = found
    finally:
        browser.set_window_size(1280, 900)
    assert broken == {}


# Each output of the page (each backend tab's too, shown), laid out: whether its frame leaves
# the article's column, whether its lines wrap, and whether one wider than its frame scrolls.
OUTPUT_FAULTS = """
for (const tab of document.querySelectorAll('.jb-backend-tabs > div')) tab.style.display = 'block';
const column = document.querySelector('article').getBoundingClientRect();
const outputs = [...document.querySelectorAll('div.highlight-none > div.highlight > pre')];
for (const pre of outputs) pre.style.contentVisibility = 'visible';
const faults = [];
let wide = 0;
outputs.forEach((pre, i) => {
  const frame = pre.parentElement.getBoundingClientRect();
  const style = getComputedStyle(pre);
  const line = pre.textContent.split('\\n')[0].slice(0, 40);
  if (frame.left < column.left - 0.5 || frame.right > column.right + 0.5)
    faults.push(`out of the column: ${line}`);
  if (!['pre', 'nowrap'].includes(style.whiteSpace)) faults.push(`wraps: ${line}`);
  if (pre.scrollWidth > pre.clientWidth + 1) {
    wide += 1;
    if (!['auto', 'scroll'].includes(style.overflowX)) faults.push(`cut off: ${line}`);
  }
});
const page = document.documentElement.scrollWidth - document.documentElement.clientWidth;
if (page > 0) faults.push(`the page scrolls sideways by ${page} px`);
return {faults, wide};
"""
# Pages whose outputs are wider than a phone, and than the desktop column.
WIDE_OUTPUT_PAGES = ["installation", "jax-vs-numpy", "transformations", "devices"]


def output_faults(browser, url: str, style: str = "") -> tuple[list[str], int]:
    browser.get(url)
    if style:
        browser.execute_script(
            "const s = document.createElement('style'); s.textContent = arguments[0];"
            "document.head.append(s);",
            style,
        )
    found = browser.execute_script(OUTPUT_FAULTS)
    return found["faults"], found["wide"]


@pytest.mark.parametrize("width", [1280, 400])
def test_wide_outputs_scroll_inside_their_frames(browser, server, width):
    """At a desktop's and a phone's width an output keeps its lines whole and its frame in
    the column; what is wider than the frame scrolls there, not the page."""
    browser.set_window_size(width, 900)
    try:
        found, wide = {}, 0
        for language in LANGUAGES:
            for page in WIDE_OUTPUT_PAGES:
                faults, wide_here = output_faults(browser, f"{server}/{language}/ch01/{page}.html")
                wide += wide_here
                if faults:
                    found[f"{language}/{page}"] = faults[:3]
    finally:
        browser.set_window_size(1280, 900)
    assert wide >= 10  # there are wide outputs to check
    assert found == {}


# What a table at a phone's width does wrong: its box leaves the article's column, it is cut
# off where it is wider than its box, or it widens the page.
TABLE_FAULTS = """
const column = document.querySelector('article').getBoundingClientRect();
const faults = [];
let wide = 0;
for (const table of document.querySelectorAll('article table')) {
  const box = table.parentElement;
  const frame = box.getBoundingClientRect();
  const name = (table.className || 'table') + ' in ' + (box.className || box.tagName);
  const out = Math.max(column.left - frame.left, frame.right - column.right);
  if (out > 0.5) faults.push(`out of the column by ${out} px: ${name}`);
  if (table.getBoundingClientRect().width > frame.width + 1) {
    wide += 1;
    if (!['auto', 'scroll'].includes(getComputedStyle(box).overflowX))
      faults.push(`cut off: ${name}`);
  }
}
const page = document.documentElement.scrollWidth - document.documentElement.clientWidth;
if (page > 0) faults.push(`the page scrolls sideways by ${page} px`);
return {faults, wide};
"""


def pages_with_tables(site: Path) -> list[str]:
    """The chapter pages of every language that hold a table, as ``<language>/ch01/<page>``."""
    return [
        f"{language}/ch01/{path.name}"
        for language in LANGUAGES
        for path in sorted((site / language / "ch01").glob("*.html"))
        if "<table" in path.read_text(encoding="utf-8")
    ]


def test_wide_tables_scroll_inside_their_own_box_on_a_phone(browser, server, site):
    """At 375 px (a phone) a table wider than the column scrolls inside furo's wrapper, never
    the page: list-tables and the generated update-notes table alike."""
    browser.set_window_size(375, 800)
    try:
        found, wide = {}, 0
        for page in pages_with_tables(site):
            browser.get(f"{server}/{page}")
            result = browser.execute_script(TABLE_FAULTS)
            wide += result["wide"]
            if result["faults"]:
                found[page] = result["faults"][:3]
    finally:
        browser.set_window_size(1280, 900)
    assert wide >= 4  # there are tables wider than a phone to check
    assert found == {}


# The widest piece of each table cell's text that cannot break (the cell's width at
# min-content), in CSS pixels, with the start of the cell's text.
UNBREAKABLE_WIDTHS = """
const found = [];
for (const cell of document.querySelectorAll('article table.docutils td')) {
  const box = document.createElement('div');
  box.style.cssText = 'position: absolute; width: min-content; visibility: hidden';
  box.innerHTML = cell.innerHTML;
  cell.appendChild(box);
  found.push([box.getBoundingClientRect().width, cell.textContent.trim().slice(0, 50)]);
  box.remove();
}
return found;
"""
# At most half of a 390 px phone's column (328 px): wider, one cell's name holds its column
# so wide that the next column leaves the screen.
WIDEST_PIECE = 164


def unbreakable_pieces(browser) -> list[str]:
    """The cells of the page the browser shows whose widest unbreakable piece is wider than
    ``WIDEST_PIECE``: its width and the start of its text."""
    return [
        f"{width:.0f} px: {text}"
        for width, text in browser.execute_script(UNBREAKABLE_WIDTHS)
        if width > WIDEST_PIECE
    ]


def test_no_table_cell_holds_a_piece_wider_than_half_a_phone(browser, server, site):
    """The zh editor found the quick reference's second column off a 390 px screen: a name
    in the first (``jax.config.update("jax_debug_key_reuse",``) held it 317 px wide. Inline
    code in a cell breaks where the PDF breaks it, so each cell's text narrows."""
    browser.set_window_size(390, 844)
    try:
        pages, found = pages_with_tables(site), {}
        for page in pages:
            browser.get(f"{server}/{page}")
            if pieces := unbreakable_pieces(browser):
                found[page] = pieces[:3]
    finally:
        browser.set_window_size(1280, 900)
    assert len(pages) >= 10
    assert found == {}


def test_the_piece_check_sees_a_name_that_cannot_break(browser, server):
    browser.set_window_size(390, 844)
    try:
        browser.get(f"{server}/en/ch01/summary.html")
        browser.execute_script(
            "for (const w of document.querySelectorAll('article td wbr')) w.remove();"
            "const s = document.createElement('style');"
            "s.textContent = 'table.docutils { font-size: 1em !important; }';"
            "document.head.appendChild(s);"
        )
        pieces = unbreakable_pieces(browser)
    finally:
        browser.set_window_size(1280, 900)
    assert any("jax_debug_key_reuse" in piece for piece in pieces), pieces


def test_the_output_check_sees_a_broken_layout(browser, server):
    """Without the book's rule a flex item is as wide as its content, frame and all; and a
    wrapping output breaks its numbers."""
    browser.set_window_size(400, 900)
    try:
        url = f"{server}/en/ch01/transformations.html"
        overflowing, _wide = output_faults(
            browser, url, "div[class^='highlight-'] > div.highlight { min-width: auto; }"
        )
        wrapping, _wide = output_faults(
            browser, url, "div.highlight-none > div.highlight pre { white-space: pre-wrap; }"
        )
        hidden, _wide = output_faults(
            browser, url, "div.highlight-none > div.highlight pre { overflow-x: hidden; }"
        )
    finally:
        browser.set_window_size(1280, 900)
    assert any(fault.startswith("out of the column") for fault in overflowing)
    assert any(fault.startswith("wraps") for fault in wrapping)
    assert any(fault.startswith("cut off") for fault in hidden)


def test_screenshots(browser, server):
    out = ROOT / "_build" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    for language in LANGUAGES:
        browser.get(f"{server}/{language}/ch01/jax-vs-numpy.html")
        path = out / f"{language}-jax-vs-numpy.png"
        assert browser.save_screenshot(str(path))
        assert path.stat().st_size > 10_000
    # A wide output (a backend's tab, as most are), at a desktop's and a phone's width.
    try:
        for width in (1280, 400):
            browser.set_window_size(width, 900)
            browser.get(f"{server}/en/ch01/transformations.html")
            # Laid out (blocks below the first screen are laid out late) and in its fonts, then
            # scrolled to (one shown: a backend's tabs hide the others), and painted.
            browser.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "for (const p of document.querySelectorAll('pre'))"
                "  p.style.contentVisibility = 'visible';"
                "document.fonts.ready.then(() => {"
                "  [...document.querySelectorAll('.jb-backend-tabs div.highlight-none pre')]"
                "    .find(p => p.offsetParent && p.scrollWidth > p.clientWidth)"
                "    .scrollIntoView({block: 'center', behavior: 'instant'});"
                "  requestAnimationFrame(() => requestAnimationFrame(() => done()));"
                "});"
            )
            path = out / f"en-wide-output-{width}.png"
            assert browser.save_screenshot(str(path))
            assert path.stat().st_size > 10_000
    finally:
        browser.set_window_size(1280, 900)


# -- each check fails on a broken page -------------------------------------------


def test_checks_catch_a_broken_page(browser, server, site):
    errors, requests = load(browser, f"{server}/broken.html")
    assert any("deliberate error" in e for e in errors)
    assert foreign(requests, server) == [
        "http://127.0.0.2:9/third-party.js",
        "http://127.0.0.3:9/late.json",
    ]
    assert any(v.startswith("image-alt") for v in axe_violations(browser))
    assert any("no-such-page.html" in b for b in broken_links(server, ["broken.html"]))
    assert vnu_errors([site / "broken.html"])


def test_make_serve_serves_the_site(site, tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    build = tmp_path / "build"
    (build / "html").mkdir(parents=True)
    for child in site.iterdir():
        (build / "html" / child.name).symlink_to(child)
    process = subprocess.Popen(
        ["make", "--no-print-directory", "serve", f"PORT={port}", f"BUILDDIR={build}"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        body = ""
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/en/ch01/quiz.html") as r:
                    body = r.read().decode("utf-8")
                break
            except OSError:
                time.sleep(0.1)
        assert "<title>Chapter 1 quiz - " in body
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
