"""What the site's tests share: the built site served over HTTP, as a reader's browser meets it."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def serve() -> Iterator[Callable[..., str]]:
    """``serve(directory, probe="/")``: Python's ``http.server`` on a free port; its base URL.

    It answers ``probe`` before the test goes on, and stops after the module.
    """
    processes: list[subprocess.Popen] = []

    def start(directory: Path, probe: str = "/") -> str:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"]
        processes.append(
            subprocess.Popen(
                [*command, "--directory", str(directory)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        base = f"http://127.0.0.1:{port}"
        for _ in range(50):
            try:
                urllib.request.urlopen(base + probe, timeout=1)
                return base
            except OSError:
                time.sleep(0.1)
        pytest.fail(f"http.server for {directory} did not answer {base + probe} within 5 s")

    yield start
    for process in processes:
        process.terminate()
        process.wait(timeout=10)
