from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
sys.path.insert(0, str(ROOT / "tools"))


@pytest.fixture(scope="session")
def rootdir() -> Path:
    return Path(__file__).parent / "roots"


PROJECT_FILES = ["conf.py", "docutils.conf", "docs", "snippets", "tools", "locale"]


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """A copy of the book (sources, catalogs, tools) to break on purpose."""
    for name in PROJECT_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(
                source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo")
            )
        else:
            shutil.copy2(source, tmp_path / name)
    return tmp_path


def build_html(project: Path, language: str, out: Path) -> Path:
    """Build one language of ``project`` the way `make html` does, in its own process."""
    from bench import html_command

    result = subprocess.run(
        [*html_command(project, language, out, "--fail-on-warning")],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(project / "docs" / "_ext")},
    )
    assert result.returncode == 0, result.stderr
    return out / language


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """Both languages of the book, built once for the whole test session."""
    root = tmp_path_factory.mktemp("site")
    for language in ["zh_CN", "en"]:
        build_html(ROOT, language, root)
    return root
