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

A run is asked for as a ``jaxbook.doctest.request.RunRequest``, here or by
the doctest server (``jaxbook.doctest.server``), and made in four steps:
``plan`` (read the languages, pick the units), ``look_up`` (the cache),
``execute`` (the pool) and ``report`` (the verdict and its JSON).

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from jaxbook import project
from jaxbook.doctest import client
from jaxbook.doctest.environment import doctest_environment
from jaxbook.doctest.request import RunRequest

if TYPE_CHECKING:
    from jaxbook.doctest.cache import ResultCache
    from jaxbook.doctest.results import UnitResult
    from jaxbook.doctest.units import Spec
    from jaxbook.doctest.verdict import Verdict

Unit = tuple[str, str]  # (language, docname)

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
    request = RunRequest.from_args(args, root, doctest_environment(os.environ, root))
    if not args.no_server:
        answered = client.ask(request)
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
        initargs=(dict(request.environment),),
    )
    with pool:
        executors = Executors(
            read=lambda spec, language: pool.submit(read_language, spec, language),
            pool=pool,
            size=pool_size,
        )
        return run_with(request, executors)


def run_with(request: RunRequest, executors: Executors) -> int:
    """One doctest run: plan it, look up the cache, run what is left, print the verdict.

    One run at a time on a build directory: two would read into the same
    doctrees and write the same cache entries and verdict.
    """
    from jaxbook.files import exclusive

    def waiting() -> None:
        print("doctest: another doctest run on this build directory; waiting for it", flush=True)

    with exclusive(request.builddir / "doctest" / "run.lock", waiting):
        planned = plan(request, executors)
        to_run = look_up(request, planned)
        started = time.perf_counter()
        ran, unstarted = execute(planned, to_run, executors)
        planned.verdict.units.extend(unstarted)
        for result in ran:
            record(planned, result)
        return report(request, planned, to_run, time.perf_counter() - started, executors.size)


@dataclass
class Plan:
    """What a run will test: its units, their cache keys, and the verdict it fills in."""

    spec: Spec
    verdict: Verdict
    mine: list[Unit]  # this shard's units (all planned units without --shard)
    only: list[str]  # the docnames of --only
    dependencies: dict[str, dict[str, list[str]]]  # language -> docname -> files it reads
    timings: dict[Unit, float]
    timings_path: Path
    results: ResultCache
    keys: dict[Unit, str] = field(default_factory=dict)


def plan(request: RunRequest, executors: Executors) -> Plan:
    """Read every language (the readers say which pages there are) and pick this run's units."""
    from jaxbook.doctest import cache, shard
    from jaxbook.doctest.verdict import Verdict

    root = request.root
    spec = spec_from_sphinxopts(root, request.builddir, request.sphinxopts)
    only = [docname_of(root, str(page)) for page in request.only]
    verdict = Verdict(languages=list(request.languages), shard=request.shard_text)
    timings_path = root / shard.TIMINGS
    timings = shard.load_timings(timings_path)

    reads = {lang: executors.read(spec, lang) for lang in request.languages}
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
    verdict.planned = [
        (language, docname)
        for language, names in docnames.items()
        for docname in names
        if not only or docname in only
    ]
    mine = verdict.planned
    if request.shard:
        index, total = request.shard
        mine = shard.partition(verdict.planned, total, timings)[index - 1]
    return Plan(
        spec=spec,
        verdict=verdict,
        mine=mine,
        only=only,
        dependencies=dependencies,
        timings=timings,
        timings_path=timings_path,
        results=cache.ResultCache(request.builddir / "doctest-cache"),
    )


def look_up(request: RunRequest, planned: Plan) -> list[Unit]:
    """Key every unit; a cached pass goes into the verdict, the rest is returned to be run."""
    from jaxbook.doctest import cache

    root = request.root
    shared = cache.shared_key(root, request.environment, planned.verdict.backend)
    planned.keys = {
        (language, docname): cache.unit_key(
            root, shared, language, docname, planned.dependencies[language][docname]
        )
        for language, docname in planned.mine
    }
    to_run = []
    for unit in planned.mine:
        hit = None if request.force else planned.results.get(*unit, planned.keys[unit])
        if hit is None:
            to_run.append(unit)
        else:
            planned.verdict.units.append(hit)
    return to_run


def execute(
    planned: Plan, to_run: list[Unit], executors: Executors
) -> tuple[list[UnitResult], list[UnitResult]]:
    """Run the units on the pool, each page's other languages after its first.

    Returns the results of the units that ran, keyed, and those of the units
    that never started because a worker died and took the pool with it. A unit
    whose worker died is a setup failure that says so.
    """
    from jaxbook.doctest.results import UnitResult
    from jaxbook.doctest.units import run_unit

    pool, spec = executors.pool, planned.spec
    leaders, followers = schedule(to_run, planned.timings)
    futures = {pool.submit(run_unit, spec, *unit): unit for unit in leaders}
    pending = set(futures)
    unstarted: list[Unit] = []
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
    never = []
    for language, docname in unstarted:
        result = UnitResult(language=language, docname=docname, setup_failures=1)
        result.warnings = "not run: a worker process died and took the pool with it"
        never.append(result)
    results = []
    for future, unit in futures.items():
        result = _result_of(future, unit)
        result.key = planned.keys[unit]
        results.append(result)
    return results, never


def _result_of(future: Future, unit: Unit) -> UnitResult:
    from jaxbook.doctest.results import UnitResult

    try:
        return future.result()
    except BrokenProcessPool as error:
        warnings = f"the worker process running it died: {error}"
    except Exception as error:
        warnings = f"{type(error).__name__}: {error}"
    return UnitResult(language=unit[0], docname=unit[1], setup_failures=1, warnings=warnings)


def record(planned: Plan, result: UnitResult) -> None:
    """Put a result that ran into the verdict, the cache (a clean pass) and the timings."""
    planned.results.put(result)
    planned.verdict.units.append(result)
    if result.clean:
        planned.timings[(result.language, result.docname)] = result.seconds


def report(
    request: RunRequest, planned: Plan, to_run: list[Unit], elapsed: float, pool_size: int
) -> int:
    """Print the verdict, write its JSON (and the timings); the run's exit status."""
    from jaxbook.doctest import shard

    verdict = planned.verdict
    if request.record_timings and not planned.only and not request.shard:
        shard.save_timings(planned.timings_path, planned.timings)
    if to_run:
        workers = min(pool_size, len(to_run))
        print(f"doctest: {len(to_run)} units in {elapsed:.1f} s on {workers} workers")
    ok = verdict.print(check_equal_counts=not request.shard)
    default_json = (
        f"shards/shard-{request.shard[0]}-of-{request.shard[1]}.json"
        if request.shard
        else "verdict.json"
    )
    verdict.write(request.json_file or request.builddir / "doctest" / default_json)
    return 0 if ok else 1
