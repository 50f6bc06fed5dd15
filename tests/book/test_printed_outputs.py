"""On every page of the book, in both languages, `make doctest` and `jaxbook refresh` see the
same outputs, and every expected output is what its code prints.

Both run the pages with the one engine (``jaxbook.doctest.engine``), each in processes of
its own: ``make doctest`` records what every example printed (``doctest_record``: the record
``make test``'s own ``make doctest`` wrote, or a run of it here), and ``refresh --check``
runs the book again from the same build's doctrees. Each example must have printed the
same in both runs, and passed in both; an expected output with a ``...`` wildcard (a
timing, an address) is the only one whose printed text may differ between runs. Every
other expected output is exactly what its code printed, line by line, so no output passes
only because ``NORMALIZE_WHITESPACE`` forgave a space the code no longer prints.
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


def test_make_doctest_and_refresh_print_the_same_for_every_example(doctest_record, tmp_path):
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
            assert ran["want"] == again["want"], place
            if ran["want"] is not None and "..." in ran["want"]:
                continue  # a wildcard: what it stands for varies from run to run
            assert ran["got"] == again["got"], place
            if ran["want"] is not None:
                assert lines(ran["want"]) == lines(ran["got"]), place
    counts = {language: len(doctest_record[language]) for language in LANGUAGES}
    assert len(set(counts.values())) == 1, counts
    assert min(counts.values()) > 50, counts
