"""Every self-check of every chapter does what the author's guide says of it, found from the
chapters' files (``docs/ch*/_selfcheck_e*.py``) and the pages that name them: it passes the
answers page's reference answer silently, and before an answer it prints one line that says
what to define, in the source and in each translation.

What a self-check says of a wrong answer depends on the exercise: each chapter tests that in
``tests/book/test_chNN_exercises.py`` (the author's guide gives its template), which this
module asks for.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

from jaxbook import project
from jaxbook.chinese import HAN

ROOT = project.find_root(Path(__file__).parent)
TRANSLATIONS = list(project.languages(ROOT))[1:]
WHAT_TO_DO = re.compile(r"请先在上方的作答区定义 (?P<names>[^\n]+) 并运行，再运行本单元。\n")


def test_the_reference_answer_passes_silently(each_selfcheck):
    exercise = each_selfcheck
    assert exercise.run(exercise.reference_answer, answers_page=True) == ""


def test_before_an_answer_it_says_what_to_define(each_selfcheck):
    exercise = each_selfcheck
    assert exercise.needed, (
        f"{exercise.file}: it begins with try: <the names the answer defines> "
        "except NameError: print(<what to do>)"
    )
    printed = exercise.run({})
    said = WHAT_TO_DO.fullmatch(printed)
    assert said, printed
    for name in exercise.needed:
        assert name in said["names"], f"it does not name {name}: {printed}"


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_its_translation_says_what_to_define_in_its_language(each_selfcheck, language):
    exercise = each_selfcheck
    _before, check = exercise.place(doctest=False)
    page = check.page.relative_to(ROOT / "docs").with_suffix(".po")
    catalog = polib.pofile(str(project.catalog_dir(ROOT, language) / page))
    code = exercise.code.rstrip("\n")
    entry = catalog.find(code)
    if entry is None or not entry.msgstr or entry.fuzzy:
        pytest.skip(f"{language} has no translation of {exercise.file.name} (make check-po)")
    printed = exercise.run({}, code=entry.msgstr)
    assert re.fullmatch(r"[^\n]+\n", printed), printed
    assert not HAN.search(printed), printed
    for name in exercise.needed:
        assert name in printed, f"it does not name {name}: {printed}"


def test_the_chapter_tests_wrong_answers_to_each_self_check(each_chapter_with_selfchecks):
    chapter = each_chapter_with_selfchecks
    tests = ROOT / "tests" / "book" / f"test_{chapter.name}_exercises.py"
    assert tests.is_file(), (
        f"{tests.relative_to(ROOT)}: the wrong answers to {chapter.name}'s self-checks; "
        "the author's guide (Exercises, self-checks and answers) has its template"
    )
    text = tests.read_text(encoding="utf-8")
    for path in sorted(chapter.glob("_selfcheck_e*.py")):
        name = path.stem.removeprefix("_selfcheck_").upper()
        assert f'"{name}")' in text, f"{tests.name} tests no wrong answer to {name}"
    assert "each_message_met" in text, f"{tests.name}: is each message met by a wrong answer?"
