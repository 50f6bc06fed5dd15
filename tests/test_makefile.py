"""The Makefile passes its variables through as its help says."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def dry_run(*arguments: str) -> str:
    result = subprocess.run(
        ["make", "-n", *arguments], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("arguments", "chapters"), [([], "1,4,16"), (["CHAPTERS=4"], "4"), (["CHAPTERS=1,16"], "1,16")]
)
def test_make_bench_measures_the_courses_its_help_names(arguments, chapters):
    assert f" --chapters {chapters} " in dry_run("bench", *arguments)
