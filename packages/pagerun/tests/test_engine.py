"""The engine runs a page as the doctest builder runs it: the same counts, page by page, and
the same expected and actual output for every failure."""

from __future__ import annotations

import io
import re
from collections import Counter

import pytest

from pagerun import engine, pages


def run_doctree(app, docname: str):
    return pages.run(app, docname)


def builder_counts(app, docname: str) -> tuple[int, int, int, int]:
    """(tries, failures, setup failures, cleanup failures) of the builder's ``test_doc``."""
    builder = app.builder
    builder.outfile = io.StringIO()
    counts = ("total_tries", "total_failures", "setup_failures", "cleanup_failures")
    before = [getattr(builder, name) for name in counts]
    builder.test_doc(docname, app.env.get_doctree(docname))
    return tuple(getattr(builder, name) - was for name, was in zip(counts, before, strict=True))


def engine_counts(result: engine.PageRun) -> tuple[int, int, int, int]:
    return result.tries, result.failures, result.setup_failures, result.cleanup_failures


@pytest.fixture
def tested(app):
    """The ``engine`` root after the doctest builder's run: its pages can run again."""
    app.build()
    return app


@pytest.mark.sphinx("doctest", testroot="engine")
def test_every_page_counts_what_the_doctest_builder_counts(tested) -> None:
    counts = {}
    for docname in sorted(tested.env.found_docs):
        expected = builder_counts(tested, docname)
        counts[docname] = engine_counts(run_doctree(tested, docname)[0])
        assert counts[docname] == expected, docname

    # The root holds every way of failing, so equal counts say something.
    assert counts["passing"] == (9, 0, 0, 0)
    assert counts["failing"] == (8, 5, 0, 0)
    assert counts["setup-fails"] == (1, 0, 2, 1)


SEPARATOR = "*" * 70


def detail(text: str) -> str:
    """A failure's report without its place: expected and got, or the exception.

    The builder makes one test of all setup (or cleanup) blocks, the engine one test per
    block (so that each is reported at its own line): the example's index in a test's
    name is left out.
    """
    return re.sub(r"(<doctest [^>]*)\[\d+\]>", r"\1>", text)


def builder_failures(app, docname: str) -> Counter[str]:
    """What the builder's report says after each ``Failed example:`` and its source."""
    builder = app.builder
    builder.outfile = io.StringIO()
    builder.test_doc(docname, app.env.get_doctree(docname))
    found: Counter[str] = Counter()
    for block in builder.outfile.getvalue().split(SEPARATOR):
        if "Failed example:" not in block:
            continue
        after = block.split("Failed example:\n", 1)[1].splitlines(keepends=True)
        while after and after[0].startswith("    "):
            after.pop(0)  # the example's source
        found[detail("".join(after))] += 1
    return found


@pytest.mark.sphinx("doctest", testroot="engine")
def test_every_failure_expects_and_gets_what_the_builder_reports(tested) -> None:
    for docname in sorted(tested.env.found_docs):
        result = run_doctree(tested, docname)[0]
        by_engine = Counter(detail(report.detail) for report in result.reports)
        assert by_engine == builder_failures(tested, docname), docname
    # Every kind of failure is among them: a wrong output, an exception, a setup that prints.
    failing = builder_failures(tested, "failing") + builder_failures(tested, "setup-fails")
    assert sum(failing.values()) == 8
    assert any("KeyError: 'missing'" in text for text in failing)
    assert any(text.startswith("Expected nothing") for text in failing)


@pytest.mark.sphinx("doctest", testroot="engine")
def test_each_test_leaves_what_it_printed_and_its_verdict(tested) -> None:
    result, page_nodes = run_doctree(tested, "failing")

    assert [o.passed for o in result.outcomes] == [False, False, False, False, False, True]
    wrong, unexpected, other, block, chatty, fine = result.outcomes
    assert (wrong.got, page_nodes[wrong.output].astext()) == ("42\n", "41")
    assert unexpected.exception == "KeyError: 'missing'"
    assert unexpected.shown == "Traceback (most recent call last):\nKeyError: 'missing'\n"
    assert other.exception == "KeyError: 'one'"
    assert (block.output, block.want) == (None, None)
    assert (chatty.output, chatty.want) == (None, "")
    assert fine.got == "after the failures, the page goes on\n"
    assert [f"{report.where}: {report.what}" for report in result.reports] == [
        "failing.rst:4: doctest failed",
        "failing.rst:12: doctest failed",
        "failing.rst:20: doctest failed",
        "failing.rst:31: doctest failed",  # the second example of the >>> block
        "failing.rst:36: doctest failed",
    ]


