"""Carry the book's doctests to a machine that has Python and JAX but no docs toolchain.

    jaxbook-lab bundle export [-o DIR] zh_CN [en ...]
    jaxbook-lab bundle run [--record FILE] DIR/<language>.json [...]

``export`` reads the pages with Sphinx, exactly as ``make doctest`` does
(translations applied, snippets staged) but without running them, and writes
every doctest block of each language to ``DIR/<language>.json`` (default
``_build/doctest-bundle``):
its code, expected output, options, groups, ``:skipif:`` condition, file and
line. Conditions are stored, not evaluated, because they ask about the
machine that runs the tests (``ON_GPU``, ``unrecorded_on``).

``run`` needs only the standard library, JAX and what the pages import. It
runs each page with the book's one engine (:mod:`pagerun.engine`),
which groups and runs the blocks the way ``sphinx.ext.doctest`` does (one
namespace per group and page, the global setup first, ``testcode`` compiled
as ``exec``, the same option flags), reports each failure as
``docs/<page>.rst:<line>: doctest failed`` (``.md`` for a MyST page) with doctest's expected/got
report, and ends with ``N passed, N failed, N skipped``. A page that runs past its time
limit (``PAGERUN_PAGE_TIMEOUT``, as in a build) fails at the example it was running, and the
next page runs. It first says where it
runs: the backend, the device, the plugin that runs it, Python, JAX and
jaxlib. ``--record`` writes that, the verdict and what every block printed
(with its code), so that outputs for a new backend come from a real run. A
GPU or TPU machine with JAX installed can check the book this way without
installing Sphinx: ``make doctest-bundle`` also writes the wheels of the three
distributions this runner imports, ``jaxbook``, ``pagerun`` (the engine and kernel) and
``jaxbook-lab`` (this module), beside the bundles, which install there with
``pip install --no-deps``. The author's guide gives the whole route, offline wheels included.

Both files are declared in :mod:`jaxbook.formats`: a bundle is a
:class:`~jaxbook.formats.Bundle`, a record a :class:`~jaxbook.formats.Record`,
and every reader refuses a file of another format number or shape with one
sentence that names it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from jaxbook import formats, project
from jaxbook.formats import (
    BUNDLE_FORMAT,
    RECORD_FORMAT,
    Bundle,
    Machine,
    Page,
    Record,
    RecordedBlock,
    read_bundle,
)
from pagerun import engine, kernel
from pagerun.engine import FLAG_NAMES, Settings
from pagerun.verdict import Tally, text

DEFAULT_DIR = Path("_build") / "doctest-bundle"


# -- export (needs Sphinx) ---------------------------------------------------


def export_language(language: str, outdir: Path, srcdir: Path, confdir: Path) -> Path:
    from jaxbook.sphinxapp import read_pages
    from pagerun.pages import doctest_nodes_of, page_of

    with tempfile.TemporaryDirectory() as tmp:
        # Read to be carried elsewhere: the pages run where the bundle runs.
        app = read_pages(srcdir, confdir, language, Path(tmp), {"pagerun_run": False})
        config = app.config
        pages: list[Page] = []
        for docname in sorted(app.env.found_docs):
            page_nodes = doctest_nodes_of(app.env.get_doctree(docname), config)
            if page_nodes:
                source = app.env.doc2path(docname)
                pages.append(page_of(docname, page_nodes, config, confdir, source))
        bundle: Bundle = {
            "format": BUNDLE_FORMAT,
            "language": language,
            "flags": [
                name for value, name in FLAG_NAMES.items() if config.doctest_default_flags & value
            ],
            "global_setup": config.doctest_global_setup,
            "global_cleanup": config.doctest_global_cleanup,
            "pages": pages,
        }
    outdir.mkdir(parents=True, exist_ok=True)
    path = outdir / f"{language}.json"
    path.write_text(json.dumps(bundle, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path


# -- run (standard library and JAX only) --------------------------------------


def _platform(jaxlib_version: str) -> str:
    """What runs the backend: an installed PJRT plugin (libtpu, jax-cuda13-plugin), or
    jaxlib itself."""
    import importlib.metadata

    for dist in importlib.metadata.distributions():
        name = dist.metadata["Name"] or ""
        if name.startswith("libtpu") or (name.startswith("jax-") and "plugin" in name):
            return f"{name} {dist.version}"
    return f"jaxlib {jaxlib_version}"


def machine(verdict: str) -> Machine:
    """Where this process runs the pages, as a record keeps it."""
    import datetime
    import platform

    import jax
    import jaxlib
    import numpy

    return {
        "backend": jax.default_backend(),
        "device": jax.devices()[0].device_kind,
        "platform": _platform(jaxlib.__version__),
        "python": platform.python_version(),
        "jax": jax.__version__,
        "jaxlib": jaxlib.__version__,
        "numpy": numpy.__version__,
        "date": datetime.date.today().isoformat(),
        "verdict": verdict,
    }


class PageTimeout(Exception):
    """A page's code ran past the page's time limit."""


@contextlib.contextmanager
def time_limit(seconds: float):
    """The page's time limit (``PAGERUN_PAGE_TIMEOUT``, as in a build). A build runs pages in
    a kernel, which it kills at the limit; the bundle runs them in its own process, which
    holds the accelerator (one process at a time can hold a TPU) and says where it runs. So
    here a timer signal interrupts the example that is running, and the engine reports it
    at that example's line."""

    def expire(signum: int, frame: object) -> None:
        raise PageTimeout(f"the page's code did not finish within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_bundles(paths: list[Path], record: Path | None) -> int:
    from jaxbook.doctest import environment

    try:
        bundles = [read_bundle(path) for path in paths]
    except formats.FormatError as error:
        sys.exit(str(error))
    environment.apply(project.find_root() or Path.cwd())
    here = machine("")
    print(
        f"running on {here['backend']}: {here['device']}, {here['platform']}, "
        f"Python {here['python']}, JAX {here['jax']} (jaxlib {here['jaxlib']})"
    )
    tally, skipped = Tally(), 0
    records: dict[str, list[RecordedBlock]] = {}
    for path, bundle in zip(paths, bundles, strict=True):
        language = bundle["language"]
        settings = Settings.named(bundle["flags"], bundle["global_setup"], bundle["global_cleanup"])
        for page in bundle["pages"]:
            with time_limit(kernel.timeout_s()):
                result = engine.run(page, settings, unit=f"bundle {path}")
            for report in result.reports:
                print(f"[{language}] {text(report)}")
            tally += Tally.of([result])
            blocks = page["blocks"]
            skipped += sum(blocks[i]["type"] in ("testcode", "doctest") for i in result.skipped)
            records.setdefault(language, []).extend(result.printed)
    verdict = f"{tally}, {skipped} skipped"
    if record:
        written: Record = {
            "format": RECORD_FORMAT,
            "machine": {**here, "verdict": verdict},
            "blocks": records,
        }
        record.write_text(
            json.dumps(written, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
    print(verdict)
    return 1 if tally.failed else 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="action", required=True)
    export = commands.add_parser("export", help="write DIR/<language>.json (needs Sphinx)")
    export.add_argument("-o", "--outdir", type=Path, default=DEFAULT_DIR)
    export.add_argument(
        "--srcdir", type=Path, default=Path("docs"), help="the pages (default: docs)"
    )
    export.add_argument("languages", nargs="+")
    run = commands.add_parser("run", help="run bundles with Python and JAX alone")
    run.add_argument("--record", type=Path, help="write what every block printed to this JSON file")
    run.add_argument("bundles", nargs="+", type=Path)


def run(args: argparse.Namespace) -> int:
    if args.action == "run":
        return run_bundles(args.bundles, args.record)
    if len(args.languages) > 1:
        # One Sphinx application per process; the languages read side by side.
        children = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "jaxbook_lab",
                    "bundle",
                    "export",
                    "-o",
                    str(args.outdir),
                    "--srcdir",
                    str(args.srcdir),
                    language,
                ]
            )
            for language in args.languages
        ]
        return max(child.wait() for child in children)
    from jaxbook.doctest import environment

    srcdir = args.srcdir.resolve()
    confdir = srcdir if (srcdir / "conf.py").exists() else project.root()
    environment.apply(confdir)
    print(export_language(args.languages[0], args.outdir, srcdir, confdir))
    return 0
