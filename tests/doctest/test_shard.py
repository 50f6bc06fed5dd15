"""CI shards: a stable, balanced partition of the units, and a merge that insists on all of them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from jaxbook.doctest import shard
from jaxbook.doctest.results import UnitResult
from jaxbook.doctest.verdict import Verdict

ROOT = Path(__file__).resolve().parents[2]
LANGS = ["zh_CN", "en"]
PAGES = [f"ch{c:02d}/{p}" for c in range(1, 6) for p in ("arrays", "quiz", "devices", "index")]
UNITS = [(lang, page) for lang in LANGS for page in PAGES]


def timings() -> dict:
    # Uneven, as real pages are: a few long ones and many short ones.
    return {unit: 1.0 + (i * 7919 % 13) ** 1.5 for i, unit in enumerate(UNITS)}


@pytest.mark.parametrize("shards", [1, 2, 3, 4, 7])
def test_every_unit_lands_in_exactly_one_shard(shards):
    parts = shard.partition(UNITS, shards, timings())
    assert len(parts) == shards
    placed = [unit for part in parts for unit in part]
    assert sorted(placed) == sorted(UNITS)


def test_the_partition_is_stable():
    recorded = timings()
    first = shard.partition(UNITS, 4, recorded)
    assert shard.partition(list(reversed(UNITS)), 4, dict(reversed(recorded.items()))) == first


def test_the_partition_is_balanced_by_recorded_time():
    recorded = timings()
    parts = shard.partition(UNITS, 4, recorded)
    loads = [sum(recorded[unit] for unit in part) for part in parts]
    # Longest-first greedy: no shard exceeds another by more than the longest unit.
    assert max(loads) - min(loads) <= max(recorded.values())
    # Counting units instead of time would be far less even here.
    by_count = [UNITS[i::4] for i in range(4)]
    count_loads = [sum(recorded[unit] for unit in part) for part in by_count]
    assert max(loads) - min(loads) < max(count_loads) - min(count_loads)


def test_units_without_a_recorded_time_still_get_a_shard():
    recorded = {UNITS[0]: 50.0}
    parts = shard.partition(UNITS, 3, recorded)
    assert sorted(u for part in parts for u in part) == sorted(UNITS)
    # Unknown units count as the median recorded time, so here all weigh the same.
    assert max(map(len, parts)) - min(map(len, parts)) <= 1


@pytest.mark.parametrize("text", ["0/2", "3/2", "2", "a/b", "1/0"])
def test_a_bad_shard_is_refused_clearly(text):
    with pytest.raises(Exception, match="give i/N"):
        shard.parse_shard(text)


def verdicts(shards: int) -> list[Verdict]:
    parts = shard.partition(UNITS, shards, timings())
    return [
        Verdict(
            languages=LANGS,
            units=[UnitResult(language=lang, docname=page, tries=2) for lang, page in part],
            planned=list(UNITS),
            shard=f"{i}/{shards}",
            backend="cpu:cpu",
        )
        for i, part in enumerate(parts, start=1)
    ]


def test_the_merge_of_all_shards_is_one_verdict(capsys):
    merged, problems = shard.merge(verdicts(3))
    assert problems == []
    assert merged.print()
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == f"{2 * len(UNITS)} passed, 0 failed"
    assert "zh_CN: 40 passed, 0 failed" in lines


def test_a_missing_shard_fails_the_merge():
    _, problems = shard.merge(verdicts(3)[:2])
    assert "shard 3/3 is missing" in problems
    assert any("no shard ran it" in p for p in problems)


def test_a_unit_run_twice_fails_the_merge():
    shards = verdicts(2)
    shards[1].units.append(shards[0].units[0])
    _, problems = shard.merge(shards)
    unit = shards[0].units[0]
    assert f"docs/{unit.docname}.rst [{unit.language}]: ran in 2 shards" in problems


def test_shards_of_different_books_fail_the_merge():
    shards = verdicts(2)
    shards[1].planned = shards[1].planned[:-1]
    _, problems = shard.merge(shards)
    assert any("planned other units" in p for p in problems)


def test_a_failure_in_one_shard_fails_the_merged_verdict(capsys):
    shards = verdicts(2)
    shards[1].units[0].failures = 1
    merged, problems = shard.merge(shards)
    assert problems == []
    assert not merged.print()
    assert capsys.readouterr().out.splitlines()[-1].endswith("passed, 1 failed")


def jaxbook(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "jaxbook", *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=project,
    )


def test_sharded_runs_merge_to_the_unsharded_verdict(project_copy):
    only = ["--only", "docs/ch01/quiz.rst", "--only", "docs/ch01/what-is-jax.md"]
    whole = jaxbook(project_copy, "doctest", *only, *LANGS)
    assert whole.returncode == 0, whole.stdout
    out = project_copy / "shards"
    for i in (1, 2, 3):
        json = str(out / f"{i}.json")
        part = jaxbook(
            project_copy, "doctest", "--force", "--shard", f"{i}/3", "--json", json, *only, *LANGS
        )
        assert part.returncode == 0, part.stdout
    merged = jaxbook(project_copy, "doctest-merge", str(out))
    assert merged.returncode == 0, merged.stdout
    assert merged.stdout.splitlines()[-1] == whole.stdout.splitlines()[-1]
    assert re.search(r"^zh_CN: \d+ passed, 0 failed$", merged.stdout, re.MULTILINE)

    off_gpu = jaxbook(project_copy, "doctest-merge", "--expect-backend", "gpu", str(out))
    assert off_gpu.returncode != 0
    assert re.search(r"shard 1/3 ran on cpu\S*, not gpu", off_gpu.stdout), off_gpu.stdout

    (out / "2.json").unlink()
    incomplete = jaxbook(project_copy, "doctest-merge", str(out))
    assert incomplete.returncode != 0
    assert "shard 2/3 is missing" in incomplete.stdout


def test_the_results_module_imports_no_sphinx(imported_by):
    probe = "import jaxbook.doctest.results, jaxbook.doctest.verdict, jaxbook.doctest.cache"
    result, imported = imported_by("-c", probe)
    assert result.returncode == 0, result.stderr[-2000:]
    assert not imported & {"sphinx", "docutils", "jax"}


def test_doctest_merge_of_two_shards_never_imports_sphinx(tmp_path, imported_by):
    for shard_verdict in verdicts(2):
        shard_verdict.write(tmp_path / f"{shard_verdict.shard.replace('/', '-of-')}.json")
    result, imported = imported_by("-m", "jaxbook", "doctest-merge", str(tmp_path), cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]
    assert result.stdout.splitlines()[-1] == f"{2 * len(UNITS)} passed, 0 failed"
    assert not imported & {"sphinx", "docutils", "jax"}, sorted(imported)
