"""The book's checkout, copies and builds, which the fixtures of the book's tests and of the
lab's (:mod:`jaxbook.testing.fixtures`, and each suite's ``conftest.py``) start from: the
checkout this package is installed from (``ROOT``), its copies, the directory that a build
shared by the session's workers fills once, and the build `make test` names for the tests
to check (``JAXBOOK_TESTED_BUILD``) instead of building their own.

Apart from the plugin, so that a ``conftest.py`` imports these before pytest loads the
plugin (``pytest_plugins``), which pytest can then still rewrite the asserts of.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from jaxbook.files import exclusive
from jaxbook.project import BOOK_FILES, DISTRIBUTION, languages

# The book's checkout, which the package is installed from (editable).
ROOT = DISTRIBUTION
# The book's languages, the source first (locale/languages.csv): the builds the site's
# tests read are of every one.
LANGUAGES = list(languages(ROOT))


def shared_build(tmp_path_factory, name: str, build: Callable[[Path], object]) -> Path:
    """A directory that ``build`` fills once for the whole test session, whichever worker asks.

    Under xdist each worker has its own temporary directory under one shared parent; the
    first worker to ask builds there, holding a lock, and the others wait and take it.
    """
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    directory = shared / name
    done = shared / f"{name}.done"
    with exclusive(shared / f"{name}.lock", lambda: None):
        if not done.exists():
            shutil.rmtree(directory, ignore_errors=True)
            directory.mkdir()
            build(directory)
            done.touch()
    return directory


PROJECT_FILES = [*BOOK_FILES, "Makefile"]


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


JaxbookRunner = Callable[..., subprocess.CompletedProcess[str]]


def command_runner(package: str) -> JaxbookRunner:
    """Run ``python -m <package> ARGS...`` in a new process, in the project at ``cwd``
    (default: the book's checkout)."""

    def run(*args: str | Path, cwd: Path = ROOT, timeout: int = 600):
        return subprocess.run(
            [sys.executable, "-m", package, *map(str, args)],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=cwd,
        )

    return run


# `make test` builds the site and the editions just before it runs pytest, and names its build
# directory here, so that the site's tests check what it built instead of building it again.
TESTED_BUILD = "JAXBOOK_TESTED_BUILD"
# Where the builds log each run of a page (pagerun.engine), as `make test` has them.
RUNS = "runs.log"
DEPLOY_URLS = {
    "JAXBOOK_SITE_URL": "https://example.org/jaxbook",
    "JAXBOOK_REPO_URL": "https://github.com/example/jaxbook",
}


def build_under_test() -> Path | None:
    """The build directory `make test` names, if it holds every language's site and books."""
    value = os.environ.get(TESTED_BUILD)
    if not value:
        return None
    builddir = Path(value)
    wanted: list[Path | None] = [builddir / "html" / lang / "index.html" for lang in LANGUAGES]
    wanted += [builddir / "guides" / language / "contributing.html" for language in LANGUAGES]
    wanted += [
        path
        for fmt in ("pdf", "epub")
        for language in LANGUAGES
        for path in [next((builddir / fmt).glob(f"*-{language}.{fmt}"), None)]
    ]
    missing = [str(path) for path in wanted if path is None or not path.is_file()]
    if missing:
        pytest.fail(f"{TESTED_BUILD}={value} holds no built site or book: {missing}")
    # A deploy's URLs change what the pages hold; the tests expect a site built without them.
    if any(os.environ.get(name) for name in DEPLOY_URLS):
        pytest.fail(f"{TESTED_BUILD} is set, but so is one of {', '.join(DEPLOY_URLS)}")
    # `make html` builds incrementally, and Sphinx deletes no output of its own.
    for language in LANGUAGES:
        site = builddir / "html" / language
        if (site / "sitemap.xml").exists():
            pytest.fail(f"{site}: built for a deploy (it has a sitemap.xml); run make clean")
        guides = builddir / "guides" / language
        for built, sources in ((site, "docs"), (guides, "guides")):
            if orphans := pages_without_source(built, sources):
                pytest.fail(f"{built}: pages of no source any more, {orphans[:3]}; run make clean")
    return builddir


# The pages Sphinx writes of its own, not from a source file.
GENERATED_PAGES = {"genindex.html", "search.html", "404.html", "py-modindex.html"}


def pages_without_source(site: Path, sources: str = "docs") -> list[str]:
    """The pages of a built site that no source (reST or MyST) of ``sources`` writes any more:
    ``docs/`` for the book's site, ``guides/`` for the guides'."""
    docs = ROOT / sources
    orphans = []
    for page in sorted(site.rglob("*.html")):
        relative = page.relative_to(site)
        if relative.parts[0].startswith("_") or relative.as_posix() in GENERATED_PAGES:
            continue
        stem = docs / relative.with_suffix("")
        if not any(stem.with_suffix(suffix).is_file() for suffix in (".rst", ".md")):
            orphans.append(relative.as_posix())
    return orphans
