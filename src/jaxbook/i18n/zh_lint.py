"""Chinese copy lint for the reStructuredText source (CJK/Latin spacing, punctuation).

    jaxbook zh-lint [--fix] docs/

Prose lines go through autocorrect (the same rules as the autocorrect CLI for
plain text); code, expected outputs, math, directive options, comments and
targets are left alone, and inline markup (``code``, :roles:`...`, links,
substitutions) is shielded so that only the words around it are judged.
Each finding is printed as ``file:line: expected: <corrected line>``; the exit
status is 1 when there is any. ``--fix`` rewrites the lines instead, and
lengthens a section underline when the corrected title became wider.
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
OPTION = re.compile(r"^\s*:[\w-]+:( |$)")
UNDERLINE = re.compile(r"^([=\-~^\"'`#*+.:_])\1+\s*$")
INLINE = re.compile(
    r"``.+?``"  # inline literal
    r"|:[\w:-]+:`[^`]+`"  # role
    r"|`[^`]+`__?"  # hyperlink reference
    r"|\|[^|\s][^|]*\|"  # substitution
    r"|https?://\S+"  # bare URL
)


def width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def correct(line: str) -> str:
    shielded: list[str] = []

    def shield(match: re.Match[str]) -> str:
        shielded.append(match[0])
        return f"Q{len(shielded) - 1}Q"

    masked = INLINE.sub(shield, line)
    fixed = autocorrect_py.format_for(masked, "text.txt")
    return re.sub(r"Q(\d+)Q", lambda m: shielded[int(m[1])], fixed)


def prose_lines(lines: list[str]):
    """Yield the indexes of the lines that hold prose."""
    literal_indent: int | None = None
    for i, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
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
        if OPTION.match(line) or UNDERLINE.match(line) or not line.strip():
            continue
        if line.rstrip().endswith("::"):
            literal_indent = indent
        yield i, 0


def lint(path: Path, fix: bool) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    findings = []
    for i, start in list(prose_lines(lines)):
        head, text = lines[i][:start], lines[i][start:]
        fixed = correct(text)
        if fixed == text:
            continue
        findings.append(f"{path}:{i + 1}: expected: {(head + fixed).strip()}")
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
