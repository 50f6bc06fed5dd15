"""中英对照 / "Parallel text" in a headless Chromium, on the built site.

The switch shows each passage's other-language text: beside it at a desktop's
width (1280 px), under it at a phone's (390 px) and in a table cell; the
choice holds on the next page. Screenshots go to _build/screenshots/parallel-*.png.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlparse

import pytest
from selenium.webdriver.common.by import By

from jaxbook.project import find_root
from jaxbook.sphinxext.parallel_text import STORAGE_KEY
from jaxbook.testing.browser import chromium

ROOT = find_root(Path(__file__).parent)
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = ROOT / "_build" / "screenshots"
# A page's own language and the language of its parallel text.
LANGUAGES = {"zh_CN": ("zh-CN", "en"), "en": ("en", "zh-CN")}


@pytest.fixture(scope="module")
def server(built_site, serve) -> str:
    return serve(built_site, "/zh_CN/index.html")


@pytest.fixture(scope="module")
def chromium_for_module(tmp_path_factory):
    driver = chromium(tmp_path_factory.mktemp("chromium"))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture
def browser(chromium_for_module, server):
    """The module's browser as a new reader's: nothing stored for the site, no log kept.
    (One browser for the module: starting one per test cost a second each.)"""
    driver = chromium_for_module
    driver.get("about:blank")  # no page of the site left to store its state on leaving
    driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": server, "storageTypes": "all"})
    for log in ("performance", "browser"):
        driver.get_log(log)
    driver.set_window_size(1280, 900)
    return driver


def rect(browser, element) -> dict[str, float]:
    return browser.execute_script("return arguments[0].getBoundingClientRect().toJSON();", element)


def first_pair(browser, lang: str):
    """The first paragraph of the article with parallel text: (its own text, the other)."""
    paragraph = browser.find_element(
        By.XPATH, f"//article//p[span[contains(@class, 'jb-parallel') and @lang='{lang}']]"
    )
    return (
        paragraph.find_element(By.CSS_SELECTOR, "span.jb-parallel-source"),
        paragraph.find_element(By.CSS_SELECTOR, "span.jb-parallel"),
    )


def toggle(browser):
    return browser.find_element(By.CSS_SELECTOR, "button.jb-parallel-toggle")


def shot(browser, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"parallel-{name}.png"
    assert browser.save_screenshot(str(path))
    assert path.stat().st_size > 10_000


def foreign_requests(browser, base: str) -> list[str]:
    found = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            url = message["params"]["request"]["url"]
            if urlparse(url).scheme in {"http", "https"} and not url.startswith(base):
                found.append(url)
    return found


def serious_violations(browser) -> list[str]:
    browser.execute_script(AXE.read_text(encoding="utf-8"))
    return browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run({resultTypes: ['violations']}).then(r => done(r.violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '))));"
    )


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_parallel_text_side_by_side_on_a_desktop_and_kept_on_the_next_page(
    browser, server, language
):
    _own, other = LANGUAGES[language]
    browser.set_window_size(1280, 900)
    browser.get(f"{server}/{language}/ch01/what-is-jax.html")
    source, parallel = first_pair(browser, other)
    heading = browser.find_element(By.CSS_SELECTOR, "article h1 + p.jb-parallel")
    button = toggle(browser)
    assert button.is_displayed()
    assert button.text == {"zh_CN": "中英对照", "en": "Parallel text"}[language]
    assert button.get_attribute("aria-pressed") == "false"
    assert not parallel.is_displayed()
    assert not heading.is_displayed()

    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    assert parallel.is_displayed()
    assert heading.is_displayed()
    assert heading.get_attribute("lang") == other
    left, right = rect(browser, source), rect(browser, parallel)
    assert abs(left["top"] - right["top"]) < 2  # one row
    assert right["left"] >= left["right"]  # the translation to the right
    assert right["width"] > 200
    h1 = rect(browser, browser.find_element(By.CSS_SELECTOR, "article h1"))
    assert rect(browser, heading)["top"] >= h1["bottom"] - 1
    # The heading itself, the page title and the table of contents keep the page's text.
    assert browser.find_element(By.CSS_SELECTOR, "article h1").text.strip("¶ \n") in (browser.title)
    shot(browser, f"{language}-desktop")
    assert serious_violations(browser) == []
    assert foreign_requests(browser, server) == []

    browser.get(f"{server}/{language}/ch01/arrays.html")
    source, parallel = first_pair(browser, other)
    assert parallel.is_displayed()
    assert toggle(browser).get_attribute("aria-pressed") == "true"
    # In a table cell the translation goes under the cell's text, at any width.
    cell = browser.find_element(By.CSS_SELECTOR, "article td p")
    above = rect(browser, cell.find_element(By.CSS_SELECTOR, ".jb-parallel-source"))
    below = rect(browser, cell.find_element(By.CSS_SELECTOR, ".jb-parallel"))
    assert below["top"] >= above["bottom"] - 1
    toggle(browser).click()
    assert not parallel.is_displayed()
    browser.get(f"{server}/{language}/ch01/devices.html")
    assert not first_pair(browser, other)[1].is_displayed()
    assert toggle(browser).get_attribute("aria-pressed") == "false"


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_parallel_text_stacks_on_a_phone(browser, server, language):
    _own, other = LANGUAGES[language]
    browser.set_window_size(390, 844)
    browser.get(f"{server}/{language}/ch01/arrays.html")
    # At this width the English page's table scrolls, with or without the view (axe:
    # scrollable-region-focusable); the view must add nothing to what is found.
    before = set(serious_violations(browser))
    browser.get(f"{server}/{language}/ch01/what-is-jax.html")
    toggle(browser).click()
    browser.get(f"{server}/{language}/ch01/arrays.html")  # the choice, on another page
    source, parallel = first_pair(browser, other)
    assert parallel.is_displayed()
    above, below = rect(browser, source), rect(browser, parallel)
    assert below["top"] >= above["bottom"] - 1  # under it
    assert abs(below["left"] - above["left"]) < 2
    width = browser.execute_script("return document.documentElement.clientWidth;")
    assert browser.execute_script("return document.documentElement.scrollWidth;") <= width
    shot(browser, f"{language}-phone")
    assert set(serious_violations(browser)) <= before


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_on_a_phone_the_view_widens_no_table_into_a_scrolling_region(browser, server, language):
    """Two texts in a cell must not make its table scroll (axe: scrollable-region-focusable)."""
    browser.set_window_size(390, 844)
    for page in ["ch01/installation.html", "ch01/summary.html"]:
        browser.get(f"{server}/{language}/{page}")
        before = set(serious_violations(browser))
        browser.execute_script(f"localStorage.setItem('{STORAGE_KEY}', 'on');")
        browser.get(f"{server}/{language}/{page}")
        assert browser.find_element(By.CSS_SELECTOR, "td span.jb-parallel").is_displayed()
        assert set(serious_violations(browser)) <= before, page
        browser.execute_script(f"localStorage.removeItem('{STORAGE_KEY}');")


def test_code_is_shown_once_with_the_view_on(browser, server):
    browser.set_window_size(1280, 900)
    browser.get(f"{server}/en/ch01/arrays.html")
    before = len(browser.find_elements(By.CSS_SELECTOR, "article pre"))
    toggle(browser).click()
    assert before > 0
    assert len(browser.find_elements(By.CSS_SELECTOR, "article pre")) == before
    assert browser.find_elements(By.CSS_SELECTOR, ".jb-parallel pre, pre .jb-parallel") == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_heading_the_website_rewrites_has_no_parallel_text(built_site, language):
    """The other language's words stand beside a heading as it was read; where the website
    makes it something else, none: a dropdown's title (its summary, a quiz's "答案与解析")
    and the home page's heading (the preface's name, not the book's title). A question's
    own heading keeps its words."""
    from bs4 import BeautifulSoup

    _own, other = LANGUAGES[language]
    site = built_site / language
    quiz = BeautifulSoup((site / "ch01/quiz.html").read_text("utf-8"), "html.parser")
    dropdowns = quiz.select("details.sd-dropdown")
    assert dropdowns
    for dropdown in dropdowns:
        # A heading's words are a block of their own (a paragraph's stand in it).
        assert not dropdown.summary.select(".jb-parallel"), dropdown.summary.get_text()
        assert not dropdown.select("p.jb-parallel"), dropdown.summary.get_text()
        assert dropdown.select(f"p > span.jb-parallel[lang='{other}']")
    assert quiz.select(f"section > p.jb-parallel[lang='{other}']")
    home = BeautifulSoup((site / "index.html").read_text("utf-8"), "html.parser")
    heading = home.select_one("article h1")
    following = heading.find_next_sibling()
    assert "jb-parallel" not in following.get("class", []), following
