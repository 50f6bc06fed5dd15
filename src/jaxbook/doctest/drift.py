"""Run the book on another JAX release and report, cell by cell, what changed.

    jaxbook drift --jax 0.4.38 [--python python3.12] [--out _build/drift] zh_CN [en ...]

The release gets an environment of its own, ``_build/drift/envs/jax-<release>-py<X.Y>``
(``.venv`` and the pages are never touched): ``jax[cpu]`` at that release,
which brings its own ``jaxlib``, the NumPy and Matplotlib that resolve with
it, and the ``jaxbook`` wheel, whose bundle runner and doctest runtime need
Python and JAX alone. The interpreter is the newest Python that the release
installs and runs on, among those found on ``PATH`` and under pyenv; or the
one given with ``--python``. A release that needs NumPy 1 (its jaxlib fails
to import under NumPy 2) gets ``numpy<2``.

The pages are read once, here, with the project's own Sphinx: every doctest
block of each language is exported as a bundle (``jaxbook bundle export``),
so the cells that run there are exactly the ones on the pages. Each cell's
outcome there is one of:

``same``        it printed what the page shows;
``output``      it printed something else (a short diff is kept);
``exception``   it raised an exception, or another one than the page shows;
``assert``      an ``assert`` in it failed;
``warns``       it emitted a warning the page does not show (a deprecation, say): the
                pages' doctests raise every warning, so this is the first sign of the
                next break, before the cell stops working;
``cannot-run``  the release lacks what it uses (AttributeError, ImportError,
                or a NameError left by an earlier cell that could not run);
``skipped``     its ``:skipif:`` skips it there.

The report is printed as a table per page and written as JSON
(``<out>/jax-<release>.json``); the last line counts the outcomes. The exit
status is 0 when the run completed, whatever drifted, and 2 when the release
cannot be installed or run at all.
"""

from __future__ import annotations

import argparse
import datetime
import difflib
import doctest
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from jaxbook import project

OUTCOMES = ["same", "output", "warns", "exception", "assert", "cannot-run", "skipped"]
MISSING_API = ("AttributeError", "ImportError", "ModuleNotFoundError", "NameError")
IGNORE_PYTHON = ["--ignore-requires-python"]
# Never compile these from source: an old release on a new Python would try for
# many minutes and fail. jax itself is pure Python, and before 0.4.14 it came
# only as a source archive, so it may be built.
BINARY_ONLY = ["jaxlib", "numpy", "scipy", "ml-dtypes", "matplotlib", "contourpy", "pillow"]
NUMPY_ABI = re.compile(r"numpy\.core\.multiarray failed to import|compiled using NumPy 1\.x")


class CannotInstall(SystemExit):
    """The release cannot be installed or started here; the message says why."""

    def __init__(self, release: str, why: str) -> None:
        super().__init__(f"JAX {release} cannot be installed here: {why}")


# -- interpreters ---------------------------------------------------------------


def _version_of(python: str) -> tuple[int, int] | None:
    try:
        result = subprocess.run(
            [python, "-V"], capture_output=True, text=True, timeout=30, check=False
        )
    except OSError:
        return None
    match = re.match(r"Python (\d+)\.(\d+)", result.stdout or result.stderr)
    return (int(match[1]), int(match[2])) if result.returncode == 0 and match else None


@functools.cache
def interpreters() -> list[tuple[tuple[int, int], str]]:
    """Every usable CPython 3.9+ found on PATH or under pyenv, newest first, one per minor."""
    found: dict[tuple[int, int], str] = {}
    candidates = [shutil.which(f"python3.{minor}") for minor in range(20, 8, -1)]
    pyenv = shutil.which("pyenv")
    if pyenv:
        root = subprocess.run([pyenv, "root"], capture_output=True, text=True).stdout.strip()
        versions = sorted(Path(root, "versions").glob("3.*"), reverse=True)
        candidates += [str(v / "bin" / "python3") for v in versions]
    for candidate in filter(None, candidates):
        version = _version_of(candidate)
        if version and version >= (3, 9) and version not in found:
            found[version] = candidate
    return sorted(found.items(), reverse=True)


# -- the environment -------------------------------------------------------------


def _run(command: list[str], **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=False, **kwargs)


def _reason(result: subprocess.CompletedProcess[str]) -> str:
    lines = [line.strip() for line in (result.stderr or result.stdout).splitlines()]
    useful = [line for line in lines if line and not line.startswith(("Using ", "Resolved "))]
    return " ".join(useful[:4])[:400] or f"exit status {result.returncode}"


