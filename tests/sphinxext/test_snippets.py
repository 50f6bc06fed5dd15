from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup


@pytest.mark.sphinx("html", testroot="snippets")
def test_the_page_shows_the_script_and_its_output_not_the_plumbing(built, rootdir):
    page = BeautifulSoup(built.page(), "html.parser")
    assert page.select_one("span.caption-text").get_text() == "hello.py"
    blocks = [pre.get_text() for pre in page.select("pre")]
    script = (rootdir / "test-snippets/snippets/hello.py").read_text(encoding="utf-8")
    assert blocks == [script, "hello from a fresh interpreter on cpu\n"]
    # Neither the staging (a hidden testsetup) nor the run (a hidden testcode) shows.
    assert "_snippet" not in built.page()
    assert "subprocess" not in built.page()


@pytest.mark.sphinx("doctest", testroot="snippets")
def test_a_script_runs_on_the_cpu_and_a_failing_or_hanging_one_fails_by_name(built):
    assert built.doctest_counts() == (4, 2)
    output = built.doctest_output
    # What the script printed is compared, and where it failed its own error shows.
    assert "Got:\n    before the error\n    the script's own error message\n" in output
    assert 'File "hang.rst", line' in output
    assert re.search(r"TimeoutExpired: Command .*'hang\.py'\]' timed out after 2 seconds", output)
    assert 'File "index.rst"' not in output


# The root's pages run by the book's engine, as the book's builds run them.
ENGINE = {
    "extensions": ["sphinx.ext.doctest", "jaxbook.sphinxext.snippets", "pagerun.sphinxext.run"]
}


@pytest.mark.sphinx("html", testroot="snippets", confoverrides=ENGINE)
def test_a_traceback_reaches_the_log_only_where_the_output_is_not_the_pages(app, capfd):
    """A ❌ script that fails as its page says leaves no traceback in the build's log; one
    whose output differs from its page's leaves its error output, for its author."""
    capfd.readouterr()
    app.build()
    log = capfd.readouterr().err
    # expected-error.rst: NameError, as the page says; quiet.
    assert "expected_error.py" not in log
    assert "Traceback" not in log
    # failing.rst: the page expects less than the script printed; its error output shows,
    # and the build warns at the cell.
    assert "the script's own error message" in log
    assert "failing.rst" in app.warning.getvalue()
    assert "expected-error.rst" not in app.warning.getvalue()
