"""Run the book on another JAX release and report, cell by cell, what changed.

    jaxbook-lab drift --jax 0.4.38 [--python python3.12] [--out _build/drift] zh_CN [en ...]

The release gets its own environment (``jaxbook_lab.releases.environments``:
``_build/drift/envs/jax-<release>-py<X.Y>``, on the newest Python the release installs and
runs on, or ``--python``). The pages are read once, here, with the project's Sphinx, and
every doctest block of each language is exported as a bundle (``jaxbook-lab bundle
export``), so exactly the pages' cells run there. Each cell's outcome:

``same``        it printed what the page shows;
``output``      it printed something else (a short diff is kept);
``exception``   it raised an exception, or another one than the page shows;
``assert``      an ``assert`` in it failed;
``warns``       it emitted a warning the page does not show (a deprecation, say): the
                pages' doctests raise every warning, so this is the first sign of the
                next break;
``cannot-run``  the release lacks what it uses (AttributeError, ImportError, or a
                NameError left by an earlier cell that could not run), in the cell or in
                a script it runs and whose traceback it prints;
``skipped``     its ``:skipif:`` skips it there.

Output: a table per page, JSON at ``<out>/jax-<release>.json``, a last line counting the
outcomes. Exit status 0 when the run completed, whatever drifted; 2 when the release
cannot be installed or run.

``--save FILE`` keeps one chapter's results in its drift data
(``docs/ch01/release-drift.json``, named by the chapter's ``drift-report`` directive and
shown by ``jaxbook.sphinxext.drift_report``); only the examples of pages in FILE's
directory and below run. Rules:

- A :class:`~jaxbook.formats.DriftData` holds one entry per release; a later ``--save`` of
  another release adds one. ``--save`` is given once per chapter and needs the book's
  source language among those run.
- An example is keyed by its source-language code, so a translation never makes the file
  stale (and nothing a translator runs writes it).
- A line differing only by naming the release (printing ``jax.__version__``) is no
  difference.
- A new run merges with the release's entry: runs in every language, and since the code
  last changed, are kept together, so a varying result is kept as varying with each
  result; a run matching the file changes only its date.
- A file of another format or shape is refused, not added to.
"""

from __future__ import annotations

import argparse
import copy
import datetime
import difflib
import doctest
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from packaging.version import Version

from jaxbook import formats, project
from jaxbook.files import write_text_atomically
from jaxbook.formats import (
    DRIFT_FORMAT,
    OUTCOMES,
    DriftData,
    Example,
    RecordedBlock,
    ReleaseDrift,
    Run,
    code_digest,
    read_bundle,
    read_drift,
    read_record,
)
from jaxbook_lab.releases.environments import CannotInstall, default_uv, pick_environment, wheel

MISSING_API = ("AttributeError", "ImportError", "ModuleNotFoundError", "NameError")


def _run(command: list[str], **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=False, **kwargs)


# -- comparing -------------------------------------------------------------------


def _exception(got: str) -> str | None:
    """The exception line of a doctest report ('Exception raised:' ... 'Type: message'), or of
    a traceback the cell printed; JAX's note that it filtered the traceback is no exception."""
    if "Traceback (most recent call last)" not in got:
        return None
    last = [
        line.strip()
        for line in got.rstrip().splitlines()
        if line.strip() and not line.strip().startswith(JAX_NOTES)
    ]
    return last[-1] if last else None


JAX_NOTES = ("For simplicity, JAX has removed", "Set JAX_TRACEBACK_FILTERING", "-" * 20)


def _kind(error: str) -> str:
    return error.split(":", 1)[0].rsplit(".", 1)[-1]


