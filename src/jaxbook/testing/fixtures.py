"""The fixtures the book's tests and the lab's share, a pytest plugin: each suite's
``conftest.py`` loads it (``pytest_plugins = ["jaxbook.testing.fixtures"]``), as Sphinx's
extensions load ``sphinx.testing.fixtures``. Both run from the book's checkout, under its
pytest settings, on the book this package is installed from (``ROOT``): its copies, its
deploy build, Sphinx test apps of its test books, the Python of an old JAX release. What one
suite alone uses stays in its own ``conftest.py``.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sphinx.testing.util import SphinxTestApp

from jaxbook.doctest.environment import doctest_environment
from jaxbook.site.build import html_command
from jaxbook.sphinxapp import forget_catalogs
from jaxbook.testing.builds import DEPLOY_URLS, LANGUAGES, ROOT, build_under_test, shared_build


def pytest_configure(config: pytest.Config) -> None:
    # `make doctest` leaves each language's process alive to answer the next run
    # (jaxbook.doctest.warm): not from the tests, which start many, in directories that go
    # away. Its own tests turn it on where they test it.
    os.environ["JAXBOOK_DOCTEST_WARM"] = "0"
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

    def make(*args: Any, **kwargs: Any) -> SphinxTestApp:
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


@dataclass
class Built:
    """A Sphinx test app after its build: its pages, its warnings, its doctest summary."""

    app: Any

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


def edited_files(root: Path, copy: Path) -> list[str]:
    """The files of ``copy``, a copy of the test root ``root``, that are not ``root``'s as
    they are there (added, or with other content), leaving out what a build writes: its
    build directory, the ``.mo`` files Sphinx compiles beside their ``.po``, and the
    bytecode Python caches beside a module a page imports."""
    edited = []
    for path in sorted(copy.rglob("*")):
        relative = path.relative_to(copy)
        written = path.suffix == ".mo" or {"_build", "__pycache__"} & set(relative.parts)
        if not path.is_file() or written:
            continue
        source = root / relative
        if not source.is_file() or source.read_bytes() != path.read_bytes():
            edited.append(relative.as_posix())
    return edited


@pytest.fixture(autouse=True)
def shared_test_root_left_as_copied(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that edits its test root's files does so in a copy of its own.

    ``sphinx.testing`` copies a test root into a directory named after it, which every test
    of that root in the process shares, build directory included, unless its marker names a
    ``srcdir`` of its own; a test that edits that copy hands the next one a different book.
    """
    markers = list(request.node.iter_markers("sphinx"))
    if not markers or "app_params" not in request.fixturenames:
        yield
        return
    if any("srcdir" in marker.kwargs for marker in markers):
        yield
        return
    srcdir = Path(request.getfixturevalue("app_params").kwargs["srcdir"])
    testroot = next((m.kwargs["testroot"] for m in markers if "testroot" in m.kwargs), "root")
    root = request.getfixturevalue("rootdir") / f"test-{testroot}"
    yield
    if edited := edited_files(root, srcdir):
        pytest.fail(
            f"{request.node.nodeid} edited {', '.join(edited)} in the copy of test-{testroot} "
            f"that its other tests share: give it a copy of its own "
            f'(@pytest.mark.sphinx(..., srcdir="{testroot}-<what it tests>"))',
            pytrace=False,
        )
