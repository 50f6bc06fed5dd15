"""What a doctest worker process does: read a language once, then test pages one by one.

A unit of work is one page in one language. ``make doctest`` reads each
language once (``read_language``: every page, translated, into the shared
doctree directory, the way ``sphinx-build`` reads them), then hands units to
worker processes; each worker keeps one Sphinx application per language,
loaded from that pickled environment, and runs a unit with the doctest
builder's own ``test_doc``, so each page's groups get a fresh namespace and
its failures are reported exactly as ``sphinx-build -b doctest`` reports them.

The functions here run in worker processes started by ``jaxbook.doctest.runner``;
``start_worker`` is their initializer.
"""

from __future__ import annotations

import atexit
import doctest
import io
import multiprocessing
import os
import pickle
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sphinx.application import ENV_PICKLE_FILENAME, Sphinx
from sphinx.util import logging
from sphinx.util.docutils import docutils_namespace

from jaxbook.doctest.results import UnitResult
from jaxbook.sphinxapp import application, forget_page_catalogs

_QUIET = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (open for the worker's lifetime)
atexit.register(_QUIET.close)


@dataclass(frozen=True)
class Spec:
    """Where the book is and how to build it; the same for every unit of one run."""

    root: str
    builddir: str
    confoverrides: tuple[tuple[str, str], ...] = ()
    tags: tuple[str, ...] = ()

    def doctreedir(self, language: str) -> Path:
        return Path(self.builddir) / "doctrees" / language

    def outdir(self, language: str) -> Path:
        return Path(self.builddir) / "doctest" / language


def start_worker(environment: dict[str, str]) -> None:
    """Initializer of every worker: the doctest environment, before JAX is imported."""
    os.environ.clear()
    os.environ.update(environment)
    # The pid the run started this worker from: it may have died before this line.
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with_parent, args=(parent.pid,), daemon=True).start()


def _exit_with_parent(parent: int) -> None:
    # A run killed with SIGKILL cannot stop its workers; each stops itself instead of
    # waiting forever, JAX and all, for work that will not come.
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(1)


def _application(spec: Spec, language: str, builder: str, warning: io.StringIO) -> Sphinx:
    outdir = spec.outdir(language)
    outdir.mkdir(parents=True, exist_ok=True)
    return application(
        Path(spec.root) / "docs",
        spec.root,
        outdir,
        spec.doctreedir(language),
        builder,
        language,
        # Not None: a quiet application reports doctest failures as warnings too.
        status=_QUIET,
        warning=warning,
        confoverrides=spec.confoverrides,
        tags=spec.tags,
    )


def bring_up_to_date(app: Sphinx, save: bool = True) -> bool:
    """Read what changed and pickle the environment and doctrees; write and resolve nothing.

    This is what ``Builder.build`` does before it writes. The doctests run on
    the doctrees as read (as ``sphinx-build -b doctest`` runs them), so the
    dummy builder's writing phase, which resolves every page of the book
    after any edit (about 3 s a language at 16 chapters), is left out.

    Without ``save`` the environment stays in memory only (``save_environment``
    writes it); the doctrees are written all the same. Says whether anything
    was read.
    """
    builder = app.builder
    builder.compile_update_catalogs()
    with logging.pending_warnings():
        updated = set(builder.read())
    updated |= set(builder.env.check_dependents(app, updated))
    if updated:
        if save:
            save_environment(app)
        builder.env.check_consistency()
    return bool(updated)


def save_environment(app: Sphinx) -> None:
    with open(app.builder.doctreedir / ENV_PICKLE_FILENAME, "wb") as file:
        pickle.dump(app.builder.env, file, pickle.HIGHEST_PROTOCOL)


_readers: dict[str, tuple[Sphinx, io.StringIO]] = {}
_unsaved: set[str] = set()


def read_language(spec: Spec, language: str, keep: bool = False) -> dict[str, Any]:
    """Read (or bring up to date) every page of ``language``; say what each depends on.

    With ``keep``, the application stays in this process and later calls only
    re-read what changed (the doctest server's readers, one process per
    language, so that its directives can stay registered with docutils).
    Those later calls leave the pickled environment as it was until
    ``save_kept`` (the server calls it when it stops): pickling it took 0.25 s
    of each served edit at 16 chapters, and nothing the server runs reads it,
    since a worker takes each page's doctree file. A pickle left behind is
    only older than the doctrees, so ``sphinx-build`` reads those pages again.
    """
    import jax

    start = time.perf_counter()
    # The dummy builder: only its reading is used (bring_up_to_date).
    if keep and language in _readers:
        app, warning = _readers[language]
        warned = warning.tell()
        forget_page_catalogs(app)
        if bring_up_to_date(app, save=False):
            _unsaved.add(language)
    elif keep:
        warning = io.StringIO()
        warned = 0
        app = _application(spec, language, "dummy", warning)
        _readers[language] = (app, warning)
        bring_up_to_date(app)
    else:
        warning = io.StringIO()
        warned = 0
        # Directives and node visitors are registered with docutils globally; a
        # namespace per application lets one worker hold one per language.
        with docutils_namespace():
            app = _application(spec, language, "dummy", warning)
            bring_up_to_date(app)
    warning.seek(warned)
    env = app.env
    srcdir = Path(env.srcdir)
    return {
        "language": language,
        "docnames": sorted(env.found_docs),
        "dependencies": {
            docname: sorted(str(srcdir / path) for path in env.dependencies.get(docname, ()))
            for docname in env.found_docs
        },
        "warnings": warning.read(),
        "backend": f"{jax.default_backend()}:{jax.devices()[0].device_kind}",
        "seconds": time.perf_counter() - start,
    }


def save_kept() -> list[str]:
    """Pickle the environment of each kept application read again since it was last saved."""
    saved = sorted(_unsaved)
    for language in saved:
        save_environment(_readers[language][0])
    _unsaved.clear()
    return saved


_apps: dict[str, tuple[Sphinx, io.StringIO]] = {}


def run_unit(spec: Spec, language: str, docname: str) -> UnitResult:
    """Run the doctests of one page in one language, in this worker."""
    if language not in _apps:
        warning = io.StringIO()
        with docutils_namespace():
            _apps[language] = (_application(spec, language, "doctest", warning), warning)
    app, warning = _apps[language]
    # Sphinx's logging goes to the application created last; send it to this one's.
    logging.setup(app, _QUIET, warning)
    builder = app.builder
    # The doctest builder points doctest.compile at itself when it starts;
    # with two languages in one worker it must be this language's builder.
    doctest.compile = builder.compile  # type: ignore[attr-defined]
    builder.outfile = io.StringIO()
    before = (
        builder.total_tries,
        builder.total_failures,
        builder.setup_failures,
        builder.cleanup_failures,
    )
    warned = warning.tell()
    # A long-lived worker (the doctest server's) must see the page as last read.
    # No public way to drop one cached doctree (sphinx-doc/sphinx#11939).
    app.env._pickled_doctree_cache.pop(docname, None)  # noqa: SLF001
    start = time.perf_counter()
    builder.test_doc(docname, app.env.get_doctree(docname))
    seconds = time.perf_counter() - start
    warning.seek(warned)
    return UnitResult(
        language=language,
        docname=docname,
        tries=builder.total_tries - before[0],
        failures=builder.total_failures - before[1],
        setup_failures=builder.setup_failures - before[2],
        cleanup_failures=builder.cleanup_failures - before[3],
        report=builder.outfile.getvalue(),
        warnings=warning.read(),
        seconds=seconds,
    )
