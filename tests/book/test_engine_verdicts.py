"""On every page of the book, in every language, the engine and the doctest builder agree.

``make doctest`` runs the pages with ``sphinx.ext.doctest``'s builder; refresh,
the measured outputs, the bench floor, drift and the GPU bundle run them with
:mod:`jaxbook.doctest.engine`. Each language is read once, in a process of its
own with the doctest environment (as a doctest worker is), and each page is
run by both: their counts must be equal, and every page must pass.

Run as a script (``python tests/book/test_engine_verdicts.py LANGUAGE``), it
prints the counts of both, page by page, as JSON.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COUNTS = ("total_tries", "total_failures", "setup_failures", "cleanup_failures")


def both_counts(language: str) -> dict[str, list[list[int]]]:
    from jaxbook.doctest import environment

    environment.apply(ROOT)
    from jaxbook.doctest.pages import run_doctree
    from jaxbook.doctest.units import bring_up_to_date
    from jaxbook.sphinxapp import application

    with tempfile.TemporaryDirectory() as tmp:
        app = application(
            ROOT / "docs",
            ROOT,
            Path(tmp) / "out",
            Path(tmp) / "doctrees",
            "doctest",
            language,
            status=None,
            warning=io.StringIO(),
        )
        bring_up_to_date(app)
        builder = app.builder
        pages = {}
        for docname in sorted(app.env.found_docs):
            builder.outfile = io.StringIO()
            before = [getattr(builder, name) for name in COUNTS]
            builder.test_doc(docname, app.env.get_doctree(docname))
            by_builder = [
                getattr(builder, name) - was for name, was in zip(COUNTS, before, strict=True)
            ]
            result = run_doctree(app, docname)[0]
            by_engine = [
                result.tries,
                result.failures,
                result.setup_failures,
                result.cleanup_failures,
            ]
            pages[docname] = [by_builder, by_engine]
        return pages


def test_the_engine_and_the_doctest_builder_agree_on_every_page() -> None:
    from jaxbook.project import languages as book_languages

    languages = list(book_languages(ROOT))

    def run(language: str) -> subprocess.CompletedProcess:
        command = [sys.executable, __file__, language]
        return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=900)

    # One process a language, side by side: each reads and runs the book twice.
    with ThreadPoolExecutor(len(languages)) as pool:
        children = dict(zip(languages, pool.map(run, languages), strict=True))
    for language, child in children.items():
        assert child.returncode == 0, (language, child.stderr)
        pages = json.loads(child.stdout)
        assert sum(builder[0] for builder, _ in pages.values()) > 0, language
        for docname, (by_builder, by_engine) in pages.items():
            assert by_engine == by_builder, (language, docname)
            assert by_builder[1:] == [0, 0, 0], (language, docname)


if __name__ == "__main__":
    print(json.dumps(both_counts(sys.argv[1])))