def _wildcards_kept(want: str, got: str) -> list[str]:
    """The printed lines, with each line that a ``...`` line of the page matches shown as that
    line: what the page leaves to vary (a machine name, a timing) is not a difference."""
    wanted = want.splitlines()
    wildcards = [line for line in wanted if "..." in line]
    # A last line that ends in "..." stands for everything after it as well.
    tail = wanted[-1] if wanted and wanted[-1].endswith("...") else None
    lines = []
    for line in got.splitlines():
        match = next(
            (w for w in wildcards if ELLIPSIS.check_output(w, line, doctest.ELLIPSIS)), None
        )
        lines.append(match if match is not None else line)
        if match is not None and match == tail:
            break
    return lines


def without_paths(detail: str, root: Path) -> str:
    """A difference as the repository keeps it: a file of the release's environment by
    its name in the installed package (``jax/sharding.py``), the checkout as ``<book>``."""
    return SITE_PACKAGES.sub("", detail).replace(str(root), "<book>")


SITE_PACKAGES = re.compile(r"[^\s(\"']*/site-packages/")
DIFF_LINES = 20
ELLIPSIS = doctest.OutputChecker()  # "..." in a line of the page matches any text


def classify(record: RecordedBlock) -> dict[str, Any]:
    """One cell's outcome on the other release, from its record of ``bundle run``."""
    want = record.get("want") or ""
    got = record.get("got", "")
    error = record.get("exception")
    cell = {"file": record["file"], "line": record["line"]}
    if record.get("passed"):
        return {**cell, "outcome": "same"}
    if error:
        kind = _kind(error)
        printed = _exception(got)
        if kind == "AssertionError" and printed and _kind(printed) in MISSING_API:
            # A script the cell ran failed on what the release lacks, and printed why.
            return {**cell, "outcome": "cannot-run", "detail": printed}
        if kind == "AssertionError":
            # The assert that failed, as the page writes it, where the run names it.
            failed = record.get("failed_at") or ""
            if failed.startswith("assert"):
                return {**cell, "outcome": "assert", "detail": failed}
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
        if got_error and _kind(got_error) in MISSING_API:
            return {**cell, "outcome": "cannot-run", "detail": got_error}
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


def compare(bundles: list[Path], records: dict[str, list[RecordedBlock]]) -> dict[str, list[dict]]:
    """Per language, every code cell of the bundles with its outcome (skipped ones too)."""
    report: dict[str, list[dict]] = {}
    for path in bundles:
        bundle = read_bundle(path)
        language = bundle["language"]
        # A file included by two pages has its blocks run on each, in page order.
        ran: dict[tuple[str, int | None], list[RecordedBlock]] = {}
        for record in records.get(language, []):
            ran.setdefault((record["file"], record["line"]), []).append(record)
        cells = report.setdefault(language, [])
        for page in bundle["pages"]:
            blocks = page["blocks"]
            for i, block in enumerate(blocks):
                if block["type"] not in ("testcode", "doctest"):
                    continue
                after = blocks[i + 1] if i + 1 < len(blocks) else None
                expected = after["code"] if after and after["type"] == "testoutput" else ""
                records_here = ran.get((block["file"], block["line"]))
                if not records_here:
                    cell = {"file": block["file"], "line": block["line"], "outcome": "skipped"}
                else:
                    cell = classify(records_here.pop(0))
                # The page finds the cell by its code, which outlives an edit that moves lines.
                digest = code_digest(block["code"], expected)
                cells.append({**cell, "page": page["docname"], "code": digest})
    return report


def without_release_name(cell: dict, release: str, pinned: str) -> dict:
    """The cell with the lines whose only change is the release's name taken as the same.

    An example that prints ``jax.__version__`` prints each release's own name: that is
    expected, not a difference. The rest of a diff stays; a cell left with nothing else
    printed differently printed the same.
    """
    if cell["outcome"] != "output" or not cell.get("detail"):
        return cell
    lines = cell["detail"].split("\n")
    removed = {line[1:] for line in lines if line.startswith("-")}
    named = {line[1:].replace(release, pinned) for line in lines if line.startswith("+")}
    expected = removed & named
    kept = [line for line in lines if line[1:].replace(release, pinned) not in expected]
    if len(kept) == len(lines):
        return cell
    if not any(line.startswith(("-", "+")) for line in kept):
        return {k: v for k, v in cell.items() if k not in ("detail", "cut")} | {"outcome": "same"}
    return {**cell, "detail": "\n".join(kept)}


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
        action="append",
        default=[],
        metavar="FILE",
        help="run only the chapter in FILE's directory and keep what its examples did in FILE "
        "(docs/ch01/release-drift.json for that chapter's 'other JAX releases' page); "
        "once per chapter",
    )
    parser.add_argument("--uv", default=default_uv(), help="the uv executable")


