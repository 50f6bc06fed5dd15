"""Chinese copy lint for the pages' source (CJK/Latin spacing, punctuation).

    jaxbook zh-lint [--fix] docs/ snippets/
    jaxbook zh-lint --carry locale/en/LC_MESSAGES

Applies the rules of :mod:`jaxbook.i18n.zh_rules` to the prose, code comments and strings,
and expected outputs that :mod:`jaxbook.i18n.zh_source` reads from each file, and prints
each finding with its corrected line (exit status 1 if any). ``--fix`` writes the
corrections instead; ``--carry`` keeps the translations of catalog entries that only such
a correction made fuzzy (:func:`carry`). A ``zh-lint: disable=<rule id>`` comment before a
block suppresses that rule there.
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

import autocorrect_py
import polib
from docutils.utils import punctuation_chars

from jaxbook.chinese import CHINESE, HAN
from jaxbook.files import write_text_atomically
from jaxbook.i18n.pofile import save_wrapped
from jaxbook.i18n.zh_rules import BY_ID, OUTPUT, PROSE, RULES, SPACING, Rule
from jaxbook.i18n.zh_source import (
    HUGGING,
    OPAQUE,
    PLACEHOLDERS,
    Piece,
    Source,
    SourceError,
    read,
)

# What may stand beside reST inline markup without an escaped space (docutils' own rules).
START_OK = re.compile(rf"[\s{punctuation_chars.openers}{punctuation_chars.delimiters}]")
END_OK = re.compile(
    rf"[\s{punctuation_chars.closing_delimiters}{punctuation_chars.delimiters}"
    rf"{punctuation_chars.closers}]"
)
ROUNDS = 8


@dataclass
class Hit:
    """One change a rule made: at ``index`` of the piece's text, ``old`` became ``new``."""

    rule: Rule
    index: int
    old: str
    new: str


@dataclass
class Edit:
    start: int
    end: int
    text: str


class _Run:
    """The rules applied to one piece, keeping where each character came from."""

    def __init__(self, piece: Piece, source: Source) -> None:
        self.piece, self.source = piece, source
        self.text = piece.text
        self.origin = list(range(len(piece.text)))
        self.hits: list[Hit] = []

    def line(self, index: int) -> int:
        spans = self.piece.spans
        return self.source.line_of(spans[min(index, len(spans) - 1)][0])

    def allowed(self, rule: Rule, index: int) -> bool:
        line = self.line(index)
        for suppression in self.source.suppressions:
            if suppression.rule == rule.id and line in suppression.lines:
                suppression.used = True
                return False
        return True

    def replace(self, rule: Rule, changes: list[tuple[int, int, str]]) -> bool:
        """Make the changes (``text[start:end]`` becomes ``new``) that are allowed."""
        out, origin, last, changed = [], [], 0, False
        for start, end, new in changes:
            old = self.text[start:end]
            if sorted(c for c in old if c in PLACEHOLDERS) != sorted(
                c for c in new if c in PLACEHOLDERS
            ):
                continue  # no rule removes or adds inline markup
            opcodes = SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
            first = next(op for op in opcodes if op[0] != "equal")
            anchor = self.origin[min(start + first[1], len(self.text) - 1)]
            if not self.allowed(rule, anchor) or not self.deletable(start, end, new, opcodes):
                continue
            out.append(self.text[last:start])
            origin += self.origin[last:start]
            for tag, i1, i2, j1, j2 in opcodes:
                if tag == "equal":
                    origin += self.origin[start + i1 : start + i2]
                else:
                    at = self.origin[min(start + i1, len(self.text) - 1)]
                    origin += [at] * (j2 - j1)
            out.append(new)
            self.hits.append(Hit(rule, anchor, old, new))
            last, changed = end, True
        if changed:
            self.text = "".join(out) + self.text[last:]
            self.origin = origin + self.origin[last:]
        return changed

    def deletable(self, start: int, end: int, new: str, opcodes) -> bool:
        """Whether MyST can lose the spaces deleted here: not beside an emphasis mark."""
        if self.piece.syntax != "md":
            return True
        for tag, i1, i2, _, _ in opcodes:
            if tag != "delete" or self.text[start + i1 : start + i2].strip():
                continue
            left = self.origin[start + i1 - 1] if start + i1 > 0 else None
            right = self.origin[start + i2] if start + i2 < len(self.text) else None
            if escape(self.piece, left, right, emphasis_only=True) is None:
                return False
        return True

    def apply(self, rule: Rule) -> bool:
        changes = []
        for match in rule.pattern.finditer(self.text):
            new = rule.replacement(match)
            if new != match[0]:
                changes.append((match.start(), match.end(), new))
        return self.replace(rule, changes)

    def spacing(self) -> bool:
        """autocorrect on each line that has Han (it reads one line of plain text)."""
        changes, at = [], 0
        for line in self.text.split("\n"):
            if HAN.search(line):
                plain = line.replace(OPAQUE, "X").replace(HUGGING, "中")
                fixed = autocorrect_py.format_for(plain, "text.txt")
                for tag, i1, i2, j1, j2 in SequenceMatcher(
                    None, plain, fixed, autojunk=False
                ).get_opcodes():
                    # Only a space between Han and Latin: the marks it would change, and
                    # the spaces beside them, are the other rules' to name.
                    if (
                        tag != "equal"
                        and not (plain[i1:i2] + fixed[j1:j2]).strip()
                        and between_han_and_latin(line[i1 - 1 : i1], line[i2 : i2 + 1])
                        and self.origin[min(at + i2, len(self.text) - 1)] not in self.piece.joined
                    ):
                        changes.append((at + i1, at + i2, fixed[j1:j2]))
            at += len(line) + 1
        return self.replace(SPACING, changes)

    def run(self, rules: list[Rule]) -> None:
        """autocorrect's spacing (``zh-spacing``, prose only), then every rule, again until
        nothing changes (at most ``ROUNDS`` times)."""
        for _ in range(ROUNDS):
            spaced = self.piece.scope == PROSE and self.spacing()
            if not [rule for rule in rules if self.apply(rule)] and not spaced:
                break


