"""The one engine that runs a page's code, as ``sphinx.ext.doctest``'s builder would.

A build runs each page with :func:`run` once, while the page is read
(:mod:`pagerun.sphinxext.run`), in a process of its own (:mod:`pagerun.kernel`); every
builder and tool then reports or renders what that run recorded (the verdict, the
measured outputs, the ``testplot`` figures). It needs no Sphinx: a page written to JSON
(:mod:`pagerun.blocks`) runs with it anywhere. It imports only the standard library,
:mod:`pagerun.blocks` and :mod:`pagerun._compat`, so the kernel that imports it loads
no Sphinx.
"""

from __future__ import annotations

import ast
import contextlib
import doctest
import io
import json
import os
import sys
import textwrap
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from pagerun._compat import (
    DOCTEST_EXCEPTION_RE,
    doctest_compiles_with,
    doctest_output_copied,
)
from pagerun.blocks import Block, Page, RecordedBlock

__all__ = [
    "FLAG_NAMES",
    "RUN_LOG",
    "After",
    "Outcome",
    "PageRun",
    "Report",
    "Settings",
    "Started",
    "exception_line",
    "is_skipped",
    "run",
]

# Sphinx's pattern for an expected output that is a traceback (doctest's own).
EXCEPTION = DOCTEST_EXCEPTION_RE
FLAG_NAMES = {value: name for name, value in doctest.OPTIONFLAGS_BY_NAME.items()}


# Called after each test that ran, with the index of its code block and its namespace.
After = Callable[[int, dict[str, Any]], None]
# Called before each test, setup and cleanup code included, with its file and line.
Started = Callable[[str, int], None]


@dataclass(frozen=True)
class Settings:
    """The ``conf.py`` values the doctest builder runs pages with."""

    flags: int = 0  # doctest_default_flags
    global_setup: str = ""
    global_cleanup: str = ""

    @classmethod
    def of(cls, config: Any) -> Settings:
        """From a Sphinx config (or anything with its three attributes)."""
        return cls(
            config.doctest_default_flags,
            config.doctest_global_setup,
            config.doctest_global_cleanup,
        )

    @classmethod
    def named(cls, flags: Iterable[str], global_setup: str, global_cleanup: str) -> Settings:
        value = 0
        for name in flags:
            value |= doctest.OPTIONFLAGS_BY_NAME[name]
        return cls(value, global_setup, global_cleanup)


@dataclass
class Outcome:
    """What one test (a ``testcode`` with its output, or a ``doctest`` block) did."""

    block: int  # the index of its code block in the page
    output: int | None  # the index of its testoutput block, if it has one
    want: str | None  # the expected output of a testcode (None for a doctest block)
    got: str  # everything it printed
    passed: bool
    exception: str | None  # the last line of an exception it raised unexpectedly
    failed_at: str | None = None  # the line of its code that raised it, if an assert

    @property
    def shown(self) -> str:
        """What it printed, and the exception as an expected output would spell it."""
        if self.exception is None:
            return self.got
        return f"{self.got}Traceback (most recent call last):\n{self.exception}\n"


@dataclass(frozen=True)
class Report:
    """A failure at its page line: ``<file>:<line>: <what>``, then doctest's report."""

    file: str
    line: int
    what: str  # "doctest failed", "setup code failed", ...
    detail: str  # expected and actual output, or the exception

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def __str__(self) -> str:
        return f"{self.where}: {self.what}\n{self.detail}"


@dataclass
class PageRun:
    """The result of :func:`run`: the builder's counts, the outcomes and the reports."""

    tries: int = 0
    failures: int = 0
    setup_failures: int = 0
    cleanup_failures: int = 0
    skipped: set[int] = field(default_factory=set)  # indices of the blocks left out
    outcomes: list[Outcome] = field(default_factory=list)
    reports: list[Report] = field(default_factory=list)
    values: dict[str, object] = field(default_factory=dict)
    printed: list[RecordedBlock] = field(default_factory=list)  # each outcome, where it is

    @property
    def broken(self) -> int:
        return self.failures + self.setup_failures + self.cleanup_failures

    def output_of(self, block: int) -> Outcome | None:
        """The outcome of the test whose expected output is block ``block``."""
        return next((o for o in self.outcomes if o.output == block), None)


