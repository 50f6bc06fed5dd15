"""``make doctest``: the verdict of the build's one run of every page, in every language.

    jaxbook doctest [--builddir _build] [--sphinxopts "..."] [--force]
                    [--only docs/ch01/quiz.rst ...] [--record FILE] zh_CN [en ...]
    jaxbook doctest --stop [--builddir _build] [zh_CN ...]

Each language builds in a process of its own, side by side, with pagerun's ``verdict``
builder (:mod:`pagerun.sphinxext.run`) over the site's doctrees, so only the pages that
changed since any build are read and run. The verdict is every failure and a count per
language (:func:`print_verdict`); what every example printed is written to
``<builddir>/doctest/record.json``. The exit status is non-zero when anything failed.
Each language's process stays warm to answer the next run (:mod:`jaxbook.doctest.warm`).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import multiprocessing
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from jaxbook import project
from jaxbook.doctest import environment
from pagerun import verdict
from pagerun.engine import PageRun

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from jaxbook.sphinxapp import LiveApplication

# The extension that runs each page as it is read, and gives the verdict builder.
EXTENSION = "pagerun.sphinxext.run"


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
class LanguageRun:
    """One language's verdict: each page's run, in docname order."""

    language: str
    pages: list[PageRun] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # reading failed or warned
    ran: int = 0  # pages whose code ran in this run


def spec_from_sphinxopts(root: Path, builddir: Path, sphinxopts: list[str], **rest: Any) -> Spec:
    """Honour the ``-D name=value`` and ``-t tag`` options that ``SPHINXOPTS`` can carry."""
    if not sphinxopts:
        # Without options, no need of Sphinx's parser: a warm run answers in less time than
        # importing Sphinx takes.
        return Spec(root, builddir, **rest)
    from sphinx.cmd.build import get_parser as sphinx_build_parser

    options = sphinx_build_parser().parse_args([*sphinxopts, "docs", "out"])
    overrides = tuple(tuple(define.partition("=")[::2]) for define in options.define or [])
    return Spec(root, builddir, overrides, tuple(options.tags or ()), **rest)


def docname_of(root: Path, page: str) -> str:
    """The docname of ``page``: a source file (``docs/ch01/index.rst``) or a docname
    (``ch01/index``), as a reader of the book names a page."""
    docs = root / "docs"
    named = [docs / f"{page}{suffix}" for suffix in project.SOURCE_SUFFIX]
    path = next((file for file in named if file.is_file()), Path(page)).resolve()
    if not path.is_relative_to(docs) or path.suffix not in project.SOURCE_SUFFIX:
        raise SystemExit(f"{page}: not a page of the book (docs/**/*.rst or docs/**/*.md)")
    return path.relative_to(docs).with_suffix("").as_posix()


# -- one language, in its own process -------------------------------------------


def run_language(spec: Spec, language: str) -> LanguageRun:
    """Bring ``language``'s doctrees up to date, running what changed; its verdict."""
    from sphinx.util.docutils import docutils_namespace

    # Directives are registered with docutils for the whole process: an application of
    # its own each time this runs in one process (the tests call it in theirs).
    with docutils_namespace():
        return _run_language(spec, language)


def verdict_application(spec: Spec, language: str, only: tuple[str, ...] = ()) -> LiveApplication:
    """The book's application in ``language`` with the ``verdict`` builder, over the
    language's doctree directory (``only``: run those pages alone).

    The site, the PDF and the EPUB share ``<builddir>/doctrees/<lang>``, so Sphinx reads,
    and runs, only the pages changed since any of them read them: after ``make html``
    nothing is. A page read without its run (``only``) is read again by the next build
    that runs it."""
    from jaxbook.sphinxapp import LiveApplication

    overrides: dict[str, Any] = dict(spec.confoverrides)
    if only:
        overrides["pagerun_run"] = list(only)
    return LiveApplication(
        spec.root / "docs",
        spec.root,
        spec.builddir / "doctest" / language,
        spec.builddir / "doctrees" / language,
        "verdict",
        language,
        status=None,
        confoverrides=overrides,
        tags=spec.tags,
        freshenv=spec.force,
    )


