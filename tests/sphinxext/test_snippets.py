from __future__ import annotations

import re

import pytest


@pytest.mark.sphinx("html", testroot="snippets")
def test_snippet_is_shown_with_its_name(built):
    html = built.page()
    assert '<span class="caption-text">hello.py</span>' in html
    assert "hello from a fresh interpreter" in html
    # The staging code is a hidden testsetup: readers never see it.
    assert "_snippet_dir" not in html


@pytest.mark.sphinx("doctest", testroot="snippets")
def test_snippet_runs_and_a_hanging_one_is_stopped_by_name(built):
    assert built.doctest_counts() == (2, 1)
    output = built.doctest_output
    assert 'File "hang.rst", line' in output
    assert re.search(r"TimeoutExpired: Command .*'hang\.py'\]' timed out after 2 seconds", output)
    assert "Document: index" not in output or "hello.rst" not in output
