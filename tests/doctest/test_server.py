"""The doctest server gives the verdict `make doctest` gives, sees every edit, and steps aside
when the code it loaded is no longer what is on disk."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

QUIZ = "docs/ch01/quiz.rst"
LANGS = ("zh_CN", "en")
SERVED = "doctest: run by the doctest server"


def doctest(project: Path, *extra: str) -> tuple[subprocess.CompletedProcess, dict]:
    verdict = project / "_build" / "verdict.json"
    verdict.unlink(missing_ok=True)
    result = subprocess.run(
        [sys.executable, "-m", "jaxbook", "doctest", "--json", "_build/verdict.json",
         "--only", QUIZ, *extra, "zh_CN", "en"],
        capture_output=True, text=True, timeout=600, cwd=project,
    )  # fmt: skip
    units = json.loads(verdict.read_text(encoding="utf-8"))["units"]
    return result, {(u["language"], u["docname"]): u for u in units}


def start_server(project: Path) -> subprocess.Popen:
    server = subprocess.Popen(
        [sys.executable, "-m", "jaxbook", "doctest-server", "--jobs", "2", "zh_CN", "en"],
        cwd=project, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    log: list[str] = []

    def wait_until_listening() -> None:
        for line in server.stdout:
            log.append(line)
            if "listening" in line:
                return

    waiting = threading.Thread(target=wait_until_listening, daemon=True)
    waiting.start()
    waiting.join(timeout=300)
    if not any("listening" in line for line in log):
        server.kill()
        server.wait()
        pytest.fail(f"the doctest server did not start:\n{''.join(log)}")
    return server


def children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(child) for child in (task / "children").read_text().split()}
    return found


def alive(pids: set[int]) -> set[int]:
    living = set()
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except FileNotFoundError:
            continue
        if "State:\tZ" not in status:
            living.add(pid)
    return living


@pytest.fixture(scope="module")
def served(tmp_path_factory, book_copier):
    """A copy of the book, and a doctest server for it; stopped after the module."""
    project = book_copier(tmp_path_factory.mktemp("served"))
    server = start_server(project)
    yield project, server
    server.terminate()
    server.wait(timeout=60)
    server.stdout.close()


def edit(path: Path, old: str, new: str) -> str:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text


def test_the_server_gives_the_verdict_of_a_run_here(served):
    project, _ = served
    by_server, units = doctest(project, "--force")
    here, here_units = doctest(project, "--force", "--no-server")
    assert by_server.returncode == here.returncode == 0, by_server.stdout + by_server.stderr
    assert by_server.stdout.splitlines()[0] == SERVED
    assert SERVED not in here.stdout
    assert by_server.stdout.splitlines()[-3:] == here.stdout.splitlines()[-3:]
    assert {u: v["tries"] for u, v in units.items()} == {
        u: v["tries"] for u, v in here_units.items()
    }


@pytest.mark.parametrize(
    ("path", "old", "new", "broken"),
    [
        (QUIZ, "   .. testoutput::\n\n      2.0\n", "   .. testoutput::\n\n      100.0\n",
         {("zh_CN", "ch01/quiz"), ("en", "ch01/quiz")}),
        ("locale/en/LC_MESSAGES/ch01/quiz.po", 'msgid "2.0"\nmsgstr "2.0"',
         'msgid "2.0"\nmsgstr "100.0"', {("en", "ch01/quiz")}),
    ],
)  # fmt: skip
def test_the_server_sees_an_edit_and_its_undoing(served, path, old, new, broken):
    project, _ = served
    original = edit(project / path, old, new)
    try:
        result, units = doctest(project)
        assert result.returncode == 1, result.stdout
        assert result.stdout.splitlines()[0] == SERVED
        failed = {unit for unit, found in units.items() if found["failures"]}
        assert failed == broken, result.stdout
        assert "doctest failed [" in result.stdout
    finally:
        (project / path).write_text(original, encoding="utf-8")
    result, units = doctest(project)
    assert result.returncode == 0, result.stdout
    assert result.stdout.splitlines()[0] == SERVED


def test_changed_code_is_run_here_and_stops_the_server(served):
    project, server = served
    edit(project / "conf.py", "nitpicky = True", "nitpicky = True  # edited")
    result, _ = doctest(project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert SERVED not in result.stdout
    assert "the doctest server did not take this run: the extensions" in result.stderr
    assert server.wait(timeout=60) == 0
    again, _ = doctest(project)
    assert again.returncode == 0
    assert again.stderr == ""


def test_a_stopped_server_leaves_no_process_behind(book_copier, tmp_path):
    project = book_copier(tmp_path)
    server = start_server(project)
    try:
        result, _ = doctest(project)
        assert result.stdout.splitlines()[0] == SERVED
        processes = children(server.pid)
        assert len(processes) >= 3, processes  # two readers and at least one worker
    finally:
        server.terminate()
        status = server.wait(timeout=60)
        server.stdout.close()
    assert status == 0
    deadline = time.monotonic() + 30
    while alive(processes) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert alive(processes) == set()


def test_the_environment_is_saved_when_the_server_stops(book_copier, tmp_path):
    project = book_copier(tmp_path)
    server = start_server(project)
    pickles = {lang: project / "_build/doctrees" / lang / "environment.pickle" for lang in LANGS}
    try:
        before = {lang: path.stat().st_mtime_ns for lang, path in pickles.items()}
        output = "   .. testoutput::\n\n      2.0\n"
        edit(project / QUIZ, output, output + "\n")
        result, units = doctest(project)
        assert result.stdout.splitlines()[0] == SERVED, result.stdout
        assert units[("zh_CN", "ch01/quiz")]["failures"] == 0
        # A served edit leaves the pickled environments alone.
        assert {lang: path.stat().st_mtime_ns for lang, path in pickles.items()} == before
    finally:
        server.terminate()
        status = server.wait(timeout=60)
        server.stdout.close()
    assert status == 0
    edited = (project / QUIZ).stat().st_mtime_ns // 1000  # Sphinx keeps microseconds
    for lang, path in pickles.items():
        assert path.stat().st_mtime_ns > before[lang], lang
        with path.open("rb") as file:
            env = pickle.load(file)
        # The saved environment knows the page was read after its edit.
        assert env.all_docs["ch01/quiz"] >= edited, lang
