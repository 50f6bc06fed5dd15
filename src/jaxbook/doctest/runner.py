"""``make doctest``: every page of every language run by the one engine; one verdict.

    jaxbook doctest [--builddir _build] [--sphinxopts "..."] [--force]
                    [--only docs/ch01/quiz.rst ...] [--record FILE] zh_CN [en ...]

Each language runs in a process of its own, side by side, as ``make html``
builds them. A language's process reads its pages with Sphinx into
``<builddir>/doctrees/<lang>`` (the doctrees ``make html`` wrote, so after a
build nothing is read again), then runs each page's doctest blocks with
:mod:`jaxbook.doctest.engine`, the engine refresh, the measured outputs and
the bundle run them with: one fresh namespace per group, the builder's setup
and cleanup, skips and option flags. A page that passed before with the same
inputs is reported from the result cache (:mod:`jaxbook.doctest.cache`)
instead of being run; ``--force`` runs them all.

The verdict: every failure as ``docs/<page>.rst:<line>: doctest failed
[<lang>]`` (``.md`` on a MyST page; ``unexpected <Warning>: <message>`` for a
warning the page did not expect, ``setup code failed`` for its setup), each
followed by doctest's report (expected and actual output, or the exception);
a line per language, ``<lang>: N passed, N failed``; a check that every
language ran the same number of examples; and last ``N passed, N failed``
over all of them. A warning while reading is a failure. The exit status is
non-zero when anything failed. What every example printed, passed or not, is
written to ``<builddir>/doctest/record.json`` (the bundle's ``Record``
format, :mod:`jaxbook.doctest.bundle`), page by page in each language.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import io
import multiprocessing
import os
import re
import shlex
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from jaxbook import project
from jaxbook.doctest import environment

if TYPE_CHECKING:
    from sphinx.application import Sphinx

# The last line of an "Exception raised:" report that is a warning: jaxbook.doctest.runtime
# raises every warning a page did not catch.
UNEXPECTED_WARNING = re.compile(
    r"Exception raised:\n(?:.*\n)*?\s+(?:[\w.]+\.)?(?P<category>\w*Warning): (?P<message>.*)\Z"
)


@dataclass(frozen=True)
class Spec:
    """What every language of one run shares: the book, its build directory, its options."""

    root: Path
    builddir: Path
    confoverrides: tuple[tuple[str, str], ...] = ()
    tags: tuple[str, ...] = ()
    only: tuple[str, ...] = ()  # docnames; empty: every page
    force: bool = False


@dataclass
class PageResult:
    """One page in one language: the builder's counts, the failures, what each test printed."""

    language: str
    docname: str
    tries: int = 0
    failures: int = 0
    setup_failures: int = 0
    cleanup_failures: int = 0
    reports: list[str] = field(default_factory=list)  # "file:line: what failed\n<detail>"
    blocks: list[dict[str, Any]] = field(default_factory=list)  # bundle.RecordedBlock
    seconds: float = 0.0
    cached: bool = False

    @property
    def broken(self) -> int:
        return self.failures + self.setup_failures + self.cleanup_failures

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PageResult:
        return cls(**data)


@dataclass
class LanguageRun:
    language: str
    pages: list[PageResult] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # reading failed or warned


def spec_from_sphinxopts(root: Path, builddir: Path, sphinxopts: str, **rest: Any) -> Spec:
    """Honour the ``-D name=value`` and ``-t tag`` options that ``SPHINXOPTS`` can carry."""
    from sphinx.cmd.build import get_parser as sphinx_build_parser

    options = sphinx_build_parser().parse_args([*shlex.split(sphinxopts), "docs", "out"])
    overrides = tuple(tuple(define.partition("=")[::2]) for define in options.define or [])
    return Spec(root, builddir, overrides, tuple(options.tags or ()), **rest)


def docname_of(root: Path, page: str) -> str:
    path = Path(page).resolve()
    docs = root / "docs"
    if not path.is_relative_to(docs) or path.suffix not in project.SOURCE_SUFFIX:
        raise SystemExit(f"{page}: not a page of the book (docs/**/*.rst or docs/**/*.md)")
    return path.relative_to(docs).with_suffix("").as_posix()


# -- one language, in its own process -------------------------------------------


def backend() -> str:
    """The platform and device JAX runs on, when JAX is installed (a key of the cache)."""
    import importlib.util

    if importlib.util.find_spec("jax") is None:
        return "no JAX"
    import jax

    return f"{jax.default_backend()}:{jax.devices()[0].device_kind}"


def run_language(spec: Spec, language: str) -> LanguageRun:
    """Read ``language``'s pages (what changed since the last read) and run each page."""
    from sphinx.util.docutils import docutils_namespace

    # Directives are registered with docutils for the whole process: an application of
    # its own each time this runs in one process (the tests call it in theirs).
    with docutils_namespace():
        return _run_language(spec, language)


