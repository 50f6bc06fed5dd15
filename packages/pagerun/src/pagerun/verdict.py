"""What a verdict on page runs says: how each failure is named and how the runs are counted.

Every report of a run uses it: the ``doctest`` builder (its warnings, its summary and
``output.txt``, :mod:`pagerun.sphinxext.run`) and a tool that reports the runs a build kept
(:func:`pagerun.pages.records`) or that it ran with the engine. :func:`headline` is a
failure's first line; :class:`Tally` sums the runs' counts as the doctest builder does, and
says them as ``N passed, N failed``.

It imports the engine's types and the standard library alone, so that a tool without Sphinx
reports as a build does; and it is not the engine, so that how a verdict is worded is no input
of the runs (``pagerun_run_inputs`` digests the engine and the kernel): a change here runs
no page again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from pagerun.engine import PageRun, Report

__all__ = ["UNEXPECTED_WARNING", "Tally", "headline", "text", "title"]

# The last line of an "Exception raised:" report that is a warning: a project whose setup
# turns warnings into errors (warnings.simplefilter("error")) fails a test on one.
UNEXPECTED_WARNING = re.compile(
    r"Exception raised:\n(?:.*\n)*?\s+(?:[\w.]+\.)?(?P<category>\w*Warning): (?P<message>.*)\Z"
)


def title(report: Report) -> str:
    """What failed: the report's ``what`` ("doctest failed", "setup code failed"...), or for
    a warning raised as an error, ``unexpected <Category>: <message>``."""
    warned = UNEXPECTED_WARNING.search(report.detail.rstrip())
    return f"unexpected {warned['category']}: {warned['message']}" if warned else report.what


def headline(report: Report) -> str:
    """A failure's first line, ``<file>:<line>: <title>``; doctest's report follows it."""
    return f"{report.where}: {title(report)}"


def text(report: Report, label: str = "") -> str:
    """The whole report: its headline (then ``label``: a tool's ``" [en]"``), then doctest's
    (expected and actual output, or the exception), ending with one newline."""
    detail = report.detail.rstrip("\n")
    return f"{headline(report)}{label}\n{detail}\n"


@dataclass(frozen=True)
class Tally:
    """The counts of page runs, summed as the doctest builder sums them, and the failures
    outside any test that a caller adds (pages that could not be read); ``str()`` is the
    verdict's line, ``N passed, N failed``."""

    tries: int = 0
    failures: int = 0
    setup_failures: int = 0
    cleanup_failures: int = 0
    errors: int = 0  # failures outside any test, the caller's

    @classmethod
    def of(cls, runs: Iterable[PageRun], errors: int = 0) -> Tally:
        runs = list(runs)
        return cls(
            sum(run.tries for run in runs),
            sum(run.failures for run in runs),
            sum(run.setup_failures for run in runs),
            sum(run.cleanup_failures for run in runs),
            errors,
        )

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.tries + other.tries,
            self.failures + other.failures,
            self.setup_failures + other.setup_failures,
            self.cleanup_failures + other.cleanup_failures,
            self.errors + other.errors,
        )

    @property
    def passed(self) -> int:
        return self.tries - self.failures

    @property
    def failed(self) -> int:
        return self.failures + self.setup_failures + self.cleanup_failures + self.errors

    def __str__(self) -> str:
        return f"{self.passed} passed, {self.failed} failed"
