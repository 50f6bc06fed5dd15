from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup


def labels(html: str) -> list[list[str]]:
    """Each pair's halves' labels, in order."""
    soup = BeautifulSoup(html, "html.parser")
    return [
        [label.get_text() for label in pair.select(".jb-half > .jb-half-label")]
        for pair in soup.select("section.jb-pair")
    ]


@pytest.mark.sphinx("html", testroot="pairs")
def test_pairs_render_labels_and_warn_on_bad_shapes(built):
    found = labels(built.page())
    assert len(found) == 3, found
    assert found[0] == ["❌ 过时写法", "✅ 推荐写法"]

    warnings = built.warnings
    assert re.search(
        r"index\.rst:\d+: WARNING: a pair holds \['recommended', 'outdated'\]", warnings
    )
    assert re.search(r"index\.rst:\d+: WARNING: outdated half holds no doctest block", warnings)
    assert re.search(r"index\.rst:\d+: WARNING: recommended half outside a pair", warnings)
    assert warnings.count("WARNING") == 3


@pytest.mark.sphinx("html", testroot="pairs", confoverrides={"language": "en"})
def test_pair_labels_follow_the_build_language(built):
    found = labels(built.page())
    assert found[0] == ["❌ Outdated", "✅ Recommended"]
    assert not any("写法" in label for pair in found for label in pair), found


@pytest.mark.sphinx("doctest", testroot="pairs")
def test_both_halves_are_doctested(built):
    assert built.doctest_counts() == (6, 0)


@pytest.mark.sphinx("html", testroot="pairs", srcdir="pairs-broken", freshenv=True)
def test_a_broken_half_says_so_instead_of_outdated(app):
    index = app.srcdir / "index.rst"
    text = index.read_text(encoding="utf-8")
    index.write_text(text.replace("   .. outdated::\n", "   .. outdated::\n      :broken:\n", 1))
    app.build()
    found = labels((app.outdir / "index.html").read_text(encoding="utf-8"))
    assert found[0] == ["❌ 错误写法", "✅ 推荐写法"]
    flat = [label for pair in found for label in pair]
    assert flat.count("❌ 过时写法") == text.count(".. outdated::") - 1
