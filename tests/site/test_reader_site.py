"""What a reader relies on: switching language, search in both languages, math, copy."""

from __future__ import annotations

import json
import re
import runpy
from pathlib import Path

import pytest
import snowballstemmer  # what Sphinx stems English search terms with
from sphinx.util.tags import Tags

from jaxbook.project import find_root, languages

ROOT = find_root(Path(__file__).parent)
LANGUAGES = list(languages(ROOT))  # locale/languages.csv


@pytest.fixture(scope="module")
def site(built_site) -> Path:
    return built_site


def search_index(site: Path, language: str) -> tuple[dict, list[str]]:
    text = (site / language / "searchindex.js").read_text(encoding="utf-8")
    data = json.loads(text[text.index("(") + 1 : text.rindex(")")])
    return data["terms"], data["docnames"]


def pages_for(site: Path, language: str, term: str) -> set[str]:
    terms, docnames = search_index(site, language)
    hits = terms.get(term, [])
    return {docnames[i] for i in (hits if isinstance(hits, list) else [hits])}


def test_chinese_search_finds_vectorization_but_not_under_quantization(site):
    vectorization = pages_for(site, "zh_CN", "向量化")
    assert {"ch01/what-is-jax", "ch01/transformations", "ch01/summary"} <= vectorization
    quantization = pages_for(site, "zh_CN", "量化")
    assert "ch01/what-is-jax" in quantization  # the note that names 量化 itself
    # Pages that only say 向量化 must not be filed under 量化.
    assert not {"ch01/summary", "ch01/jax-vs-numpy"} & quantization
    for term in ["即时编译", "纯函数", "函数变换", "异步派发"]:
        assert pages_for(site, "zh_CN", term), term


def test_english_search_finds_vectorization(site):
    stem = snowballstemmer.stemmer("english").stemWord("vectorization")
    assert {"ch01/what-is-jax", "ch01/transformations"} <= pages_for(site, "en", stem)
    assert not pages_for(site, "en", "向量")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_links_its_twin_and_declares_alternates(site, language):
    others = [code for code in LANGUAGES if code != language]
    for page in (site / language).rglob("*.html"):
        if "_static" in page.parts or "_images" in page.parts:
            continue
        html = page.read_text(encoding="utf-8")
        name = page.relative_to(site / language).as_posix()
        for other in others:
            switch = re.search(
                rf'<a class="jb-language-link" href="([^"]+)" hreflang="{other.replace("_", "-")}"',
                html,
            )
            assert switch, (name, other)
            if name == "404.html":
                # Served at any depth, so its links start at the site's root (no site URL here).
                assert switch[1] == f"/{other}/404.html", switch[1]
            else:
                assert (page.parent / switch[1]).resolve() == (site / other / name).resolve(), name
        for code in LANGUAGES:
            assert f'hreflang="{code.replace("_", "-")}"' in html
        assert '<link rel="canonical"' in html
        assert re.search(rf'<html [^>]*lang="{language.replace("_", "-")}"', html)


def test_math_is_mathml_without_scripts(site):
    html = (site / "zh_CN" / "ch01" / "transformations.html").read_text(encoding="utf-8")
    assert "<math" in html
    assert "mathjax" not in html.lower()


def test_copy_button_skips_outputs():
    conf = runpy.run_path(str(ROOT / "conf.py"), {"tags": Tags()})
    selector = conf["copybutton_selector"]
    assert "highlight-python" in selector
    assert "highlight-none" not in selector
