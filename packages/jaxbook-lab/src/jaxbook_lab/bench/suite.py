"""Measure what authors, translators and readers wait for; print a table and JSON.

    jaxbook-lab bench [--runs 3] [--out _build/bench.json] [--skip-setup]
                  [--chapters 1,4,16] [--skip-scale | --only-scale]
                  [--skip-lighthouse] [--skip-make-test | --only-make-test]

Every figure is the median of ``--runs`` runs (at least 3 for a report), and
every ratio is taken between figures measured in this same run. Targets:

- doctest: wall time of ``make doctest`` (zh + en) over the floor, one plain
  Python run of all code cells (each page in a fresh namespace, one process,
  no persistent compilation cache); cold (no doctrees, empty compilation
  cache), target <= 1.0, and warm, target <= 1.3.
- build: clean ``html`` of both languages over one language, target <= 1.5;
  incremental rebuild after one English msgstr edit over a clean build of that
  language, target <= 0.10.
- pages: bytes, requests and first contentful paint of every chapter page in
  both languages in headless Chromium on a localhost server; targets <= 500 KB,
  <= 25 requests, 0 third-party requests; the size of each search index.
- Lighthouse (``jaxbook_lab.lighthouse``): every page of a deploy build of
  both languages, one audit each; the lowest score of each category, targets
  SEO, accessibility and best practices 100, performance >= 95 (mobile
  throttling). ``--skip-lighthouse`` leaves it out.
- scale (``jaxbook_lab.bench.scale``): synthetic courses of ``--chapters``
  chapters: clean doctest and its growth per chapter, what running the
  languages side by side gains (target <= 0.6), ``make doctest`` after one
  page edit over that page's floor (target <= 1.5) and over ``--force``
  (target <= 0.5), the live preview's verdict after one page edit over that
  page's floor (target <= 1.3), clean html, html after one page or one msgstr
  edit over clean (target <= 0.10); and the translator's preview, ``.po``
  save to reload in Chromium (target <= 1 s median).
- ``make test`` on a fresh clone (``jaxbook_lab.bench.suite.make_test_seconds``): its
  targets in its order, each timed, once; targets <= 240 s on the 2-core machine,
  and <= 180 s of it for pytest.
  ``--skip-make-test`` leaves it out, ``--only-make-test`` measures only it.
- setup and memory: a fresh clone to a built site with warm package caches,
  the installer (uv) against pip on the same lock, and the peak RSS of one
  doctest process.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jaxbook import project
from jaxbook.doctest.environment import doctest_environment
from jaxbook.site.build import html_command
from jaxbook.testing.browser import chromium
from jaxbook_lab.bench import scale

ROOT = project.root()
PY = sys.executable
LANGS = list(project.languages())


def timed(command: list[str], **kwargs) -> float:
    start = time.perf_counter()
    subprocess.run(
        command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs
    )
    return time.perf_counter() - start


def median(values: list[float]) -> float:
    return statistics.median(values)


def env(language: str | None = None) -> dict[str, str]:
    return doctest_environment(os.environ, ROOT, language)


# -- doctest against its floor -------------------------------------------------


def floor_seconds() -> float:
    # A plain run: without JAX's persistent compilation cache, which is one of
    # the ways `make doctest` itself gets faster.
    environment = {**env(), "JAX_COMPILATION_CACHE_DIR": ""}
    out = subprocess.run(
        [PY, "-m", "jaxbook_lab.bench.floor"],
        check=True,
        capture_output=True,
        text=True,
        env=environment,
        cwd=ROOT,
    ).stdout
    return float(out.strip().splitlines()[-1])


def doctest_seconds(builddir: Path, cache: Path | None) -> tuple[float, int]:
    """A ``--force`` doctest of the book (these rows time reading and running every page),
    with ``cache`` as JAX's persistent compilation cache or none; its seconds and the peak
    memory of a process it started."""
    seconds, _output = scale.doctest_run(
        ROOT, builddir, "--force", cache="" if cache is None else cache
    )
    return seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


# `make drift` against `make doctest`: the newest 0.4 release, which runs on this Python.
DRIFT_RELEASE = "0.4.38"


def drift_seconds(out: Path) -> float:
    """One `jaxbook-lab drift` of both languages; the first call also makes the environment."""
    command = [PY, "-m", "jaxbook_lab", "drift", "--jax", DRIFT_RELEASE, "--out", str(out), *LANGS]
    return timed(command, cwd=ROOT)


def import_jax_seconds(empty_pycache: Path | None) -> float:
    """Start Python and import JAX; given an empty pycache prefix, from source every time."""
    environment = dict(os.environ)
    if empty_pycache is not None:
        empty_pycache.mkdir()
        environment.update(PYTHONPYCACHEPREFIX=str(empty_pycache), PYTHONDONTWRITEBYTECODE="1")
    return timed([PY, "-m", "jaxbook_lab.bench.import_jax"], env=environment)


# -- builds --------------------------------------------------------------------


def html(project_root: Path, language: str, out: Path, *extra: str) -> list[str]:
    return html_command(
        project_root, language, out / language, out / "doctrees" / language, "-q", *extra
    )


def html_build(builddir: Path, languages: list[str]) -> float:
    """Build the given languages the way `make html` does (concurrently)."""
    start = time.perf_counter()
    processes = [
        subprocess.Popen(
            html(ROOT, lang, builddir),
            env=env(lang),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for lang in languages
    ]
    if any(p.wait() for p in processes):
        sys.exit("html build failed")
    return time.perf_counter() - start


def english_build(project: Path, *extra: str) -> float:
    """Build the English site of a copy of the project; return the seconds it took."""
    return timed(html(project, "en", project / "_b", *extra), env=env("en"))


def incremental_seconds(project: Path) -> float:
    """Edit one English msgstr in a copy, rebuild English, restore."""
    catalog = project / "locale/en/LC_MESSAGES/ch01/quiz.po"
    text = catalog.read_text(encoding="utf-8")
    # A paragraph, not a title: a title change rightly rewrites every page's navigation.
    marker = scale.marker(catalog)
    catalog.write_text(text.replace(marker, marker + " (edited)", 1), encoding="utf-8")
    seconds = english_build(project)
    catalog.write_text(text, encoding="utf-8")
    english_build(project)
    return seconds


# -- pages ---------------------------------------------------------------------


def page_figures(site: Path, runs: int) -> dict[str, dict[str, float]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [PY, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    driver = chromium(Path(tempfile.mkdtemp()), console=False)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    time.sleep(0.5)
    figures = {}
    try:
        for lang in LANGS:
            for page in sorted((site / lang).glob("ch*/*.html")):
                url = f"http://127.0.0.1:{port}/{lang}/{page.parent.name}/{page.name}"
                samples = []
                for _ in range(runs):
                    driver.get_log("performance")
                    driver.get(url)
                    time.sleep(0.3)
                    fcp = driver.execute_script(
                        "const e = performance.getEntriesByName('first-contentful-paint')[0];"
                        "return e ? e.startTime : null;"
                    )
                    sizes: dict[str, float] = {}  # request id -> bytes (CDP: a number)
                    hosts: set[str] = set()
                    for entry in driver.get_log("performance"):
                        message = json.loads(entry["message"])["message"]
                        params = message.get("params", {})
                        if message["method"] == "Network.requestWillBeSent":
                            request_url = params["request"]["url"]
                            if not request_url.startswith("data:"):
                                sizes.setdefault(params["requestId"], 0)
                                hosts.add(re.sub(r"^\w+://([^/]+).*", r"\1", request_url))
                        elif (
                            message["method"] == "Network.loadingFinished"
                            and params["requestId"] in sizes
                        ):
                            sizes[params["requestId"]] = params["encodedDataLength"]
                    samples.append(
                        (
                            sum(sizes.values()),
                            len(sizes),
                            fcp or 0.0,
                            len(hosts - {f"127.0.0.1:{port}"}),
                        )
                    )
                figures[f"{lang}/{page.parent.name}/{page.stem}"] = {
                    "kb": median([s[0] for s in samples]) / 1024,
                    "requests": median([s[1] for s in samples]),
                    "fcp_ms": median([s[2] for s in samples]),
                    "third_party": max(s[3] for s in samples),
                }
    finally:
        driver.quit()
        server.terminate()
    return figures


def heaviest_assets(site: Path) -> list[tuple[str, int]]:
    static = site / "en" / "_static"
    files = [
        (str(p.relative_to(site / "en")), p.stat().st_size)
        for p in static.rglob("*")
        if p.is_file()
    ]
    return sorted(files, key=lambda f: -f[1])[:5]


# -- setup ---------------------------------------------------------------------


def uv_sync_seconds(venv: Path, *extra: str) -> float:
    """Install the lock into a new environment with uv, as `make venv` does."""
    environment = {
        **os.environ,
        "UV_PROJECT_ENVIRONMENT": str(venv),
        "UV_PYTHON_DOWNLOADS": "never",
    }
    start = time.perf_counter()
    subprocess.run(
        [str(ROOT / ".tools/bin/uv"), "sync", "--frozen", "--quiet", *extra],
        check=True,
        cwd=ROOT,
        env=environment,
    )
    return time.perf_counter() - start


def setup_seconds(runs: int) -> tuple[list[float], list[float], list[float], list[float]]:
    uv, pip, uv_sync, uv_sync_plain = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs):
            clone = Path(tmp, f"clone{i}")
            subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
            uv.append(timed(["make", "-s", "html"], cwd=clone))
        requirements = Path(tmp, "requirements.txt")
        subprocess.run(
            [
                str(ROOT / ".tools/bin/uv"),
                "export",
                "--frozen",
                "--all-groups",
                "--no-emit-project",
                "-o",
                str(requirements),
            ],
            check=True,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
        )
        for i in range(runs):
            venv = Path(tmp, f"pipvenv{i}")
            start = time.perf_counter()
            subprocess.run(
                [PY.replace(".venv/bin/python", ".venv/bin/python"), "-m", "venv", str(venv)],
                check=True,
            )
            subprocess.run(
                [
                    str(venv / "bin/pip"),
                    "install",
                    "-q",
                    "--require-hashes",
                    "-r",
                    str(requirements),
                ],
                check=True,
                stdout=subprocess.DEVNULL,
            )
            pip.append(time.perf_counter() - start)
            uv_sync.append(uv_sync_seconds(Path(tmp, f"uvvenv{i}"), "--compile-bytecode"))
            uv_sync_plain.append(uv_sync_seconds(Path(tmp, f"uvplain{i}")))
    return uv, pip, uv_sync, uv_sync_plain


# What to try next where a row misses its target, by the row's name (or its name's end, for
# the course rows).
NEXT_LEVER = {
    "doctest zh+en cold / floor": (
        "each language reads every page before it runs it, and compiles every program; the "
        "second language could find the first's programs in "
        "JAX's persistent compilation cache by following it page by page (its entries are "
        "written without a lock, so not side by side on the same page)"
    ),
    "translator preview: .po save to page reloaded": (
        "the rebuild writes three pages (the page and two that refer to it); their writing was "
        "about two thirds of it"
    ),
    "doctest after one page edit / its floor": (
        "answered by the warm processes (jaxbook.doctest.warm), the rest is Sphinx's: the "
        "pages read, and run, again with the edited one (every chapter's, at 16 chapters), "
        "and the figure numbering, which unpickles every doctree after any page is read; "
        "read fewer dependent pages again, then number only what changed"
    ),
    "doctest after one page edit / --force": (
        "more pages than the edited one are read again: see which (sphinx-build -v names why "
        "each is read) and what marks them outdated"
    ),
    "livehtml verdict after one page edit / its floor": (
        "time the rebuild part by part: the reading of the page and of the pages that depend "
        "on it, against the run of its code"
    ),
    "doctest languages side by side / in turn": (
        "each language reads all its chapters before its first page runs; run a language's "
        "pages as they are read"
    ),
    "html both / one": (
        "the two languages' builds share two cores with the rest of the machine; a figure "
        "under load says little, so run it again on a quiet machine first"
    ),
    "incremental en rebuild after one msgstr / clean": (
        "a new sphinx-build pays its start-up before any work; the long-lived builder of "
        "make livehtml does not (the course rows' html after one msgstr)"
    ),
    "make test on a fresh clone (one run)": (
        "pytest is most of it: the new-chapter test's EPUB and LaTeX could share one doctree "
        "directory, and the deploy build's SEO checks could run on a small root"
    ),
    "of which make pytest": (
        "about 480 s of test time on two workers: the new-chapter test (about 126 s) and the "
        "deploy build (about 38 s) first"
    ),
}


# What `make test` runs after its preflight, one make at a time so that each is timed.
TEST_TARGETS = [
    ["html"],
    ["pdf"],
    ["epub"],
    ["doctest"],
    ["check-po"],
    ["pytest", "TESTED_BUILD=_build"],
    ["lint"],
]
MAKE_TEST_TARGET_S = 240
PYTEST_TARGET_S = 180


def make_test_seconds() -> dict[str, float]:
    """`make test`'s targets on a fresh clone, in its order, each timed (the first one makes
    the environments from warm caches); the system's packages are already installed."""
    seconds = {}
    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp, "clone")
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        outer = {k: v for k, v in os.environ.items() if k not in {"MAKEFLAGS", "MAKELEVEL"}}
        for target in TEST_TARGETS:
            start = time.perf_counter()
            result = subprocess.run(
                ["make", "-s", *target, "INSTALL=0"],
                cwd=clone,
                env=outer,
                capture_output=True,
                text=True,
            )
            if result.returncode:
                tail = (result.stdout + result.stderr)[-3000:]
                raise SystemExit(f"make {' '.join(target)} failed on a fresh clone:\n{tail}")
            seconds[target[0]] = time.perf_counter() - start
    return seconds


