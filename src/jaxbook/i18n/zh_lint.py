"""Chinese copy lint for the reStructuredText source (CJK/Latin spacing, punctuation).

    jaxbook zh-lint [--fix] docs/

Prose lines (paragraphs, headings, list items, table cells, admonition and
dropdown titles) go through autocorrect (the same rules as the autocorrect CLI
for plain text) and then through this module's punctuation rule, which follows
GB/T 15834-2011 as autocorrect does not everywhere: a half-width ``, ; : ? !``
(or a sentence-ending ``.``) next to a Chinese character, across spaces and
emphasis marks, becomes full-width, and ASCII parentheses around content that
holds Chinese become full-width ones. Spaces beside full-width punctuation go.
Code, expected outputs, math, directive options, comments and targets are left
alone, and inline markup (``code``, :roles:`...`, links, substitutions, URLs)
is shielded, so code and printed strings keep their ASCII.

Each finding is printed as ``file:line: <what is wrong>; expected: <corrected
line>``; the exit status is 1 when there is any. ``--fix`` rewrites the lines
instead, and lengthens a section underline when the corrected title became
wider.
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from pathlib import Path

import autocorrect_py

LITERAL_DIRECTIVES = {
    "testcode",
    "testoutput",
    "measured-output",
    "testsetup",
    "testcleanup",
    "doctest",
    "testplot",
    "code-block",
    "code",
    "sourcecode",
    "math",
    "raw",
    "snippet",
    "literalinclude",
    "highlight",
    "toctree",
    "include",
    "only",
}
DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([\w-]+)::(.*)$")
COMMENT_OR_TARGET = re.compile(r"^\s*\.\.(\s|$)")
OPTION = re.compile(r"^\s*:([\w-]+):( |$)")
# Directive options whose value is text a reader sees.
PROSE_OPTIONS = {"alt", "caption", "title"}
UNDERLINE = re.compile(r"^([=\-~^\"'`#*+.:_])\1+\s*$")
INLINE = re.compile(
    r"``.+?``"  # inline literal (may continue on the next line of its paragraph)
    r"|:[\w:-]+:`[^`]+`"  # role
    r"|`[^`]+`__?"  # hyperlink reference
    r"|\|[^|\s][^|]*\|"  # substitution
    r"|https?://\S+",  # bare URL
    re.DOTALL,
)


CHINESE = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef\u201c\u201d"
# The full-width marks are escaped: ruff rightly flags look-alike characters in code.
FULL_WIDTH = dict(zip(",;:?!.", "\uff0c\uff1b\uff1a\uff1f\uff01\u3002", strict=True))
FULL_WIDTH_MARKS = "".join(FULL_WIDTH.values()) + "\u3001\uff08\uff09"  # and 、（）
# Marks that may sit between a punctuation mark and the character it belongs to.
BETWEEN = r"[ *\\]*"
HAS_CHINESE = re.compile(rf"[{CHINESE}]")
HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
HALF_WIDTH = re.compile(
    rf"(?<=[{CHINESE}])({BETWEEN})([,;:?!])(?!:)"  # after Chinese
    rf"|()(?<!:)([,;:?!])(?!:)(?={BETWEEN}[{CHINESE}])"  # before Chinese
    r"|()(?<![:\s])([,;:?!])(?=\s|$|[^\s\d:])"  # ends a clause of a Chinese line
    rf"|(?<=[{CHINESE}])()(\.)(?=\s|$)"  # a Chinese sentence ended with "."
)
CHINESE_PARENS = re.compile(rf"\( *([^()]*[{CHINESE}][^()]*?) *\)")
SPACE_BEFORE = re.compile(rf"(?<=\S)(?: |\\ )+(?=[{FULL_WIDTH_MARKS}])")
SPACE_AFTER = re.compile(rf"(?<=[{FULL_WIDTH_MARKS}]) +(?=\S)")


def _full_width(match: re.Match[str]) -> str:
    groups = [g for g in match.groups()]
    for i in range(0, len(groups), 2):
        if groups[i + 1] is not None:
            return groups[i] + FULL_WIDTH[groups[i + 1]]
    raise AssertionError(match)


def punctuate(text: str) -> str:
    """Full-width punctuation in Chinese text (its inline markup already shielded)."""
    if not HAS_CHINESE.search(text):
        return text
    fixed = text
    # Each rule can give the other something to do: "(可复现);" and "(0, 2π)" in Chinese.
    for _ in range(3):
        before = fixed
        fixed = HALF_WIDTH.sub(_full_width, CHINESE_PARENS.sub(r"（\1）", fixed))
        if fixed == before:
            break
    if fixed == text:
        return text
    fixed = SPACE_BEFORE.sub("", fixed)
    return SPACE_AFTER.sub("", fixed)


def width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def correct(lines: list[str]) -> list[str]:
    """Correct the lines of one paragraph (inline markup may span its lines)."""
    shielded: list[str] = []

    def shield(match: re.Match[str]) -> str:
        shielded.extend(match[0].split("\n"))
        first = len(shielded) - match[0].count("\n") - 1
        return "\n".join(f"Q{n}Q" for n in range(first, len(shielded)))

    masked = INLINE.sub(shield, "\n".join(lines))
    # A line of a Chinese paragraph may hold no Chinese character, and autocorrect would
    # turn its full-width punctuation back into half-width: it only sees the one line.
    spaced = "\n".join(
        autocorrect_py.format_for(line, "text.txt") if HAN.search(line) else line
        for line in masked.split("\n")
    )
    fixed = punctuate(spaced)
    return re.sub(r"Q(\d+)Q", lambda m: shielded[int(m[1])], fixed).split("\n")


def paragraphs(lines: list[str]):
    """Group the prose lines into paragraphs (a directive title with its continuation lines)."""
    group: list[tuple[int, int]] = []
    for i, start in prose_lines(lines):
        if group and (start or i != group[-1][0] + 1):
            yield group
            group = []
        group.append((i, start))
    if group:
        yield group


def prose_lines(lines: list[str]):
    """Yield the indexes of the lines that hold prose."""
    literal_indent: int | None = None
    for i, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        option = OPTION.match(line)
        if option and option[1] in PROSE_OPTIONS and line[option.end() :].strip():
            yield i, option.end()  # even in a code directive's options (a figure's alt text)
            continue
        if literal_indent is not None:
            if not line.strip() or indent > literal_indent:
                continue
            literal_indent = None
        directive = DIRECTIVE.match(line)
        if directive:
            if directive[2] in LITERAL_DIRECTIVES:
                literal_indent = indent
            else:
                yield i, directive.start(3)  # the argument (a title) is prose
            continue
        if COMMENT_OR_TARGET.match(line):
            literal_indent = indent
            continue
        if option or UNDERLINE.match(line) or not line.strip():
            continue
        if line.rstrip().endswith("::"):
            literal_indent = indent
        yield i, 0


def lint(path: Path, fix: bool) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    findings = []
    for group in paragraphs(lines):
        heads = [lines[i][:start] for i, start in group]
        texts = [lines[i][start:] for i, start in group]
        for (i, _), head, text, fixed in zip(group, heads, texts, correct(texts), strict=True):
            if fixed == text:
                continue
            findings.append(
                f"{path}:{i + 1}: {problem(text, fixed)}; expected: {(head + fixed).strip()}"
            )
            if fix:
                lines[i] = head + fixed
                for j in (i - 1, i + 1):
                    if 0 <= j < len(lines) and UNDERLINE.match(lines[j]) and lines[j].strip():
                        needed = width(lines[i].strip())
                        if width(lines[j].strip()) < needed:
                            lines[j] = lines[j].strip()[0] * needed
    if fix and findings:
        path.write_text("\n".join(lines), encoding="utf-8")
    return findings


def problem(text: str, fixed: str) -> str:
    """Name what the correction changed, for the finding's message."""
    marks = sorted({ch for ch in text if ch in FULL_WIDTH or ch in "()"} - set(fixed))
    if not marks:
        marks = sorted(
            {ch for ch in text if ch in ",;:?!.()"} - {ch for ch in fixed if ch in ",;:?!.()"}
            | {ch for ch in ",;:?!.()" if text.count(ch) > fixed.count(ch)}
        )
    if marks:
        return "half-width " + " ".join(f"'{ch}'" for ch in marks) + " in Chinese text"
    return "CJK/Latin spacing"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--fix", action="store_true", help="rewrite the lines instead")


def run(args: argparse.Namespace) -> int:
    files = sorted(f for p in args.paths for f in ([p] if p.is_file() else p.rglob("*.rst")))
    findings = [finding for f in files for finding in lint(f, args.fix)]
    for finding in findings:
        print(finding)
    if findings and not args.fix:
        print(f"{len(findings)} finding(s); run 'make zh-lint-fix' to apply them", file=sys.stderr)
        return 1
    return 0
