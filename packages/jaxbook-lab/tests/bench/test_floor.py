"""The bench's floor: a page's code run alone, after its reading; a failing page has none."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path


def floor(book: Path, docname: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jaxbook_lab.bench.floor", docname],
        cwd=book,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_page_that_fails_has_no_floor(rootdir: Path, tmp_path: Path) -> None:
    book = Path(shutil.copytree(rootdir / "test-book", tmp_path / "book"))
    passing = floor(book, "printing")
    assert passing.returncode == 0, passing.stderr
    assert float(passing.stdout.strip().splitlines()[-1]) > 0

    page = book / "docs" / "printing.rst"
    page.write_text(
        page.read_text(encoding="utf-8").replace('print("你好")', "print(undefined)"), "utf-8"
    )
    failing = floor(book, "printing")

    assert failing.returncode == 1
    assert "printing: the page fails, so it has no floor" in failing.stderr
    assert "NameError" in failing.stderr
