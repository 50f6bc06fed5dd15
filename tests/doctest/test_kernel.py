"""Pages run outside the build's process, in its kernel: a page that crashes it or hangs fails
at its line, the build goes on, and no kernel outlives the process that started it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pagerun import engine, kernel

CRASHES = {
    "signal": "import os, signal\n\nos.kill(os.getpid(), signal.SIGSEGV)",
    "null pointer": "import ctypes\n\nctypes.string_at(0)",
}


def cell(code: str) -> str:
    return "\n```{testcode}\n" + code + "\n```\n"


def append(path: Path, text: str) -> int:
    """Append ``text`` to the page; the line its first added line lands on."""
    before = path.read_text(encoding="utf-8")
    path.write_text(before + text, encoding="utf-8")
    return before.count("\n") + 2


def runs(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("how", sorted(CRASHES))
def test_a_page_that_crashes_its_process_fails_at_its_line_and_the_next_page_runs(
    book, doctest, monkeypatch, tmp_path, how
):
    line = append(book / "docs/fence.md", cell(CRASHES[how]))
    log = tmp_path / "runs.log"
    monkeypatch.setenv(engine.RUN_LOG, str(log))

    verdict = doctest(book, "zh_CN")

    assert not verdict.ok
    said = "the page's code stopped the process running it: signal 11"
    assert f"docs/fence.md:{line}: {said} [zh_CN]" in verdict.output
    # The page after it ran, and passed, in a kernel of its own.
    assert verdict.last == "3 passed, 1 failed"
    pid = {entry["page"]: entry["pid"] for entry in runs(log)}
    assert set(pid) == {"fence", "printing"}
    assert pid["fence"] != pid["printing"]


def test_a_page_that_does_not_finish_is_stopped_at_its_time_limit(book, doctest, monkeypatch):
    line = append(book / "docs/fence.md", cell("import time\n\ntime.sleep(60)"))
    monkeypatch.setenv(kernel.TIMEOUT, "2")
    started = time.monotonic()

    verdict = doctest(book, "zh_CN")

    assert time.monotonic() - started < 30  # well before the cell's minute is up
    assert not verdict.ok
    said = "the page's code did not finish within 2 s"
    assert f"docs/fence.md:{line}: {said} [zh_CN]" in verdict.output
    assert verdict.last == "3 passed, 1 failed"


# A build of the tiny book, one of its pages importing JAX, in a process of its own: whether
# the build's process imported JAX, and the verdict.
BUILD = """
import sys
from pathlib import Path

from jaxbook.doctest import runner

root = Path(sys.argv[1])
ok = runner.check(runner.Spec(root, root / "_build", force=True), ["zh_CN"])
print("jax" in sys.modules, ok)
"""


def test_the_build_process_never_imports_jax(book):
    code = "import jax\n\nprint(jax.numpy.add(1, 2))\n```\n\n```{testoutput}\n3"
    append(book / "docs/fence.md", cell(code))

    built = subprocess.run(
        [sys.executable, "-c", BUILD, str(book)], capture_output=True, text=True, timeout=300
    )

    assert built.returncode == 0, built.stderr
    *_, verdict, last = built.stdout.splitlines()
    assert verdict == "6 passed, 0 failed"  # the cell that imports JAX ran, and passed
    assert last == "False True"


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
    block = {
        "type": "testcode",
        "code": "import sys\n\nprint('to stderr', file=sys.stderr)\nraise ValueError('no')",
        "file": "p.rst",
        "line": 3,
        "options": {},
        "groups": ["default"],
        "skipif": None,
    }
    request = kernel.Request({"docname": "p", "blocks": [block]}, engine.Settings())

    answer = kernel.run_page(request)

    assert answer.run.broken == 1
    assert answer.run.reports[0].where == "p.rst:3"
    # A failing test's stderr is shown (jaxbook.sphinxext.snippets): where the build shows it.
    assert "to stderr" in capsys.readouterr().err


def test_the_kernel_imports_no_sphinx_and_nothing_of_the_project():
    """The generic part another book could take: its process starts without the docs
    toolchain (import-linter keeps it off jaxbook's own Sphinx modules)."""
    code = (
        "import sys\nimport pagerun.kernel\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'sphinx', 'docutils', 'jax'}),"
        " 'jaxbook.project' in sys.modules)"
    )
    imported = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert imported.stdout.split("\n")[0] == "[] False", imported.stderr


def test_the_kernel_answers_a_question_in_the_process_where_pages_run(monkeypatch):
    """``ask``: a function called by name in the kernel, with the build's environment, its
    plain answer sent back; what the build never imports (JAX) is asked there."""
    block = {
        "type": "testcode",
        "code": "import os\n\nprint(os.getpid())",
        "file": "p.rst",
        "line": 1,
        "options": {},
        "groups": ["default"],
        "skipif": None,
    }
    ran = kernel.run_page(kernel.Request({"docname": "p", "blocks": [block]}, engine.Settings()))
    monkeypatch.setenv("JAXBOOK_ASKED", "here")

    assert kernel.ask("os", "getpid") == int(ran.run.outcomes[0].got) != os.getpid()
    assert kernel.ask("os", "getenv", "JAXBOOK_ASKED") == "here"
    assert kernel.ask("jaxbook.doctest.jax_names", "name_problem", "jax.jit") is None


def test_a_question_that_fails_says_why_and_the_kernel_answers_the_next():
    pid = kernel.ask("os", "getpid")
    with pytest.raises(kernel.AskFailed, match="JSONDecodeError"):
        kernel.ask("json", "loads", "{")
    with pytest.raises(kernel.AskFailed, match="pickle"):
        kernel.ask("threading", "Lock")  # not a plain value
    assert kernel.ask("os", "getpid") == pid