def make_test_rows(report: dict, row) -> None:
    seconds = make_test_seconds()
    total = sum(seconds.values())
    row(
        "make test on a fresh clone (one run)",
        total,
        "s",
        f"<= {MAKE_TEST_TARGET_S}",
        total <= MAKE_TEST_TARGET_S,
    )
    for target, value in seconds.items():
        if target == "pytest":
            ok = value <= PYTEST_TARGET_S
            row(f"  of which make {target}", value, "s", f"<= {PYTEST_TARGET_S}", ok)
        else:
            row(f"  of which make {target}", value, "s")
    report["make_test_s"] = seconds


def single_book_rows(runs: int, report: dict, row) -> None:
    """The figures of the book itself: doctest, builds, pages."""
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        floor = [floor_seconds() for _ in range(runs)]
        cold, warm, warm_nocache, peaks = [], [], [], []
        for i in range(runs):
            cache = tmp / f"jaxcache{i}"
            seconds, peak = doctest_seconds(tmp / f"dt{i}", cache)
            cold.append(seconds)
            peaks.append(peak)
            warm.append(doctest_seconds(tmp / f"dt{i}", cache)[0])
            warm_nocache.append(doctest_seconds(tmp / f"dt{i}", None)[0])
        f, c, w, wn = median(floor), median(cold), median(warm), median(warm_nocache)
        row("floor: all code cells, one process", f, "s")
        row("doctest zh+en cold / floor", c / f, "x", "<= 1.0", c / f <= 1.0)
        row("doctest zh+en warm / floor", w / f, "x", "<= 1.3", w / f <= 1.3)
        row("doctest warm, no compilation cache / floor", wn / f, "x")
        row("peak RSS of one doctest process", max(peaks) / 1024, "MiB")
        drift = [drift_seconds(tmp / "drift") for _ in range(runs)]
        row(f"drift on JAX {DRIFT_RELEASE}, first run (makes its environment)", drift[0], "s")
        row(
            f"drift on JAX {DRIFT_RELEASE}, environment made / doctest warm",
            median(drift[1:] or drift) / w,
            "x",
        )
        compiled = [import_jax_seconds(None) for _ in range(runs)]
        source = [import_jax_seconds(tmp / f"nopyc{i}") for i in range(runs)]
        row("import jax, bytecode compiled at install", median(compiled), "s")
        row("import jax, compiled on import (no .pyc)", median(source), "s")
        report["doctest"] = {
            "floor_s": floor,
            "cold_s": cold,
            "warm_s": warm,
            "warm_nocache_s": warm_nocache,
            "peak_rss_kb": peaks,
            "import_jax_compiled_s": compiled,
            "import_jax_from_source_s": source,
            "drift_s": drift,
        }

        both = [html_build(tmp / f"b{i}", LANGS) for i in range(runs)]
        one = [html_build(tmp / f"o{i}", ["en"]) for i in range(runs)]
        row("html both languages (clean)", median(both), "s")
        row(
            "html both / one",
            median(both) / median(one),
            "x",
            "<= 1.5",
            median(both) / median(one) <= 1.5,
        )
        copy = tmp / "project"
        copy.mkdir()
        for name in project.BOOK_FILES:
            src = ROOT / name
            (shutil.copytree if src.is_dir() else shutil.copy2)(src, copy / name)
        clean_en = [english_build(copy, "-E") for _ in range(runs)]
        incremental = [incremental_seconds(copy) for _ in range(runs)]
        ratio = median(incremental) / median(clean_en)
        row("incremental en rebuild after one msgstr / clean", ratio, "x", "<= 0.10", ratio <= 0.10)
        report["build"] = {
            "both_s": both,
            "one_s": one,
            "clean_en_s": clean_en,
            "incremental_s": incremental,
        }

        site = tmp / "b0"
        pages = page_figures(site, runs)
        worst_kb = max(p["kb"] for p in pages.values())
        worst_requests = max(p["requests"] for p in pages.values())
        third = sum(p["third_party"] for p in pages.values())
        row("largest page transfer", worst_kb, "KB", "<= 500", worst_kb <= 500)
        row("most requests on a page", worst_requests, "", "<= 25", worst_requests <= 25)
        row("third-party requests, all pages", third, "", "0", third == 0)
        row("slowest first contentful paint", max(p["fcp_ms"] for p in pages.values()), "ms")
        for lang in LANGS:
            row(
                f"search index {lang}", (site / lang / "searchindex.js").stat().st_size / 1024, "KB"
            )
        report["pages"] = pages
        report["heaviest_assets"] = heaviest_assets(site)


