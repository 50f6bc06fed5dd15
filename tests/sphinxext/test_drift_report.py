"""The "other releases" page is made from the drift file, in the build's language."""

from __future__ import annotations

import html as html_module
import re

import pytest


def _section(html: str, release: str) -> str:
    section = html[html.index(f'id="jax-{release.replace(".", "-")}"') :]
    return section[: section.index("</section>")]


def _text(fragment: str) -> str:
    return html_module.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment))).strip()


@pytest.mark.sphinx("html", testroot="drift-report")
def test_each_differing_cell_is_listed_with_its_note(built):
    html = built.page("report")
    assert not built.warnings
    # Releases in version order, each with where it ran, as a reader names it.
    assert html.index("JAX 0.4.38") < html.index("JAX 0.12.0.1")
    new = _text(_section(html, "0.12.0.1"))
    assert (
        "It ran on Python 3.13 and JAX 0.12.0.1. Of the 2 examples of this chapter, 2 print "
        "the same." in new
    )
    assert "Every example prints what the pages show." in new

    old = _section(html, "0.4.38")
    assert "Of the 3 examples of this chapter, 2 print something else and 1 fails an assert." in (
        _text(old)
    )
    cells = re.findall(r'<p class="jb-drift-cell">(.*?)</p>', old, re.DOTALL)
    # In reading order, each named by its section and linked to its label or section.
    assert [_text(cell) for cell in cells] == [
        "A page : prints something else ; see update note #1 .",
        "A page : cannot run (missing API) .",
        "Checks : an assert fails .",
    ]
    assert 'href="page.html#check-device"' in cells[0]
    assert 'href="notes.html#update-row-device-property"' in cells[0]
    assert 'href="page.html#a-page"' in cells[1]
    assert 'href="page.html#checks"' in cells[2]
    assert "A page" in _text(old)  # the cells are grouped under their page's title
    blocks = [_text(block) for block in re.findall(r"<pre>.*?</pre>", old, re.DOTALL)]
    assert blocks[:2] == ["-device +old device", "AttributeError: no"]
    assert blocks[2].replace(" ,", ",") == 'assert x == 2, "x"'
    assert "(3 more lines left out)" in _text(old)
    assert "The assert that fails:" in _text(old)


@pytest.mark.sphinx("html", testroot="drift-report", confoverrides={"jaxbook_release_drift": ""})
def test_a_missing_drift_file_is_a_warning(built):
    assert re.search(r"report\.rst:\d+: WARNING: drift-report: no drift file ''", built.warnings)


@pytest.mark.sphinx("html", testroot="drift-report", freshenv=True)
def test_the_report_is_rewritten_when_a_page_it_shows_changes(built):
    app = built.app
    report = app.outdir / "report.html"

    def edit(name: str, old: str, new: str) -> None:
        path = app.srcdir / name
        path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")

    before = report.stat().st_mtime_ns
    edit("notes.rst", "\n", "\n\n")  # shows no cell of the drift file
    app.build()
    assert report.stat().st_mtime_ns == before

    edit("page.rst", "A page", "A renamed page")  # its cells are in the report
    app.build()
    assert report.stat().st_mtime_ns != before
    assert "A renamed page" in _text(built.page("report"))
