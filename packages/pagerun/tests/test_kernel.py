"""Pages run outside the build's process, in its kernel: a page that crashes it or runs past
its time limit fails at its line and the build goes on with a fresh kernel; no kernel
outlives the process that started it; what a page prints never breaks the kernel's pipes."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pagerun import engine, kernel
from pagerun.pages import records

CRASHES = {
    "signal": "import os, signal\n\nos.kill(os.getpid(), signal.SIGSEGV)",
    "null pointer": "import ctypes\n\nctypes.string_at(0)",
}


@pytest.fixture
def project(rootdir: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(rootdir / "test-rerun", tmp_path / "project"))


def append_cell(path: Path, code: str) -> int:
    """Append a ``testcode`` of ``code`` to the page; the line of its directive."""
    before = path.read_text(encoding="utf-8")
    body = "".join(f"   {line}\n" if line else "\n" for line in code.splitlines())
    path.write_text(before + "\n.. testcode::\n\n" + body, encoding="utf-8")
    return before.count("\n") + 2


def page(code: str, line: int = 1) -> kernel.Request:
    block = {
        "type": "testcode",
        "code": code,
        "file": "p.rst",
        "line": line,
        "options": {},
        "groups": ["default"],
        "skipif": None,
    }
    return kernel.Request({"docname": "p", "blocks": [block]}, engine.Settings())


def failed_at(app, docname: str) -> list[str]:
    return [f"{report.where}: {report.what}" for report in records(app.env)[docname].run.reports]


@pytest.mark.parametrize("how", sorted(CRASHES))
def test_a_page_that_crashes_its_process_fails_at_its_line_and_the_next_page_runs(
    project, build, how
):
    # numbers runs before printing: Sphinx reads the pages in order of their names.
    line = append_cell(project / "numbers.rst", CRASHES[how])

    app, ran = build(project, "html")

    said = "the page's code stopped the process running it: signal 11"
    assert failed_at(app, "numbers") == [f"numbers.rst:{line}: {said}"]
    assert f"numbers.rst:{line}: WARNING: {said}" in app.warning.getvalue()
    # The page after it ran, and passed, in a kernel of its own.
    assert ran == ["numbers", "printing"]
    assert records(app.env)["printing"].run.tries == 1
    assert records(app.env)["printing"].run.broken == 0
    assert app.ran_in["numbers"] != app.ran_in["printing"]


def test_a_page_that_does_not_finish_is_stopped_at_its_time_limit(project, build, monkeypatch):
    line = append_cell(project / "numbers.rst", "import time\n\ntime.sleep(60)")
    monkeypatch.setenv(kernel.TIMEOUT, "2")
    started = time.monotonic()

    app, ran = build(project, "html")

    assert time.monotonic() - started < 30  # well before the cell's minute is up
    said = "the page's code did not finish within 2 s"
    assert failed_at(app, "numbers") == [f"numbers.rst:{line}: {said}"]
    assert f"numbers.rst:{line}: WARNING: {said}" in app.warning.getvalue()
    assert ran == ["numbers", "printing"]
    assert records(app.env)["printing"].run.broken == 0
    assert app.ran_in["numbers"] != app.ran_in["printing"]


# A process that runs a page in its kernel, says the kernel's process id, and runs a page that
# sleeps (or ends, as a build ends).
OWNER = """
import os, sys, time
from pagerun import engine, kernel

def page(code):
    block = {"type": "testcode", "code": code, "file": "p.rst", "line": 1, "options": {},
             "groups": ["default"], "skipif": None}
    return kernel.Request({"docname": "p", "blocks": [block]}, engine.Settings())

assert kernel.run_page(page("x = 1")).run.broken == 0
print(kernel._kernel.process.pid, flush=True)
if sys.argv[1] == "sleep":
    kernel.run_page(page("import time; time.sleep(60)"))
"""


def gone(pid: int, seconds: float = 20) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        # A zombie: ended, and waiting for init to reap it.
        status = Path(f"/proc/{pid}/stat")
        if status.exists() and status.read_text().split(") ")[-1].startswith("Z"):
            return True
        time.sleep(0.1)
    return False


def test_a_kernel_ends_with_the_process_that_started_it():
    owner = subprocess.run(
        [sys.executable, "-c", OWNER, "end"], capture_output=True, text=True, timeout=120
    )
    assert owner.returncode == 0, owner.stderr
    assert gone(int(owner.stdout.split()[0]))


def test_a_kernel_ends_when_its_process_is_killed_in_the_middle_of_a_page():
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER, "sleep"], stdout=subprocess.PIPE, text=True
    )
    assert owner.stdout is not None
    pid = int(owner.stdout.readline())
    time.sleep(1)  # in the page's minute of sleep
    owner.send_signal(signal.SIGKILL)
    owner.wait(timeout=60)
    owner.stdout.close()
    assert gone(pid)


def test_what_a_page_prints_to_stderr_reaches_the_builds_stderr(capsys):
    code = "import sys\n\nprint('to stderr', file=sys.stderr)\nraise ValueError('no')"

    answer = kernel.run_page(page(code, line=3))

    assert answer.run.broken == 1
    assert answer.run.reports[0].where == "p.rst:3"
    # A failing test's stderr is shown where the build shows its own.
    assert "to stderr" in capsys.readouterr().err


# A page that prints much, from a thread of its own too, and, below Python, what looks like
# the kernel's frames (a length, then a pickle) to the descriptors it shares with the build.
PRINTS = """
import os, pickle, struct, sys, threading

