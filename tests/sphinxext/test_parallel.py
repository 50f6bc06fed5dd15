"""中英对照: each block beside the other language's text, from the same catalogs."""

from __future__ import annotations

import re

import pytest


def blocks(html: str) -> list[tuple[str, str]]:
    """(own text, other text) of each block that has a parallel text."""
    own = r'<span class="jb-own">(.*?)</span>'
    other = r'<span class="jb-parallel[^"]*" lang="[^"]+">(.*?)</span>(?:<a class="headerlink|</p>)'
    found = re.findall(own + other, html, re.S)
    return [
        (re.sub(r"<[^>]+>", "", a).strip(), re.sub(r"<[^>]+>", "", b).strip()) for a, b in found
    ]


@pytest.mark.sphinx("html", testroot="parallel", confoverrides={"language": "en"})
def test_a_translated_page_shows_its_source_and_says_what_is_missing(built):
    html = built.page()
    assert blocks(html) == [
        ("Title", "标题"),
        ("The first paragraph, with code.", "第一段，有 code。"),
        ("第二段。", "translation awaiting review"),
        ("第三段。", "not yet translated"),
    ]
    assert 'lang="zh-CN"' in html
    assert html.count('class="jb-parallel-switch"') == 1
    assert "jaxbook-parallel.js" in html
    assert html.count("code appears once") == 2  # the code and its output, once each
    assert not built.warnings


@pytest.mark.sphinx("html", testroot="parallel")
def test_a_source_page_shows_the_translation_from_the_catalog(built):
    html = built.page()
    assert blocks(html) == [
        ("标题", "Title"),
        ("第一段，有 code。", "The first paragraph, with code."),
        ("第二段。", "译文待审"),
        ("第三段。", "尚未翻译"),
    ]
    assert '<code class="docutils literal notranslate"><span class="pre">code</span></code>' in html
    assert "代码只出现一次" in html
    assert "code appears once" not in html


@pytest.mark.sphinx("gettext", testroot="parallel", freshenv=True)
def test_the_catalog_templates_never_see_the_other_language(built):
    pot = (built.app.outdir / "index.pot").read_text(encoding="utf-8")
    assert "Title" not in pot
    assert "尚未翻译" not in pot
    assert "not yet translated" not in pot
