"""Translation QA for the gettext catalogs; every finding is ``file:line: message``.

    jaxbook po check [--glossary locale/glossary.csv] [locale/en/LC_MESSAGES ...]

Checks, per catalog:

- the file itself (``jaxbook.i18n.pofile``: a byte-order mark, CRLF, bytes
  that are not UTF-8, a file cut off), then syntax, duplicates and format
  strings (``msgfmt --check``); a catalog with such a fault gets that one
  finding, since the rest cannot be read; the ``Language``,
  ``Plural-Forms`` and charset headers, and wrapping at the catalogs' width;
  what another merge tool (sphinx-intl's Babel) writes and ``msgmerge`` does
  not (``jaxbook.i18n.pofile.foreign_marks``), which ``make wrap-po`` removes;
- untranslated and fuzzy entries (a release never ships either);
- an obsolete translation whose text the page still shows: the templates
  lost a message, and the English page would show Chinese there;
- markup parity between msgid and msgstr: inline literals, roles and their
  targets, link URLs, footnote and substitution references (``:zh:`` term
  mentions and badge text are the translator's own);
- code: where the msgid is Python source, the msgstr must tokenize to the same
  tokens, except comments and the text of string literals;
- nothing smuggled in: no ``<script>``, raw HTML tag, directive (a
  substitution definition's too), raw role or MyST front matter that the
  msgid does not have;
- the markup is the page's: in the catalog of a MyST Markdown page (``.md``)
  these checks read myst-parser's syntax (code spans, ``{name}`` roles,
  inline, auto- and reference links, ``[^1]`` footnotes, ``{{ }}``
  substitutions, which Jinja evaluates, raw HTML and HTML comments, directive
  fences of backticks, tildes or colons, ``{eval-rst}`` among them) and
  reST's as well, since ``{eval-rst}`` content is reST; any other catalog is
  read as reST;
- the glossary: when the source has a term, the translation uses its English
  term; an exclusive term (quantization) appears only where the source has its
  Chinese term (or names the English word itself);
- the English house style (US spelling, as the JAX and Python docs use):
  codespell's British-to-American dictionary next to its usual ones, with the
  project word list; no spaced slash in prose ("CPU / GPU", write "CPU, GPU"
  or "CPU/GPU"); "e.g.," and "i.e.," with a comma; a list item that the
  source ends with "；" ends with a period, not a semicolon; an ellipsis is
  "…" (U+2026), as the English pages write it, not "..." where the source has
  no "..." (an output's doctest wildcard, Python's ``...``).

Exit status 1 if there is any finding.
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import subprocess
import sys
import tokenize
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polib

from jaxbook import project
from jaxbook.i18n.pofile import (
    PLURAL_FORMS,
    WIDTH,
    Finding,
    faults,
    file_faults,
    foreign_marks,
)
from jaxbook.project import find_root, page_file

INLINE_LITERAL = re.compile(r"``(.+?)``", re.DOTALL)
ROLE = re.compile(r":([\w:+-]+):`([^`]+)`")
LINK = re.compile(r"`[^`<]*<([^>`]+)>`__?")
FOOTNOTE_REF = re.compile(r"\[(#[\w-]*|\d+|\*)\]_")
SUBSTITUTION = re.compile(r"(?<![\w|])\|[^|\s][^|]*\|(?![\w|])")
HTML_TAG = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>")
# A substitution definition (``.. |x| raw:: latex``) runs its directive too.
DIRECTIVE = re.compile(r"^\s*\.\.\s+(?:\|[^|\n]+\|\s+)?[\w:-]+::", re.MULTILINE)
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


# MyST: the msgids of a Markdown page keep its inline markup as written.
MYST_ROLE = re.compile(r"\{([a-zA-Z0-9_+:-]+)\}(`+)")  # mdit_py_plugins.myst_role's names
REST_ROLE_BEFORE = re.compile(r":([\w:+-]+):$")
BACKTICKS = re.compile(r"`+")
MYST_LINK = re.compile(r"\]\(\s*(<[^<>\n]*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*)")
MYST_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*|[^\s<>@]+@[^\s<>@]+)>")
MYST_REFERENCE = re.compile(r"\[(?!\^)((?:[^\[\]\\]|\\.)+)\]\[((?:[^\[\]\\]|\\.)*)\]")
MYST_DEFINITION = re.compile(r"^[ \t]*\[(?!\^)(?:[^\[\]\\]|\\.)+\]:[ \t]*(\S+)", re.MULTILINE)
MYST_FOOTNOTE_REF = re.compile(r"\[\^[^\]\s]+\]")
# Up to the first "}}", as mdit_py_plugins.substitution reads it.
MYST_SUBSTITUTION = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)
MYST_DIRECTIVE = re.compile(r"(`{3,}|~{3,}|:{3,})[ \t]*(\{\S*)")
HTML_ATTRIBUTE = r"""\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?"""
MYST_HTML_TAG = re.compile(
    rf"<[A-Za-z][A-Za-z0-9-]*(?:{HTML_ATTRIBUTE})*\s*/?>|</[A-Za-z][A-Za-z0-9-]*\s*>"
)
# An HTML block needs no closing ">": it runs to the next blank line.
MYST_HTML_START = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?=[\s/>]|$)|<!--|<\?|<![A-Za-z\[]")
MYST_RAW_ROLE = re.compile(r"[{:](raw[\w+-]*)[}:]`")
# myst-parser reads a msgstr as a page of its own, front matter and all: it can
# set the page's options (html_meta, substitutions).
MYST_FRONT_MATTER = re.compile(r"\A\s*-{3,}[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class Span:
    """A code span of ``text[start:end]``, or a role (``role``) or reST link (``link``)."""

    start: int
    end: int
    content: str
    role: str | None = None
    link: bool = False


def myst_spans(text: str) -> list[Span]:
    """Code spans and roles as markdown-it reads them, and the reST ones of ``{eval-rst}``."""
    spans = []
    at = 0
    while at < len(text):
        char = text[at]
        if char == "\\":  # an escaped character starts nothing
            at += 2
            continue
        role = MYST_ROLE.match(text, at)
        if role and (close := text.find(role[2], role.end() + 1)) != -1:
            spans.append(Span(at, close + len(role[2]), text[role.end() : close], role=role[1]))
            at = close + len(role[2])
            continue
        if char != "`":
            at += 1
            continue
        ticks = BACKTICKS.match(text, at)[0]
        close = re.compile(rf"(?<!`){ticks}(?!`)").search(text, at + len(ticks))
        if close is None:
            at += len(ticks)
            continue
        content = text[at + len(ticks) : close.start()]
        rest_role = REST_ROLE_BEFORE.search(text, 0, at)
        end = close.end()
        link = text.startswith("_", end)
        if link:
            end += 2 if text.startswith("__", end) else 1
        spans.append(
            Span(
                rest_role.start() if rest_role else at,
                end,
                content,
                role=rest_role[1] if rest_role else None,
                link=link and not rest_role,
            )
        )
        at = end
    return spans


def reference_label(label: str) -> str:
    return f"[{' '.join(label.split()).casefold()}]"  # as CommonMark matches labels


def myst_markup(text: str) -> dict[str, Counter]:
    """Like ``markup``, for MyST. Links, footnotes and substitutions are looked for
    in the whole text, code spans included: a span read otherwise than markdown-it
    reads it must not hide one."""
    spans = myst_spans(text)
    links = [
        *(m[1].removeprefix("<").removesuffix(">") for m in MYST_LINK.finditer(text)),
        *MYST_AUTOLINK.findall(text),
        *(reference_label(m[2] or m[1]) for m in MYST_REFERENCE.finditer(text)),
        *MYST_DEFINITION.findall(text),
    ]
    for span in spans:
        if span.link:
            target = re.search(r"<([^<>]+)>\s*$", span.content)
            links.append(target[1] if target else span.content)
    return {
        "inline code": Counter(s.content for s in spans if s.role is None and not s.link),
        "role": Counter(
            key
            for s in spans
            if s.role is not None and (key := role_key(s.role, s.content)) is not None
        ),
        "link target": Counter(links),
        "footnote reference": Counter(MYST_FOOTNOTE_REF.findall(text) + FOOTNOTE_REF.findall(text)),
        "substitution": Counter(
            [f"{{{{ {' '.join(m.split())} }}}}" for m in MYST_SUBSTITUTION.findall(text)]
            + SUBSTITUTION.findall(text)
        ),
    }


def myst_mask(text: str, replace: Callable[[Span], str]) -> str:
    """``text`` with each code span and role replaced."""
    parts, at = [], 0
    for span in myst_spans(text):
        parts += [text[at : span.start], replace(span)]
        at = span.end
    return "".join(parts) + text[at:]


def myst_html(text: str) -> list[str]:
    return MYST_HTML_TAG.findall(text) + MYST_HTML_START.findall(MYST_HTML_TAG.sub(" ", text))


def myst_directives(text: str) -> list[str]:
    return DIRECTIVE.findall(text) + [
        fence[:3] + name for fence, name in MYST_DIRECTIVE.findall(text)
    ]


@dataclass(frozen=True)
class Syntax:
    """How a page's source format writes the markup that its msgids carry."""

    markup: Callable[[str], dict[str, Counter]]
    prose: Callable[[str], str]  # inline code and roles masked, for the house style
    without_mentions: Callable[[str], str]  # the zh term mentions removed, for the glossary
    html: Callable[[str], list[str]]
    directives: Callable[[str], list[str]]
    raw_role: re.Pattern[str]
    front_matter: re.Pattern[str] | None
    block_start: str  # what may come before a block's text on its first line


