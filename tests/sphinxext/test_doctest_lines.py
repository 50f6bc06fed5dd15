"""jaxbook_doctest_reversed: the doctest builder can test the pages backwards."""

from __future__ import annotations

import re

import pytest


def pages_in_test_order(built) -> list[str]:
    assert built.warnings == ""
    assert built.doctest_counts() == (2, 0)
    return re.findall(r"^Document: (\S+)$", built.doctest_output, re.MULTILINE)


@pytest.mark.sphinx("doctest", testroot="doctest-order")
def test_pages_are_tested_in_sorted_order_by_default(built) -> None:
    assert pages_in_test_order(built) == ["alpha", "beta"]


@pytest.mark.sphinx(
    "doctest", testroot="doctest-order", confoverrides={"jaxbook_doctest_reversed": True}
)
def test_reversed_tests_the_pages_backwards(built) -> None:
    assert pages_in_test_order(built) == ["beta", "alpha"]
