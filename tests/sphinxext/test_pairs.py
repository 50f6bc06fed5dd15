from __future__ import annotations

import re

import pytest


@pytest.mark.sphinx("html", testroot="pairs")
def test_pairs_render_labels_and_warn_on_bad_shapes(built):
    html = built.page()
    assert html.count('class="jb-pair"') == 3
    assert "❌ 过时写法" in html
    assert "✅ 推荐写法" in html

    warnings = built.warnings
    assert re.search(
        r"index\.rst:\d+: WARNING: a pair holds \['recommended', 'outdated'\]", warnings
    )
    assert re.search(r"index\.rst:\d+: WARNING: outdated half holds no doctest block", warnings)
    assert re.search(r"index\.rst:\d+: WARNING: recommended half outside a pair", warnings)
    assert warnings.count("WARNING") == 3


@pytest.mark.sphinx("html", testroot="pairs", confoverrides={"language": "en"})
def test_pair_labels_follow_the_build_language(built):
    html = built.page()
    assert "❌ Outdated" in html
    assert "✅ Recommended" in html
    assert "旧写法" not in html


@pytest.mark.sphinx("doctest", testroot="pairs")
def test_both_halves_are_doctested(built):
    assert built.doctest_counts() == (6, 0)


@pytest.mark.sphinx("html", testroot="pairs", srcdir="pairs-broken", freshenv=True)
def test_a_broken_half_says_so_instead_of_outdated(app):
    index = app.srcdir / "index.rst"
    text = index.read_text(encoding="utf-8")
    index.write_text(text.replace("   .. outdated::\n", "   .. outdated::\n      :broken:\n", 1))
    app.build()
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    assert "❌ 错误写法" in html
    assert html.count("❌ 过时写法") == text.count(".. outdated::") - 1
