"""The "other releases" page is made from the drift file, in the build's language."""

from __future__ import annotations

import html as html_module
import re

import pytest


def _rows(html: str, release: str) -> list[str]:
    section = html[html.index(f'id="jax-{release.replace(".", "-")}"') :]
    section = section[: section.index("</section>")]
    return [
        html_module.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row))).strip()
        for row in re.findall(r"<tr.*?</tr>", section, re.DOTALL)[1:]
    ]


@pytest.mark.sphinx("html", testroot="drift-report")
def test_each_differing_cell_is_listed_with_its_note(built):
    html = built.page("report")
    assert not built.warnings
    # Releases in version order, each with where it was measured.
    assert html.index("JAX 0.4.38") < html.index("JAX 0.12.0.1")
    assert "Measured in: Python 3.13, jax==0.4.38." in html
    assert "Every cell prints what the pages show." in html

    labelled, unlabelled = _rows(html, "0.4.38")
    assert labelled.startswith("page.rst:10 prints something else -device +old device")
    assert labelled.endswith("update note #1")
    assert 'href="page.html#check-device"' in html
    assert 'href="notes.html#update-row-device-property"' in html
    assert unlabelled == "page.rst:18 cannot run (missing API) AttributeError: no —"


@pytest.mark.sphinx("html", testroot="drift-report", confoverrides={"jaxbook_release_drift": ""})
def test_a_missing_drift_file_is_a_warning(built):
    assert re.search(r"report\.rst:\d+: WARNING: drift-report: no drift file ''", built.warnings)
