"""Each page of the book runs once per language in a build: the site, the PDF, the EPUB and
`make doctest` of a language share one doctree directory, and so one run of each page.

`make test` logs every run of a page (``PAGERUN_RUN_LOG``, ``pagerun.engine``) while
it builds the site, the books and the doctests, before pytest; without it, the session's own
site, books and doctests are logged the same way (``tests/conftest.py``). The bundle and the
lab run pages in processes of their own, outside these builds.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from jaxbook.project import languages

ROOT = Path(__file__).resolve().parents[2]


def test_every_page_ran_at_most_once_per_language(built_book, built_editions, doctest_record):
    log = built_book / "runs.log"
    assert log.is_file(), f"{log}: no build logged its runs"
    runs = Counter(
        (entry["unit"], entry["page"])
        for entry in map(json.loads, log.read_text(encoding="utf-8").splitlines())
    )
    twice = sorted(unit_page for unit_page, count in runs.items() if count > 1)
    assert twice == [], twice
    units = {unit for unit, _page in runs}
    # The one doctree directory of each language: no builder read into one of its own.
    assert units <= {str(built_book / "doctrees" / language) for language in languages(ROOT)}
