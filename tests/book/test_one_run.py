"""Each page of the book runs once per language in a build: the site, the PDF, the EPUB and
`make doctest` of a language share one doctree directory, and so one run of each page.

`make test` logs every run of a page (``PAGERUN_RUN_LOG``, ``pagerun.engine``) while
it builds the site, the books and the doctests, before pytest; without it, the session's own
site, books and doctests are logged the same way (``tests/conftest.py``). The bundle and the
lab run pages in processes of their own, outside these builds.
"""

from __future__ import annotations

import json
import pickle
import re
from collections import Counter
from pathlib import Path

from jaxbook.project import languages
from pagerun.pages import records

ROOT = Path(__file__).resolve().parents[2]
# A page's code, as its source writes it: a doctest directive or fence, a snippet, a figure's
# cell, or a >>> block.
CODE = re.compile(
    r"^\s*(?:\.\. (?:testsetup|testcode|doctest|snippet|testplot)::"
    r"|```\{(?:testsetup|testcode|doctest|snippet|testplot)\}|>>> )",
    re.MULTILINE,
)


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


def test_every_page_with_code_keeps_a_passing_run_in_each_language(built_book, built_editions):
    """The other side of "at most once": each page whose source has code has its run in each
    language's environment, which every builder showed, and it passed; a page without code
    has none. (After `make html`, `make test`'s builds run nothing again, so its log alone
    could be empty.)"""
    docs = ROOT / "docs"
    with_code = {
        page.relative_to(docs).with_suffix("").as_posix()
        for page in docs.rglob("*")
        if page.suffix in {".rst", ".md"} and CODE.search(page.read_text(encoding="utf-8"))
    }
    assert len(with_code) >= 10, with_code  # chapter 1's sections, its quiz and its exercises
    for language in languages(ROOT):
        pickled = built_book / "doctrees" / language / "environment.pickle"
        kept = records(pickle.loads(pickled.read_bytes()))
        assert set(kept) == with_code, (language, sorted(set(kept) ^ with_code))
        ran = {page: (record.run.tries, record.failed) for page, record in kept.items()}
        assert all(tries > 0 and not failed for tries, failed in ran.values()), (language, ran)
