"""Split the doctest units over CI jobs, and merge the jobs' verdicts into one.

    make doctest SHARD=2/4              # this job's share; writes its JSON verdict
    jaxbook doctest-merge DIR [...]     # every shard's JSON under DIR -> one verdict line
    jaxbook doctest-merge --expect-backend gpu DIR

The partition is stable: every shard computes the same one from the same
unit list and the recorded run time of each unit (``.ci/doctest-timings.json``,
written by ``jaxbook doctest --record-timings``). The longest units are placed
first, each on the shard with the least work so far (ties go to the lowest
shard number); a unit without a recorded time counts as the median of the
recorded ones.

The merge fails when a shard is missing, when the shards disagree on the
units of the run, or when a unit is missing from every shard or was run by
two of them; otherwise it prints the same verdict ``make doctest`` prints.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
from collections import Counter
from pathlib import Path

from jaxbook.doctest.verdict import Verdict
from jaxbook.project import find_root, page_name

TIMINGS = Path(".ci") / "doctest-timings.json"

Unit = tuple[str, str]  # (language, docname)


def parse_shard(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d+)/(\d+)", text.strip())
    if not match or not 1 <= int(match[1]) <= int(match[2]):
        raise argparse.ArgumentTypeError(f"SHARD={text!r}: give i/N with 1 <= i <= N, e.g. 2/4")
    return int(match[1]), int(match[2])


def load_timings(path: Path) -> dict[Unit, float]:
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        (language, docname): float(seconds)
        for language, pages in data.items()
        for docname, seconds in pages.items()
    }


def save_timings(path: Path, timings: dict[Unit, float]) -> None:
    data: dict[str, dict[str, float]] = {}
    for (language, docname), seconds in sorted(timings.items()):
        data.setdefault(language, {})[docname] = round(seconds, 2)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def partition(units: list[Unit], shards: int, timings: dict[Unit, float]) -> list[list[Unit]]:
    """Longest-first onto the least-loaded shard; the same input gives the same output."""
    known = [timings[unit] for unit in units if unit in timings]
    default = statistics.median(known) if known else 1.0
    cost = {unit: timings.get(unit, default) for unit in units}
    loads = [0.0] * shards
    parts: list[list[Unit]] = [[] for _ in range(shards)]
    for unit in sorted(set(units), key=lambda u: (-cost[u], u)):
        target = min(range(shards), key=lambda i: (loads[i], i))
        parts[target].append(unit)
        loads[target] += cost[unit]
    return [sorted(part) for part in parts]


def merge(verdicts: list[Verdict]) -> tuple[Verdict, list[str]]:
    """One verdict from the shards', and what is wrong with the set of shards."""
    problems: list[str] = []
    if not verdicts:
        return Verdict(languages=[]), ["no shard verdicts found"]
    first = verdicts[0]
    planned = set(first.planned)
    totals = {int(v.shard.split("/")[1]) for v in verdicts if v.shard}
    if len(totals) != 1 or any(not v.shard for v in verdicts):
        problems.append("the verdicts do not come from one SHARD=i/N split")
    else:
        total = totals.pop()
        seen = Counter(int(v.shard.split("/")[0]) for v in verdicts)
        for index in range(1, total + 1):
            if seen[index] == 0:
                problems.append(f"shard {index}/{total} is missing")
            elif seen[index] > 1:
                problems.append(f"shard {index}/{total} appears {seen[index]} times")
    for verdict in verdicts[1:]:
        if set(verdict.planned) != planned or verdict.languages != first.languages:
            problems.append(
                f"shard {verdict.shard} planned other units than shard {first.shard}: "
                "the shards ran different versions of the book"
            )
        if verdict.backend != first.backend:
            problems.append(
                f"shard {verdict.shard} ran on {verdict.backend}, shard {first.shard} on "
                f"{first.backend}"
            )
    ran = Counter((unit.language, unit.docname) for v in verdicts for unit in v.units)
    root = find_root() or Path.cwd()
    for unit in sorted(planned - set(ran)):
        problems.append(f"{page_name(root, unit[1])} [{unit[0]}]: no shard ran it")
    for unit, count in sorted(ran.items()):
        if count > 1:
            problems.append(f"{page_name(root, unit[1])} [{unit[0]}]: ran in {count} shards")
        if unit not in planned:
            problems.append(f"{page_name(root, unit[1])} [{unit[0]}]: ran but was not planned")
    merged = Verdict(
        languages=first.languages,
        units=[unit for v in verdicts for unit in v.units],
        errors=[error for v in verdicts for error in v.errors],
        planned=sorted(planned),
        backend=first.backend,
    )
    return merged, problems


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="+", type=Path, help="shard verdict JSON files, or directories holding them"
    )
    parser.add_argument(
        "--expect-backend",
        choices=["cpu", "gpu", "tpu"],
        help="fail unless every shard ran on this backend",
    )


def run(args: argparse.Namespace) -> int:
    files: list[Path] = []
    for path in args.paths:
        files.extend(sorted(path.rglob("*.json")) if path.is_dir() else [path])
    verdicts = []
    for file in files:
        try:
            verdicts.append(Verdict.read(file))
        except (OSError, ValueError, KeyError) as error:
            print(f"{file}: not a doctest shard verdict ({error})")
            return 1
    merged, problems = merge(verdicts)
    if args.expect_backend:
        problems += [
            f"shard {v.shard} ran on {v.backend or 'an unknown backend'}, not {args.expect_backend}"
            for v in verdicts
            if v.backend.split(":")[0] != args.expect_backend
        ]
    for problem in problems:
        print(f"doctest-merge: {problem}")
    ok = merged.print()
    if problems:
        print(f"doctest-merge: {len(problems)} problem(s) with the shards; no valid verdict")
        return 1
    return 0 if ok else 1