LATIN_SIDE = re.compile(rf"[A-Za-z0-9{OPAQUE}]")


def between_han_and_latin(left: str, right: str) -> bool:
    return bool(
        (HAN.match(left) and LATIN_SIDE.match(right))
        or (LATIN_SIDE.match(left) and HAN.match(right))
    )


def escape(piece: Piece, left: int | None, right: int | None, emphasis_only=False):
    """What must stand between ``left`` and ``right`` (indexes of the piece's text,
    None at its ends) once the spaces between them go: "" when nothing, reST's
    escaped space where inline markup would no longer be recognised, None where
    the markup's syntax cannot do without the space."""
    if left is None or right is None or piece.syntax not in ("rst", "md"):
        return ""
    text, depth = piece.text, piece.depth
    closes = depth[left] > depth[right] or (not emphasis_only and text[left] in PLACEHOLDERS)
    opens = depth[right] > depth[left] or (not emphasis_only and text[right] in PLACEHOLDERS)
    if (closes and not END_OK.match(text[right])) or (opens and not START_OK.match(text[left])):
        return None if piece.syntax == "md" else "\\ "
    return ""


def source_edits(piece: Piece, fixed: str, source: Source) -> list[Edit]:
    """The corrected piece as edits of the file: each changes only its own span."""
    old = piece.text
    spans, depth = piece.spans, piece.depth
    placeholders = {i: source.text[s:e] for i, (s, e) in enumerate(spans) if old[i] in PLACEHOLDERS}
    edits = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, fixed, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        new = fixed[j1:j2]
        kept = [placeholders[i] for i in range(i1, i2) if i in placeholders]
        if len(kept) != sum(c in PLACEHOLDERS for c in new):
            continue
        new = "".join(kept.pop(0) if c in PLACEHOLDERS else c for c in new)
        if not new and not old[i1:i2].strip():
            between = escape(piece, i1 - 1 if i1 > 0 else None, i2 if i2 < len(old) else None)
            new = between or ""
        if i1 == i2:
            if i1 == 0:
                at = spans[0][0]
            elif i1 == len(old):
                at = spans[-1][1]
            else:
                before, after = spans[i1 - 1][1], spans[i1][0]
                at = before if depth[i1] > depth[i1 - 1] else after
            edits.append(Edit(at, at, new))
            continue
        runs = [[i1]]
        for i in range(i1 + 1, i2):
            if spans[i][0] == spans[i - 1][1]:
                runs[-1].append(i)
            else:
                runs.append([i])
        if len(runs) > 1 and len(new) == i2 - i1:
            edits += [Edit(*spans[i], new[i - i1]) for i in range(i1, i2)]
            continue
        edits.append(Edit(spans[runs[0][0]][0], spans[runs[0][-1]][1], new))
        edits += [Edit(spans[run[0]][0], spans[run[-1]][1], "") for run in runs[1:]]
    return edits


