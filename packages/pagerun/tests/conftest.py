"""pagerun's tests build small projects of their own (``roots``): plain Python pages, and
matplotlib for ``testplot``; nothing of the project that uses pagerun, no JAX. They need
pagerun, Sphinx and the test group of its ``pyproject.toml`` alone (``test_apart.py`` keeps
them so)."""

from __future__ import annotations

import gettext
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sphinx import locale
from sphinx.util.docutils import docutils_namespace


def forget() -> None:
    """Drop every catalog this process loaded, as a new process would start: Sphinx keeps
    the translators it loaded for the process (``sphinx.locale.translators``), and Python's
    ``gettext`` each catalog file it read, by path, in a module-private dict, with no public
    way to clear either. A test that edits a catalog and builds again would see the old one."""
    locale.translators.clear()
    gettext._translations.clear()  # type: ignore[attr-defined]  # noqa: SLF001


@pytest.fixture(scope="session")
def rootdir() -> Path:
    return Path(__file__).parent / "roots"


@pytest.fixture(scope="session")
def forget_catalogs():
    """``forget_catalogs()``: drop every catalog loaded so far, as a new process would start."""
    return forget


@pytest.fixture(autouse=True)
def fresh_catalogs() -> None:
    """Each test starts with no catalogs loaded, as a new process does."""
    forget()


@dataclass
class Built:
    """A Sphinx test app after its build: its pages, its warnings, its doctest summary."""

    app: Any

    def page(self, name: str = "index") -> str:
        return (self.app.outdir / f"{name}.html").read_text(encoding="utf-8")

    @property
    def warnings(self) -> str:
        return self.app.warning.getvalue()

    def doctest_counts(self) -> tuple[int, int]:
        """(tests, failures) from the doctest builder's summary."""
        output = (self.app.outdir / "output.txt").read_text(encoding="utf-8")
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


@pytest.fixture
def build(make_app, monkeypatch, tmp_path):
    """``build(project, builder, **kwargs)``: one build of a copied root into its one doctree
    directory, as a new process would start it; the app, and the pages whose code ran in it
    (``PAGERUN_RUN_LOG``), in order."""
    log = tmp_path / "runs.log"
    monkeypatch.setenv("PAGERUN_RUN_LOG", str(log))

    def run(project: Path, builder: str, **kwargs):
        log.write_text("")
        forget()
        with docutils_namespace():
            app = make_app(builder, srcdir=project, **kwargs)
            app.build()
        ran = [json.loads(line) for line in log.read_text().splitlines()]
        app.ran_in = {entry["page"]: entry["pid"] for entry in ran}  # the kernel of each page
        return app, [entry["page"] for entry in ran]

    return run


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture(scope="session")
def edit():
    """``edit(path, old, new)``: replace ``old``, which the file must hold, with ``new``."""
    return replace