def exception_line(error: BaseException) -> str:
    """``Type: message`` (the message's last line), without the notes added to it: a library's
    note (JAX's, that it filtered the traceback) is no exception."""
    exception = traceback.TracebackException.from_exception(error)
    exception.__notes__ = None  # a note's lines would come last
    return list(exception.format_exception_only())[-1].strip()


class _Runner(doctest.DocTestRunner):
    """doctest's runner, reporting each failure at the page line of its block."""

    def __init__(self, flags: int, reports: list[Report], what: str) -> None:
        self.checker = doctest.OutputChecker()
        super().__init__(checker=self.checker, verbose=False, optionflags=flags)
        self.reports = reports
        self.what = what
        self.exception: str | None = None
        self.failed_at: str | None = None

    def _report(self, test: doctest.DocTest, example: doctest.Example, detail: str) -> None:
        offset = example.lineno if len(test.examples) > 1 else 0
        line = (test.lineno or 0) + offset
        self.reports.append(Report(test.filename or "", line, f"{self.what} failed", detail))

    def report_failure(
        self,
        out: Callable[[str], object],
        test: doctest.DocTest,
        example: doctest.Example,
        got: str,
    ) -> None:
        if "Traceback (most recent call last)" in got:
            self.exception = got.rstrip().splitlines()[-1].strip()
        self._report(test, example, self.checker.output_difference(example, got, self.optionflags))

    def report_unexpected_exception(
        self,
        out: Callable[[str], object],
        test: doctest.DocTest,
        example: doctest.Example,
        exc_info: tuple[type[BaseException], BaseException, TracebackType],
    ) -> None:
        self.exception = exception_line(exc_info[1])
        if issubclass(exc_info[0], AssertionError):
            self.failed_at = _line_that_raised(example, exc_info[2])
        raised = textwrap.indent("".join(traceback.format_exception(*exc_info)), "    ")
        self._report(test, example, f"Exception raised:\n{raised}")

    def run_capturing(self, test: doctest.DocTest) -> str:
        """Run ``test`` in its own namespace, left as it is; return what it printed.

        What it writes to ``sys.stderr`` (a snippet's traceback, which its page may expect)
        is written there after the run only if the test failed: a build's log shows the
        error output of what went wrong, not of a ❌ example that failed as its page says.
        """
        printed = io.StringIO()
        errors = io.StringIO()
        failures = self.failures
        try:
            with doctest_output_copied(self, printed.write), contextlib.redirect_stderr(errors):
                self.run(test, out=lambda text: None, clear_globs=False)
        except BaseException:
            sys.stderr.write(errors.getvalue())
            raise
        if self.failures > failures:
            sys.stderr.write(errors.getvalue())
        return printed.getvalue()


def _line_that_raised(example: doctest.Example, tb: TracebackType | None) -> str | None:
    """The line of the example's own code (doctest compiles it as ``<doctest ...>``) where
    the exception was raised last, as written."""
    number = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith("<doctest "):
            number = tb.tb_lineno
        tb = tb.tb_next
    if number is None:
        return None
    try:
        tree = ast.parse(example.source)
    except SyntaxError:
        return None
    # The whole statement, on one line, though it spans several (the line is its expression's).
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno <= number <= (node.end_lineno or number):
            if not isinstance(node, ast.Assert):
                continue
            return " ".join((ast.get_source_segment(example.source, node) or "").split())
    lines = example.source.splitlines()
    return lines[number - 1].strip() if number <= len(lines) else None


@dataclass
class _Group:
    setup: list[int] = field(default_factory=list)
    tests: list[list[int | None]] = field(default_factory=list)  # [doctest] or [code, output]
    cleanup: list[int] = field(default_factory=list)

    def add(self, index: int, kind: str) -> None:
        if kind == "testsetup":
            self.setup.append(index)
        elif kind == "testcleanup":
            self.cleanup.append(index)
        elif kind == "doctest":
            self.tests.append([index])
        elif kind == "testcode":
            self.tests.append([index, None])
        elif kind == "testoutput" and self.tests and len(self.tests[-1]) == 2:
            self.tests[-1][1] = index


class _Mode:
    """What ``doctest.compile`` compiles as: ``exec`` for code blocks, ``single`` for ``>>>``."""

    def __init__(self) -> None:
        self.mode = "exec"

    def compile(self, source, filename, mode, flags, dont_inherit):
        return compile(source, filename, self.mode, flags, dont_inherit)