def chapter_of(path: Path, root: Path) -> str:
    """The pages a drift file holds, as a prefix of the files the bundle names."""
    directory = path.resolve().parent
    return "" if directory == root else directory.relative_to(root).as_posix() + "/"


def only_chapters(path: Path, prefixes: list[str]) -> None:
    """Keep in the bundle at ``path`` only the pages of the chapters asked for."""
    bundle = read_bundle(path)
    bundle["pages"] = [
        page
        for page in bundle["pages"]
        if any(block["file"].startswith(tuple(prefixes)) for block in page["blocks"])
    ]
    path.write_text(json.dumps(bundle, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def run(args: argparse.Namespace) -> int:
    root = project.root()
    out = args.out.resolve()
    bundles_dir = out / "bundle"
    export = [sys.executable, "-m", "jaxbook_lab", "bundle", "export", "-o", str(bundles_dir)]
    exported = _run([*export, "--srcdir", str(args.srcdir.resolve()), *args.languages], cwd=root)
    if exported.returncode != 0:
        print(exported.stdout + exported.stderr)
        return 1
    bundles = [bundles_dir / f"{language}.json" for language in args.languages]
    chapters = {path: chapter_of(path, root) for path in args.save}
    if chapters and project.SOURCE_LANGUAGE not in args.languages:
        # The drift data knows each example by its code in the source language.
        sys.exit(f"jaxbook-lab drift --save needs {project.SOURCE_LANGUAGE} among the languages")
    for path in args.save:
        try:
            read_drift(path) if path.exists() else None  # refused before the long run
        except formats.FormatError as error:
            sys.exit(str(error))
    if chapters:
        for bundle in bundles:
            only_chapters(bundle, list(chapters.values()))
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
        [str(python), "-m", "jaxbook_lab", "bundle", "run", "--record", str(record)]
        + [str(b) for b in bundles],
        cwd=root,
        env=env,
    )
    if not record.exists():
        print(f"JAX {args.jax}: the bundle run stopped before the end:\n{ran.stdout[-3000:]}")
        print(ran.stderr[-3000:])
        return 2
    try:
        recorded = read_record(record)
    except formats.FormatError as error:
        sys.exit(str(error))
    pinned = project.pinned_release(root)
    report = {
        language: [without_release_name(cell, args.jax, pinned) for cell in cells]
        for language, cells in compare(bundles, recorded["blocks"]).items()
    }
    machine = recorded.get("machine")
    where = {"device": machine["device"], "date": machine["date"]} if machine else {}
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
    # The kept differences go into the repository: no path of this checkout in them.
    for cells in report.values():
        for cell in cells:
            if "detail" in cell:
                cell["detail"] = without_paths(cell["detail"], root)
    for save_path, chapter in chapters.items():
        save(save_path, args.jax, installed, report, chapter, **where)
    print(summary(args.jax, report))
    return 0


# -- keeping a chapter's drift data ----------------------------------------------------


def examples_of(
    report: dict[str, list[dict]], chapter: str = "", source: str = project.SOURCE_LANGUAGE
) -> list[Example]:
    """One run's examples of the chapter: each place, known by its code in ``source``,
    with its run in every language."""
    examples: dict[tuple[str, str, int | None], Example] = {}
    for language in sorted(report, key=lambda lang: lang != source):
        for cell in report[language]:
            if not cell["file"].startswith(chapter):
                continue
            key = (cell["page"], cell["file"], cell["line"])
            if key not in examples:
                if language != source:
                    continue  # not in the source's pages: nothing to know it by
                examples[key] = {
                    "page": cell["page"],
                    "file": cell["file"],
                    "line": cell["line"],
                    "code": cell["code"],
                    "runs": [],
                }
            run: Run = {"language": language, "outcome": cell["outcome"]}
            for name in ("detail", "cut"):
                if name in cell:
                    run[name] = cell[name]
            add_runs(examples[key]["runs"], [run])
    return sorted(examples.values(), key=lambda e: (e["page"], e["file"], e["line"] or 0))


def _result(run: Run) -> tuple[Any, ...]:
    return (run["language"], run["outcome"], run.get("detail"), run.get("cut"))


def add_runs(into: list[Run], more: list[Run]) -> None:
    """Add runs to an example's: a result it had before is there already."""
    for run in more:
        if all(_result(r) != _result(run) for r in into):
            into.append(copy.copy(run))


def merge(saved: ReleaseDrift | None, new: ReleaseDrift) -> ReleaseDrift:
    """A release's new run, with the runs the file kept of the same code in the same page,
    file and environment (earlier runs first); what the pages no longer hold is dropped."""
    if saved is None or (saved["environment"], saved["device"]) != (
        new["environment"],
        new["device"],
    ):
        return new
    left = list(saved["examples"])
    for example in new["examples"]:
        # In page order: of two examples with the same code in a file, the first is the first.
        old = next(
            (
                o
                for o in left
                if (o["page"], o["file"], o["code"])
                == (example["page"], example["file"], example["code"])
            ),
            None,
        )
        if old is None:
            continue
        left.remove(old)
        runs = [copy.copy(run) for run in old["runs"]]
        add_runs(runs, example["runs"])
        example["runs"] = runs
    return new


def save(
    path: Path,
    release: str,
    installed: str,
    report: dict[str, list[dict]],
    chapter: str = "",
    *,
    source: str = project.SOURCE_LANGUAGE,
    device: str = "cpu",
    date: str | None = None,
) -> None:
    """Keep what the chapter's examples did on ``release`` in the chapter's drift file: as
    run on ``device`` on ``date`` (today), each example known by its code in ``source``."""
    try:
        data = read_drift(path) if path.exists() else None
    except formats.FormatError as error:
        sys.exit(str(error))
    if data is None:
        data = {"format": DRIFT_FORMAT, "generated by": "jaxbook-lab drift --save", "releases": {}}
    new: ReleaseDrift = {
        "environment": installed,
        "device": device,
        "date": date or datetime.date.today().isoformat(),
        "examples": examples_of(report, chapter, source),
    }
    data["releases"][release] = merge(data["releases"].get(release), new)
    data["releases"] = dict(sorted(data["releases"].items(), key=lambda kv: Version(kv[0])))
    write_text_atomically(path, dump(data))


def dump(data: DriftData) -> str:
    """The file's text: one line an example, so that a new run changes the lines it changes."""
    lines = ["{"]
    lines.append(f' "format": {json.dumps(data["format"])},')
    lines.append(f' "generated by": {json.dumps(data["generated by"])},')
    lines.append(' "releases": {')
    releases = list(data["releases"].items())
    for i, (release, entry) in enumerate(releases):
        lines.append(f"  {json.dumps(release)}: {{")
        for key in ("environment", "device", "date"):
            lines.append(f"   {json.dumps(key)}: {json.dumps(entry[key])},")
        lines.append('   "examples": [')
        examples = [
            "    " + json.dumps(example, ensure_ascii=False) for example in entry["examples"]
        ]
        lines.append(",\n".join(examples))
        lines.append("   ]")
        lines.append("  }" + ("," if i < len(releases) - 1 else ""))
    lines.append(" }")
    lines.append("}")
    return "\n".join(line for line in lines if line) + "\n"