def read(
    spec: Spec, language: str, warning: IO[str], only: tuple[str, ...] = ()
) -> tuple[Sphinx, list[str]]:
    """The book's application in ``language`` after its ``verdict`` build, and the pages it
    read: those that changed since the last build of its doctrees, each run (``only``: run
    those alone)."""
    built = verdict_application(spec, language, only)
    warning.write(build(spec, language, built))
    return built.app, built.read


def build(spec: Spec, language: str, built: LiveApplication) -> str:
    """Bring ``built`` up to date; its warnings. One build at a time holds the doctree
    directory, and only while it builds."""
    from jaxbook.files import holding

    with holding(spec.builddir / "doctrees" / language):
        return built.build()


def _run_language(spec: Spec, language: str) -> LanguageRun:
    return language_run(spec, language)[0]


def language_run(
    spec: Spec, language: str, built: LiveApplication | None = None
) -> tuple[LanguageRun, LiveApplication | None]:
    """``language``'s verdict after a build by ``built`` (by default a new application);
    and the application, for a process that lives on to build again (None if it failed)."""
    from pagerun.pages import records

    result = LanguageRun(language)
    try:
        if built is None:
            built = verdict_application(spec, language, spec.only)
        warned = build(spec, language, built)
    except Exception as error:
        # A broken conf.py, an extension's exception, or no verdict builder to build with.
        hint = f"; conf.py must list {EXTENSION}" if "name verdict" in str(error) else ""
        result.errors.append(f"docs: the {language} pages could not be read: {error}{hint}")
        return result, None
    if warned:
        result.errors.append(f"docs: reading the {language} pages warned:\n{warned}")
    env = built.app.env
    for name in spec.only:
        if name not in env.found_docs:
            result.errors.append(f"{project.page_name(spec.root, name)}: no such page")
    kept = records(env)
    result.ran = len(kept.keys() & set(built.read))
    for docname, record in sorted(kept.items()):
        if not spec.only or docname in spec.only:
            result.pages.append(record.run)
    return result, built


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


def run_languages(
    spec: Spec, languages: list[str], side_by_side: bool = True, warm: bool | None = None
) -> list[LanguageRun]:
    """Each language in a process of its own, side by side; or, for one language or without
    ``side_by_side``, one after the other in this process. ``warm`` (by default unless
    ``JAXBOOK_DOCTEST_WARM=0`` or ``CI``): each language's process stays alive to answer
    the next run, and answers this one if it is alive (:mod:`jaxbook.doctest.warm`); a
    language it does not answer runs cold."""
    variables = {
        language: environment.doctest_environment(os.environ, spec.root, language)
        for language in languages
    }
    if warm is None:
        from jaxbook.doctest.warm import enabled

        warm = enabled(os.environ)
    if warm:
        from jaxbook.doctest.warm import runs as warm_runs

        answered = warm_runs(spec, languages, variables)
        cold = [language for language in languages if language not in answered]
        ran = dict(zip(cold, run_languages(spec, cold, side_by_side, warm=False), strict=True))
        return [answered[lang] if lang in answered else ran[lang] for lang in languages]
    if not languages:
        return []
    if len(languages) == 1 or not side_by_side:
        before = dict(os.environ)
        runs = []
        try:
            for language in languages:
                os.environ.clear()
                os.environ.update(variables[language])
                runs.append(run_language(spec, language))
        finally:
            os.environ.clear()
            os.environ.update(before)
        return runs
    runs = []
    context = multiprocessing.get_context("spawn")
    pools = {
        language: concurrent.futures.ProcessPoolExecutor(
            1,
            mp_context=context,
            initializer=start_language_process,
            initargs=(variables[language],),
        )
        for language in languages
    }
    try:
        futures = {
            language: pool.submit(run_language, spec, language) for language, pool in pools.items()
        }
        for language, future in futures.items():
            try:
                runs.append(future.result())
            except Exception as error:  # the process died (killed, out of memory)
                died = f"docs: the {language} run stopped: {type(error).__name__}: {error}"
                runs.append(LanguageRun(language, errors=[died]))
    finally:
        for pool in pools.values():
            pool.shutdown()
    return runs


