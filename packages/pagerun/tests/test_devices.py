"""Kernels take turns at a device one process at a time may open (a TPU chip), and only there.

The device is a file of the test's own (``pagerun_exclusive_devices``), the lock file is in
the test's temporary directory (``TMPDIR``), and each build is a ``sphinx-build`` process of
its own, as the builds of two languages side by side are.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from pagerun import devices, kernel


@pytest.fixture
def place(tmp_path: Path, monkeypatch) -> Path:
    """A folder for the lock file (the temporary directory of this process and of the builds
    it starts) and for the times the pages record (``times/``)."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # this process looked already
    (tmp_path / "times").mkdir()
    monkeypatch.setenv("PAGERUN_TEST_TIMES", str(tmp_path / "times"))
    return tmp_path


def start_build(rootdir: Path, place: Path, name: str, pattern: str) -> subprocess.Popen[str]:
    """``sphinx-build -b doctest`` of a copy of the test root, its devices ``pattern``."""
    source = shutil.copytree(rootdir / "test-exclusive", place / name)
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-b",
            "doctest",
            "-q",
            "-D",
            f"pagerun_exclusive_devices={pattern}",
            str(source),
            str(source / "_build"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(build: subprocess.Popen[str]) -> str:
    """Its stderr, once it passed."""
    out, err = build.communicate(timeout=120)
    assert build.returncode == 0, out + err
    return err


def spans(place: Path) -> list[tuple[float, float]]:
    """When each kernel began and ended its page, in order."""
    times = place / "times"
    return sorted(
        (float(began.read_text()), float(began.with_suffix(".ended").read_text()))
        for began in times.glob("*.began")
    )


def overlap(place: Path) -> bool:
    (first, second) = spans(place)
    return second[0] < first[1]


def test_kernels_of_builds_side_by_side_take_turns_at_a_device_present(rootdir, place, monkeypatch):
    device = place / "chip0"
    device.touch()
    # The first page waits this long for the other's: a second kernel running at once would
    # begin meanwhile.
    monkeypatch.setenv("PAGERUN_TEST_WAIT", "3")
    builds = [start_build(rootdir, place, name, str(place / "chip[0-9]")) for name in "ab"]
    errors = [finish(build) for build in builds]

    assert not overlap(place), spans(place)
    waited = [err for err in errors if "pagerun: waiting for" in err]
    assert len(waited) == 1, errors
    assert f"waiting for {device}, which another build's kernel holds (process" in waited[0]


def test_without_such_a_device_the_kernels_run_side_by_side(rootdir, place, monkeypatch):
    # Long enough for the second build to start: without the lock, the pages meet.
    monkeypatch.setenv("PAGERUN_TEST_WAIT", "30")
    builds = [start_build(rootdir, place, name, str(place / "chip[0-9]")) for name in "ab"]
    errors = [finish(build) for build in builds]

    assert overlap(place), spans(place)
    assert "waiting" not in "".join(errors)
    assert not Path(devices.lock_path()).exists()  # nothing was locked


def test_a_page_whose_kernel_waits_for_the_device_does_not_time_out(rootdir, place, monkeypatch):
    device = place / "chip0"
    device.touch()
    monkeypatch.setenv("PAGERUN_TEST_WAIT", "0")
    monkeypatch.setenv(kernel.TIMEOUT, "2")
    held = devices.take([str(device)])  # another build's kernel, as it were
    assert held is not None
    build = start_build(rootdir, place, "a", str(device))
    time.sleep(5)  # past the time limit of the page its kernel waits to run
    freed = time.time()
    os.close(held)
    err = finish(build)

    ((began, _),) = spans(place)
    assert began >= freed
    assert f"holds (process {os.getpid()}): one process at a time may open it" in err


@pytest.fixture
def chip(place):
    """The patterns of a device of the test's own; the kernel running now (the last test's)
    is stopped first, and the test's once it is over."""
    kernel._stop()  # noqa: SLF001
    device = place / "chip0"
    device.touch()
    yield [str(device)]
    kernel._stop()  # noqa: SLF001


def test_a_kernel_holds_the_device_for_its_life_and_release_stops_it(chip):
    pid = kernel.ask("os", "getpid", exclusive=chip)
    assert devices.held()
    assert Path(devices.lock_path()).read_text() == f"{pid}\n"  # who holds it, for the waiting
    assert kernel.ask("os", "getpid") == pid  # the same kernel, holding it still

    kernel.release()

    assert not devices.held()
    assert kernel.ask("os", "getpid", exclusive=chip) != pid  # a new kernel, which took it again
    assert devices.held()


def test_release_leaves_a_kernel_that_holds_no_device_running(chip):
    pid = kernel.ask("os", "getpid", exclusive=[])
    kernel.release()
    assert kernel.ask("os", "getpid") == pid
    assert not Path(devices.lock_path()).exists()


def test_a_request_for_other_devices_gets_a_kernel_that_takes_turns_at_them(chip):
    """The devices are each request's (a build's setting), not the process's: a kernel that
    takes turns at none is replaced for a build whose setting names the chip, and back."""
    pid = kernel.ask("os", "getpid", exclusive=[])
    assert not devices.held()
    holding = kernel.ask("os", "getpid", exclusive=chip)
    assert holding != pid
    assert devices.held()
    assert kernel.ask("os", "getpid", exclusive=[]) not in (pid, holding)
    assert not devices.held()