frame = pickle.dumps(("done", None))
print("x" * 100_000)
thread = threading.Thread(target=lambda: print("from a thread"))
thread.start()
thread.join()
os.write(1, struct.pack("!Q", len(frame)) + frame)
os.write(2, struct.pack("!Q", 2**40))
print(6 * 7)
"""


def test_the_kernels_pipes_survive_what_a_page_prints(capfd):
    # A kernel shares the descriptors its build had when it started it: one started by an
    # earlier test writes below Python where that test's capture was.
    kernel._stop()  # noqa: SLF001
    pid = kernel.ask("os", "getpid")
    block = page(PRINTS)
    block.page["blocks"].append(
        {
            "type": "testoutput",
            "code": "x" * 100_000 + "\nfrom a thread\n42",
            "file": "p.rst",
            "line": 20,
            "options": {},
            "groups": ["default"],
            "skipif": None,
        }
    )

    answer = kernel.run_page(block)

    assert answer.run.tries == 1
    assert answer.run.broken == 0, answer.run.reports
    assert answer.run.outcomes[0].got == "x" * 100_000 + "\nfrom a thread\n42\n"
    printed = capfd.readouterr()
    assert "done" in printed.out  # the frame written below Python went to the build's stdout
    # The same kernel runs the next page: nothing the page printed was taken for a frame.
    assert kernel.run_page(page("x = 1")).run.broken == 0
    assert kernel.ask("os", "getpid") == pid


def test_the_kernel_imports_the_standard_library_and_pagerun_alone():
    """The kernel's process starts without Sphinx, docutils or the project's library (what a
    page imports, its code imports there)."""
    code = "import sys\nprint(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    modules = "import pagerun.kernel\n" + code

    def top_level(source: str) -> set[str]:
        imported = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True)
        assert imported.returncode == 0, imported.stderr
        return set(imported.stdout.split())

    started = top_level(code)  # what the interpreter imports itself (site, .pth files)
    added = top_level(modules) - started
    assert "pagerun" in added
    assert added - set(sys.stdlib_module_names) == {"pagerun"}


def test_the_kernel_answers_a_question_in_the_process_where_pages_run(monkeypatch):
    """``ask``: a function called by name in the kernel, with the build's environment, its
    plain answer sent back."""
    ran = kernel.run_page(page("import os\n\nprint(os.getpid())"))
    monkeypatch.setenv("PAGERUN_ASKED", "here")

    assert kernel.ask("os", "getpid") == int(ran.run.outcomes[0].got) != os.getpid()
    assert kernel.ask("os", "getenv", "PAGERUN_ASKED") == "here"


def test_a_question_that_fails_says_why_and_the_kernel_answers_the_next():
    pid = kernel.ask("os", "getpid")
    with pytest.raises(kernel.AskFailed, match="JSONDecodeError"):
        kernel.ask("json", "loads", "{")
    with pytest.raises(kernel.AskFailed, match="pickle"):
        kernel.ask("threading", "Lock")  # not a plain value
    assert kernel.ask("os", "getpid") == pid


OLDER_PYTHONS = ["python3.9", "python3.10", "python3.11"]


def test_the_engine_and_the_kernel_import_on_an_older_python():
    """A tool may run exported pages with the engine and the kernel alone on Python 3.9 to
    3.11 (README): they parse and import there, with the standard library alone."""
    # Each interpreter of these names on PATH that starts (a version manager's shim may not).
    found = (
        path
        for name in OLDER_PYTHONS
        for directory in os.environ.get("PATH", "").split(os.pathsep)
        if (path := shutil.which(name, path=directory))
    )
    older = next((path for path in found if subprocess.run([path, "-c", ""]).returncode == 0), None)
    if older is None:
        pytest.skip(f"none of {', '.join(OLDER_PYTHONS)} is installed here")
    source = str(Path(engine.__file__).parents[1])
    modules = "import pagerun.engine, pagerun.kernel, pagerun.verdict, pagerun.blocks"
    result = subprocess.run(
        [older, "-I", "-c", f"import sys; sys.path.insert(0, {source!r}); {modules}"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
