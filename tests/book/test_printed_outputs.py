"""On every page of the book, in both languages, `make doctest` and `jaxbook refresh` report
the build's one run, and every expected output is what its code prints.

The build ran each page once, while it read it (``pagerun.sphinxext.run``): ``make
doctest`` records what every example printed (``doctest_record``: the record ``make
test``'s own ``make doctest`` wrote, or a run of it here), and ``refresh --check``, on the
same build's doctrees, reads and runs nothing again. Each example printed the same for
both, to the digit of every timing, and passed. Every expected output without a ``...``
wildcard (a timing, an address) is exactly what its code printed, line by line, so no
output passes only because ``NORMALIZE_WHITESPACE`` forgave a space the code no longer
prints.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from jaxbook.project import languages

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = list(languages(ROOT))


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.rstrip().splitlines()]


def test_make_doctest_and_refresh_report_one_run_of_every_example(doctest_record, tmp_path):
    builddir, doctest_record = doctest_record
    pages = sorted(
        str(path.relative_to(ROOT))
        for suffix in ("*.rst", "*.md")
        for path in (ROOT / "docs").rglob(suffix)
        if not path.name.startswith("_")
    )
    record = tmp_path / "refresh.json"
    languages = [arg for language in LANGUAGES for arg in ("--language", language)]
    checked = subprocess.run(
        [sys.executable, "-m", "jaxbook", "refresh", "--check", "--record", str(record),
         "--builddir", str(builddir), *languages, *pages],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stderr[-5000:]
    refreshed = json.loads(record.read_text(encoding="utf-8"))["blocks"]

    for language in LANGUAGES:
        by_doctest = doctest_record[language]
        by_refresh = refreshed[language]
        where = [(b["file"], b["line"]) for b in by_doctest]
        assert where == [(b["file"], b["line"]) for b in by_refresh], language
        for ran, again in zip(by_doctest, by_refresh, strict=True):
            place = f"{ran['file']}:{ran['line']} [{language}]"
            assert ran["passed"], place
            assert again["passed"], place
            assert ran == again, place  # one run: timings and all
            if ran["want"] is not None and "..." not in ran["want"]:
                assert lines(ran["want"]) == lines(ran["got"]), place
    counts = {language: len(doctest_record[language]) for language in LANGUAGES}
    assert len(set(counts.values())) == 1, counts
    assert min(counts.values()) > 50, counts
