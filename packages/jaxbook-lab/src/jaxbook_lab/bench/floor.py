"""The floor: every code cell of the Chinese pages run in one plain Python process.

    python -m jaxbook_lab.bench.floor [DOCNAME]

Each page runs with the engine, as a build runs it while it reads it
(:mod:`pagerun.engine`), but in one process, the source language
only, after the pages were read without running them; only the running of
the pages is timed, not the reading. Prints the seconds. Given a
DOCNAME (``ch01/quiz``), only that page runs: the floor of a ``make doctest``
after editing that page.
``make bench`` starts it in a new process with JAX's persistent compilation
cache turned off.
"""

from __future__ import annotations

import gc
import sys
import tempfile
import time
from pathlib import Path

from jaxbook import project
from jaxbook.project import SOURCE_LANGUAGE
from jaxbook.sphinxapp import read_pages
from pagerun import pages


def seconds(root: Path, only: str | None = None) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        app = read_pages(root / "docs", root, SOURCE_LANGUAGE, Path(tmp), {"pagerun_run": False})
        docnames = [only] if only else sorted(app.env.found_docs)
        # What reading left is no part of the run: a build runs pages in a kernel of their
        # own (pagerun.kernel), where the collector does not walk them. Unfrozen, full
        # collections over it would add to the floor, or not, as the collector's counts fall.
        gc.freeze()
        start = time.perf_counter()
        for docname in docnames:
            run, _nodes = pages.run(app, docname, unit="floor")
            if run.broken:
                # A page that fails stops early: its time is no floor.
                sys.exit(f"{docname}: the page fails, so it has no floor:\n{run.reports[0]}")
        return time.perf_counter() - start


if __name__ == "__main__":
    print(seconds(project.root(), sys.argv[1] if len(sys.argv) > 1 else None))
    sys.exit(0)
