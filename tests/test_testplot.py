from __future__ import annotations

import html as html_module
import re

import pytest


@pytest.mark.sphinx("html", testroot="testplot")
def test_figure_is_drawn_from_the_code_on_the_page(app):
    app.build()
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    text = html_module.unescape(re.sub(r"<[^>]+>", "", html))
    assert "plt.plot([0, 1], [0, 1])" in text
    image = re.search(r'<img [^>]*alt="a straight line"[^>]*src="([^"]+\.png)"', html) or re.search(
        r'<img [^>]*src="([^"]+\.png)"[^>]*alt="a straight line"', html
    )
    assert image, html
    assert (app.outdir / image[1]).stat().st_size > 1000
    assert not app.warning.getvalue()


@pytest.mark.sphinx("doctest", testroot="testplot")
def test_figure_code_is_a_doctest(app):
    app.build()
    output = (app.outdir / "output.txt").read_text(encoding="utf-8")
    assert re.search(r"^\s*1 test$", output, re.MULTILINE)
    assert re.search(r"^\s*0 failures in tests$", output, re.MULTILINE)