REST_BLOCK_START = r"[-*+] |\d+\. |#\. |\.\. [\w:-]+:: |:[\w-]+: "
REST = Syntax(
    markup=markup,
    prose=lambda text: INLINE_LITERAL.sub("X", ROLE.sub("X", text)),
    without_mentions=lambda text: ROLE.sub(lambda m: "" if m[1] == "zh" else m[0], text),
    html=HTML_TAG.findall,
    directives=DIRECTIVE.findall,
    raw_role=re.compile(r":(raw-html):"),
    front_matter=None,
    block_start=REST_BLOCK_START,
)
MYST = Syntax(
    markup=myst_markup,
    prose=lambda text: myst_mask(text, lambda span: "X"),
    without_mentions=lambda text: myst_mask(
        text, lambda span: "" if span.role == "zh" else text[span.start : span.end]
    ),
    html=myst_html,
    directives=myst_directives,
    raw_role=MYST_RAW_ROLE,
    front_matter=MYST_FRONT_MATTER,
    block_start=(
        r"\d+\) |#{1,6} |> |\[\^[^\]\s]+\]: |(?:`{3,}|~{3,}|:{3,})\{[\w:-]+\} |" + REST_BLOCK_START
    ),
)


def check_markup(msgid: str, msgstr: str, syntax: Syntax = REST) -> list[str]:
    problems = []
    source, translation = syntax.markup(msgid), syntax.markup(msgstr)
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


