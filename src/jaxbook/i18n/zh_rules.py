"""The Chinese copy lint's rules (GB/T 15834, clreq), each an object with an id.

A rule has an id (what a ``zh-lint: disable=`` comment names), the scopes it
reads (``prose``, ``code``, ``output``; see :mod:`jaxbook.i18n.zh_source`), a
pattern, a fix (what replaces each match) and a message. The placeholders of
inline markup (:data:`~jaxbook.i18n.zh_source.OPAQUE`, ``HUGGING``) stand for
code, roles and links: no rule changes them. A rule with ``folds`` is a pure
change of marks, which ``--carry`` undoes to compare a message with its
previous text. A rule's place in :data:`RULES` means nothing: the lint applies
them all until none changes anything more. A new rule also gets a planted fault in
``tests/i18n/test_zh_lint.py``'s ``PLANTED``, which the tests require of every rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from jaxbook.chinese import CHINESE_RANGES, HAN_RANGES
from jaxbook.i18n.zh_source import HUGGING, OPAQUE

PROSE, CODE, OUTPUT = "prose", "code", "output"
HALF_TO_FULL = dict(zip(",;:?!.", "\uff0c\uff1b\uff1a\uff1f\uff01\u3002", strict=True))
# The full-width marks are escaped: ruff rightly flags look-alike characters in code.
FULL_WIDTH_MARKS = "".join(HALF_TO_FULL.values()) + "\u3001\uff08\uff09"  # and 、（）
CHINESE = CHINESE_RANGES
# What reads as a word in an aside: a Latin letter, or inline code, a role, a link.
WORDISH = f"A-Za-z{OPAQUE}{HUGGING}"


@dataclass(frozen=True)
class Rule:
    id: str
    scopes: frozenset[str]
    pattern: re.Pattern[str]
    fix: str | Callable[[re.Match[str]], str]
    message: str  # "{marks}": the half-width marks the fix replaced; "{mark}": the first
    folds: bool = False

    def replacement(self, match: re.Match[str]) -> str:
        return self.fix(match) if callable(self.fix) else match.expand(self.fix)

    def describe(self, old: str, new: str) -> str:
        marks = sorted({ch for ch in ",;:?!.()" if old.count(ch) > new.count(ch)})
        listed = " ".join(f"'{ch}'" for ch in marks)
        return self.message.format(marks=listed, mark=old.strip()[:1])


def rule(id: str, scopes: str, pattern: str, fix, message: str, folds: bool = False) -> Rule:
    return Rule(id, frozenset(scopes.split()), re.compile(pattern), fix, message, folds)


def _full_width(match: re.Match[str]) -> str:
    """The mark of the match (its last group that took part) made full-width."""
    mark = match.lastindex or 0
    return match[0][: match.start(mark) - match.start()] + HALF_TO_FULL[match[mark]]


def _aside(match: re.Match[str]) -> str:
    """Full-width parentheses for an aside that touches Chinese text on either side."""
    text = match.string
    before = text[: match.start()].rstrip("\n")
    after = text[match.end() :].lstrip("\n")
    beside = re.compile(f"[{HAN_RANGES}{FULL_WIDTH_MARKS}]")
    if not (beside.match(before[-1:]) or beside.match(after[:1])):
        return match[0]
    # A space that begins a line stays; one between words goes.
    lead = match[1] if text[: match.start()][-1:] in ("", " ", "\n") else ""
    trail = "" if beside.match(after[:1]) or not after else match[3]
    return f"{lead}（{match[2]}）{trail}"


RULES: list[Rule] = [
    rule(
        "zh-corner-quotes",
        "prose code output",
        "[「」]",
        lambda m: "“" if m[0] == "「" else "”",
        "corner quotes 「」 in Chinese text",
        folds=True,
    ),
    rule(
        "zh-range",
        "prose code output",
        r"(?<=\d)(?:~|\.\.)(?=\d)|(?<=[A-Za-z0-9])\u2013(?=[A-Za-z0-9])",
        "\uff5e",
        "a range in Chinese text is written with '\uff5e'",
        folds=True,
    ),
    rule(
        "zh-ampersand",
        "prose",
        rf"(?<=[{HAN_RANGES}]) & (?=[{HAN_RANGES}])",
        "与",
        "'&' between Chinese words is '与'",
        folds=True,
    ),
    rule(
        "zh-ellipsis",
        "prose",
        "(?<!\u2026)(?:\\.{3,}|\u2026)(?!\u2026)",
        "\u2026\u2026",
        "an ellipsis in Chinese text is '\u2026\u2026'",
    ),
    rule(
        "zh-stacked-marks",
        "prose",
        r"(?<![.])[.:;,](?=。)",
        "",
        "a half-width mark stacked before '。'",
    ),
    rule(
        "zh-half-width-punct",
        "prose",
        rf"(?<=[{CHINESE}])( *)([,;:?!])(?!:)"  # after Chinese
        rf"|(?<!:)([,;:?!])(?!:)(?= *[{CHINESE}])"  # before Chinese
        r"|(?<![:\s])([,;:?!])(?=\s|$|[^\s\d:])"  # ends a clause of a Chinese text
        rf"|(?<=[{CHINESE}])(\.)(?=\s|$)",  # a Chinese sentence ended with "."
        _full_width,
        "half-width {marks} in Chinese text",
    ),
    rule(
        "zh-code-half-width-punct",
        "code output",
        rf"(?<=[{CHINESE}])( *)([,;:?!])(?!:)"
        rf"|(?<!:)([,;:?!])(?!:)(?= *[{CHINESE}])"
        rf"|(?<=[{CHINESE}])(\.)(?=\s|$|[\"'])",
        _full_width,
        "half-width {marks} in Chinese text",
    ),
    # "验证 1:jit 前后一致": a colon after Chinese, a space and one word ends the clause,
    # even with a word after it. Code has something else before its colon ("x[1:3]",
    # "`a:b`"), or no letter after it ("https://", the device "cpu:1").
    rule(
        "zh-code-clause-colon",
        "code output",
        rf"([{CHINESE}] [A-Za-z0-9_]+):(?=[A-Za-z])",
        "\\1\uff1a",
        "half-width {marks} in Chinese text",
    ),
    # "数组 x:", "实际 dtype: {x}": a colon that ends the text, a line or the literal
    # before a field is a label's; one after an exception's name is Python's own.
    rule(
        "zh-code-label-colon",
        "code output",
        rf"(?<!Error)(?<!Warning)(?<!Exception):(?: ?(?=\\n|{OPAQUE})| *$)",
        "\uff1a",
        "half-width {marks} in Chinese text",
    ),
    rule(
        "zh-paren",
        "prose code output",
        rf"\( *([^()]*[{CHINESE}][^()]*?) *\)",
        r"（\1）",
        "half-width {marks} in Chinese text",
    ),
    # "追踪器（tracer）当输入", "XLA（Accelerated Linear Algebra）编译器".
    rule(
        "zh-paren-aside",
        "prose",
        rf"( ?)\(([^()]*[{WORDISH}][^()]*)\)( ?)",
        _aside,
        "half-width {marks} in Chinese text",
    ),
    # In code only an aside right after a Chinese word: "(3,)" and "(0, 2π)" stay.
    rule(
        "zh-code-paren-aside",
        "code output",
        rf"(?<=[{HAN_RANGES}]) ?\(([^()]*[{WORDISH}][^()]*)\) ?",
        r"（\1）",
        "half-width {marks} in Chinese text",
    ),
    rule(
        "zh-list-slash",
        "prose",
        r"(?<=\S) ?/( |\n *)(?=\S)",
        lambda m: "、" + m[1].lstrip(" "),
        "items joined by a spaced slash are a list, joined by '、'",
    ),
    rule(
        "zh-space-fullwidth",
        "prose code",
        rf"(?<=\S) +(?=[{FULL_WIDTH_MARKS}])|(?<=[{FULL_WIDTH_MARKS}]) +(?=\S|$)",
        "",
        "a space beside a full-width mark",
    ),
    # A link or a cross-reference sits in the Chinese sentence without spaces, and so
    # does a book title's 《》.
    rule(
        "zh-hug",
        "prose",
        rf"(?<=[{HAN_RANGES}{FULL_WIDTH_MARKS}]) (?={HUGGING})|(?<={HUGGING}) (?=[{HAN_RANGES}])"
        rf"|(?<=[{HAN_RANGES}]) (?=《)|(?<=》) (?=[{HAN_RANGES}])",
        "",
        "a space beside a link or a book title in Chinese text",
    ),
    rule(
        "zh-output-space",
        "output",
        "(?<=\\S)([\uff1a\uff0c]) +(?=\\S)",
        r"\1",
        "a space after a full-width '{mark}'",
    ),
    rule(
        "zh-output-paren-space",
        "output",
        "(?<=\\S) +(?=\uff08)|(?<=\uff09) +(?=\\S)",
        "",
        "a space beside a full-width parenthesis",
    ),
]
# autocorrect's CJK/Latin spacing, run on each line of prose that has Han: not a
# pattern of ours, but a rule like the others (an id, a message, a suppression).
SPACING = Rule("zh-spacing", frozenset({PROSE}), re.compile("(?!)"), "", "CJK/Latin spacing")
BY_ID = {r.id: r for r in [*RULES, SPACING]}