# -- Lighthouse ----------------------------------------------------------------


def lighthouse_rows(report: dict, row) -> None:
    """Lighthouse on every page of a deploy build (one audit per page: about 15 s each)."""
    from jaxbook_lab.lighthouse import TARGETS

    with tempfile.TemporaryDirectory() as tmp:
        scores_file = Path(tmp, "scores.json")
        process = subprocess.run(
            [PY, "-m", "jaxbook_lab", "lighthouse", "--builddir", tmp, "--out", str(scores_file)],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        if not scores_file.exists():
            sys.exit(f"Lighthouse did not run:\n{process.stdout[-2000:]}{process.stderr[-2000:]}")
        pages = json.loads(scores_file.read_text(encoding="utf-8"))
    failed = [page for page, audit in pages.items() if audit["error"]]
    row("Lighthouse: pages audited, both languages", len(pages), "", "all", not failed)
    for category, target in TARGETS.items():
        lowest = min(audit["scores"].get(category, 0) for audit in pages.values())
        worst = min(pages, key=lambda page: pages[page]["scores"].get(category, 0))
        row(
            f"Lighthouse {category}, lowest page ({worst})",
            lowest,
            "",
            f">= {target}",
            lowest >= target,
        )
    report["lighthouse"] = pages


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path("_build") / "bench.json")
    parser.add_argument("--skip-setup", action="store_true", help="leave out the install figures")
    parser.add_argument(
        "--chapters",
        default="1,4,16",
        help="sizes of the synthetic courses, comma-separated (default 1,4,16)",
    )
    parser.add_argument(
        "--skip-scale", action="store_true", help="leave out the synthetic courses and preview"
    )
    parser.add_argument(
        "--skip-lighthouse", action="store_true", help="leave out Lighthouse (about 10 minutes)"
    )
    only = parser.add_mutually_exclusive_group()
    only.add_argument(
        "--only-scale", action="store_true", help="measure only the synthetic courses and preview"
    )
    only.add_argument(
        "--only-make-test", action="store_true", help="measure only `make test` on a fresh clone"
    )
    only.add_argument(
        "--skip-make-test",
        action="store_true",
        help="leave out `make test` on a fresh clone (about 10 minutes)",
    )