def check_style(msgid: str, msgstr: str, syntax: Syntax = REST) -> list[str]:
    """The English house style, in prose (code and inline markup aside)."""
    prose = syntax.prose(msgstr)
    problems = []
    if SPACED_SLASH.search(prose):
        problems.append(
            "a spaced slash in prose: write a list ('CPU, GPU, or TPU') or an unspaced "
            "pair ('CPU/GPU')"
        )
    if re.search(r"\b(e\.g|i\.e)\.(?!,)", prose):
        problems.append("write 'e.g.,' and 'i.e.,' with a comma")
    if "..." in prose and "..." not in syntax.prose(msgid):
        problems.append("write an ellipsis as '\u2026', not '...'")
    if msgid.rstrip().endswith("；") and msgstr.rstrip().endswith(";"):
        problems.append("the list item ends with a semicolon: end it with a period")
    return problems


def check_smuggling(msgid: str, msgstr: str, syntax: Syntax = REST) -> list[str]:
    problems = []
    if re.search(r"<\s*script", msgstr, re.IGNORECASE) and not re.search(
        r"<\s*script", msgid, re.IGNORECASE
    ):
        problems.append("<script> in the translation")
    extra_tags = Counter(syntax.html(msgstr)) - Counter(syntax.html(msgid))
    if extra_tags:
        problems.append(f"raw HTML not in the source: {', '.join(map(repr, extra_tags))}")
    extra_directives = Counter(syntax.directives(msgstr)) - Counter(syntax.directives(msgid))
    if extra_directives:
        names = ", ".join(d.strip() for d in extra_directives)
        problems.append(f"directive not in the source: {names}")
    raw_role = syntax.raw_role.search(msgstr)
    if raw_role and not syntax.raw_role.search(msgid):
        problems.append(f"{raw_role[1]} role in the translation")
    front = syntax.front_matter
    if front and front.search(msgstr) and not front.search(msgid):
        problems.append("front matter in the translation")
    return problems


