"""Translation QA for the gettext catalogs; every finding is ``file:line: message``.

    jaxbook po check [--glossary locale/glossary.csv] locale/en/LC_MESSAGES

Checks, per catalog:

- the file itself (``jaxbook.i18n.pofile``: a byte-order mark, CRLF, bytes
  that are not UTF-8, a file cut off), then syntax, duplicates and format
  strings (``msgfmt --check``); a catalog with such a fault gets that one
  finding, since the rest cannot be read; the ``Language``,
  ``Plural-Forms`` and charset headers, and wrapping at the catalogs' width;
- untranslated and fuzzy entries (a release never ships either);
- an obsolete translation whose text the page still shows: the templates
  lost a message, and the English page would show Chinese there;
- markup parity between msgid and msgstr: inline literals, roles and their
  targets, link URLs, footnote and substitution references (``:zh:`` term
  mentions and badge text are the translator's own);
- code: where the msgid is Python source, the msgstr must tokenize to the same
  tokens, except comments and the text of string literals;
- nothing smuggled in: no ``<script>``, raw HTML tag or directive that the
  msgid does not have;
- the glossary: when the source has a term, the translation uses its English
  term; an exclusive term (quantization) appears only where the source has its
  Chinese term (or names the English word itself);
- the English house style (US spelling, as the JAX and Python docs use):
  codespell's British-to-American dictionary next to its usual ones, with the
  project word list; no spaced slash in prose ("CPU / GPU", write "CPU, GPU"
  or "CPU/GPU"); "e.g.," and "i.e.," with a comma; a list item that the
  source ends with "；" ends with a period, not a semicolon.

Exit status 1 if there is any finding.
"""

from __future__ import annotations

import argparse
import ast
import csv
import io
import re
import subprocess
import sys
import tokenize
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import polib

from jaxbook.i18n.pofile import PLURAL_FORMS, WIDTH, Finding, faults, file_faults
from jaxbook.project import find_root

INLINE_LITERAL = re.compile(r"``(.+?)``", re.DOTALL)
ROLE = re.compile(r":([\w:+-]+):`([^`]+)`")
LINK = re.compile(r"`[^`<]*<([^>`]+)>`__?")
FOOTNOTE_REF = re.compile(r"\[(#[\w-]*|\d+|\*)\]_")
SUBSTITUTION = re.compile(r"(?<![\w|])\|[^|\s][^|]*\|(?![\w|])")
HTML_TAG = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>")
DIRECTIVE = re.compile(r"^\s*\.\.\s+[\w:-]+::", re.MULTILINE)
FREE_ROLES = {"zh"}
TRANSLATED_ROLE_TEXT = re.compile(r"bdg(-[\w-]+)?$")


def role_key(name: str, content: str) -> tuple[str, str] | None:
    if name in FREE_ROLES:
        return None
    if TRANSLATED_ROLE_TEXT.match(name):
        return (name, "")
    target = re.search(r"<([^<>]+)>\s*$", content)
    return (name, target[1] if target else content)


def markup(text: str) -> dict[str, Counter]:
    without_literals = INLINE_LITERAL.sub(" ", text)
    return {
        "inline code": Counter(INLINE_LITERAL.findall(text)),
        "role": Counter(
            key
            for name, content in ROLE.findall(without_literals)
            if (key := role_key(name, content)) is not None
        ),
        "link target": Counter(LINK.findall(without_literals)),
        "footnote reference": Counter(FOOTNOTE_REF.findall(without_literals)),
        "substitution": Counter(SUBSTITUTION.findall(without_literals)),
    }


def check_markup(msgid: str, msgstr: str) -> list[str]:
    problems = []
    source, translation = markup(msgid), markup(msgstr)
    for kind in source:
        missing = source[kind] - translation[kind]
        extra = translation[kind] - source[kind]
        if missing:
            problems.append(f"{kind} missing from the translation: {', '.join(map(repr, missing))}")
        if extra:
            problems.append(f"{kind} not in the source: {', '.join(map(repr, extra))}")
    return problems


def is_python(text: str) -> bool:
    if "\n" not in text.strip() and not re.search(r"[=(#]", text):
        return False
    try:
        ast.parse(text)
        names = [
            t.string
            for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type == tokenize.NAME
        ]
    except (SyntaxError, ValueError, tokenize.TokenError):
        return False
    # Chinese words are valid identifiers; the book's code only uses ASCII ones.
    return all(name.isascii() for name in names)


def code_tokens(text: str) -> list[tuple[str, str, int]]:
    """Tokens that must survive translation, with their line numbers."""
    kept = []
    depth = 0
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        kind = tokenize.tok_name[token.type]
        if kind in {"COMMENT", "NL", "ENCODING", "ENDMARKER"}:
            continue
        if kind == "STRING":
            prefix = re.match(r"[A-Za-z]*", token.string)[0]
            kept.append(("STRING", prefix + token.string[len(prefix)], token.start[0]))
            continue
        if kind == "FSTRING_START":
            depth = 0
        if kind == "OP" and token.string in "{}":
            depth += 1 if token.string == "{" else -1
        if kind == "FSTRING_MIDDLE" and depth <= 0:
            continue  # the text of an f-string is the translator's
        kept.append((kind, token.string, token.start[0]))
    return kept


