"""Every verdict on page runs names a failure and counts the runs alike (``pagerun.verdict``):
the doctest builder's and a tool's."""

from __future__ import annotations

from pagerun import engine, verdict


def test_a_warning_raised_as_an_error_is_named_as_one() -> None:
    """Every verdict (the builder's warnings and output.txt, a tool's lines) names a failure by
    its report's headline: a warning a page did not expect, under a setup that makes warnings
    errors, by its category and message; any other exception as doctest failed."""
    block = {"file": "one.rst", "line": 1, "options": {}, "groups": ["default"], "skipif": None}
    warned = 'import warnings\nwarnings.warn("planted", FutureWarning)'
    page: engine.Page = {
        "docname": "one",
        "blocks": [
            {**block, "type": "testcode", "code": warned},
            {**block, "line": 5, "type": "testcode", "code": "raise KeyError('k')"},
        ],
    }
    settings = engine.Settings(global_setup='import warnings\nwarnings.simplefilter("error")')
    warning, other = engine.run(page, settings).reports
    assert verdict.headline(warning) == "one.rst:1: unexpected FutureWarning: planted"
    assert verdict.text(warning).startswith(
        "one.rst:1: unexpected FutureWarning: planted\nException raised:"
    )
    assert (verdict.title(other), verdict.headline(other)) == (
        "doctest failed",
        "one.rst:5: doctest failed",
    )


def test_a_tally_counts_as_the_builder_and_adds_the_callers_failures() -> None:
    first = engine.PageRun(tries=4, failures=1, setup_failures=1)
    second = engine.PageRun(tries=3, cleanup_failures=1)
    tally = verdict.Tally.of([first, second])
    assert (tally.tries, tally.failures, tally.setup_failures, tally.cleanup_failures) == (
        7,
        1,
        1,
        1,
    )
    # Passed: the tests that did not fail; failed: every failure, setup and cleanup included.
    assert str(tally) == "6 passed, 3 failed"
    assert tally.failed == first.broken + second.broken
    assert str(tally + verdict.Tally(errors=2)) == "6 passed, 5 failed"
    assert str(verdict.Tally.of([], errors=1)) == "0 passed, 1 failed"
