"""The lab's tests run the lab on the book: its test roots (the book's ``tests/roots``),
copies of it, its deploy build. The fixtures they share with the book's tests come from the
book's pytest plugin, :mod:`jaxbook.testing.fixtures`, never from the book's ``tests/``; they
run from the book's root (``make lab-test``), under its pytest settings: the lab is the
book's tooling, tested on the book, where pagerun's tests need nothing of it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from jaxbook.testing.builds import ROOT, JaxbookRunner, command_runner, copy_book

# make_app, built, deploy_site, older_python, the audit marker, the catalogs each test
# starts without: the book's tests use them too.
pytest_plugins = ["jaxbook.testing.fixtures"]


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """The book's test books, which the lab's tools run on (read, never imported)."""
    return ROOT / "tests" / "roots"


@pytest.fixture(scope="session")
def jaxbook_lab() -> JaxbookRunner:
    """Run ``jaxbook-lab ARGS...`` (the lab's command) in a new process, in the project at
    ``cwd`` (default: the book's checkout)."""
    return command_runner("jaxbook_lab")


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """A copy of the book (sources, catalogs) to break on purpose."""
    return copy_book(tmp_path)


@pytest.fixture(scope="session")
def imported_by():
    """Run a fresh Python with ``-X importtime``; the top-level packages it imported."""

    def run(*command: str, cwd: Path | None = None) -> tuple[subprocess.CompletedProcess, set]:
        result = subprocess.run(
            [sys.executable, "-X", "importtime", *command],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=cwd,
        )
        names = re.findall(
            r"^import time:\s+\d+ \|\s+\d+ \|\s+([\w.]+)$", result.stderr, re.MULTILINE
        )
        assert names, result.stderr  # -X importtime spoke: an empty set means nothing heavy
        return result, {name.split(".")[0] for name in names}

    return run
