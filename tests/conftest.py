from __future__ import annotations

import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp

from jaxbook.doctest.environment import doctest_environment
from jaxbook.files import exclusive
from jaxbook.project import BOOK_FILES, languages
from jaxbook.site.build import html_command
from jaxbook.sphinxapp import forget_catalogs
from pagerun.engine import RUN_LOG

ROOT = Path(__file__).resolve().parent.parent
# `make doctest` leaves each language's process alive to answer the next run
# (jaxbook.doctest.warm): not from the tests, which start many, in directories that go away.
# Its own tests turn it on where they test it.
os.environ["JAXBOOK_DOCTEST_WARM"] = "0"
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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if missing := [path for path in LONGEST_FIRST if not (ROOT / path).is_file()]:
        raise pytest.UsageError(f"tests/conftest.py: LONGEST_FIRST names no test module {missing}")

    def rank(item: pytest.Item) -> int:
        path = Path(str(item.path)).relative_to(ROOT).as_posix()
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: within a module, and among the rest, the order is kept


def pytest_configure(config: pytest.Config) -> None:
    # Some tests run JAX in the test process, whose threads a forked child would inherit
    # locked (JAX warns on every fork). Tools called in-process that start a pool
    # (sphinx-intl's update) get Python 3.14's default instead: a fork server.
    multiprocessing.set_start_method("forkserver", force=True)
    config.addinivalue_line(
        "markers",
        "audit: an audit of every page that takes a minute or more (Lighthouse, axe at two "
        "widths); `make lighthouse` (CI's Lighthouse job) runs these after Lighthouse has "
        "audited every page, `make pytest` leaves them to it",
    )


@pytest.fixture(scope="session")
def rootdir() -> Path:
    return Path(__file__).parent / "roots"


# Sphinx 9's Chinese search loads jieba's own dictionary again, as a user dictionary, when
# html_search_options names no "dict" (about 3 s a build, sphinx/search/zh.py), although
# jieba loads it on first use; an empty "dict" loads none. The option is read by the
# Chinese search alone, and tests build English roots in Chinese, so every build gets it.
NO_USER_DICTIONARY = {"html_search_options": {"dict": ""}}


def sets_search_options(srcdir: Path) -> bool:
    conf = Path(srcdir, "conf.py")
    text = conf.read_text(encoding="utf-8") if conf.is_file() else ""
    return re.search(r"^html_search_options\s*=", text, re.MULTILINE) is not None


@pytest.fixture
def make_app(make_app: Callable[..., SphinxTestApp]) -> Callable[..., SphinxTestApp]:
    """Sphinx's ``make_app`` (and so its ``app``), whose builds load no jieba user dictionary
    unless the test's ``confoverrides`` or the root's ``conf.py`` set ``html_search_options``.
    A root with the glossary's dictionary (``jaxbook.sphinxext.search_terms``) sets it, as the
    book's ``conf.py`` does: an empty ``dict`` would be a dictionary of its own, warned of."""

    def make(*args, **kwargs) -> SphinxTestApp:
        overrides = kwargs.get("confoverrides") or {}
        srcdir = kwargs.get("srcdir", args[1] if len(args) > 1 else None)
        if srcdir is None or "html_search_options" in overrides or sets_search_options(srcdir):
            return make_app(*args, **kwargs)
        app = make_app(*args, **{**kwargs, "confoverrides": {**NO_USER_DICTIONARY, **overrides}})
        if "jaxbook.sphinxext.search_terms" in app.extensions:
            pytest.fail(
                f"{srcdir}: loads jaxbook.sphinxext.search_terms, so its conf.py sets "
                "html_search_options (as the book's: html_search_options = {})",
                pytrace=False,
            )
        return app

    return make


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


@pytest.fixture(scope="session")
def book_copier() -> Callable[[Path], Path]:
    """``copy_book``, for fixtures of a wider scope than ``project_copy``."""
    return copy_book


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """A copy of the book (sources, catalogs) to break on purpose."""
    return copy_book(tmp_path)


JaxbookRunner = Callable[..., subprocess.CompletedProcess[str]]


def command_runner(package: str) -> JaxbookRunner:
    def run(*args: str | Path, cwd: Path = ROOT, timeout: int = 600):
        return subprocess.run(
            [sys.executable, "-m", package, *map(str, args)],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=cwd,
        )

    return run