def _options(names: dict[str, bool]) -> dict[int, bool]:
    return {doctest.OPTIONFLAGS_BY_NAME[name]: value for name, value in names.items()}


def is_skipped(block: Block, settings: Settings) -> bool:
    """Whether the block's ``:skipif:`` condition holds here, as the builder decides it."""
    if not block["skipif"]:
        return False
    context: dict[str, Any] = {}
    exec(settings.global_setup, context)
    skip = bool(eval(block["skipif"], context))
    exec(settings.global_cleanup, context)
    return skip


class _Run:
    def __init__(
        self,
        page: Page,
        settings: Settings,
        names: Iterable[str],
        after: After | None,
        started: Started | None,
    ) -> None:
        self.blocks = page["blocks"]
        self.settings = settings
        self.names = tuple(names)
        self.after = after
        self.started = started
        self.result = PageRun()
        self.mode = _Mode()
        reports = self.result.reports
        self.setup_runner = _Runner(settings.flags, reports, "setup code")
        self.test_runner = _Runner(settings.flags, reports, "doctest")
        self.cleanup_runner = _Runner(settings.flags, reports, "cleanup code")

    def groups(self) -> dict[str, _Group]:
        groups: dict[str, _Group] = {}
        everywhere = []
        for index, block in enumerate(self.blocks):
            if is_skipped(block, self.settings):
                self.result.skipped.add(index)
                continue
            if "*" in block["groups"]:
                everywhere.append(index)
                continue
            for name in block["groups"]:
                groups.setdefault(name, _Group()).add(index, block["type"])
        for index in everywhere:
            for group in groups.values():
                group.add(index, self.blocks[index]["type"])
        return groups

    def run(self) -> PageRun:
        with doctest_compiles_with(self.mode.compile):
            for name, group in self.groups().items():
                self.run_group(name, group)
        result = self.result
        for runner, kind in (
            (self.setup_runner, "setup_failures"),
            (self.test_runner, "failures"),
            (self.cleanup_runner, "cleanup_failures"),
        ):
            setattr(result, kind, runner.failures)
        result.tries = self.test_runner.tries
        result.printed = [self.printed(outcome) for outcome in result.outcomes]
        return result

    def printed(self, outcome: Outcome) -> RecordedBlock:
        block = self.blocks[outcome.block]
        recorded: RecordedBlock = {
            "file": block["file"],
            "line": block["line"],
            "code": block["code"],
            "want": outcome.want,
            "got": outcome.got,
            "passed": outcome.passed,
            "exception": outcome.exception,
        }
        if outcome.failed_at:
            recorded["failed_at"] = outcome.failed_at
        return recorded

    def plain(
        self, runner: _Runner, name: str, what: str, code: list[tuple[str, str, int]], ns: dict
    ) -> bool:
        """Setup or cleanup code, as ``test_group`` runs it: examples that print nothing.

        Each block is a test of its own (the builder makes one test of them all), so
        that a failure is reported at its block; the counts are the same.
        """
        failures = runner.failures
        self.mode.mode = "exec"
        for source, file, line in code:
            example = doctest.Example(source, "", lineno=0)
            test = doctest.DocTest([example], ns, f"{name} ({what} code)", file, line, None)
            test.globs = ns
            if self.started is not None:
                self.started(file, line)
            runner.run_capturing(test)
        return runner.failures <= failures

    def code_of(self, indices: list[int]) -> list[tuple[str, str, int]]:
        return [
            (self.blocks[i]["code"], self.blocks[i]["file"], self.blocks[i]["line"] or 0)
            for i in indices
        ]

    def run_group(self, name: str, group: _Group) -> None:
        ns: dict[str, Any] = {}
        settings = self.settings
        setup = self.code_of(group.setup)
        if settings.global_setup:
            setup.insert(0, (settings.global_setup, "<global_setup>", 0))
        if not self.plain(self.setup_runner, name, "setup", setup, ns):
            with contextlib.suppress(Exception), contextlib.redirect_stdout(io.StringIO()):
                exec(settings.global_cleanup, ns)
            return
        for test in group.tests:
            self.run_test(name, test, ns)
            if self.after is not None and test[0] is not None:
                self.after(test[0], ns)
        self.result.values.update({n: ns[n] for n in self.names if n in ns})
        cleanup = self.code_of(group.cleanup)
        if settings.global_cleanup:
            cleanup.append((settings.global_cleanup, "<global_cleanup>", 0))
        self.plain(self.cleanup_runner, name, "cleanup", cleanup, ns)

    def run_test(self, group: str, test: list[int | None], ns: dict[str, Any]) -> None:
        index = test[0]
        assert index is not None
        code = self.blocks[index]
        output = None
        if len(test) == 1:
            try:
                doc = doctest.DocTestParser().get_doctest(
                    code["code"], {}, group, code["file"], code["line"]
                )
            except ValueError as error:
                # The builder warns and goes on: the block is not a test.
                self.result.reports.append(
                    Report(
                        code["file"], code["line"] or 0, "ignoring invalid doctest code", str(error)
                    )
                )
                return
            if not doc.examples:
                return
            for example in doc.examples:
                example.options = {**_options(code["options"]), **example.options}
            self.mode.mode = "single"
        else:
            output = test[1]
            block = self.blocks[output] if output is not None else None
            want = block["code"] if block else ""
            options = _options(block["options"]) if block else {}
            options[doctest.DONT_ACCEPT_BLANKLINE] = True
            match = EXCEPTION.match(want)
            example = doctest.Example(
                code["code"],
                want,
                exc_msg=match.group("msg") if match else None,
                lineno=0,
                options=options,
            )
            doc = doctest.DocTest([example], {}, group, code["file"], code["line"], None)
            self.mode.mode = "exec"
        doc.globs = ns
        runner = self.test_runner
        runner.exception = runner.failed_at = None
        failures = runner.failures
        if self.started is not None:
            self.started(code["file"], code["line"] or 0)
        got = runner.run_capturing(doc)
        self.result.outcomes.append(
            Outcome(
                block=index,
                output=output,
                want=doc.examples[0].want if len(test) == 2 else None,
                got=got,
                passed=runner.failures == failures,
                exception=runner.exception,
                failed_at=runner.failed_at,
            )
        )