def check_code(msgid: str, msgstr: str) -> str | None:
    try:
        translated = code_tokens(msgstr)
    except (tokenize.TokenError, SyntaxError, IndentationError) as exc:
        return f"translated code does not tokenize: {exc}"
    source = code_tokens(msgid)
    for (kind, text, line), (kind2, text2, _) in zip(source, translated, strict=False):
        if (kind, text) != (kind2, text2):
            return (
                f"translated code differs from the source at its line {line}: "
                f"expected {text!r}, found {text2!r}"
            )
    if len(source) != len(translated):
        return f"translated code has {len(translated)} tokens, the source {len(source)}"
    return None


SPACED_SLASH = re.compile(r"(?<=[\w)]) / (?=[\w(])")


def check_style(msgid: str, msgstr: str) -> list[str]:
    """The English house style, in prose (code and inline markup aside)."""
    prose = INLINE_LITERAL.sub("X", ROLE.sub("X", msgstr))
    problems = []
    if SPACED_SLASH.search(prose):
        problems.append(
            "a spaced slash in prose: write a list ('CPU, GPU, or TPU') or an unspaced "
            "pair ('CPU/GPU')"
        )
    if re.search(r"\b(e\.g|i\.e)\.(?!,)", prose):
        problems.append("write 'e.g.,' and 'i.e.,' with a comma")
    if msgid.rstrip().endswith("；") and msgstr.rstrip().endswith(";"):
        problems.append("the list item ends with a semicolon: end it with a period")
    return problems


def check_smuggling(msgid: str, msgstr: str) -> list[str]:
    problems = []
    if re.search(r"<\s*script", msgstr, re.IGNORECASE) and not re.search(
        r"<\s*script", msgid, re.IGNORECASE
    ):
        problems.append("<script> in the translation")
    extra_tags = Counter(HTML_TAG.findall(msgstr)) - Counter(HTML_TAG.findall(msgid))
    if extra_tags:
        problems.append(f"raw HTML not in the source: {', '.join(map(repr, extra_tags))}")
    extra_directives = Counter(DIRECTIVE.findall(msgstr)) - Counter(DIRECTIVE.findall(msgid))
    if extra_directives:
        names = ", ".join(d.strip() for d in extra_directives)
        problems.append(f"directive not in the source: {names}")
    if ":raw-html:" in msgstr and ":raw-html:" not in msgid:
        problems.append("raw-html role in the translation")
    return problems


@dataclass
class Term:
    zh: str
    en: str
    pattern: re.Pattern[str]
    exclusive: bool


def load_glossary(path: Path) -> list[Term]:
    with path.open(encoding="utf-8", newline="") as f:
        terms = [
            Term(
                row["zh"],
                row["en"],
                re.compile(row["pattern"], re.IGNORECASE),
                row["exclusive"] == "yes",
            )
            for row in csv.DictReader(f)
        ]
    return sorted(terms, key=lambda t: len(t.zh), reverse=True)


def check_glossary(terms: list[Term], msgid: str, msgstr: str) -> list[str]:
    problems = []
    masked = msgid
    present = set()
    for term in terms:  # longest first: 向量化 must not count as 量化
        if term.zh in masked:
            present.add(term.zh)
            masked = masked.replace(term.zh, "\0" * len(term.zh))
    english = ROLE.sub(lambda m: "" if m[1] == "zh" else m[0], msgstr)
    for term in terms:
        if term.zh in present and not term.pattern.search(english):
            problems.append(f"glossary: {term.zh} must be translated as {term.en!r}")
        if (
            term.exclusive
            and term.zh not in present
            and term.pattern.search(english)
            and not term.pattern.search(msgid)
        ):
            problems.append(
                f"glossary: {term.en!r} is only for {term.zh}, which the source does not say"
            )
    return problems


def check_headers(path: Path, po: polib.POFile, language: str) -> list[Finding]:
    findings = []
    meta = po.metadata
    if meta.get("Language") != language:
        findings.append(
            Finding(path, 1, f"header Language is {meta.get('Language')!r}, expected {language!r}")
        )
    expected = PLURAL_FORMS.get(language)
    if not meta.get("Plural-Forms") or (expected and meta["Plural-Forms"] != expected):
        findings.append(Finding(path, 1, f"header Plural-Forms must be {expected!r}"))
    if "charset=UTF-8" not in meta.get("Content-Type", ""):
        findings.append(Finding(path, 1, "header Content-Type must declare charset=UTF-8"))
    return findings


def msgstr_line(lines: list[str], start: int) -> int:
    """The line of an entry's msgstr (what a translator edits), counted from 1."""
    for number in range(max(start, 1), len(lines) + 1):
        if lines[number - 1].startswith("msgstr"):
            return number
    return start


