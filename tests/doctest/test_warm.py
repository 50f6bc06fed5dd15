"""A warm `make doctest` answers as a cold one would, and only while it is the right process:
each run here is compared with the same run, cold, on a copy of the book given the same edits."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from jaxbook.doctest import runner, warm
from pagerun import devices

LANGUAGES = ["zh_CN", "en"]
# Where a test is about one language's process on its own (its fingerprint, its death or
# silence, a build beside it, what its failing test wrote), only that language is asked:
# the other's process is the same code, asked in a thread of its own, and the tests that ask
# both (a second run, an edited page, --only and --force, a path too deep for a socket)
# hold that the languages are asked side by side and fall back to a cold run side by side.
# Each language left out spares a server's start and a cold twin's run.
ONE = ["en"]


@pytest.fixture
def books(rootdir: Path, tmp_path_factory) -> tuple[Path, Path]:
    """Two copies of the tiny book, one run warm, one cold; short paths: a socket's path is
    at most about a hundred bytes."""
    base = tmp_path_factory.mktemp("w")
    return (
        Path(shutil.copytree(rootdir / "test-book", base / "warm")),
        Path(shutil.copytree(rootdir / "test-book", base / "cold")),
    )


@pytest.fixture
def servers(books, monkeypatch) -> Iterator[list[subprocess.Popen[bytes]]]:
    """The servers this test starts; once it is over, every one is stopped and has exited."""
    monkeypatch.setenv(warm.IDLE, "120")  # should one outlive the test after all
    monkeypatch.setattr(warm, "started", [])
    yield warm.started
    warm.stop(books[0] / "_build", [])
    left = []
    for server in warm.started:
        os.kill(server.pid, signal.SIGCONT) if server.poll() is None else None  # one stopped
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
            left.append(server.pid)
    assert not left, f"servers left running after the test: {left}"


Run = Callable[..., tuple[bool, str, str]]


@pytest.fixture
def doctest(capsys) -> Run:
    """``make doctest`` of both languages (or of ``languages``), warm or cold: whether it
    passed, its output (the seconds, and whether the languages ran side by side, left out)
    and its stderr.

    Warm, the languages are asked side by side, as ``make doctest`` asks them. Cold, they
    run one after the other in this process: the same verdict (``runner.language_run``,
    which a server runs too), without starting Python, Sphinx and the extensions in a new
    process per language for each twin run (about 1.5 s of a side-by-side run of 1.8 s).
    A warm run of both languages that falls back to a cold one still runs it side by side."""

    def run(
        root: Path, warmly: bool, languages: list[str] = LANGUAGES, **options
    ) -> tuple[bool, str, str]:
        spec = runner.Spec(root, root / "_build", **options)
        capsys.readouterr()
        ok = runner.check(spec, languages, side_by_side=warmly, warm=warmly)
        captured = capsys.readouterr()
        output = re.sub(r" in [\d.]+ s \((.*?)(?: side by side)?\)", r" in N s (\1)", captured.out)
        return ok, output, captured.err

    return run


def run_once(
    books: tuple[Path, Path], doctest: Run, languages: list[str] = LANGUAGES
) -> tuple[Path, Path]:
    """Each book run once, the warm one by the servers it starts: where a test begins that
    asks them again. Not a fixture: pytest names the phase it is in (setup, call) in the
    environment (PYTEST_CURRENT_TEST), and a server started in another phase would be stale."""
    warm_book, cold_book = books
    doctest(warm_book, True, languages)
    doctest(cold_book, False, languages)
    return books


def both(books: tuple[Path, Path], change: Callable[[Path], object]) -> None:
    for book in books:
        change(book)


def edit(old: str, new: str, page: str = "docs/printing.rst") -> Callable[[Path], None]:
    def change(book: Path) -> None:
        path = book / page
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, old
        path.write_text(text.replace(old, new), encoding="utf-8")

    return change


def append(text: str, page: str) -> Callable[[Path], None]:
    def change(book: Path) -> None:
        with (book / page).open("a", encoding="utf-8") as file:
            file.write(text)

    return change


def alive(server: subprocess.Popen[bytes]) -> bool:
    return server.poll() is None


def test_a_second_run_is_answered_by_the_same_processes_as_a_cold_run_prints_it(
    books, servers, doctest
):
    warm_book, cold_book = books
    first = doctest(warm_book, True)
    assert first[:2] == doctest(cold_book, False)[:2]
    assert first[0], first[1]
    assert list(map(alive, servers)) == [True, True]
    assert sorted(p.name for p in (warm_book / "_build/doctest").glob("*.sock")) == [
        "en.sock",
        "zh_CN.sock",
    ]

    second = doctest(warm_book, True)

    assert second == doctest(cold_book, False)
    assert second[1].startswith("doctest: 0 pages run in N s (zh_CN, en)\n")
    assert second[2] == ""  # no notice: answered warm
    assert list(map(alive, servers)) == [True, True]  # by the processes of the first run


def test_an_edited_page_runs_again_warm_and_fails_at_its_line(books, servers, doctest):
    warm_book, cold_book = run_once(books, doctest)
    both(books, edit("   你好\n", "   再见\n"))

    ok, output, err = doctest(warm_book, True)

    assert (ok, output, err) == doctest(cold_book, False)
    assert not ok
    assert output.startswith("doctest: 2 pages run in N s")
    assert "docs/printing.rst:4: doctest failed [zh_CN]\nExpected:\n    再见\nGot:\n    你好\n" in (
        output
    )
    assert output.splitlines()[-1] == "8 passed, 2 failed"
    assert list(map(alive, servers)) == [True, True]


@pytest.mark.parametrize("change", ["conf.py", "environment"])
def test_a_changed_fingerprint_stops_the_server_and_runs_cold(
    books, servers, doctest, monkeypatch, change
):
    warm_book, cold_book = run_once(books, doctest, ONE)
    first = list(servers)
    if change == "conf.py":
        # A new config value: a server that kept its application would not know it.
        both(books, append("\ndoctest_show_successes = 0\n", "conf.py"))
    else:
        monkeypatch.setenv("JAXBOOK_TINY_SWITCH", "1")

    ok, output, err = doctest(warm_book, True, ONE)

    assert (ok, output) == doctest(cold_book, False, ONE)[:2]
    assert err.splitlines() == [
        f"doctest: the {language} sources or settings changed; a new warm process"
        for language in ONE
    ]
    for server in first:
        assert server.wait(timeout=10) is not None  # told it is stale, it stopped
    assert list(map(alive, servers[len(first) :])) == [True]  # a new one, for the next run


def test_a_build_beside_the_server_makes_it_read_the_doctrees_again(books, servers, doctest):
    warm_book, cold_book = run_once(books, doctest, ONE)
    page = "\nNew\n===\n\n>>> 1 + 1\n2\n"
    both(books, lambda book: (book / "docs/new.rst").write_text(page, encoding="utf-8"))
    both(books, edit("   prose\n", "   prose\n   new\n", "docs/index.rst"))
    # Another build reads the new page into the doctrees the server built.
    doctest(warm_book, False, ONE)
    doctest(cold_book, False, ONE)

    result = doctest(warm_book, True, ONE)

    # A server that kept its own environment would read the new page again (1 page run).
    assert result == doctest(cold_book, False, ONE)
    assert result[1].startswith("doctest: 0 pages run")
    assert list(map(alive, servers)) == [True]  # the same process


def test_only_and_force_answered_warm_are_what_they_are_cold(books, servers, doctest):
    warm_book, cold_book = run_once(books, doctest)
    both(books, edit("   你好\n", "   再见\n"))

    assert doctest(warm_book, True, only=("fence",)) == doctest(cold_book, False, only=("fence",))
    forced = doctest(warm_book, True, force=True)
    assert forced == doctest(cold_book, False, force=True)
    assert forced[1].startswith("doctest: 4 pages run")  # every page with code, in each language
    assert doctest(warm_book, True) == doctest(cold_book, False)
    assert list(map(alive, servers)) == [True, True]


def test_what_a_failing_test_wrote_reaches_the_terminal_warm_as_cold(books, servers, doctest):
    """A failing test's own stderr is shown after its report (jaxbook.sphinxext.snippets); a
    warm process prints it into its own files, and the client must forward it."""
    warm_book, cold_book = run_once(books, doctest, ONE)
    code = (
        "\n.. testcode::\n\n   import sys\n\n   print('written to stderr', file=sys.stderr)\n"
        "   print(1)\n\n.. testoutput::\n\n   2\n"
    )
    both(books, append(code, "docs/prose.rst"))

    ok, output, err = doctest(warm_book, True, ONE)

    assert (ok, output, err) == doctest(cold_book, False, ONE)
    assert not ok
    assert "written to stderr" in output + err
    assert list(map(alive, servers)) == [True]


@pytest.mark.parametrize("how", ["killed", "hung"])
def test_a_server_that_dies_or_hangs_while_building_leaves_the_run_to_a_cold_one(
    books, servers, doctest, monkeypatch, how
):
    warm_book, cold_book = run_once(books, doctest, ONE)
    monkeypatch.setattr(warm, "SILENCE_S", 3.0)
    pids = {server.pid for server in servers}
    # A page that kills, or stops, the process that started the kernel running it when that
    # is a server.
    what = "signal.SIGKILL" if how == "killed" else "signal.SIGSTOP"
    code = (
        f"\n.. testcode::\n\n   import os, signal\n\n"
        f"   if os.getppid() in {pids}:\n       os.kill(os.getppid(), {what})\n"
    )
    both(books, append(code, "docs/prose.rst"))

    ok, output, err = doctest(warm_book, True, ONE)

    assert (ok, output) == doctest(cold_book, False, ONE)[:2]
    assert ok, output
    said = "died" if how == "killed" else "stopped answering"
    assert err.splitlines() == [
        f"doctest: the warm {language} process {said}; running {language} cold" for language in ONE
    ]
    for server in servers:
        assert server.wait(timeout=10) == -signal.SIGKILL  # killed: by the page, or the client


def test_warm_processes_are_off_under_ci_or_when_turned_off():
    assert warm.enabled({})
    assert not warm.enabled({warm.KNOB: "0"})
    assert not warm.enabled({"CI": "true"})


def test_a_build_directory_too_deep_for_a_socket_runs_cold_with_a_notice(
    books, servers, doctest, monkeypatch
):
    warm_book, cold_book = books
    monkeypatch.setattr(warm, "SOCKET_PATH_MAX", 10)

    ok, output, err = doctest(warm_book, True)

    assert (ok, output) == doctest(cold_book, False)[:2]
    assert sorted(err.splitlines()) == [
        f"{warm_book / '_build/doctest'}/{language}.sock: too long a path for a warm "
        f"process's socket; running {language} cold"
        for language in ("en", "zh_CN")
    ]
    assert servers == []


def test_a_server_whose_kernel_held_the_chip_frees_it_between_runs(
    books, servers, doctest, monkeypatch, tmp_path
):
    """On a TPU host a kernel holds the chip for its life (``pagerun_exclusive_devices``,
    here a file of the test's own): a server that kept its kernel would hold the chip, idle,
    for minutes, and the other language's build, or another book's, would wait for it."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the lock file's place, for the server
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # and for this process
    chip = tmp_path / "chip0"
    chip.touch()
    overrides = (("pagerun_exclusive_devices", str(chip)),)
    warm_book, _ = books
    lock = Path(devices.lock_path())

    for _run in range(2):
        ok, output, err = doctest(warm_book, True, ONE, confoverrides=overrides)

        assert ok, output
        assert err == ""  # answered warm
        assert list(map(alive, servers)) == [True]  # by the same server, still listening
        holder = int(lock.read_text())  # its kernel took the lock to run the pages
        assert not devices.held(str(lock))  # and is gone
        with pytest.raises(ProcessLookupError):
            os.kill(holder, 0)
