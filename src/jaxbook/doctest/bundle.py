"""Carry the book's doctests to a machine that has Python and JAX but no docs toolchain.

    jaxbook bundle export [-o DIR] zh_CN [en ...]
    jaxbook bundle run [--record FILE] DIR/<language>.json [...]

``export`` reads the pages with Sphinx, exactly as ``make doctest`` does
(translations applied, snippets staged), and writes every doctest block of
each language to ``DIR/<language>.json`` (default ``_build/doctest-bundle``):
its code, expected output, options, groups, ``:skipif:`` condition, file and
line. Conditions are stored, not evaluated, because they ask about the
machine that runs the tests (``ON_GPU``, ``unrecorded_on``).

``run`` needs only the standard library, JAX and what the pages import. It
groups and runs the blocks the way ``sphinx.ext.doctest`` does (one namespace
per group and page, the global setup first, ``testcode`` compiled as
``exec``, the same option flags), reports each failure as
``docs/<page>.rst:<line>: doctest failed`` (``.md`` for a MyST page) with doctest's expected/got
report, and ends with ``N passed, N failed, N skipped``. ``--record`` writes
what every block printed, so that outputs for a new backend come from a real
run. A GPU machine with ``jax[cuda]`` installed can check the book this way
without installing Sphinx: ``make doctest-bundle`` also writes the
``jaxbook`` wheel beside the bundles, which installs there with
``pip install --no-deps``. CI's GPU job still runs ``make doctest`` itself.

Both files are declared here (``jaxbook.doctest.formats``): a bundle is a
:class:`Bundle` of format ``FORMAT``, a record a :class:`Record` of format
``RECORD_FORMAT``, and every reader refuses a file of another format number or
shape with one sentence that names it.
"""

from __future__ import annotations

import argparse
import doctest
import io
import json
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any, Literal, TypedDict

from jaxbook import project
from jaxbook.doctest import formats

DEFAULT_DIR = Path("_build") / "doctest-bundle"
FORMAT = 1
RECORD_FORMAT = 1
FLAG_NAMES = {value: name for name, value in doctest.OPTIONFLAGS_BY_NAME.items()}
# Sphinx's pattern for an expected output that is a traceback.
EXCEPTION = doctest.DocTestParser._EXCEPTION_RE  # type: ignore[attr-defined]


# -- the two files -------------------------------------------------------------


class Block(TypedDict):
    """One doctest directive of a page, as ``sphinx.ext.doctest`` collected it."""

    type: Literal["testsetup", "testcleanup", "doctest", "testcode", "testoutput"]
    code: str
    file: str  # relative to the project, as messages name it
    line: int | None
    options: dict[str, bool]  # doctest option flag name -> on or off
    groups: list[str]
    skipif: str | None  # the condition, evaluated where the bundle runs


class Page(TypedDict):
    docname: str
    blocks: list[Block]


class Bundle(TypedDict):
    """``<language>.json``: every doctest of one language."""

    format: int  # FORMAT
    language: str
    flags: list[str]  # doctest_default_flags, by name
    global_setup: str
    global_cleanup: str
    pages: list[Page]


class RecordedBlock(TypedDict):
    """What one testcode or doctest block printed where the bundle ran."""

    file: str
    line: int | None
    want: str | None  # the page's expected output (None for a doctest block)
    got: str
    passed: bool
    exception: str | None  # the last line of an exception it raised


class Record(TypedDict):
    """``bundle run --record``: per language, every block that ran, in page order."""

    format: int  # RECORD_FORMAT
    blocks: dict[str, list[RecordedBlock]]


def read_bundle(path: Path) -> Bundle:
    return formats.load(
        path, Bundle, FORMAT, "a doctest bundle", "export it again with make doctest-bundle"
    )


def read_record(path: Path) -> Record:
    again = "record it again with jaxbook bundle run --record"
    return formats.load(path, Record, RECORD_FORMAT, "a run record", again)


# -- export (needs Sphinx) ---------------------------------------------------