def wrap_check(path: Path) -> list[Finding]:
    result = subprocess.run(
        ["msgcat", f"--width={WIDTH}", str(path)], capture_output=True, text=True
    )
    current = path.read_text(encoding="utf-8").splitlines()
    wrapped = result.stdout.splitlines()
    if result.returncode != 0 or current == wrapped:
        return []
    line = next(
        (i for i, (a, b) in enumerate(zip(current, wrapped, strict=False), 1) if a != b),
        min(len(current), len(wrapped)) + 1,
    )
    return [Finding(path, line, f"not wrapped at {WIDTH} columns; run 'make wrap-po'")]


def source_page(path: Path) -> Path | None:
    """The Chinese page whose catalog ``path`` is (``locale/<lang>/LC_MESSAGES/<page>.po``)."""
    parts = path.resolve().parts
    if "LC_MESSAGES" not in parts:
        return None
    at = len(parts) - 1 - parts[::-1].index("LC_MESSAGES")
    root = find_root(Path(*parts[:at]))
    if root is None:
        return None
    page = root / "docs" / Path(*parts[at + 1 :]).with_suffix(".rst")
    return page if page.is_file() else None


def still_in_source(msgid: str, source: str) -> bool:
    """Whether ``msgid`` is a whole block (paragraph, title, code) of the page, spacing aside."""
    words = [re.escape(char) for char in msgid if not char.isspace()]
    if not words:
        return False
    start = r"(?:^|\n)[ \t]*(?:[-*+] |\d+\. |#\. |\.\. [\w:-]+:: |:[\w-]+: )?"
    return re.search(start + r"\s*".join(words) + r"[ \t]*(?:\n|$)", source) is not None


def lost_translations(path: Path, po: polib.POFile) -> list[Finding]:
    """Obsolete translations whose source text the page still has: a merge dropped them."""
    page = source_page(path)
    if page is None:
        return []
    source = page.read_text(encoding="utf-8")
    return [
        Finding(
            path,
            entry.linenum,
            f"obsolete, but {page.name} still shows this text: the templates lost it, "
            "so its translation is no longer used",
        )
        for entry in po
        if entry.obsolete and entry.msgstr and still_in_source(entry.msgid, source)
    ]


def check_catalog(path: Path, language: str, terms: list[Term]) -> list[Finding]:
    broken = faults(path)
    if broken:
        return broken  # the rest needs a catalog that parses
    findings = wrap_check(path)
    po = polib.pofile(str(path))
    lines = path.read_text(encoding="utf-8").splitlines()
    findings += check_headers(path, po, language)
    findings += lost_translations(path, po)
    for entry in po:
        if entry.obsolete:
            continue
        where = msgstr_line(lines, entry.linenum)
        if entry.fuzzy:
            findings.append(
                Finding(
                    path,
                    where,
                    "fuzzy: review the translation against the "
                    "changed source (#|), then remove the flag",
                )
            )
            continue
        if not entry.msgstr:
            findings.append(Finding(path, where, "untranslated"))
            continue
        problems = []
        if is_python(entry.msgid):
            problem = check_code(entry.msgid, entry.msgstr)
            if problem:
                problems.append(problem)
        else:
            problems += check_markup(entry.msgid, entry.msgstr)
            if language == "en":
                problems += check_style(entry.msgid, entry.msgstr)
        problems += check_smuggling(entry.msgid, entry.msgstr)
        problems += check_glossary(terms, entry.msgid, entry.msgstr)
        findings += [Finding(path, where, problem) for problem in problems]
    return findings


def codespell(paths: list[Path], words: Path) -> list[Finding]:
    if not paths:
        return []
    command = [
        sys.executable,
        "-m",
        "codespell_lib",
        "--builtin",
        "clear,rare,en-GB_to_en-US",
        "--ignore-words",
        str(words),
        *map(str, paths),
    ]
    result = subprocess.run(command, capture_output=True, text=True)
    findings = []
    for line in result.stdout.splitlines():
        match = re.match(r"(.+?):(\d+): (.*)", line)
        if match:
            findings.append(Finding(Path(match[1]), int(match[2]), f"spelling: {match[3]}"))
    return findings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("po_dir", type=Path)
    parser.add_argument("--glossary", type=Path, default=Path("locale") / "glossary.csv")
    parser.add_argument("--words", type=Path, default=Path("locale") / "codespell-words.txt")


def run(args: argparse.Namespace) -> int:
    language = args.po_dir.parent.name if args.po_dir.name == "LC_MESSAGES" else args.po_dir.name
    terms = load_glossary(args.glossary)
    paths = sorted(args.po_dir.rglob("*.po"))
    if not paths:
        print(f"{args.po_dir}: no catalogs; run 'make update-po'")
        return 1
    findings = [f for path in paths for f in check_catalog(path, language, terms)]
    findings += codespell([path for path in paths if not file_faults(path)], args.words)
    for finding in findings:
        print(finding)
    print(f"{len(paths)} catalogs, {len(findings)} finding(s)", file=sys.stderr)
    return 1 if findings else 0
