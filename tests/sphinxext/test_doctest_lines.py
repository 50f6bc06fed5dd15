"""A failing testcode block is reported at its directive's line, not at about twice it."""

from __future__ import annotations

import pytest


@pytest.mark.sphinx("doctest", testroot="doctest-lines")
def test_a_failing_testcode_is_reported_at_its_own_line(built) -> None:
    assert built.doctest_counts() == (2, 1)
    source = (built.app.srcdir / "beta.rst").read_text(encoding="utf-8").splitlines()
    line = source.index(".. testcode::") + 1
    assert f'File "beta.rst", line {line}, in default' in built.doctest_output
