"""The MathML renderer: a formula it cannot convert is a warning at its place, and is shown
as code, escaped."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup


@pytest.mark.sphinx("html", testroot="mathml", freshenv=True)
def test_a_formula_that_cannot_be_rendered_is_escaped_code_and_a_warning(app, warning):
    app.build()
    page = BeautifulSoup((app.outdir / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert [code.get_text() for code in page.select("span.math > code")] == ["a < \\left("]
    assert "index.rst:4: WARNING: cannot render math 'a < \\\\left('" in warning.getvalue()
    assert "[jaxbook.mathml]" in warning.getvalue()