@dataclass
class Term:
    """A glossary term as the check uses it: its English pattern compiled."""

    zh: str
    en: str
    pattern: re.Pattern[str]
    exclusive: bool


def load_glossary(path: Path) -> list[Term]:
    terms = [
        Term(term.zh, term.en, re.compile(term.pattern, re.IGNORECASE), term.exclusive)
        for term in project.glossary(path)
    ]
    return sorted(terms, key=lambda t: len(t.zh), reverse=True)


def check_glossary(terms: list[Term], msgid: str, msgstr: str, syntax: Syntax = REST) -> list[str]:
    problems = []
    masked = msgid
    present = set()
    for term in terms:  # longest first: 向量化 must not count as 量化
        if term.zh in masked:
            present.add(term.zh)
            masked = masked.replace(term.zh, "\0" * len(term.zh))
    english = syntax.without_mentions(msgstr)
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
    if "charset=utf-8" not in meta.get("Content-Type", "").lower():
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
    page = page_file(root / "docs", Path(*parts[at + 1 :]).with_suffix("").as_posix())
    return page if page.is_file() else None


def page_syntax(page: Path | None) -> Syntax:
    return MYST if page is not None and page.suffix == ".md" else REST


def still_in_source(msgid: str, source: str, syntax: Syntax = REST) -> bool:
    """Whether ``msgid`` is a whole block (paragraph, title, code) of the page, spacing aside."""
    words = [re.escape(char) for char in msgid if not char.isspace()]
    if not words:
        return False
    start = rf"(?:^|\n)[ \t]*(?:{syntax.block_start})?"
    return re.search(start + r"\s*".join(words) + r"[ \t]*(?:\n|$)", source) is not None


def lost_translations(path: Path, po: polib.POFile, page: Path | None) -> list[Finding]:
    """Obsolete translations whose source text the page still has: a merge dropped them."""
    if page is None:
        return []
    source = page.read_text(encoding="utf-8")
    syntax = page_syntax(page)
    return [
        Finding(
            path,
            entry.linenum,
            f"obsolete, but {page.name} still shows this text: the templates lost it, "
            "so its translation is no longer used",
        )
        for entry in po
        if entry.obsolete and entry.msgstr and still_in_source(entry.msgid, source, syntax)
    ]


def check_catalog(path: Path, language: str, terms: list[Term]) -> list[Finding]:
    broken = faults(path)
    if broken:
        return broken  # the rest needs a catalog that parses
    findings = wrap_check(path)
    po = polib.pofile(str(path))
    lines = path.read_text(encoding="utf-8").splitlines()
    findings += check_headers(path, po, language)
    findings += [
        Finding(path, line, f"{what}, written by another merge tool; 'make wrap-po' removes it")
        for line, what in foreign_marks(po)
    ]
    page = source_page(path)
    syntax = page_syntax(page)
    findings += lost_translations(path, po, page)
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
                    "changed source (#|), then remove the flag"
                    if entry.previous_msgid
                    # Babel's merge (sphinx-intl) marks an entry fuzzy without the #| lines.
                    else "fuzzy: review the translation against the page (the merge kept "
                    "no #| lines to show what changed), then remove the flag",
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
            problems += check_markup(entry.msgid, entry.msgstr, syntax)
            if language == "en":
                problems += check_style(entry.msgid, entry.msgstr, syntax)
        problems += check_smuggling(entry.msgid, entry.msgstr, syntax)
        problems += check_glossary(terms, entry.msgid, entry.msgstr, syntax)
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
    parser.add_argument("--glossary", type=Path, default=project.GLOSSARY)
    parser.add_argument("--words", type=Path, default=Path("locale") / "codespell-words.txt")


def run(po_dir: Path, args: argparse.Namespace) -> int:
    """Check the catalogs under ``po_dir`` with ``args``' glossary and words."""
    language = project.catalog_language(po_dir)
    terms = load_glossary(args.glossary)
    paths = sorted(po_dir.rglob("*.po"))
    if not paths:
        print(f"{po_dir}: no catalogs; run 'make update-po'")
        return 1
    findings = [f for path in paths for f in check_catalog(path, language, terms)]
    findings += codespell([path for path in paths if not file_faults(path)], args.words)
    for finding in findings:
        print(finding)
    print(f"{len(paths)} catalogs, {len(findings)} finding(s)", file=sys.stderr)
    return 1 if findings else 0