def apply_edits(text: str, edits: list[Edit]) -> str:
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        text = text[: edit.start] + edit.text + text[edit.end :]
    return text


def width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


@dataclass
class Result:
    findings: list[str]
    fixed: str  # the file's text with every correction of its prose and code


def lint_source(source: Source) -> Result:
    """Every rule on every piece of ``source``; the findings and the corrected text.

    Expected outputs are what the code prints: they are checked, never corrected here (the
    fix is the code's, then ``make refresh-outputs``). A suppression that suppresses
    nothing is a finding too."""
    by_scope = defaultdict(list)
    for rule in RULES:
        for scope in rule.scopes:
            by_scope[scope].append(rule)
    # Per line, the hits of each rule (in an output, each rule is a finding of its own).
    grouped: dict[tuple[int, str], dict[str, list[Hit]]] = defaultdict(lambda: defaultdict(list))
    edits: list[Edit] = []
    for piece in source.pieces:
        if not CHINESE.search(piece.text):
            continue
        run = _Run(piece, source)
        run.run(by_scope[piece.scope])
        if not run.hits:
            continue
        for hit in run.hits:
            grouped[(run.line(hit.index), piece.scope)][hit.rule.id].append(hit)
        if piece.scope != OUTPUT:
            edits += source_edits(piece, run.text, source)
    fixed = apply_edits(source.text, edits)
    fixed = lengthen_underlines(source, fixed, edits)
    findings = []
    for (line, scope), by_rule in sorted(grouped.items()):
        hits = list(by_rule.values())
        for some in [[h] for h in hits] if scope == OUTPUT else [hits]:
            findings.append((line, describe(source, line, scope, some, fixed, edits)))
    findings += [(line, f"{source.path}:{line}: {what}") for line, what in source.problems]
    for suppression in source.suppressions:
        if suppression.rule not in BY_ID:
            what = f"zh-lint: disable={suppression.rule}: there is no such rule"
        elif not suppression.used:
            what = (
                f"zh-lint: disable={suppression.rule} suppresses nothing in the block after "
                "it; remove the comment"
            )
        else:
            continue
        findings.append((suppression.line, f"{source.path}:{suppression.line}: {what}"))
    return Result([finding for _, finding in sorted(findings, key=lambda f: f[0])], fixed)


def describe(source, line, scope, hits_by_rule, fixed, edits) -> str:
    """One finding: ``file:line: <what is wrong> (<rule id>); expected: <the corrected
    line>``; for an expected output, how to correct the code that prints it instead."""
    where_in = {PROSE: "", OUTPUT: " in an expected output"}.get(scope, " in code")
    whats = []
    for hits in hits_by_rule:
        rule = hits[0].rule
        what = rule.describe("".join(h.old for h in hits), "".join(h.new for h in hits))
        whats.append(f"{what}{where_in} ({rule.id})")
    where = f"{source.path}:{line}: {', '.join(whats)}"
    if scope == OUTPUT:
        rule = hits_by_rule[0][0].rule
        advice = (
            "print it without one (an f-string)"
            if rule.scopes == {OUTPUT}
            else "correct the code that prints it"
        )
        return f"{where}; {advice}, then run 'make refresh-outputs'"
    return f"{where}; expected: {corrected_line(source, line, fixed, edits)}"


def moved(source: Source, edits: list[Edit], line: int) -> int:
    """Where the file's ``line`` is (from 1) once the edits are made."""
    before = source.offset(line)
    return line + sum(
        e.text.count("\n") - source.text.count("\n", e.start, e.end)
        for e in edits
        if e.end <= before
    )


def corrected_line(source: Source, line: int, fixed: str, edits: list[Edit]) -> str:
    return fixed.split("\n")[moved(source, edits, line) - 1].strip()


