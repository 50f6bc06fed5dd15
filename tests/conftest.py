from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from jaxbook.doctest.environment import doctest_environment
from jaxbook.site.build import html_command
from jaxbook.testing.builds import (
    LANGUAGES,
    ROOT,
    RUNS,
    JaxbookRunner,
    build_under_test,
    command_runner,
    copy_book,
    shared_build,
)
from pagerun.engine import RUN_LOG

# The fixtures the lab's tests use too (packages/jaxbook-lab/tests): make_app, built,
# deploy_site, older_python, the audit marker, and the catalogs each test starts without.
pytest_plugins = ["jaxbook.testing.fixtures"]

# The modules that take longest, longest first (pytest --durations=0 times them).
# `make pytest`'s --dist loadscope --no-loadscope-reorder hands out modules in collection
# order: one of these handed out last kept one worker busy long after the other had
# finished. Collected first, the short modules fill in around them.
LONGEST_FIRST = (
    "tests/book/test_new_chapter.py",
    "tests/site/test_parallel_view.py",
    "tests/book/test_printed_outputs.py",
    "tests/site/test_notebooks.py",
    "tests/site/test_discovery.py",
    "tests/site/test_browser.py",
    "tests/book/test_ch01_exercises.py",
    "tests/doctest/test_faults.py",
)


def pytest_configure(config: pytest.Config) -> None:
    # The tests read the checkout through the package installed from it (make's .venv): an
    # environment installed from another checkout would have them test that one's code.
    here = Path(__file__).resolve().parents[1]
    if here != ROOT.resolve():
        raise pytest.UsageError(
            f"{here}: the environment's jaxbook is installed from {ROOT}, another checkout; "
            "run the tests with this checkout's environment (make pytest creates it)"
        )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if missing := [path for path in LONGEST_FIRST if not (ROOT / path).is_file()]:
        raise pytest.UsageError(f"tests/conftest.py: LONGEST_FIRST names no test module {missing}")

    def rank(item: pytest.Item) -> int:
        path = Path(str(item.path)).relative_to(ROOT).as_posix()
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: within a module, and among the rest, the order is kept


@pytest.fixture(scope="session")
def rootdir() -> Path:
    return Path(__file__).parent / "roots"


@pytest.fixture(scope="session")
def book_copier() -> Callable[[Path], Path]:
    """``copy_book``: a copy of the book's sources, catalogs and build files, for fixtures
    of a wider scope than a test's (the lab's tests have it as ``project_copy``)."""
    return copy_book


@pytest.fixture(scope="session")
def jaxbook() -> JaxbookRunner:
    """Run ``jaxbook ARGS...`` in a new process, in the project at ``cwd`` (default: this one)."""
    return command_runner("jaxbook")


def build_html(project: Path, language: str, out: Path) -> Path:
    """Build one language of ``project`` the way `make html` does, in its own process: in the
    doctest environment, into ``out/doctrees/<language>``, which the editions and the
    doctests built beside it share. Each page run is logged in ``out/runs.log``."""
    command = html_command(
        project, language, out / language, out / "doctrees" / language, "-q", "--fail-on-warning"
    )
    environment = {**doctest_environment(os.environ, project, language), RUN_LOG: str(out / RUNS)}
    result = subprocess.run(command, capture_output=True, text=True, timeout=900, env=environment)
    assert result.returncode == 0, result.stderr
    return out / language


def web_index_entries(html: str) -> dict[str, list[str]]:
    """A web index page (genindex.html): each headword and its subitems' names, in order."""
    from bs4 import BeautifulSoup

    entries = {}
    for item in BeautifulSoup(html, "html.parser").select("table.indextable > tr > td > ul > li"):
        sub = item.find("ul")
        subitems = [li.get_text(" ", strip=True) for li in sub.find_all("li")] if sub else []
        if sub:
            sub.extract()
        entries[next(text.strip() for text in item.strings if text.strip())] = subitems
    return entries


@pytest.fixture(scope="session")
def index_entries() -> Callable[[str], dict[str, list[str]]]:
    """``web_index_entries``, for the tests of the site's index and of the extensions'."""
    return web_index_entries