def wheel(root: Path, out: Path, uv: str) -> Path:
    """Build the jaxbook wheel that the release's environment runs the bundles with."""
    shutil.rmtree(out, ignore_errors=True)
    result = _run([uv, "build", "--quiet", "--wheel", "--out-dir", str(out)], cwd=root)
    if result.returncode != 0:
        raise SystemExit(f"pyproject.toml:1: the jaxbook wheel does not build: {_reason(result)}")
    return next(out.glob("jaxbook-*.whl"))


def default_uv() -> str:
    """The uv installed beside this Python (the project's, from the lock), else the one on PATH."""
    beside = Path(sys.executable).with_name("uv")
    return str(beside) if beside.exists() else shutil.which("uv") or "uv"


def _install_wheel(env_python: str, the_wheel: Path, release: str) -> None:
    # The wheel says Python >= the project's; its runner and runtime need far less.
    pip = [env_python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    ours = _run(
        [*pip, "--no-deps", "--no-index", "--force-reinstall", *IGNORE_PYTHON, str(the_wheel)]
    )
    if ours.returncode != 0:
        raise CannotInstall(release, f"the jaxbook wheel: {_reason(ours)}")


def environment(
    release: str,
    python: str,
    envs: Path,
    the_wheel: Path,
    uv: str,
    exclude_newer: str | None = None,
) -> tuple[Path, str]:
    """Create (or reuse) the release's environment; return its python and what went in.

    With ``exclude_newer`` (a timestamp), only packages uploaded before it are
    used: the release with the NumPy, SciPy and ml_dtypes of its day.
    """
    version = _version_of(python)
    if version is None:
        raise CannotInstall(release, f"{python} is not a Python interpreter that runs")
    era = "-of-its-day" if exclude_newer else ""
    env = envs / f"jax-{release}-py{version[0]}.{version[1]}{era}"
    ready = env / "jaxbook-drift-ready"
    env_python = str(env / "bin" / "python")
    if ready.exists():
        # The release stays; this checkout's runner and probes replace the old ones.
        _install_wheel(env_python, the_wheel, release)
        return Path(env_python), ready.read_text(encoding="utf-8")
    shutil.rmtree(env, ignore_errors=True)
    created = _run([uv, "venv", "--quiet", "--seed", "-p", python, str(env)])
    if created.returncode != 0:
        raise CannotInstall(release, _reason(created))
    wanted = [f"jax[cpu]=={release}", "matplotlib"]
    if exclude_newer:
        # JAX's own wheels are exempt: some were uploaded again years later.
        now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        wanted += ["--exclude-newer", exclude_newer]
        wanted += [
            "--exclude-newer-package",
            f"jax={now}",
            "--exclude-newer-package",
            f"jaxlib={now}",
        ]
    for package in BINARY_ONLY:
        wanted += ["--only-binary", package]
    installed = _run([uv, "pip", "install", "--quiet", "-p", env_python, *wanted])
    if installed.returncode != 0 and f"no version of jaxlib=={release}" in installed.stderr:
        # A few releases had no jaxlib of their own: they ran on the one before.
        wanted[0:1] = [f"jax=={release}", f"jaxlib<={release}"]
        installed = _run([uv, "pip", "install", "--quiet", "-p", env_python, *wanted])
    if installed.returncode != 0:
        shutil.rmtree(env, ignore_errors=True)
        raise CannotInstall(release, f"on Python {version[0]}.{version[1]}: {_reason(installed)}")
    _install_wheel(env_python, the_wheel, release)
    smoke = _run([env_python, "-m", "jaxbook", "backend"])
    if smoke.returncode != 0 and NUMPY_ABI.search(smoke.stderr + smoke.stdout):
        wanted.append("numpy<2")
        _run([uv, "pip", "install", "--quiet", "-p", env_python, *wanted])
        smoke = _run([env_python, "-m", "jaxbook", "backend"])
    if smoke.returncode != 0:
        last = (smoke.stderr or smoke.stdout).strip().splitlines()[-1:] or ["no output"]
        shutil.rmtree(env, ignore_errors=True)
        raise CannotInstall(release, f"it installs but does not start: {last[0]}")
    freeze = _run([uv, "pip", "freeze", "-p", env_python]).stdout
    pins = [
        line
        for line in freeze.splitlines()
        if line.split("==")[0].lower() in {"jax", "jaxlib", "numpy", "ml-dtypes", "matplotlib"}
    ]
    summary = f"Python {version[0]}.{version[1]}, " + ", ".join(pins)
    ready.write_text(summary, encoding="utf-8")
    return Path(env_python), summary


def pick_environment(
    release: str,
    python: str | None,
    envs: Path,
    the_wheel: Path,
    uv: str,
    exclude_newer: str | None = None,
) -> tuple[Path, str]:
    if python:
        return environment(release, python, envs, the_wheel, uv, exclude_newer)
    tried = []
    for (major, minor), candidate in interpreters():
        try:
            return environment(release, candidate, envs, the_wheel, uv, exclude_newer)
        except CannotInstall as error:
            tried.append(f"Python {major}.{minor}: {str(error).split(': ', 1)[-1]}")
    if not tried:
        raise CannotInstall(release, "no Python 3.9 or newer was found (give one with PYTHON=)")
    raise CannotInstall(release, "; ".join(tried))


# -- comparing -------------------------------------------------------------------


def _exception(got: str) -> str | None:
    """The exception line of a doctest report ('Exception raised:' ... 'Type: message')."""
    if "Traceback (most recent call last)" not in got:
        return None
    last = [line.strip() for line in got.rstrip().splitlines() if line.strip()]
    return last[-1] if last else None


def _wildcards_kept(want: str, got: str) -> list[str]:
    """The printed lines, with each line that a ``...`` line of the page matches shown as that
    line: what the page leaves to vary (a machine name, a timing) is not a difference."""
    wanted = want.splitlines()
    wildcards = [line for line in wanted if "..." in line]
    # A last line that ends in "..." stands for everything after it as well.
    tail = wanted[-1] if wanted and wanted[-1].endswith("...") else None
    lines = []
    for line in got.splitlines():
        match = next((w for w in wildcards if doctest._ellipsis_match(w, line)), None)
        lines.append(match if match is not None else line)
        if match is not None and match == tail:
            break
    return lines


DIFF_LINES = 8


def classify(record: dict[str, Any]) -> dict[str, Any]:
    """One cell's outcome on the other release, from its record of ``bundle run``."""
    want = record.get("want") or ""
    got = record.get("got", "")
    error = record.get("exception")
    cell = {"file": record["file"], "line": record["line"]}
    if record.get("passed"):
        return {**cell, "outcome": "same"}
    if error:
        kind = error.split(":", 1)[0].rsplit(".", 1)[-1]
        if kind == "AssertionError":
            outcome = "assert"
        elif kind.endswith("Warning"):
            outcome = "warns"
        elif kind in MISSING_API:
            outcome = "cannot-run"
        else:
            outcome = "exception"
        return {**cell, "outcome": outcome, "detail": error}
    want_error = _exception(want)
    got_error = _exception(got)
    if got_error and got_error != want_error and got_error.split(":", 1)[0].endswith("Warning"):
        return {**cell, "outcome": "warns", "detail": got_error}
    if want_error and got_error != want_error:
        detail = got_error or got.strip()
        if len(detail) > 200:
            detail = detail[:199] + "…"  # cut, and marked as cut
        return {**cell, "outcome": "exception", "detail": detail}
    diff = difflib.unified_diff(
        want.splitlines(), _wildcards_kept(want, got), "page", "release", n=0, lineterm=""
    )
    lines = [line for line in diff if not line.startswith(("---", "+++", "@@"))]
    shown = {**cell, "outcome": "output", "detail": "\n".join(lines[:DIFF_LINES])}
    if len(lines) > DIFF_LINES:
        shown["cut"] = len(lines) - DIFF_LINES  # the page says how many lines it leaves out
    return shown


def code_digest(code: str) -> str:
    """A short name for a cell's code, the same in the drift data and in the build."""
    return hashlib.sha256(code.strip().encode("utf-8")).hexdigest()[:12]


def compare(bundles: list[Path], records: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """Per language, every code cell of the bundles with its outcome (skipped ones too)."""
    report: dict[str, list[dict]] = {}
    for path in bundles:
        bundle = json.loads(path.read_text(encoding="utf-8"))
        language = bundle["language"]
        ran = {(r["file"], r["line"]): r for r in records.get(language, [])}
        cells = report.setdefault(language, [])
        for page in bundle["pages"]:
            for block in page["blocks"]:
                if block["type"] not in ("testcode", "doctest"):
                    continue
                record = ran.get((block["file"], block["line"]))
                if record is None:
                    cell = {"file": block["file"], "line": block["line"], "outcome": "skipped"}
                else:
                    cell = classify(record)
                # The page finds the cell by its code, which outlives an edit that moves lines.
                cells.append({**cell, "code": code_digest(block["code"])})
    return report


def table(report: dict[str, list[dict]]) -> list[str]:
    lines = []
    header = f"{'page':<28} {'lang':<6}" + "".join(f" {name:>10}" for name in OUTCOMES)
    lines.append(header)
    for language, cells in report.items():
        pages: dict[str, Counter] = {}
        for cell in cells:
            pages.setdefault(cell["file"], Counter())[cell["outcome"]] += 1
        for page, counts in pages.items():
            name = Path(page.removeprefix("docs/")).with_suffix("").as_posix()
            row = "".join(f" {counts[outcome]:>10}" for outcome in OUTCOMES)
            lines.append(f"{name:<28} {language:<6}{row}")
    return lines


def summary(release: str, report: dict[str, list[dict]]) -> str:
    counts = Counter(cell["outcome"] for cells in report.values() for cell in cells)
    total = sum(counts.values())
    parts = ", ".join(f"{counts[outcome]} {outcome}" for outcome in OUTCOMES)
    return f"JAX {release}: {parts} (of {total} cells)"


# -- the command -------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("languages", nargs="+")
    parser.add_argument("--jax", required=True, metavar="RELEASE", help="for example 0.4.38")
    parser.add_argument("--python", help="the interpreter (default: the newest that works)")
    parser.add_argument("--out", type=Path, default=Path("_build") / "drift")
    parser.add_argument("--srcdir", type=Path, default=Path("docs"), help="the pages")
    parser.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="also keep this release's differences in FILE (docs/release-drift.json for the "
        "'other JAX releases' page)",
    )
    parser.add_argument("--uv", default=default_uv(), help="the uv executable")


def run(args: argparse.Namespace) -> int:
    root = project.root()
    out = args.out.resolve()
    bundles_dir = out / "bundle"
    export = [sys.executable, "-m", "jaxbook", "bundle", "export", "-o", str(bundles_dir)]
    exported = _run([*export, "--srcdir", str(args.srcdir.resolve()), *args.languages], cwd=root)
    if exported.returncode != 0:
        print(exported.stdout + exported.stderr)
        return 1
    bundles = [bundles_dir / f"{language}.json" for language in args.languages]
    try:
        the_wheel = wheel(root, out / "wheel", args.uv)
        python, installed = pick_environment(
            args.jax, args.python, out / "envs", the_wheel, args.uv
        )
    except CannotInstall as error:
        print(error)
        return 2
    print(f"JAX {args.jax}: {installed}")
    record = out / f"jax-{args.jax}.record.json"
    env = {
        **os.environ,
        # Its own compilation cache: another jaxlib must not read this one's entries.
        "JAX_COMPILATION_CACHE_DIR": str(out / "jax-cache" / args.jax),
    }
    ran = _run(
        [str(python), "-m", "jaxbook", "bundle", "run", "--record", str(record)]
        + [str(b) for b in bundles],
        cwd=root,
        env=env,
    )
    if not record.exists():
        print(f"JAX {args.jax}: the bundle run stopped before the end:\n{ran.stdout[-3000:]}")
        print(ran.stderr[-3000:])
        return 2
    report = compare(bundles, json.loads(record.read_text(encoding="utf-8")))
    for line in table(report):
        print(line)
    for language, cells in report.items():
        for cell in cells:
            if cell["outcome"] not in ("same", "skipped"):
                detail = cell.get("detail", "").replace("\n", "\n    ")
                print(
                    f"{cell['file']}:{cell['line']}: [{language}] {cell['outcome']}\n    {detail}"
                )
    result = {"release": args.jax, "environment": installed, "cells": report}
    path = out / f"jax-{args.jax}.json"
    path.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"report: {path.relative_to(root) if path.is_relative_to(root) else path}")
    if args.save:
        # The kept differences go into the repository: no path of this checkout in them.
        for cells in report.values():
            for cell in cells:
                if "detail" in cell:
                    cell["detail"] = cell["detail"].replace(str(root), "<book>")
        save(args.save, args.jax, installed, report)
    print(summary(args.jax, report))
    return 0


def save(path: Path, release: str, installed: str, report: dict[str, list[dict]]) -> None:
    """Keep what differs on ``release`` in the drift file that the pages are made from."""
    data = (
        json.loads(path.read_text(encoding="utf-8"))
        if path.exists()
        else {"generated by": "jaxbook drift --save", "releases": {}}
    )
    data["releases"][release] = {
        "environment": installed,
        # What this run could tell apart: a count of 0 means none, not "not looked for".
        "outcomes": OUTCOMES,
        "counts": {
            language: dict(Counter(cell["outcome"] for cell in cells))
            for language, cells in report.items()
        },
        "cells": {
            language: [cell for cell in cells if cell["outcome"] not in ("same", "skipped")]
            for language, cells in report.items()
        },
    }
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