def lengthen_underlines(source: Source, fixed: str, edits: list[Edit]) -> str:
    """A section title that grew keeps its underline (and overline) as wide as it."""
    lines = fixed.split("\n")
    for piece in source.pieces:
        if not piece.adornments:
            continue
        line = source.line_of(piece.spans[0][0])
        shift = moved(source, edits, line) - line
        title = lines[line - 1 + shift].strip()
        for adornment in piece.adornments:
            marks = lines[adornment + shift].strip()
            if marks and width(marks) < width(title):
                lines[adornment + shift] = marks[0] * width(title)
    return "\n".join(lines)


def lint(path: Path, fix: bool = False) -> list[str]:
    """The findings for one file; with ``fix``, the file is corrected (not its outputs), each
    edit to just the span it changes (:func:`source_edits`): a space that inline markup
    needs becomes reST's escaped space, and a section underline grows with its title."""
    try:
        source = read(path)
    except SourceError as error:
        return [f"{error}; the lint cannot check this file"]
    result = lint_source(source)
    if fix and result.fixed != source.text:
        write_text_atomically(path, result.fixed)
    return result.findings


def folded(text: str) -> str:
    """The text with this lint's mark changes undone: the folding rules applied,
    full-width marks folded to ASCII, 、 read as the slash it replaces, and spaces
    dropped."""
    for rule in RULES:
        if rule.folds:
            text = rule.pattern.sub(rule.replacement, text)
    text = unicodedata.normalize("NFKC", text).replace("、", "/").replace("\\ ", "")
    # A range, however it was marked: "E1–E4", "0..5" and "1～2" are one text.
    text = re.sub(r"(?<=[A-Za-z0-9])(?:\u2013|\.\.|~)(?=[A-Za-z0-9])", "~", text)
    return "".join(text.split())


def carry(locale: Path) -> tuple[int, int]:
    """Unfuzzy the entries whose only change was this lint's correction.

    After ``make update-po`` such an entry is fuzzy, and its previous msgid differs from its
    msgid only in marks (equal once :func:`folded`): its translation is still right, so the
    fuzzy flag goes. An untranslated entry whose obsolete twin differs only so (msgmerge
    retires a short entry instead of marking it fuzzy) takes the twin's translation. Every
    other fuzzy entry stays.

    Returns (entries carried, entries still fuzzy).
    """
    carried = left = 0
    for po in sorted(locale.rglob("*.po")):
        catalog = polib.pofile(str(po))
        changed = False
        # msgmerge makes a short entry obsolete rather than fuzzy: match those too.
        retired = {folded(e.msgid): e for e in catalog if e.obsolete and e.msgstr}
        for entry in catalog:
            twin = retired.get(folded(entry.msgid))
            if not entry.obsolete and not entry.msgstr and twin is not None:
                entry.msgstr = twin.msgstr
                catalog.remove(twin)
                carried += 1
                changed = True
                continue
            if entry.obsolete or "fuzzy" not in entry.flags:
                continue
            old = entry.previous_msgid
            if old and old != entry.msgid and folded(old) == folded(entry.msgid):
                entry.flags.remove("fuzzy")
                entry.previous_msgid = None
                entry.previous_msgctxt = None
                carried += 1
                changed = True
            else:
                left += 1
        if changed:
            save_wrapped(catalog, po)
    return carried, left


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--fix", action="store_true", help="rewrite the files instead")
    parser.add_argument(
        "--carry",
        action="store_true",
        help="the paths are locale directories: keep the translations of the entries "
        "that only the correction changed",
    )


def files(paths: list[Path]) -> list[Path]:
    return sorted(
        f
        for p in paths
        for f in ([p] if p.is_file() else [*p.rglob("*.rst"), *p.rglob("*.md"), *p.rglob("*.py")])
    )


def run(args: argparse.Namespace) -> int:
    if args.carry:
        for locale in args.paths:
            carried, left = carry(locale)
            print(f"{locale}: {carried} translation(s) kept, {left} entr(ies) still fuzzy")
        return 0
    findings = [finding for f in files(args.paths) for finding in lint(f, args.fix)]
    for finding in findings:
        print(finding)
    if findings and not args.fix:
        print(f"{len(findings)} finding(s); run 'make zh-lint-fix' to apply them", file=sys.stderr)
        return 1
    return 0
