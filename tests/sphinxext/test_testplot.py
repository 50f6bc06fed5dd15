from __future__ import annotations

import html as html_module
import re

import pytest


@pytest.mark.sphinx("html", testroot="testplot")
def test_figure_is_drawn_from_the_code_on_the_page(built):
    html = built.page()
    text = html_module.unescape(re.sub(r"<[^>]+>", "", html))
    assert "plt.plot([0, 1], [0, 1])" in text
    image = re.search(r'<img [^>]*alt="a straight line"[^>]*src="([^"]+\.png)"', html) or re.search(
        r'<img [^>]*src="([^"]+\.png)"[^>]*alt="a straight line"', html
    )
    assert image, html
    assert (built.app.outdir / image[1]).stat().st_size > 1000
    assert not built.warnings


@pytest.mark.sphinx("doctest", testroot="testplot")
def test_figure_code_is_a_doctest(built):
    assert built.doctest_counts() == (1, 0)