@pytest.fixture(scope="session")
def jaxbook() -> JaxbookRunner:
    """Run ``jaxbook ARGS...`` in a new process, in the project at ``cwd`` (default: this one)."""
    return command_runner("jaxbook")


@pytest.fixture(scope="session")
def jaxbook_lab() -> JaxbookRunner:
    """Run ``jaxbook-lab ARGS...`` (the lab's command) as ``jaxbook`` runs the book's."""
    return command_runner("jaxbook_lab")


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


# `make test` builds the site and the editions just before it runs pytest, and names its build
# directory here, so that the site's tests check what it built instead of building it again.
TESTED_BUILD = "JAXBOOK_TESTED_BUILD"
# Where the builds log each run of a page (pagerun.engine), as `make test` has them.
RUNS = "runs.log"


def build_under_test() -> Path | None:
    """The build directory `make test` names, if it holds every language's site and books."""
    value = os.environ.get(TESTED_BUILD)
    if not value:
        return None
    builddir = Path(value)
    wanted = [builddir / "html" / language / "index.html" for language in LANGUAGES]
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


DEPLOY_URLS = {
    "JAXBOOK_SITE_URL": "https://example.org/jaxbook",
    "JAXBOOK_REPO_URL": "https://github.com/example/jaxbook",
}


@pytest.fixture(scope="session")
def deploy_site(tmp_path_factory) -> dict[str, object]:
    """Every language built as they are deployed: site and repository URLs set.

    ``site`` is the output root, ``logs`` each language's build output, ``url``
    and ``repo`` the URLs it was built with.
    """

    def build(out: Path) -> None:
        tested = build_under_test()
        for language in LANGUAGES:
            if tested is not None:
                # The pages `make test` read, and ran: a deploy's URLs are write-phase
                # settings, so only writing is new (and the figures are that build's).
                shutil.copytree(tested / "doctrees" / language, out / "doctrees" / language)
            command = html_command(
                ROOT, language, out / language, out / "doctrees" / language, "--fail-on-warning"
            )
            environment = {**doctest_environment(os.environ, ROOT, language), **DEPLOY_URLS}
            result = subprocess.run(
                command, capture_output=True, text=True, timeout=900, env=environment
            )
            assert result.returncode == 0, result.stderr[-5000:]
            log = out / f"{language}.log"
            log.write_text(result.stdout + result.stderr, encoding="utf-8")

    out = shared_build(tmp_path_factory, "deploy", build)
    logs = {lang: (out / f"{lang}.log").read_text(encoding="utf-8") for lang in LANGUAGES}
    return {
        "site": out,
        "logs": logs,
        "url": DEPLOY_URLS["JAXBOOK_SITE_URL"],
        "repo": DEPLOY_URLS["JAXBOOK_REPO_URL"],
    }


@pytest.fixture(scope="session")
def built_editions(built_site, tmp_path_factory) -> Path:
    """A build directory that holds the PDF and EPUB of every language beside the site, as
    `make html pdf epub` leaves it: its site (``<builddir>/html``) holds the books, and its
    pages link them. Outside `make test`, a copy of ``built_site`` and its doctrees, which
    stay as they are: the books read, and run, nothing again."""
    tested = build_under_test()
    if tested is not None:
        return tested

    def build(builddir: Path) -> None:
        for language in LANGUAGES:
            shutil.copytree(built_site / language, builddir / "html" / language)
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


@pytest.fixture(autouse=True)
def fresh_catalogs() -> None:
    """Each test starts with no catalogs loaded, as a new process does: Sphinx keeps the
    translators it loaded for the process (``sphinx.locale.translators``), and one test
    root's page catalog ("小书" -> "Tiny book") answered the next test's build."""
    forget_catalogs()


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


# The Pythons an old JAX release needs, which make drift runs the bundle with.
OLDER_PYTHONS = ["python3.9", "python3.10", "python3.11"]


@pytest.fixture(scope="session")
def older_python() -> str:
    """The oldest of Python 3.9 to 3.11 on PATH that starts (a version manager's shim may
    not); the test is skipped where none does."""
    for name in OLDER_PYTHONS:
        for directory in os.environ.get("PATH", "").split(os.pathsep):
            path = shutil.which(name, path=directory)
            if path and subprocess.run([path, "-c", ""], capture_output=True).returncode == 0:
                return path
    pytest.skip(f"none of {', '.join(OLDER_PYTHONS)} is installed here")
