"""Run the book's doctests for each language and print one verdict line.

    jaxbook doctest [--builddir _build] [--sphinxopts "..."]
                    [--only docs/ch01/quiz.rst ...] zh_CN [en ...]

Each language runs in its own ``sphinx-build -b doctest`` process, all at the
same time (the doctest builder itself is serial), and every language must run
the same number of examples. Every failing example is
reported as ``docs/<page>.rst:<line>: ...`` followed by doctest's own report
with the expected and the actual output. The last line is always
``N passed, N failed`` over all languages; the exit status is non-zero when
anything failed, including a build error or warning outside the examples.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from jaxbook import project
from jaxbook.doctest.environment import doctest_environment

SUMMARY = re.compile(
    r"^\s*(?P<tries>\d+) tests?\n\s*(?P<failures>\d+) failures? in tests\n"
    r"\s*(?P<setup>\d+) failures? in setup code\n\s*(?P<cleanup>\d+) failures? in cleanup code",
    re.MULTILINE,
)
FAILURE_HEADER = re.compile(
    r'^File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<group>.+)$', re.MULTILINE
)
SEPARATOR = "*" * 70


def sphinx_command(
    root: Path, language: str, builddir: Path, sphinxopts: list[str], only: list[str]
) -> list[str]:
    return [
        sys.executable,
        "-m",
        "sphinx",
        "-b",
        "doctest",
        "-c",
        str(root),
        "-D",
        f"language={language}",
        "-d",
        str(builddir / "doctrees" / language),
        "--fail-on-warning",
        "--keep-going",
        *sphinxopts,
        str(root / "docs"),
        str(builddir / "doctest" / language),
        *(str(Path(page).resolve()) for page in only),
    ]


def report_failures(text: str, language: str) -> None:
    for block in text.split(SEPARATOR):
        header = FAILURE_HEADER.search(block)
        if not header:
            continue
        source = header["file"]
        path = source if source.startswith("<") else f"docs/{source}"
        what = "setup code failed" if "(setup code)" in header["group"] else "doctest failed"
        print(f"{path}:{header['line']}: {what} [{language}]")
        print(block.strip("\n"))
        print()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("languages", nargs="+")
    parser.add_argument("--builddir", type=Path, default=Path("_build"))
    parser.add_argument("--sphinxopts", default="", help="extra sphinx-build options")
    parser.add_argument(
        "--only", action="append", default=[], metavar="PAGE", help="test only this page"
    )


def run(args: argparse.Namespace) -> int:
    root = project.root()
    args.builddir = args.builddir.resolve()
    env = doctest_environment(os.environ, root)
    sphinxopts = shlex.split(args.sphinxopts)
    procs = {}
    for index, language in enumerate(args.languages):
        (args.builddir / "doctest" / language).mkdir(parents=True, exist_ok=True)
        log = (args.builddir / "doctest" / f"{language}.log").open("w", encoding="utf-8")
        procs[language] = (
            subprocess.Popen(
                sphinx_command(
                    root,
                    language,
                    args.builddir,
                    # Every other language tests the pages backwards, so the
                    # languages share the compilation cache instead of racing.
                    [*sphinxopts, "-D", f"jaxbook_doctest_reversed={index % 2}"],
                    args.only,
                ),
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                text=True,
            ),
            log,
        )

    passed = failed = 0
    ok = True
    tries_by_language: dict[str, int] = {}
    for language, (proc, log) in procs.items():
        status = proc.wait()
        log.close()
        outdir = args.builddir / "doctest" / language
        log_text = (args.builddir / "doctest" / f"{language}.log").read_text(encoding="utf-8")
        output = outdir / "output.txt"
        text = output.read_text(encoding="utf-8") if output.exists() else ""
        summary = SUMMARY.search(text)
        if summary is None:
            print(f"docs: the doctest build for {language} did not finish (exit {status}):")
            print(log_text[-4000:])
            failed += 1
            ok = False
            continue
        tries, failures = int(summary["tries"]), int(summary["failures"])
        tries_by_language[language] = tries
        broken = failures + int(summary["setup"]) + int(summary["cleanup"])
        report_failures(text, language)
        passed += tries - failures
        failed += broken
        print(f"{language}: {tries - failures} passed, {broken} failed")
        if status != 0 and broken == 0:
            print(f"docs: the doctest build for {language} exited {status} with warnings:")
            warnings = [
                line for line in log_text.splitlines() if "WARNING" in line or "ERROR" in line
            ]
            print("\n".join(warnings) or log_text[-4000:])
            failed += 1
        ok = ok and status == 0 and broken == 0
    if len(set(tries_by_language.values())) > 1:
        counts = ", ".join(f"{lang} {n}" for lang, n in tries_by_language.items())
        print(
            f"docs: the languages ran different numbers of examples ({counts}); "
            "a translated block lost or gained a doctest"
        )
        failed += 1
        ok = False
    print(f"{passed} passed, {failed} failed")
    return 0 if ok else 1
