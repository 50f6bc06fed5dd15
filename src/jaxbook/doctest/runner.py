"""Run the book's doctests, every page in every language, on every core; print one verdict.

    jaxbook doctest [--builddir _build] [--sphinxopts "..."] [--jobs auto|N]
                    [--force] [--shard i/N] [--json FILE] [--record-timings]
                    [--only docs/ch01/quiz.rst ...] zh_CN [en ...]

A unit of work is one page in one language. Each language is read once
(``jaxbook.doctest.units.read_language``, into ``<builddir>/doctrees/<lang>``),
then the units are spread over ``--jobs`` worker processes (``auto``: one per
core, at most one per unit, and no more than the memory holds at about
1 GiB each). Each unit runs with the doctest builder's own code in a fresh
namespace. A unit that passed before with the same inputs is not run again
but reported as cached (``jaxbook.doctest.cache``); ``--force`` runs them all.

The verdict is the same whatever the number of workers: every failing example
as ``docs/<page>.rst:<line>: doctest failed [<lang>]`` (``.md`` on a MyST
page), followed by doctest's report (expected and actual output), one
``<lang>: N passed, N failed`` line per language, a check that every language
ran the same number of examples, and last ``N passed, N failed`` over all of
them. A warning while reading or testing counts as a failure. The exit status
is non-zero when anything failed.

``--shard i/N`` runs the i-th of N shares (``jaxbook.doctest.shard``) and
writes its JSON verdict for ``jaxbook doctest-merge``; the languages' counts
are compared there, over all shards.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import multiprocessing
import os
import shlex
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from jaxbook import project
from jaxbook.doctest import client
from jaxbook.doctest.environment import doctest_environment

if TYPE_CHECKING:
    from jaxbook.doctest.units import Spec

# Sphinx, JAX and the doctest machinery are imported when the pages are run
# here, not when a running doctest server (jaxbook.doctest.server) runs them.

# One worker process imports JAX and Sphinx and holds two environments: about
# 0.5 GiB at its peak (make bench), so 1 GiB each leaves room for the snippets.
WORKER_MEMORY = 1 << 30


def available_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def available_memory() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def worker_count(jobs: str, units: int) -> int:
    if jobs != "auto":
        return max(1, int(jobs))
    count = available_cores()
    memory = available_memory()
    if memory is not None:
        count = min(count, max(1, memory // WORKER_MEMORY))
    return max(1, min(count, units))


def jobs_value(text: str) -> str:
    if text == "auto" or (text.isdigit() and int(text) > 0):
        return text
    raise argparse.ArgumentTypeError(f"JOBS={text!r}: give auto or a number of processes")


def spec_from_sphinxopts(root: Path, builddir: Path, sphinxopts: str) -> Spec:
    """Honour the ``-D name=value`` and ``-t tag`` options that ``SPHINXOPTS`` can carry."""
    from sphinx.cmd.build import get_parser as sphinx_build_parser

    from jaxbook.doctest.units import Spec

    options = sphinx_build_parser().parse_args([*shlex.split(sphinxopts), "docs", "out"])
    overrides = []
    for define in options.define or []:
        name, _, value = define.partition("=")
        overrides.append((name, value))
    return Spec(
        root=str(root),
        builddir=str(builddir),
        confoverrides=tuple(overrides),
        tags=tuple(options.tags or ()),
    )


def schedule(
    units: list[tuple[str, str]], timings: dict
) -> tuple[list[tuple[str, str]], dict[tuple[str, str], list[tuple[str, str]]]]:
    """Longest pages first; a page's other languages after its first one has finished.

    Run side by side, two languages of one page would compile the same
    programs at the same time; one after the other, the second finds them in
    JAX's persistent compilation cache. Returns the units to start with (one
    per page, longest first) and, for each, the units that follow it.
    """
    known = sorted(timings.values())
    default = known[len(known) // 2] if known else 1.0
    pages: dict[str, list[tuple[str, str]]] = {}
    for unit in units:
        pages.setdefault(unit[1], []).append(unit)
    leaders, followers = [], {}
    for page_units in pages.values():
        leaders.append(page_units[0])
        followers[page_units[0]] = page_units[1:]

    def cost(unit: tuple[str, str]) -> float:
        return max(timings.get(u, default) for u in [unit, *followers[unit]])

    return sorted(leaders, key=lambda u: (-cost(u), u)), followers


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("languages", nargs="+")
    parser.add_argument("--builddir", type=Path, default=Path("_build"))
    parser.add_argument("--sphinxopts", default="", help="extra sphinx-build options (-D, -t)")
    parser.add_argument(
        "--only", action="append", default=[], metavar="PAGE", help="test only this page"
    )
    parser.add_argument(
        "--jobs", type=jobs_value, default="auto", help="worker processes (default: auto)"
    )
    parser.add_argument(
        "--force", action="store_true", help="run every unit, even those with a cached pass"
    )
    parser.add_argument("--shard", type=parse_shard, metavar="I/N", help="run the I-th of N shares")
    parser.add_argument("--json", type=Path, help="write the verdict here as JSON")
    parser.add_argument(
        "--record-timings",
        action="store_true",
        help="store each unit's run time in .ci/doctest-timings.json for the CI partition",
    )
    parser.add_argument(
        "--no-server",
        action="store_true",
        help="run here even when a doctest server (make doctest-server) is running",
    )


def parse_shard(text: str) -> tuple[int, int]:
    from jaxbook.doctest import shard

    return shard.parse_shard(text)


def docname_of(root: Path, page: str) -> str:
    path = Path(page).resolve()
    docs = root / "docs"
    if not path.is_relative_to(docs) or path.suffix not in project.SOURCE_SUFFIX:
        raise SystemExit(f"{page}: not a page of the book (docs/**/*.rst or docs/**/*.md)")
    return path.relative_to(docs).with_suffix("").as_posix()


@dataclass
class Executors:
    """Where a run reads the languages and runs the units."""

    read: Callable[[Spec, str], Future]
    pool: Executor
    size: int


def run(args: argparse.Namespace) -> int:
    root = project.root()
    builddir = args.builddir.resolve()
    environment = doctest_environment(os.environ, root)
    if not args.no_server:
        answered = client.ask(root, builddir, args, environment)
        if answered is not None:
            return answered
    from jaxbook.doctest.units import read_language, start_worker

    # Workers start on demand, so a run that finds everything cached starts
    # only the readers, and the readers go on to run units.
    pool_size = worker_count(args.jobs, 1 << 16)
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=pool_size,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=start_worker,
        initargs=(environment,),
    )
    with pool:
        executors = Executors(
            read=lambda spec, language: pool.submit(read_language, spec, language),
            pool=pool,
            size=pool_size,
        )
        return run_with(args, root, environment, executors)


def run_with(
    args: argparse.Namespace, root: Path, environment: dict[str, str], executors: Executors
) -> int:
    """One doctest run: read, look up the cache, run what is left, print the verdict.

    One run at a time on a build directory: two would read into the same
    doctrees and write the same cache entries and verdict.
    """
    from jaxbook.files import exclusive

    def waiting() -> None:
        print("doctest: another doctest run on this build directory; waiting for it", flush=True)

    with exclusive(args.builddir.resolve() / "doctest" / "run.lock", waiting):
        return _run(args, root, environment, executors)


def _run(
    args: argparse.Namespace, root: Path, environment: dict[str, str], executors: Executors
) -> int:
    from jaxbook.doctest import cache, shard
    from jaxbook.doctest.results import UnitResult
    from jaxbook.doctest.units import run_unit
    from jaxbook.doctest.verdict import Verdict

    builddir = args.builddir.resolve()
    spec = spec_from_sphinxopts(root, builddir, args.sphinxopts)
    only = [docname_of(root, page) for page in args.only]
    shard_text = f"{args.shard[0]}/{args.shard[1]}" if args.shard else ""
    verdict = Verdict(languages=list(args.languages), shard=shard_text)
    timings_path = root / shard.TIMINGS
    timings = shard.load_timings(timings_path)

    pool, pool_size = executors.pool, executors.size
    reads = {lang: executors.read(spec, lang) for lang in args.languages}
    docnames: dict[str, list[str]] = {}
    dependencies: dict[str, dict[str, list[str]]] = {}
    backends = set()
    for language, future in reads.items():
        try:
            read = future.result()
        except Exception as error:  # a broken conf.py, an extension's exception
            verdict.errors.append(f"docs: the {language} pages could not be read: {error}")
            continue
        if read["warnings"]:
            verdict.errors.append(
                f"docs: reading the {language} pages warned:\n{read['warnings'].rstrip()}"
            )
        docnames[language] = read["docnames"]
        dependencies[language] = read["dependencies"]
        backends.add(read["backend"])
    verdict.backend = " ".join(sorted(backends))
    for page in only:
        if not all(page in names for names in docnames.values()):
            verdict.errors.append(f"{project.page_name(root, page)}: no such page")
    planned = [
        (language, docname)
        for language, names in docnames.items()
        for docname in names
        if not only or docname in only
    ]
    verdict.planned = planned
    mine = planned
    if args.shard:
        index, total = args.shard
        mine = shard.partition(planned, total, timings)[index - 1]

    results = cache.ResultCache(builddir / "doctest-cache")
    shared = cache.shared_key(root, environment, verdict.backend)
    keys = {
        (language, docname): cache.unit_key(
            root, shared, language, docname, dependencies[language][docname]
        )
        for language, docname in mine
    }
    to_run = []
    for unit in mine:
        hit = None if args.force else results.get(*unit, keys[unit])
        if hit is None:
            to_run.append(unit)
        else:
            verdict.units.append(hit)

    workers = min(pool_size, len(to_run) or 1)
    started = time.perf_counter()
    leaders, followers = schedule(to_run, timings)
    futures = {pool.submit(run_unit, spec, *unit): unit for unit in leaders}
    pending = set(futures)
    unstarted: list[tuple[str, str]] = []
    while pending:
        done, pending = concurrent.futures.wait(
            pending, return_when=concurrent.futures.FIRST_COMPLETED
        )
        for future in done:
            for unit in followers.get(futures[future], []):
                try:
                    follower = pool.submit(run_unit, spec, *unit)
                except BrokenProcessPool:
                    unstarted.append(unit)
                    continue
                futures[follower] = unit
                pending.add(follower)
    for language, docname in unstarted:
        result = UnitResult(language=language, docname=docname, setup_failures=1)
        result.warnings = "not run: a worker process died and took the pool with it"
        verdict.units.append(result)
    for future in futures:
        language, docname = futures[future]
        try:
            result = future.result()
        except BrokenProcessPool as error:
            result = UnitResult(language=language, docname=docname, setup_failures=1)
            result.warnings = f"the worker process running it died: {error}"
        except Exception as error:
            result = UnitResult(language=language, docname=docname, setup_failures=1)
            result.warnings = f"{type(error).__name__}: {error}"
        result.key = keys[(language, docname)]
        results.put(result)
        verdict.units.append(result)
        if result.clean:
            timings[(language, docname)] = result.seconds
    elapsed = time.perf_counter() - started

    if args.record_timings and not only and not args.shard:
        shard.save_timings(timings_path, timings)
    if to_run:
        print(f"doctest: {len(to_run)} units in {elapsed:.1f} s on {workers} workers")
    ok = verdict.print(check_equal_counts=not args.shard)
    default_json = (
        f"shards/shard-{args.shard[0]}-of-{args.shard[1]}.json" if args.shard else "verdict.json"
    )
    verdict.write(args.json or builddir / "doctest" / default_json)
    return 0 if ok else 1
