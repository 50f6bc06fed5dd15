"""A fault in the middle of a doctest run never leaves a stale pass, a crash or a hang:
after it, the next `make doctest` gives the verdict that `FORCE=1` gives."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

# A cell that sleeps as long as TINY_BOOK_SLEEP says, so that a fault lands while pages run.
SLOW = """
.. testcode::

   import os, time

   time.sleep(float(os.environ.get("TINY_BOOK_SLEEP", "0")))
"""


def start(root: Path, **environment: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "jaxbook", "doctest", "--force", "zh_CN", "en"],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **environment},
    )


def children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(child) for child in (task / "children").read_text().split()}
    return found


def alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if Path(f"/proc/{pid}").exists()}


def slowed(book: Path) -> Path:
    page = book / "docs" / "printing.rst"
    page.write_text(page.read_text(encoding="utf-8") + SLOW, encoding="utf-8")
    return book


def test_a_run_killed_in_the_middle_leaves_no_process_and_a_correct_verdict(book, doctest):
    run = start(slowed(book), TINY_BOOK_SLEEP="60")
    deadline = time.monotonic() + 120
    pids: set[int] = set()
    # Killed once both languages' processes have read their pages and sleep in a cell.
    while run.poll() is None and time.monotonic() < deadline:
        pids = children(run.pid)
        read = [book / "_build" / "doctrees" / language for language in ("zh_CN", "en")]
        if len(pids) >= 2 and all(path.exists() for path in read):
            break
        time.sleep(0.1)
    try:
        assert len(pids) >= 2, f"no language process seen (exit status {run.poll()})"
        time.sleep(1)
    finally:
        run.send_signal(signal.SIGKILL)
    assert run.wait(timeout=60) == -signal.SIGKILL
    run.stdout.close()
    run.stderr.close()
    # Its children stop by themselves: none is left holding JAX and memory.
    deadline = time.monotonic() + 30
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert alive(pids) == set()
    after, forced = doctest(book), doctest(book, force=True)
    assert after.ok, after.output
    assert forced.ok, forced.output
    assert after.last == forced.last == "12 passed, 0 failed"


def test_two_runs_at_once_on_one_build_directory_both_give_the_verdict(book):
    runs = [start(slowed(book) if i == 0 else book, TINY_BOOK_SLEEP="1") for i in range(2)]
    outputs = [run.communicate(timeout=300)[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    assert all(out.strip().splitlines()[-1] == "12 passed, 0 failed" for out in outputs), outputs
    waited = "another build is reading into it; waiting for it"
    assert any(waited in out for out in outputs)
