"""A chapter quiz's answer key: each answer is one of its question's options, the options an
explanation rules out are not the answer, the key follows no pattern a reader could guess
the next answer from ("A, D, B, C, A, D, B, C" repeated a four-letter cycle), and each
translation's explanation names the same letters as the source's."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

from jaxbook.project import catalog_dir, languages

ROOT = Path(__file__).resolve().parents[2]
QUIZZES = sorted(ROOT.glob("docs/ch*/quiz.rst"))
OPTION = re.compile(r"^([A-Z])\. ", re.MULTILINE)
ANSWER = re.compile(r"\*\*([A-Z])。\*\*")
# "B 不对", "C 的问题是", "所以 D 也不对": a letter the explanation rules out.
RULED_OUT = re.compile(r"(?<![A-Za-z`])([A-Z]) (?:也?不对|的问题)")
# An option's letter standing alone in an explanation ("所以 C 不对", "so C is wrong"), outside
# code and roles.
LETTER = re.compile(r"(?<![A-Za-z0-9_`.'])([A-D])(?![A-Za-z0-9_`'])")
CODE = re.compile(r"``.*?``|:[\w-]+:`[^`]*`", re.DOTALL)


def questions(quiz: Path) -> list[tuple[list[str], str, str]]:
    """Each question's option letters, its answer's letter, and its explanation's text."""
    text = quiz.read_text(encoding="utf-8")
    found = []
    for part in re.split(r"^\.\. rst-class:: jb-question$", text, flags=re.MULTILINE)[1:]:
        question, _, explanation = part.partition(".. dropdown::")
        [answer] = ANSWER.findall(explanation)
        found.append((OPTION.findall(question), answer, explanation))
    return found


def has_period(key: str) -> bool:
    """Whether ``key`` repeats a run of at most half its letters ("ADBCADBC": "ADBC")."""
    periods = range(1, len(key) // 2 + 1)
    return any(all(key[i] == key[i + p] for i in range(len(key) - p)) for p in periods)


def test_the_period_check_sees_a_cycle():
    assert has_period("ADBCADBC")
    assert has_period("ABABA")
    assert not has_period("CABDACDB")
    assert not has_period("CABDACDC")  # a first letter that comes back last is no cycle


@pytest.mark.parametrize("quiz", QUIZZES, ids=lambda path: path.parent.name)
def test_each_answer_is_an_option_and_no_explanation_rules_it_out(quiz):
    for number, (options, answer, explanation) in enumerate(questions(quiz), start=1):
        assert options == [chr(ord("A") + i) for i in range(len(options))], number
        assert answer in options, number
        ruled_out = set(RULED_OUT.findall(explanation))
        assert ruled_out <= set(options) - {answer}, (number, answer, ruled_out)


@pytest.mark.parametrize("quiz", QUIZZES, ids=lambda path: path.parent.name)
def test_the_answer_key_follows_no_pattern(quiz):
    key = "".join(answer for _options, answer, _explanation in questions(quiz))
    assert len(key) >= 4
    assert not has_period(key), key
    # Every letter is an answer somewhere, none much more often than the others.
    counts = [key.count(letter) for letter in "ABCD"]
    assert min(counts) >= 1, key
    assert max(counts) <= len(key) // 4 + 1, key


def letters(text: str) -> list[str]:
    """The option letters ``text`` names, in order."""
    return LETTER.findall(CODE.sub("", text))


@pytest.mark.parametrize("language", list(languages(ROOT))[1:])
@pytest.mark.parametrize("quiz", QUIZZES, ids=lambda path: path.parent.name)
def test_each_translated_explanation_names_the_sources_letters_in_order(quiz, language):
    catalog = polib.pofile(str(catalog_dir(ROOT, language) / quiz.parent.name / "quiz.po"))
    explained = [e for e in catalog if not e.obsolete and e.msgstr and letters(e.msgid)]
    assert len([e for e in explained if ANSWER.match(e.msgid)]) == len(questions(quiz))
    for entry in explained:
        assert letters(entry.msgstr) == letters(entry.msgid), entry.msgid[:40]