# -- the verdict -------------------------------------------------------------------


def print_verdict(runs: list[LanguageRun]) -> bool:
    """Print the verdict; return whether everything passed.

    Each failure as ``docs/<page>.rst:<line>: doctest failed [<lang>]`` followed by
    doctest's report; a line per language, ``<lang>: N passed, N failed``; a check that
    every language ran the same number of examples; last, the total. Lines and counts are
    pagerun's (:mod:`pagerun.verdict`), as ``sphinx-build -b doctest`` names them."""
    total = verdict.Tally()
    tries_by_language = {}
    for run in runs:
        for error in run.errors:
            print(error)
        for page in run.pages:
            for report in page.reports:
                print(verdict.text(report, f" [{run.language}]"))
        # A language whose pages could not be read (or whose process died) failed: its line
        # says so, as the last line does.
        tally = verdict.Tally.of(run.pages, errors=len(run.errors))
        tries_by_language[run.language] = tally.tries
        total += tally
        print(f"{run.language}: {tally}")
    if len(set(tries_by_language.values())) > 1:
        counts = ", ".join(f"{lang} {n}" for lang, n in tries_by_language.items())
        print(
            f"docs: the languages ran different numbers of examples ({counts}); "
            "a translated block lost or gained a doctest"
        )
        total += verdict.Tally(errors=1)
    print(total)
    return total.failed == 0


def write_record(path: Path, runs: list[LanguageRun]) -> None:
    """What every example printed, page by page in each language, in the bundle's
    ``Record`` format (:class:`jaxbook.formats.Record`)."""
    import json

    from jaxbook.files import write_text_atomically
    from jaxbook.formats import RECORD_FORMAT

    record = {
        "format": RECORD_FORMAT,
        "blocks": {run.language: [b for page in run.pages for b in page.printed] for run in runs},
    }
    write_text_atomically(path, json.dumps(record, ensure_ascii=False, indent=1) + "\n")


def check(
    spec: Spec,
    languages: list[str],
    record: Path | None = None,
    side_by_side: bool = True,
    warm: bool | None = None,
) -> bool:
    """One run: the languages side by side, the verdict printed, the record written."""
    start = time.perf_counter()
    runs = run_languages(spec, languages, side_by_side, warm)
    took = time.perf_counter() - start
    ran = sum(run.ran for run in runs)
    how = " side by side" if len(languages) > 1 and side_by_side else ""
    pages = "page" if ran == 1 else "pages"
    print(f"doctest: {ran} {pages} run in {took:.1f} s ({', '.join(languages)}{how})")
    ok = print_verdict(runs)
    write_record(record or spec.builddir / "doctest" / "record.json", runs)
    return ok


def add_arguments(parser: argparse.ArgumentParser) -> None:
    project.add_build_arguments(parser, nargs="*")
    parser.add_argument(
        "--only", action="append", default=[], metavar="PAGE", help="test only this page"
    )
    parser.add_argument(
        "--force", action="store_true", help="read and run every page, even those up to date"
    )
    parser.add_argument(
        "--record", type=Path, help="where to write what every example printed (JSON)"
    )
    parser.add_argument(
        "--stop", action="store_true", help="stop the warm processes (of the languages named)"
    )


def run(args: argparse.Namespace) -> int:
    if args.stop:
        from jaxbook.doctest.warm import stop

        stop(args.builddir.resolve(), args.languages)
        return 0
    if not args.languages:
        raise SystemExit("jaxbook doctest: name the languages to test (or --stop)")
    root = project.root()
    only = tuple(docname_of(root, page) for page in args.only)
    spec = spec_from_sphinxopts(
        root, args.builddir.resolve(), args.sphinxopts, only=only, force=args.force
    )
    return 0 if check(spec, args.languages, args.record) else 1