@pytest.mark.sphinx("doctest", testroot="engine")
def test_skipped_blocks_and_groups_are_the_builders(tested) -> None:
    result, page_nodes = run_doctree(tested, "passing")

    skipped = [page_nodes[i].astext() for i in sorted(result.skipped)]
    assert skipped == ['print("never runs")', "never runs"]
    printed = [o.got for o in result.outcomes]
    # The * block runs in both groups; the other group has only the global setup and *'s.
    assert printed.count("42\n") == 2
    assert "False set up in every group\n" in printed


@pytest.mark.sphinx("doctest", testroot="engine")
def test_a_setup_that_fails_keeps_its_group_from_running(tested) -> None:
    result, _nodes = run_doctree(tested, "setup-fails")

    assert [o.got for o in result.outcomes] == ["runs\n"]
    assert [f"{report.where}: {report.what}" for report in result.reports] == [
        "setup-fails.rst:4: setup code failed",
        "setup-fails.rst:16: setup code failed",
        "setup-fails.rst:24: cleanup code failed",
    ]


@pytest.mark.sphinx("doctest", testroot="engine")
def test_names_are_read_before_the_cleanup(tested) -> None:
    result, _nodes = pages.run(tested, "measured", names=("first", "second", "third"))

    assert [o.got for o in result.outcomes] == ["1\n", "2\n"]
    # The cleanup deletes 'first', after it was read; the page defines no 'third'.
    assert result.values == {"first": 1, "second": 2}
    assert result.cleanup_failures == 0


def test_a_testcode_compiles_as_exec_and_doctest_compile_is_put_back() -> None:
    import doctest

    page: engine.Page = {
        "docname": "one",
        "blocks": [
            {
                "type": "testcode",
                "code": "x = 1\nprint(x)",
                "file": "one.rst",
                "line": 1,
                "options": {},
                "groups": ["default"],
                "skipif": None,
            }
        ],
    }
    before = doctest.__dict__.get("compile")  # the doctest builder's, if one ran here

    result = engine.run(page, engine.Settings())

    # Two statements: compiled as 'exec' during the run, whatever doctest compiles with after.
    assert [o.got for o in result.outcomes] == ["1\n"]
    assert doctest.__dict__.get("compile") is before


def test_a_failed_assert_is_named_by_its_line() -> None:
    """Of a block's asserts, the one that failed (the lab's drift data names it)."""
    code = 'x = 2\nassert x > 1\nassert (\n    x == 3\n), "x"\nprint("unreached")'
    block = {"file": "one.rst", "line": 1, "options": {}, "groups": ["default"], "skipif": None}
    page = {
        "docname": "one",
        "blocks": [
            {**block, "type": "testcode", "code": code},
            {**block, "type": "testcode", "code": "raise KeyError('k')"},
        ],
    }
    failed, other = engine.run(page, engine.Settings()).outcomes
    assert (failed.exception, failed.failed_at) == ("AssertionError: x", 'assert ( x == 3 ), "x"')
    assert (other.exception, other.failed_at) == ("KeyError: 'k'", None)


def test_what_a_test_writes_to_stderr_shows_only_if_it_failed(capsys) -> None:
    """A ❌ example's error output, which its page expects, stays out of the build's log."""
    block = {"file": "one.rst", "line": 1, "options": {}, "groups": ["default"], "skipif": None}
    code = 'import sys\nsys.stderr.write("traceback of {}\\n")\nprint("NameError")'
    page: engine.Page = {
        "docname": "one",
        "blocks": [
            {**block, "type": "testcode", "code": code.format("the expected one")},
            {**block, "type": "testoutput", "code": "NameError"},
            {**block, "type": "testcode", "code": code.format("the unexpected one")},
            {**block, "type": "testoutput", "code": "something else"},
        ],
    }
    result = engine.run(page, engine.Settings())
    assert [o.passed for o in result.outcomes] == [True, False]
    assert capsys.readouterr().err == "traceback of the unexpected one\n"
