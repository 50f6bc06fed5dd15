"""jaxbook_doctest_reversed: the doctest builder can test the pages backwards."""

from __future__ import annotations

import re

import pytest


def pages_in_test_order(app) -> list[str]:
    app.build()
    assert app.warning.getvalue() == ""
    report = (app.outdir / "output.txt").read_text(encoding="utf-8")
    assert re.search(r"^\s*2 tests$", report, re.MULTILINE)
    return re.findall(r"^Document: (\S+)$", report, re.MULTILINE)


@pytest.mark.sphinx("doctest", testroot="doctest-order")
def test_pages_are_tested_in_sorted_order_by_default(app) -> None:
    assert pages_in_test_order(app) == ["alpha", "beta"]


@pytest.mark.sphinx(
    "doctest", testroot="doctest-order", confoverrides={"jaxbook_doctest_reversed": True}
)
def test_reversed_tests_the_pages_backwards(app) -> None:
    assert pages_in_test_order(app) == ["beta", "alpha"]
