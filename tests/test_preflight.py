"""`make test` names everything the system lacks, at once and before any long step."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jaxbook import preflight

ROOT = Path(__file__).resolve().parent.parent
QUERIES = ["fc-list", "kpsewhich"]


def path_without(tmp_path: Path, left_out: str) -> str:
    """A PATH holding every command the checks use, and what make and Python need, but one."""
    directory = tmp_path / "bin"
    directory.mkdir()
    commands = {need.name for need in preflight.NEEDS if need.kind == "command"}
    # What make and the interpreter run, and the shell of make's recipes.
    for name in sorted(commands | set(QUERIES) | {"sh", "env", "uname"}):
        if name != left_out and (found := shutil.which(name)):
            (directory / name).symlink_to(found)
    (directory / "python3").symlink_to(sys.executable)
    return str(directory)


@pytest.mark.parametrize("left_out", ["latexmk", "chromedriver", "msgmerge"])
def test_a_missing_tool_is_named_with_its_package(tmp_path, left_out):
    need = next(need for need in preflight.NEEDS if need.name == left_out)
    result = subprocess.run(
        [sys.executable, str(ROOT / "src/jaxbook/preflight.py"), "test"],
        env={**os.environ, "PATH": path_without(tmp_path, left_out)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert lines[0] == "make test needs what this system lacks:"
    assert lines[1:-1] == [f"  - {need.what}: Debian/Ubuntu package {need.package}"]
    assert lines[-1].endswith(f"apt-get install -y --no-install-recommends {need.package}")


def test_make_test_stops_at_once_when_a_tool_is_missing(tmp_path):
    build = tmp_path / "build"
    start = time.monotonic()
    result = subprocess.run(
        ["make", "test", "INSTALL=0", f"BUILDDIR={build}", f"PYTHON={sys.executable}"],
        cwd=ROOT,
        env={**os.environ, "PATH": path_without(tmp_path, "xelatex")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert time.monotonic() - start < 60
    assert "  - xelatex (PDF): Debian/Ubuntu package texlive-xetex" in result.stderr
    assert not build.exists(), "make test started building before it checked the system"


def test_every_need_belongs_to_a_target_and_test_needs_them_all():
    assert all(need.targets for need in preflight.NEEDS)
    assert preflight.needs_of(["test"]) == preflight.NEEDS
