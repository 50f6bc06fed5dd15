"""The MathML renderer: a formula it cannot convert is a warning at its place, and is shown
as code, escaped."""

from __future__ import annotations

import pytest


@pytest.mark.sphinx("html", testroot="mathml", freshenv=True)
def test_a_formula_that_cannot_be_rendered_is_escaped_code_and_a_warning(app, warning):
    app.build()
    page = (app.outdir / "index.html").read_text(encoding="utf-8")
    assert '<span class="math"><code>a &lt; \\left(</code></span>' in page
    assert "index.rst:4: WARNING: cannot render math 'a < \\\\left('" in warning.getvalue()
    assert "[jaxbook.mathml]" in warning.getvalue()
