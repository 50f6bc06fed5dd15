"""A fault in the middle of a doctest run never leaves a stale pass, a crash or a hang:
after it, the next `make doctest` gives the verdict that `FORCE=1` gives."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# One page that passes, one that a planted wrong output makes fail, in both languages.
PAGES = ["docs/ch01/quiz.rst", "docs/ch01/what-is-jax.md"]
WRONG = ("      TypeError\n      [10  2  3]\n", "      TypeError\n      [10  2  4]\n")
_server_test = importlib.util.spec_from_file_location(
    "server_helpers", Path(__file__).with_name("test_server.py")
)


def server_helpers():
    """start_server, children and alive, from the server's tests."""
    helpers = importlib.util.module_from_spec(_server_test)
    _server_test.loader.exec_module(helpers)
    return helpers


def command(*extra: str) -> list[str]:
    only = [arg for page in PAGES for arg in ("--only", page)]
    return [sys.executable, "-m", "jaxbook", "doctest", *only, *extra, "zh_CN", "en"]


def doctest(project: Path, *extra: str) -> tuple[subprocess.CompletedProcess, list[tuple]]:
    verdict = project / "_build" / "doctest" / "verdict.json"
    verdict.unlink(missing_ok=True)
    result = subprocess.run(
        command(*extra), capture_output=True, text=True, timeout=600, cwd=project
    )
    return result, outcome(verdict)


def outcome(verdict: Path) -> list[tuple]:
    """What a verdict says of each unit, whether or not it came from the cache."""
    units = json.loads(verdict.read_text(encoding="utf-8"))["units"]
    return sorted(
        (u["language"], u["docname"], u["tries"], u["failures"], u["setup_failures"]) for u in units
    )


def start(project: Path) -> subprocess.Popen:
    return subprocess.Popen(
        command("--force"), cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def last_line(result: subprocess.CompletedProcess) -> str:
    return result.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def forced(tmp_path_factory, book_copier) -> tuple[Path, str, list[tuple]]:
    """The book with one failing page, and its FORCE=1 verdict (which primes the cache)."""
    project = book_copier(tmp_path_factory.mktemp("faults"))
    quiz = project / PAGES[0]
    text = quiz.read_text(encoding="utf-8")
    assert WRONG[0] in text
    quiz.write_text(text.replace(*WRONG, 1), encoding="utf-8")
    result, units = doctest(project, "--force")
    assert result.returncode == 1, result.stdout + result.stderr
    assert last_line(result).endswith(" 2 failed"), result.stdout  # the page, in each language
    return project, last_line(result), units


@pytest.fixture
def project(forced, tmp_path) -> Path:
    copy = tmp_path / "book"
    shutil.copytree(forced[0], copy, symlinks=True)
    return copy


def assert_same_as_forced(forced, result, units) -> None:
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert last_line(result) == forced[1]
    assert units == forced[2]


def test_a_run_killed_in_the_middle_leaves_a_correct_verdict(forced, project):
    shutil.rmtree(project / "_build" / "doctest-cache")
    helpers = server_helpers()
    run = subprocess.Popen(command("--force"), cwd=project, stdout=subprocess.DEVNULL)
    # Killed once its readers have written the doctrees, while pages run.
    pickle = project / "_build" / "doctrees" / "en" / "environment.pickle"
    deadline = time.monotonic() + 300
    while not pickle.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    # On a loaded machine the workers may start a while after the doctrees are written.
    workers = set()
    while not workers and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
        workers = helpers.children(run.pid)
    try:
        assert workers, f"no worker seen before the run ended (exit status {run.poll()})"
    finally:
        run.send_signal(signal.SIGKILL)
    assert run.wait(timeout=60) == -signal.SIGKILL
    # Its workers stop by themselves: none is left holding JAX and memory.
    deadline = time.monotonic() + 30
    while helpers.alive(workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert helpers.alive(workers) == set()
    assert_same_as_forced(forced, *doctest(project))


def test_cut_off_and_corrupt_cache_entries_are_run_again(forced, project):
    entries = sorted((project / "_build" / "doctest-cache").rglob("*.json"))
    assert len(entries) == 2, entries  # the passing page, in each language
    cut, reshaped = entries
    cut.write_bytes(cut.read_bytes()[: cut.stat().st_size // 2])
    entry = json.loads(reshaped.read_text(encoding="utf-8"))
    reshaped.write_text(json.dumps({"key": entry["key"], "result": ["?"]}), encoding="utf-8")
    result, units = doctest(project)
    assert_same_as_forced(forced, result, units)
    verdict = json.loads((project / "_build/doctest/verdict.json").read_text(encoding="utf-8"))
    assert not any(unit["cached"] for unit in verdict["units"])


def test_two_runs_at_once_on_one_build_directory_both_give_the_verdict(forced, project):
    runs = [start(project) for _ in range(2)]
    results = []
    for run in runs:
        stdout, stderr = run.communicate(timeout=600)
        results.append(subprocess.CompletedProcess(run.args, run.returncode, stdout, stderr))
    for result in results:
        assert result.returncode == 1, result.stdout + result.stderr
        assert "Traceback" not in result.stderr
        assert last_line(result) == forced[1]
    assert any("waiting for it" in result.stdout for result in results)
    assert_same_as_forced(forced, *doctest(project))


def test_a_server_killed_while_it_serves_a_run_leaves_a_correct_verdict(project):
    # A cell that takes a while, so that the kill lands while the server runs the pages.
    page = project / PAGES[1]
    slow = "\n```{testcode}\nimport time\n\ntime.sleep(SLOW_S)\n```\n"  # 1.1 is MyST
    page.write_text(page.read_text(encoding="utf-8") + slow.replace("SLOW_S", "8"), "utf-8")
    helpers = server_helpers()
    server = helpers.start_server(project)
    try:
        run = start(project)
        time.sleep(3)
        workers = helpers.children(server.pid)
        os.kill(server.pid, signal.SIGKILL)
        stdout, stderr = run.communicate(timeout=600)
    finally:
        server.kill()
        server.wait(timeout=60)
        server.stdout.close()
    for pid in helpers.alive(workers):
        os.kill(pid, signal.SIGKILL)
    result = subprocess.CompletedProcess(run.args, run.returncode, stdout, stderr)
    assert "the doctest server stopped before it answered; running here" in result.stderr
    after_kill = outcome(project / "_build/doctest/verdict.json")
    forced_here, units = doctest(project, "--force")
    assert_same_as_forced((project, last_line(forced_here), units), result, after_kill)
    assert_same_as_forced((project, last_line(forced_here), units), *doctest(project))