@pytest.fixture(scope="session")
def html_builder() -> Callable[[Path, str, Path], Path]:
    return build_html


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """Every language of the book, built once for the whole test session (or by `make test`)."""
    builddir = build_under_test()
    if builddir is not None:
        return builddir / "html"

    def build(root: Path) -> None:
        for language in LANGUAGES:
            build_html(ROOT, language, root)

    return shared_build(tmp_path_factory, "site", build)


@pytest.fixture(scope="session")
def built_guides(built_site, tmp_path_factory) -> Path:
    """The guides' site of every language (``<language>/``), built as `make guides` builds
    it beside ``built_site`` (``../../html/<language>`` from each language's guides), or the
    one `make test` built."""
    builddir = build_under_test()
    if builddir is not None:
        return builddir / "guides"

    def build(root: Path) -> None:
        # The book's build as `make html` lays it out: its site and its doctrees.
        (root / "html").symlink_to(built_site, target_is_directory=True)
        for language in LANGUAGES:
            doctrees = root / "doctrees" / language
            doctrees.parent.mkdir(exist_ok=True)
            doctrees.symlink_to(built_site / "doctrees" / language, target_is_directory=True)
        command = [
            sys.executable,
            "-m",
            "jaxbook",
            "guides",
            "--builddir",
            str(root),
            "--sphinxopts=-q",
        ]
        result = subprocess.run(
            [*command, *LANGUAGES], cwd=ROOT, capture_output=True, text=True, timeout=900
        )
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-5000:]

    return shared_build(tmp_path_factory, "guides", build) / "guides"


@pytest.fixture(scope="session")
def built_book(built_site) -> Path:
    """The build directory of ``built_site``: its doctrees (``doctrees/<language>``), and the
    log of each run of a page (``runs.log``), which the editions and the doctests share."""
    tested = build_under_test()
    return tested if tested is not None else built_site


@pytest.fixture(scope="session")
def doctest_record(built_book, tmp_path_factory) -> tuple[Path, dict[str, list[dict]]]:
    """A build directory of the book and what `make doctest` recorded there for every
    example, by language: `make test`'s build and the record of the run it made just before,
    or a run made here, on the session's site (which runs nothing again)."""
    path = built_book / "doctest" / "record.json"
    if build_under_test() is None or not path.is_file():
        command = [sys.executable, "-m", "jaxbook", "doctest", "--builddir", str(built_book)]
        result = subprocess.run(
            [*command, *LANGUAGES],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=900,
            env={**os.environ, RUN_LOG: str(built_book / RUNS)},
        )
        assert result.returncode == 0, result.stdout[-5000:]
    return built_book, json.loads(path.read_text(encoding="utf-8"))["blocks"]


@pytest.fixture(scope="session")
def built_doctrees(built_book) -> Path:
    """The doctrees of ``built_site``, one directory per language."""
    return built_book / "doctrees"


@pytest.fixture(scope="session")
def built_editions(built_site, tmp_path_factory) -> Path:
    """A build directory that holds the PDF and EPUB of every language beside the site, as
    `make html pdf epub` leaves it: its site (``<builddir>/html``) holds the books its
    pages link. Outside `make test`, a copy of ``built_site`` and its doctrees, which
    stay as they are: the books read, and run, nothing again."""
    tested = build_under_test()
    if tested is not None:
        return tested

    def build(builddir: Path) -> None:
        # The site, its landing page included, and apart from it the doctrees it read.
        shutil.copytree(
            built_site,
            builddir / "html",
            ignore=lambda folder, names: {"doctrees"} if Path(folder) == built_site else set(),
        )
        shutil.copytree(built_site / "doctrees", builddir / "doctrees")
        result = subprocess.run(
            [sys.executable, "-m", "jaxbook", "editions", "--builddir", builddir, *LANGUAGES],
            capture_output=True,
            text=True,
            timeout=900,
            cwd=ROOT,
            env={**os.environ, RUN_LOG: str(built_site / RUNS)},
        )
        assert result.returncode == 0, result.stderr[-5000:]

    return shared_build(tmp_path_factory, "editions", build)
