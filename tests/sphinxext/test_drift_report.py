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
    # Releases in version order, each with where it was measured.
    assert html.index("JAX 0.4.38") < html.index("JAX 0.12.0.1")
    assert "Measured in: Python 3.13, jax==0.4.38." in html
    assert "Every cell prints what the pages show." in _section(html, "0.12.0.1")
    # A release run since drift told warnings apart counts them; an older record cannot.
    assert "0 emits a warning" in _text(_section(html, "0.12.0.1"))
    assert "emits a warning" not in _text(_section(html, "0.4.38"))

    old = _section(html, "0.4.38")
    cells = re.findall(r'<p class="jb-drift-cell">(.*?)</p>', old, re.DOTALL)
    assert [_text(cell) for cell in cells] == [
        "line 10 · prints something else · update note #1",
        "line 18 · cannot run (missing API)",
    ]
    assert 'href="page.html#check-device"' in cells[0]
    assert 'href="notes.html#update-row-device-property"' in cells[0]
    assert "A page" in _text(old)  # the cells are grouped under their page's title
    diffs = [_text(block) for block in re.findall(r"<pre>.*?</pre>", old, re.DOTALL)]
    assert diffs == ["-device +old device", "AttributeError: no"]


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