def read(spec: Spec, language: str, warning: IO[str]) -> Sphinx:
    """The book's application in ``language``, its pages read into the build's doctrees
    (only what changed since the last read: after ``make html``, nothing)."""
    from jaxbook.sphinxapp import application, forget_page_catalogs, read_changed

    app = application(
        spec.root / "docs",
        spec.root,
        spec.builddir / "doctest" / language,
        spec.builddir / "doctrees" / language,
        "dummy",
        language,
        status=None,
        warning=warning,
        confoverrides=spec.confoverrides,
        tags=spec.tags,
    )
    # A catalog loaded by an earlier application of this process would hide a recompiled one.
    forget_page_catalogs(app)
    read_changed(app)
    return app


def _run_language(spec: Spec, language: str) -> LanguageRun:
    from jaxbook.doctest import cache
    from jaxbook.sphinxapp import doctest_nodes_of

    # The run's environment as it was given: importing JAX adds variables of its own.
    variables = dict(os.environ)
    # A compilation cache of the language's own: JAX writes an entry without a lock or a
    # rename, and the other language, running the same page at the same time, would read
    # it half-written (a warning, which fails the page).
    if os.environ.get("JAX_COMPILATION_CACHE_DIR"):
        compiled = Path(os.environ["JAX_COMPILATION_CACHE_DIR"])
        os.environ["JAX_COMPILATION_CACHE_DIR"] = str(compiled / language)
    result = LanguageRun(language)
    warning = io.StringIO()
    try:
        app = read(spec, language, warning)
    except Exception as error:  # a broken conf.py, an extension's exception
        result.errors.append(f"docs: the {language} pages could not be read: {error}")
        return result
    if warning.getvalue():
        result.errors.append(f"docs: reading the {language} pages warned:\n{warning.getvalue()}")
    env = app.env
    for name in spec.only:
        if name not in env.found_docs:
            result.errors.append(f"{project.page_name(spec.root, name)}: no such page")
    results = cache.ResultCache(spec.builddir / "doctest-cache")
    shared = cache.shared_key(spec.root, variables, backend())
    srcdir = Path(env.srcdir)
    for docname in sorted(env.found_docs):
        if spec.only and docname not in spec.only:
            continue
        page_nodes = doctest_nodes_of(env.get_doctree(docname), app.config)
        if not page_nodes:
            continue
        depends = [str(srcdir / path) for path in env.dependencies.get(docname, ())]
        key = cache.unit_key(spec.root, shared, language, docname, depends)
        page = None if spec.force else cached(results.get(language, docname, key))
        if page is None:
            page = run_page(app, language, docname, page_nodes)
            results.put(language, docname, key, asdict(page) if not page.broken else None)
        result.pages.append(page)
    return result


def cached(entry: dict[str, Any] | None) -> PageResult | None:
    """A page's stored pass; None for none, or for an entry of another shape."""
    if entry is None:
        return None
    try:
        page = PageResult.from_json(entry)
    except TypeError:  # written by another version of this module: the page runs again
        return None
    page.cached = True
    return page


def run_page(app, language: str, docname: str, page_nodes: list) -> PageResult:
    from jaxbook.doctest import pages

    start = time.perf_counter()
    run, _nodes = pages.run_part(app, docname, page_nodes)
    return PageResult(
        language=language,
        docname=docname,
        tries=run.tries,
        failures=run.failures,
        setup_failures=run.setup_failures,
        cleanup_failures=run.cleanup_failures,
        reports=run.reports,
        blocks=run.printed,
        seconds=time.perf_counter() - start,
    )


def start_language_process(variables: dict[str, str]) -> None:
    """Initializer of a language's process: the doctest environment, before JAX is imported."""
    os.environ.clear()
    os.environ.update(variables)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with_parent, args=(parent.pid,), daemon=True).start()


def _exit_with_parent(parent: int) -> None:
    # A run killed with SIGKILL cannot stop its children; each stops itself instead of
    # running, JAX and all, for a verdict no one will read.
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(1)


def run_languages(spec: Spec, languages: list[str], side_by_side: bool = True) -> list[LanguageRun]:
    """Each language in a process of its own, side by side; or, for one language or without
    ``side_by_side``, one after the other in this process."""
    variables = environment.doctest_environment(os.environ, spec.root)
    if len(languages) == 1 or not side_by_side:
        before = dict(os.environ)
        runs = []
        try:
            for language in languages:
                os.environ.clear()
                os.environ.update(variables)
                runs.append(run_language(spec, language))
        finally:
            os.environ.clear()
            os.environ.update(before)
        return runs
    runs = []
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(
        len(languages),
        mp_context=context,
        initializer=start_language_process,
        initargs=(variables,),
    ) as pool:
        futures = {language: pool.submit(run_language, spec, language) for language in languages}
        for language, future in futures.items():
            try:
                runs.append(future.result())
            except Exception as error:  # the process died (killed, out of memory)
                died = f"docs: the {language} run stopped: {type(error).__name__}: {error}"
                runs.append(LanguageRun(language, errors=[died]))
    return runs


