from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from jaxbook.site.build import html_command

ROOT = Path(__file__).resolve().parent.parent
# The site's tests share the session's built site (and its editions and server): one worker
# builds it once for all of them.
SHARED_SITE = ROOT / "tests" / "site"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """With ``pytest -n N --dist loadgroup`` (``make pytest``), a module's tests run in one
    worker, so that a fixture of module scope is made once, and so do all the site's."""
    for item in items:
        path = Path(item.path)
        group = "site" if path.is_relative_to(SHARED_SITE) else path.relative_to(ROOT).as_posix()
        item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(scope="session")
def rootdir() -> Path:
    return Path(__file__).parent / "roots"


PROJECT_FILES = ["conf.py", "docutils.conf", "docs", "snippets", "locale", "Makefile", "uv.lock"]


def copy_book(destination: Path) -> Path:
    """Copy the book's sources, catalogs and build files (no compiled catalogs) into a directory."""
    for name in PROJECT_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(
                source, destination / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo")
            )
        else:
            shutil.copy2(source, destination / name)
    return destination


@pytest.fixture(scope="session")
def book_copier() -> Callable[[Path], Path]:
    """``copy_book``, for fixtures of a wider scope than ``project_copy``."""
    return copy_book


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """A copy of the book (sources, catalogs) to break on purpose."""
    return copy_book(tmp_path)


JaxbookRunner = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="session")
def jaxbook() -> JaxbookRunner:
    """Run ``jaxbook ARGS...`` in a new process, in the project at ``cwd`` (default: this one)."""

    def run(*args: str | Path, cwd: Path = ROOT, timeout: int = 600):
        return subprocess.run(
            [sys.executable, "-m", "jaxbook", *map(str, args)],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=cwd,
        )

    return run


def build_html(project: Path, language: str, out: Path) -> Path:
    """Build one language of ``project`` the way `make html` does, in its own process."""
    command = html_command(
        project, language, out / language, out / "doctrees" / language, "-q", "--fail-on-warning"
    )
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return out / language


@pytest.fixture(scope="session")
def html_builder() -> Callable[[Path, str, Path], Path]:
    return build_html


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """Both languages of the book, built once for the whole test session."""
    root = tmp_path_factory.mktemp("site")
    for language in ["zh_CN", "en"]:
        build_html(ROOT, language, root)
    return root


DEPLOY_URLS = {
    "JAXBOOK_SITE_URL": "https://example.org/jaxbook",
    "JAXBOOK_REPO_URL": "https://github.com/example/jaxbook",
}


@pytest.fixture(scope="session")
def deploy_site(tmp_path_factory) -> dict[str, object]:
    """Both languages built as they are deployed: site and repository URLs set.

    ``site`` is the output root, ``logs`` each language's build output, ``url``
    and ``repo`` the URLs it was built with.
    """
    out = tmp_path_factory.mktemp("deploy")
    logs = {}
    for language in ["zh_CN", "en"]:
        command = html_command(
            ROOT, language, out / language, out / "doctrees" / language, "--fail-on-warning"
        )
        result = subprocess.run(
            command, capture_output=True, text=True, timeout=600, env={**os.environ, **DEPLOY_URLS}
        )
        assert result.returncode == 0, result.stderr[-5000:]
        logs[language] = result.stdout + result.stderr
    return {
        "site": out,
        "logs": logs,
        "url": DEPLOY_URLS["JAXBOOK_SITE_URL"],
        "repo": DEPLOY_URLS["JAXBOOK_REPO_URL"],
    }


@pytest.fixture(scope="session")
def built_editions(built_site, jaxbook) -> Path:
    """The PDF and EPUB of both languages, also copied into ``built_site`` as `make` does."""
    builddir = built_site.parent / f"{built_site.name}-editions"
    result = jaxbook("editions", "--builddir", builddir, "--site", built_site, "zh_CN", "en")
    assert result.returncode == 0, result.stderr[-5000:]
    return builddir


@dataclass
class Built:
    """A Sphinx test app after its build: its pages, its warnings, its doctest summary."""

    app: object

    def page(self, name: str = "index") -> str:
        return (self.app.outdir / f"{name}.html").read_text(encoding="utf-8")

    @property
    def warnings(self) -> str:
        return self.app.warning.getvalue()

    @property
    def doctest_output(self) -> str:
        return (self.app.outdir / "output.txt").read_text(encoding="utf-8")

    def doctest_counts(self) -> tuple[int, int]:
        """(tests, failures) from the doctest builder's summary."""
        output = self.doctest_output
        tests = re.search(r"^\s*(\d+) tests?$", output, re.MULTILINE)
        failures = re.search(r"^\s*(\d+) failures? in tests$", output, re.MULTILINE)
        assert tests, output
        assert failures, output
        return int(tests[1]), int(failures[1])


@pytest.fixture
def built(app) -> Built:
    """The ``app`` of the test's ``@pytest.mark.sphinx(...)`` marker, built."""
    app.build()
    return Built(app)


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