def export_language(language: str, outdir: Path, srcdir: Path, confdir: Path) -> Path:
    from jaxbook.sphinxapp import doctest_nodes_of, read_pages

    with tempfile.TemporaryDirectory() as tmp:
        app = read_pages(srcdir, confdir, language, Path(tmp))
        config = app.config
        default_groups = [config.doctest_test_doctest_blocks or "default"]
        pages: list[Page] = []
        for docname in sorted(app.env.found_docs):
            blocks = []
            for node in doctest_nodes_of(app.env.get_doctree(docname), config):
                source = Path(node.source or app.env.doc2path(docname))
                blocks.append(
                    {
                        "type": node.get("testnodetype", "doctest"),
                        "code": node["test"] if "test" in node else node.astext(),
                        "file": source.resolve().relative_to(confdir).as_posix(),
                        "line": node.line,
                        "options": {
                            FLAG_NAMES[flag]: value
                            for flag, value in node.get("options", {}).items()
                        },
                        "groups": node.get("groups", default_groups),
                        "skipif": node.get("skipif"),
                    }
                )
            if blocks:
                pages.append({"docname": docname, "blocks": blocks})
        bundle: Bundle = {
            "format": FORMAT,
            "language": language,
            "flags": [
                name for value, name in FLAG_NAMES.items() if config.doctest_default_flags & value
            ],
            "global_setup": config.doctest_global_setup,
            "global_cleanup": config.doctest_global_cleanup,
            "pages": pages,
        }
    outdir.mkdir(parents=True, exist_ok=True)
    path = outdir / f"{language}.json"
    path.write_text(json.dumps(bundle, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path


# -- run (standard library and JAX only) --------------------------------------


def _flags(names: list[str]) -> int:
    value = 0
    for name in names:
        value |= doctest.OPTIONFLAGS_BY_NAME[name]
    return value


class ReportingRunner(doctest.DocTestRunner):
    """doctest's runner, reporting each failure at the page line of its block."""

    def __init__(self, optionflags: int, out: list[str]) -> None:
        super().__init__(verbose=False, optionflags=optionflags)
        self.out = out
        self.exception: str | None = None

    def _where(self, test: doctest.DocTest, example: doctest.Example) -> str:
        offset = example.lineno if len(test.examples) > 1 else 0
        return f"{test.filename}:{(test.lineno or 0) + offset}: doctest failed"

    def report_failure(self, out, test, example, got) -> None:  # type: ignore[override]
        if "Traceback (most recent call last)" in got:
            self.exception = got.rstrip().splitlines()[-1].strip()
        self.out.append(
            self._where(test, example)
            + "\n"
            + self._checker.output_difference(example, got, self.optionflags)
        )

    def report_unexpected_exception(self, out, test, example, exc_info) -> None:  # type: ignore[override]
        self.exception = traceback.format_exception_only(*exc_info[:2])[-1].strip()
        self.out.append(
            self._where(test, example)
            + "\nException raised:\n"
            + doctest._indent(doctest._exception_traceback(exc_info))  # type: ignore[attr-defined]
        )


class PageRun:
    """One page of one language, run as sphinx.ext.doctest would run it."""

    def __init__(self, bundle: Bundle, page: Page) -> None:
        self.bundle = bundle
        self.page = page
        self.flags = _flags(bundle["flags"])
        self.reports: list[str] = []
        self.records: list[RecordedBlock] = []
        self.passed = self.failed = self.skipped = 0
        self.mode = "exec"

    def _skipped(self, block: dict[str, Any]) -> bool:
        if not block["skipif"]:
            return False
        context: dict[str, Any] = {}
        exec(self.bundle["global_setup"], context)
        skip = bool(eval(block["skipif"], context))
        exec(self.bundle["global_cleanup"], context)
        return skip

    def _groups(self) -> dict[str, dict[str, list]]:
        groups: dict[str, dict[str, list]] = {}
        everywhere = []
        for block in self.page["blocks"]:
            if self._skipped(block):
                self.skipped += block["type"] in ("testcode", "doctest")
                continue
            if "*" in block["groups"]:
                everywhere.append(block)
                continue
            for name in block["groups"]:
                self._add(groups.setdefault(name, {"setup": [], "tests": [], "cleanup": []}), block)
        for block in everywhere:
            for group in groups.values():
                self._add(group, block)
        return groups

    @staticmethod
    def _add(group: dict[str, list], block: dict[str, Any]) -> None:
        kind = block["type"]
        if kind == "testsetup":
            group["setup"].append(block)
        elif kind == "testcleanup":
            group["cleanup"].append(block)
        elif kind == "doctest":
            group["tests"].append([block])
        elif kind == "testcode":
            group["tests"].append([block, None])
        elif kind == "testoutput" and group["tests"] and len(group["tests"][-1]) == 2:
            group["tests"][-1][1] = block

    def _compile(self, source, filename, mode, flags, dont_inherit):
        return compile(source, filename, self.mode, flags, dont_inherit)

    def _exec_plain(self, code: str, where: str, ns: dict[str, Any]) -> bool:
        try:
            exec(compile(code, where, "exec"), ns)
        except Exception as error:
            self.reports.append(f"{where}: setup or cleanup failed: {error!r}")
            self.failed += 1
            return False
        return True

    def run(self) -> None:
        for name, group in self._groups().items():
            ns: dict[str, Any] = {}
            if not self._exec_plain(self.bundle["global_setup"], "<global_setup>", ns):
                return
            if not all(
                self._exec_plain(b["code"], f"{b['file']}:{b['line']}", ns) for b in group["setup"]
            ):
                continue
            for test in group["tests"]:
                self._run_test(name, test, ns)
            for block in group["cleanup"]:
                self._exec_plain(block["code"], f"{block['file']}:{block['line']}", ns)
            self._exec_plain(self.bundle["global_cleanup"], "<global_cleanup>", ns)

    def _run_test(self, group: str, test: list, ns: dict[str, Any]) -> None:
        code = test[0]
        if len(test) == 1:
            self.mode = "single"
            doc = doctest.DocTestParser().get_doctest(
                code["code"], {}, group, code["file"], code["line"]
            )
            for example in doc.examples:
                example.options = {**self._options(code["options"]), **example.options}
        else:
            self.mode = "exec"
            output = test[1]
            want = output["code"] if output else ""
            options = self._options(output["options"]) if output else {}
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
        doc.globs = ns
        runner = ReportingRunner(self.flags, self.reports)
        printed = io.StringIO()
        real_write = runner._fakeout.write  # type: ignore[attr-defined]

        def tee(text: str) -> int:
            printed.write(text)
            return real_write(text)

        runner._fakeout.write = tee  # type: ignore[attr-defined]
        runner.run(doc, out=lambda text: None, clear_globs=False)
        self.passed += runner.tries - runner.failures
        self.failed += runner.failures
        self.records.append(
            {
                "file": code["file"],
                "line": code["line"],
                "want": doc.examples[0].want if doc.examples and len(test) == 2 else None,
                "got": printed.getvalue(),
                "passed": runner.failures == 0,
                "exception": runner.exception,
            }
        )

    @staticmethod
    def _options(names: dict[str, bool]) -> dict[int, bool]:
        return {doctest.OPTIONFLAGS_BY_NAME[name]: value for name, value in names.items()}


def run_bundles(paths: list[Path], record: Path | None) -> int:
    from jaxbook.doctest import environment

    environment.apply(project.find_root() or Path.cwd())
    passed = failed = skipped = 0
    records: dict[str, list[RecordedBlock]] = {}
    for path in paths:
        try:
            bundle = read_bundle(path)
        except formats.FormatError as error:
            sys.exit(str(error))
        language = bundle["language"]
        for page in bundle["pages"]:
            page_run = PageRun(bundle, page)
            # doctest compiles every example as 'single'; like sphinx.ext.doctest,
            # shadow its compile() so that a testcode block compiles as 'exec'.
            doctest.compile = page_run._compile  # type: ignore[attr-defined]
            try:
                page_run.run()
            finally:
                del doctest.compile  # type: ignore[attr-defined]
            for report in page_run.reports:
                print(f"[{language}] {report}")
            passed += page_run.passed
            failed += page_run.failed
            skipped += page_run.skipped
            records.setdefault(language, []).extend(page_run.records)
    if record:
        written: Record = {"format": RECORD_FORMAT, "blocks": records}
        record.write_text(
            json.dumps(written, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="action", required=True)
    export = commands.add_parser("export", help="write DIR/<language>.json (needs Sphinx)")
    export.add_argument("-o", "--outdir", type=Path, default=DEFAULT_DIR)
    export.add_argument(
        "--srcdir", type=Path, default=Path("docs"), help="the pages (default: docs)"
    )
    export.add_argument("languages", nargs="+")
    run = commands.add_parser("run", help="run bundles with Python and JAX alone")
    run.add_argument("--record", type=Path, help="write what every block printed to this JSON file")
    run.add_argument("bundles", nargs="+", type=Path)


def run(args: argparse.Namespace) -> int:
    if args.action == "run":
        return run_bundles(args.bundles, args.record)
    if len(args.languages) > 1:
        # One Sphinx application per process; the languages read side by side.
        children = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "jaxbook",
                    "bundle",
                    "export",
                    "-o",
                    str(args.outdir),
                    "--srcdir",
                    str(args.srcdir),
                    language,
                ]
            )
            for language in args.languages
        ]
        return max(child.wait() for child in children)
    from jaxbook.doctest import environment

    srcdir = args.srcdir.resolve()
    confdir = srcdir if (srcdir / "conf.py").exists() else project.root()
    environment.apply(confdir)
    print(export_language(args.languages[0], args.outdir, srcdir, confdir))
    return 0