# -- the verdict -------------------------------------------------------------------


def headline(report: str, language: str) -> str:
    """The first line of a failure report, as the verdict prints it."""
    first, _, detail = report.partition("\n")
    warned = UNEXPECTED_WARNING.search(detail.rstrip())
    if warned:
        where = first.rsplit(": ", 1)[0]
        first = f"{where}: unexpected {warned['category']}: {warned['message']}"
    return f"{first} [{language}]"


def print_verdict(runs: list[LanguageRun]) -> bool:
    """Print the verdict; return whether everything passed."""
    passed = failed = 0
    tries_by_language = {}
    for run in runs:
        for error in run.errors:
            print(error)
            failed += 1
        for page in run.pages:
            for report in page.reports:
                print(headline(report, run.language))
                print(report.partition("\n")[2].rstrip("\n"))
                print()
        tries = sum(page.tries for page in run.pages)
        broken = sum(page.broken for page in run.pages)
        tries_by_language[run.language] = tries
        good = tries - sum(page.failures for page in run.pages)
        passed += good
        failed += broken
        print(f"{run.language}: {good} passed, {broken} failed")
        cached = [page for page in run.pages if page.cached]
        if cached:
            ran = len(run.pages) - len(cached)
            print(
                f"{run.language}: {ran} page{'s' * (ran != 1)} run, {len(cached)} cached "
                f"({sum(p.tries for p in cached)} examples that passed with the same inputs)"
            )
    if len(set(tries_by_language.values())) > 1:
        counts = ", ".join(f"{lang} {n}" for lang, n in tries_by_language.items())
        print(
            f"docs: the languages ran different numbers of examples ({counts}); "
            "a translated block lost or gained a doctest"
        )
        failed += 1
    print(f"{passed} passed, {failed} failed")
    return failed == 0


def write_record(path: Path, runs: list[LanguageRun]) -> None:
    """What every example printed, in the bundle's ``Record`` format."""
    import json

    from jaxbook.doctest.bundle import RECORD_FORMAT
    from jaxbook.files import write_text_atomically

    record = {
        "format": RECORD_FORMAT,
        "blocks": {run.language: [b for page in run.pages for b in page.blocks] for run in runs},
    }
    write_text_atomically(path, json.dumps(record, ensure_ascii=False, indent=1) + "\n")


def one_run_at_a_time(builddir: Path):
    """Hold the build directory's run lock (``make doctest``, ``refresh``): two runs would
    read into the same doctrees."""
    from jaxbook.files import exclusive

    def waiting() -> None:
        print("doctest: another run on this build directory; waiting for it", flush=True)

    return exclusive(builddir / "doctest" / "run.lock", waiting)


def check(
    spec: Spec, languages: list[str], record: Path | None = None, side_by_side: bool = True
) -> bool:
    """One run: the languages side by side, the verdict printed, the record written.

    One run at a time on a build directory: two would read into the same doctrees
    and write the same cache entries.
    """
    with one_run_at_a_time(spec.builddir):
        start = time.perf_counter()
        runs = run_languages(spec, languages, side_by_side)
        ran = sum(not page.cached for run in runs for page in run.pages)
        took = time.perf_counter() - start
        how = " side by side" if len(languages) > 1 and side_by_side else ""
        print(f"doctest: {ran} pages run in {took:.1f} s ({', '.join(languages)}{how})")
        ok = print_verdict(runs)
        write_record(record or spec.builddir / "doctest" / "record.json", runs)
    return ok


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("languages", nargs="+")
    parser.add_argument("--builddir", type=Path, default=Path("_build"))
    parser.add_argument("--sphinxopts", default="", help="extra sphinx-build options (-D, -t)")
    parser.add_argument(
        "--only", action="append", default=[], metavar="PAGE", help="test only this page"
    )
    parser.add_argument(
        "--force", action="store_true", help="run every page, even those with a cached pass"
    )
    parser.add_argument(
        "--record", type=Path, help="where to write what every example printed (JSON)"
    )


def run(args: argparse.Namespace) -> int:
    root = project.root()
    only = tuple(docname_of(root, page) for page in args.only)
    spec = spec_from_sphinxopts(
        root, args.builddir.resolve(), args.sphinxopts, only=only, force=args.force
    )
    return 0 if check(spec, args.languages, args.record) else 1