# Where this environment variable names a file, every run appends a line to it (the page
# and its caller's unit): how the tests count the runs of a build.
RUN_LOG = "PAGERUN_RUN_LOG"


def run(
    page: Page,
    settings: Settings,
    names: Iterable[str] = (),
    after: After | None = None,
    unit: str = "",
    started: Started | None = None,
) -> PageRun:
    """Run one page's blocks as the doctest builder's ``test_doc`` and ``test_group`` do.

    The page holds one :class:`~pagerun.blocks.Block` per doctest directive (and ``>>>``
    block when ``doctest_test_doctest_blocks`` says so), in document order. As in the
    builder:

    - a block whose ``:skipif:`` condition holds is left out (the condition is evaluated
      after the global setup, which the global cleanup then undoes);
    - each group gets a fresh namespace; a block of group ``*`` joins every group, after
      the group's own blocks; the global setup is every group's first setup and the
      global cleanup its last cleanup;
    - setup and cleanup code run as examples that expect no output, so one that prints
      or raises fails; a group whose setup fails runs no test and no cleanup (the global
      cleanup still runs here, uncounted, so that what the setup started stops in this
      process);
    - a ``testcode`` block is compiled as ``exec`` and checked against the ``testoutput``
      that follows it in its group (an expected traceback checks the exception); a
      ``doctest`` block is compiled as ``single``, example by example, with the block's
      options over ``doctest_default_flags``.

    The counts and each failure's expected and actual output are the builder's
    (``packages/pagerun/tests/test_engine.py`` compares them on a root of every case).

    ``names`` are variables read from the namespaces before the cleanup deletes them (the
    ``:measured:`` figures); ``after`` is called after each test with its namespace
    (``testplot`` draws from it); ``started`` before each test, setup and cleanup
    included, with its file and line (so :mod:`pagerun.kernel` can say where a page that
    never finished was). ``unit`` names the caller's unit (a build's doctree directory)
    in the :data:`RUN_LOG` file.
    """
    if os.environ.get(RUN_LOG):
        with open(os.environ[RUN_LOG], "a", encoding="utf-8") as log:
            log.write(
                json.dumps({"unit": unit, "page": page["docname"], "pid": os.getpid()}) + "\n"
            )
    return _Run(page, settings, names, after, started).run()