def run(args: argparse.Namespace) -> int:
    runs = args.runs
    report: dict = {"runs": runs}
    rows = []
    levers: list[str] = []

    def row(name, value, unit, target=None, ok=None):
        rows.append((name, value, unit, target, ok))
        lever = next((text for end, text in NEXT_LEVER.items() if name.endswith(end)), None)
        if ok is False and lever:
            levers.append(f"{name}: {lever}")

    only = args.only_scale or args.only_make_test
    if not only:
        single_book_rows(runs, report, row)

    if not (only or args.skip_lighthouse):
        lighthouse_rows(report, row)

    if not (args.skip_make_test or args.only_scale):
        make_test_rows(report, row)

    if not (args.skip_scale or args.only_make_test):
        preview = scale.preview_seconds(ROOT, max(runs, 3))
        row(
            "translator preview: .po save to page reloaded",
            median(preview),
            "s",
            "<= 1",
            median(preview) <= 1,
        )
        sizes = sorted({int(n) for n in args.chapters.split(",") if n.strip()})
        courses = []
        with tempfile.TemporaryDirectory() as tmp:
            for n in sizes:
                courses.append(scale.measure_course(Path(tmp), n, runs, serial=True))
                print(f"course of {n} chapters measured", flush=True)
        scale.rows_for(courses, row)
        report["scale"] = {"preview_s": preview, "courses": courses}

    if not (args.skip_setup or only):
        uv, pip, uv_sync, uv_plain = setup_seconds(runs)
        row("fresh clone to built site (uv, warm cache)", median(uv), "s")
        row("install the lock: pip (compiles bytecode)", median(pip), "s")
        row("install the lock: uv sync --compile-bytecode", median(uv_sync), "s")
        row("install the lock: uv sync, no bytecode", median(uv_plain), "s")
        row("pip / uv, both compiling bytecode", median(pip) / median(uv_sync), "x")
        report["setup"] = {
            "clone_to_site_s": uv,
            "pip_install_s": pip,
            "uv_sync_compile_s": uv_sync,
            "uv_sync_plain_s": uv_plain,
        }

    args.out.parent.mkdir(parents=True, exist_ok=True)
    report["table"] = [list(r) for r in rows]
    args.out.write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(f"{'figure':<58} {'value':>10}  {'target':>8}  verdict")
    for name, value, unit, target, ok in rows:
        verdict = "" if ok is None else ("PASS" if ok else "MISS")
        print(f"{name:<58} {value:>9.2f}{unit:<1}  {target or '':>8}  {verdict}")
    for lever in levers:
        print(f"MISS, next lever: {lever}")
    print(f"(medians of {runs} runs; JSON in {args.out})")
    return 0
