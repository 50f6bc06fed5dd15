"""A measured output shows what its code printed when the page was built, labelled."""

from __future__ import annotations

import re

import pytest


@pytest.mark.sphinx("html", testroot="measured")
def test_page_shows_the_real_figure_with_where_it_was_measured(built):
    html = built.page()
    box = re.search(r'<div class="jb-measured[^"]*">(.*?)</div>', html, re.DOTALL)
    assert box, html
    text = re.sub(r"<[^>]+>", "", box[1])
    assert re.search(r"Measured on: CPU backend, .+, JAX \d", text)
    assert re.search(r"took \d+ ms\s+stable line", text)
    assert "took ... ms" not in html
    assert not built.warnings


@pytest.mark.sphinx("doctest", testroot="measured")
def test_it_is_a_testoutput_for_doctest(built):
    assert built.doctest_counts() == (1, 0)


@pytest.mark.sphinx("html", testroot="measured")
def test_output_that_no_longer_matches_is_a_warning_at_the_cell(app):
    index = app.srcdir / "index.rst"
    index.write_text(index.read_text().replace("stable line\n", "other line\n", 1))
    app.build()
    warnings = app.warning.getvalue()
    assert "index.rst:10: WARNING: measured output does not match the expected output" in warnings
    assert "stable line" in warnings


@pytest.mark.sphinx("html", testroot="measured", freshenv=True)
def test_a_page_written_again_is_measured_again(app):
    app.build()
    first = re.search(r"took (\d+) ms", (app.outdir / "index.html").read_text())
    index = app.srcdir / "index.rst"
    index.write_text(index.read_text() + "\nEdited.\n")
    app.build()
    second = re.search(r"took (\d+) ms", (app.outdir / "index.html").read_text())
    assert first
    assert second
    assert first[1] != second[1]
