"""Translation QA for the gettext catalogs; every finding is ``file:line: message``.

    jaxbook po check [--glossary locale/glossary.csv] [locale/<language>/LC_MESSAGES ...]

Checks, per catalog:

- the file itself (``jaxbook.i18n.pofile``: a byte-order mark, CRLF, bytes
  that are not UTF-8, a file cut off), then syntax, duplicates and format
  strings (``msgfmt --check``); a catalog with such a fault gets that one
  finding, since the rest cannot be read; the ``Language``,
  ``Plural-Forms`` and charset headers, and wrapping at the catalogs' width
  (``powrap --check``);
  what another merge tool (sphinx-intl's Babel) writes and ``msgmerge`` does
  not (``jaxbook.i18n.pofile.foreign_marks``), which ``make wrap-po`` removes;
- untranslated and fuzzy entries (a release never ships either), in a
  finished language; a language that ``locale/languages.csv`` lists as a
  ``draft`` has them counted in one line instead, and every other check still
  holds for what it has translated;
- an obsolete translation whose text the page still shows: the templates
  lost a message, and the English page would show Chinese there;
- markup parity between msgid and msgstr, each read by its page's parser
  (docutils for reST, every directive and role generic so that nothing runs;
  myst-parser's markdown-it for MyST, and docutils for the content of a MyST
  page's ``{eval-rst}``, found by the entry's line): the multisets of inline
  code, roles and their targets, link targets (images' too), footnote and
  substitution references are equal (``:zh:`` term mentions and badge text
  are the translator's own);
- code: where the msgid is Python source, the msgstr must tokenize to the same
  tokens, except comments and the text of string literals;
- nothing smuggled in: no ``<script>``, raw HTML, directive (a substitution
  definition's too), raw role or MyST front matter that the msgid does not
  have;
- named placeholders (``%(course)s`` in ``book.po``'s credit, which the build
  fills by name) kept as written: one renamed or lost is named as such, not
  as raw HTML, though it stands in a tag's attribute;
- the glossary, in the catalog's language's columns: when the source has a
  term, the translation matches its ``pattern_<language>`` (a Python regular
  expression, case aside, searched anywhere in the translation's text); an
  exclusive term (quantization) appears only where the source has its Chinese
  term (or names the word itself); a finished language without columns in the
  glossary, or with a term whose cells it left empty, is a finding (a draft's
  terms still to translate are counted in its summary);
- the English house style (US spelling, as the JAX and Python docs use):
  codespell's British-to-American dictionary next to its usual ones, with the
  project word list; no spaced slash in prose ("CPU / GPU", write "CPU, GPU"
  or "CPU/GPU"); "e.g.," and "i.e.," with a comma; a list item that the
  source ends with "；" ends with a period, not a semicolon; an ellipsis is
  "…" (U+2026), as the English pages write it, not "..." where the source has
  no "..." (an output's doctest wildcard, Python's ``...``).

And over all the catalogs of the directory: a message that several pages say
(a recurring heading such as 学习目标, a page's lead-in such as 本节用到的导入：)
is translated one way; a second translation is a finding at its entry, naming
the first.

Exit status 1 if there is any finding.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import functools
import io
import os
import re
import shutil
import subprocess
import sys
import tokenize
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polib
from babel.core import get_global
from docutils import nodes

from jaxbook import project
from jaxbook.chinese import HAN, HAN_RANGES
from jaxbook.i18n import parsers
from jaxbook.i18n.pofile import (
    Finding,
    catalog_files,
    entry_line,
    faults,
    foreign_marks,
    is_interface,
    msgid_line,
    plural_forms,
    readable,
    wrap_faults,
)
from jaxbook.project import find_root, source_file

HTML_TAG = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>")
# A named placeholder that the build fills (book.po's credit: ``%(course)s``, the course's
# address); a tag is compared with its placeholders' names aside, which the check of the
# placeholders names.
FORMAT_PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]")
SCRIPT = re.compile(r"<\s*script", re.IGNORECASE)
FREE_ROLES = {"zh"}
TRANSLATED_ROLE_TEXT = re.compile(r"bdg(-[\w-]+)?$")
# Roles whose target a translation changes: a link to "the other edition" names the source's
# language in a translation (:edition:`Chinese edition <zh_CN>`), a translation's in the source.
TRANSLATED_ROLE_TARGET = {"edition"}
# Roles whose text is a title, translated; only their target must survive.
TITLE_ROLES = {"course"}
KINDS = ("inline code", "role", "link target", "footnote reference", "substitution")
EMPHASIS = {"strong": "strong emphasis (**…**)", "emphasis": "emphasis (*…*)"}
# What a finding calls each of the book's interface catalogs; a package's is "<domain> extensions".
INTERFACE_NAMES = {project.THEME_DOMAIN: "theme", project.EXTENSION_DOMAIN: "extensions"}


def role_key(name: str, content: str) -> tuple[str, str] | None:
    if name in FREE_ROLES:
        return None
    if TRANSLATED_ROLE_TEXT.match(name) or name in TRANSLATED_ROLE_TARGET:
        return (name, "")
    target = re.search(r"<([^<>]+)>\s*$", content)
    if name in TITLE_ROLES:
        return (name, target[1] if target else "")
    return (name, target[1] if target else content)


@dataclass
class Reading:
    """A message as its page's parser reads it: the markup that must survive
    translation, the text for the style and glossary checks, and what could be
    smuggled in (raw HTML, directives, raw roles, front matter)."""

    markup: dict[str, Counter] = field(default_factory=lambda: {k: Counter() for k in KINDS})
    prose: list[str] = field(default_factory=list)  # code and roles as "X"
    english: list[str] = field(default_factory=list)  # all text but the zh mentions
    html: Counter = field(default_factory=Counter)
    directives: Counter = field(default_factory=Counter)
    raw_roles: Counter = field(default_factory=Counter)
    front_matter: bool = False
    # Strong and plain emphasis, counted: an unmatched ``**`` leaves one less.
    emphasis: Counter = field(default_factory=Counter)
    # What the parser warned about (reST: an inline start-string without its end).
    warnings: Counter = field(default_factory=Counter)

    def text(self, text: str) -> None:
        self.prose.append(text)
        self.english.append(text)

    def end_block(self) -> None:
        self.text("\n")

    def code(self, text: str) -> None:
        self.markup["inline code"][text] += 1
        self.prose.append("X")
        self.english.append(text)

    def role(self, name: str, content: str) -> None:
        if not name:
            self.text(content)  # `text` with the default role: emphasized text
            return
        key = role_key(name, content)
        if key is not None:
            self.markup["role"][key] += 1
        if name.startswith("raw"):
            self.raw_roles[name] += 1
        self.prose.append("X")
        self.english.append("" if name in FREE_ROLES else content)

    def merge(self, other: Reading) -> None:
        for kind in KINDS:
            self.markup[kind] += other.markup[kind]
        self.html += other.html
        self.directives += other.directives
        self.raw_roles += other.raw_roles
        self.emphasis += other.emphasis
        self.warnings += other.warnings


def link_target(reference: nodes.reference) -> str:
    """Where a reference points; in a message whose "text <URL>" lost its space
    (the spacing extension joins a line break after a full-width mark), the URL."""
    if reference.get("refuri"):
        return reference["refuri"]
    target = reference.get("refname") or reference.get("name", "")
    embedded = re.search(r"<([^<>\s]+)>\s*$", target)
    return embedded[1] if embedded else target


def read_rest(text: str) -> Reading:
    """``text`` read by docutils (every directive and role generic: nothing runs)."""
    reading = Reading()
    _rest_nodes(parsers.rest_document(text), reading)
    return reading


def _rest_nodes(node: nodes.Node, reading: Reading) -> None:
    for child in node.children:
        if isinstance(child, nodes.Text):
            reading.text(str(child))
            reading.html.update(HTML_TAG.findall(str(child)))
        elif isinstance(child, nodes.literal):
            reading.code(child.astext())
        elif isinstance(child, parsers.role):
            reading.role(child["name"], child.astext())
        elif isinstance(child, (nodes.footnote_reference, nodes.citation_reference)):
            reading.markup["footnote reference"][child.rawsource] += 1
        elif isinstance(child, nodes.substitution_reference):
            reading.markup["substitution"][child.rawsource] += 1
        elif isinstance(child, parsers.directive):
            reading.directives[f".. {child['name']}::"] += 1
            _rest_nodes(child, reading)
        elif isinstance(child, nodes.system_message):
            if child["level"] >= 2:
                reading.warnings[child.children[0].astext() if child.children else ""] += 1
            continue
        elif isinstance(child, nodes.comment):
            continue
        elif isinstance(child, nodes.problematic):
            reading.text(child.astext())
        else:
            if isinstance(child, nodes.reference):
                reading.markup["link target"][link_target(child)] += 1
            if isinstance(child, (nodes.strong, nodes.emphasis)):
                reading.emphasis[EMPHASIS[child.tagname]] += 1
            if isinstance(child, nodes.FixedTextElement):
                reading.text(child.astext())
            else:
                _rest_nodes(child, reading)
            if isinstance(child, nodes.TextElement) and not isinstance(child, nodes.Inline):
                reading.end_block()


def read_myst(text: str) -> Reading:
    """``text`` read by myst-parser's markdown-it."""
    reading = Reading()
    env: dict = {}
    tokens = parsers.markdown().parse(text, env)
    _myst_tokens(tokens, reading)
    for label, reference in env.get("references", {}).items():
        reading.markup["link target"][reference.get("href", label)] += 1
    return reading


def _myst_tokens(tokens: list, reading: Reading) -> None:
    for token in tokens:
        kind = token.type
        if kind == "inline":
            _myst_tokens(token.children or [], reading)
            reading.end_block()
        elif kind in ("text", "softbreak"):
            reading.text(token.content or " ")
        elif kind == "code_inline":
            reading.code(token.content)
        elif kind in ("strong_open", "em_open"):
            reading.emphasis[EMPHASIS["strong" if kind == "strong_open" else "emphasis"]] += 1
        elif kind == "myst_role":
            reading.role(token.meta.get("name", ""), token.content)
        elif kind in ("link_open", "image"):
            reading.markup["link target"][
                token.attrGet("href" if kind == "link_open" else "src")
            ] += 1
            if kind == "image":
                _myst_tokens(token.children or [], reading)
        elif kind == "footnote_ref":
            reading.markup["footnote reference"][f"[^{token.meta.get('label')}]"] += 1
        elif kind in ("substitution_inline", "substitution_block"):
            reading.markup["substitution"][f"{{{{ {' '.join(token.content.split())} }}}}"] += 1
        elif kind in ("html_inline", "html_block"):
            reading.html[token.content.strip()] += 1
        elif kind in ("fence", "colon_fence"):
            named = parsers.fence_directive(token)
            if named is None:
                reading.text(token.content)
                reading.end_block()
                continue
            reading.directives[f"{token.markup}{{{named[0]}}}"] += 1
            body, _, _ = parsers.fence_body(token)
            inner = read_rest if named[0] == "eval-rst" else read_myst
            if named[0] not in parsers.LITERAL_DIRECTIVES or named[0] == "eval-rst":
                reading.merge(inner("\n".join(body)))
        elif kind == "front_matter":
            reading.front_matter = True
        elif kind in ("code_block", "math_inline", "math_block"):
            reading.text(token.content)
            if kind != "math_inline":
                reading.end_block()


@dataclass(frozen=True)
class Syntax:
    """How a page's source format is read: its parser, and its blocks."""

    read: Callable[[str], Reading]
    markdown: bool


REST = Syntax(read=read_rest, markdown=False)
MYST = Syntax(read=read_myst, markdown=True)


def check_markup(msgid: Reading, msgstr: Reading) -> list[str]:
    """The markup's node multisets of the message and its translation are equal, as are
    their counts of emphasis; the parser finds nothing wrong with the translation that
    it did not find with the source."""
    problems = [
        f"the markup is broken: {warning.rstrip('.')}"
        for warning in msgstr.warnings - msgid.warnings
    ]
    problems += [] if problems else unclosed_backticks(msgid, msgstr)
    # A translation may add emphasis (a title in italics where Chinese uses 《》), but
    # one it loses is most often a delimiter left unmatched.
    for kind in EMPHASIS.values():
        if msgid.emphasis[kind] > msgstr.emphasis[kind]:
            problems.append(
                f"{kind}: the source has {msgid.emphasis[kind]}, the translation "
                f"{msgstr.emphasis[kind]}; is a '*' missing or unmatched?"
            )
    for kind in KINDS:
        missing = msgid.markup[kind] - msgstr.markup[kind]
        extra = msgstr.markup[kind] - msgid.markup[kind]
        if missing:
            problems.append(f"{kind} missing from the translation: {', '.join(map(repr, missing))}")
        if extra:
            problems.append(f"{kind} not in the source: {', '.join(map(repr, extra))}")
    return problems


BACKTICKS = re.compile(r"`+")


def unclosed_backticks(msgid: Reading, msgstr: Reading) -> list[str]:
    """Backticks the parser left in the translation's text that the source's text does not
    have: inline code (or a role) opened and never closed. MyST's parser reads an unclosed
    ``\\`\\``` as plain text without a word, and docutils does the same where the
    start-string is followed by a space."""
    text = "".join(msgstr.prose)
    extra = Counter(BACKTICKS.findall(text)) - Counter(BACKTICKS.findall("".join(msgid.prose)))
    if not extra:
        return []
    opened = next(match for match in BACKTICKS.finditer(text) if match[0] in extra)
    shown = text[opened.start() : opened.start() + 30].split("\n")[0].rstrip()
    return [
        f"the markup is broken: {shown!r} opens inline code that is not closed; end it "
        f"with {opened[0]!r}"
    ]


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
            letters = re.match(r"[A-Za-z]*", token.string)
            assert letters, "a pattern that matches the empty string matches every string"
            prefix = letters[0]
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


def check_style(msgid: str, msgstr: str, ids: Reading, strs: Reading) -> list[str]:
    """The English house style, in prose (code and inline markup aside)."""
    prose = "".join(strs.prose)
    problems = []
    if SPACED_SLASH.search(prose):
        problems.append(
            "a spaced slash in prose: write a list ('CPU, GPU, or TPU') or an unspaced "
            "pair ('CPU/GPU')"
        )
    if re.search(r"\b(e\.g|i\.e)\.(?!,)", prose):
        problems.append("write 'e.g.,' and 'i.e.,' with a comma")
    if "..." in prose and "..." not in "".join(ids.prose):
        problems.append("write an ellipsis as '\u2026', not '...'")
    if msgid.rstrip().endswith("；") and msgstr.rstrip().endswith(";"):
        problems.append("the list item ends with a semicolon: end it with a period")
    return problems


def check_placeholders(msgid: str, msgstr: str) -> list[str]:
    """The named placeholders of the message (``%(course)s``), each kept as written: the
    build fills them by name, so a translated or lost name loses the value."""
    source = Counter(FORMAT_PLACEHOLDER.findall(msgid))
    translation = Counter(FORMAT_PLACEHOLDER.findall(msgstr))
    missing, extra = source - translation, translation - source
    problems = []
    if extra:
        names = ", ".join(f"'%({name})s'" for name in extra)
        keep = ", ".join(f"'%({name})s'" for name in missing) or "the source's"
        problems.append(
            f"placeholder {names} not in the source: a placeholder's name is not translated; "
            f"write {keep} as the source does"
        )
    elif missing:
        names = ", ".join(f"'%({name})s'" for name in missing)
        problems.append(
            f"placeholder {names} missing from the translation: the build puts its value "
            "there; keep it as the source writes it"
        )
    return problems


def tags(html: Counter) -> Counter:
    """The tags of ``html`` with their placeholders' names aside."""
    found: Counter = Counter()
    for tag, count in html.items():
        found[FORMAT_PLACEHOLDER.sub("%(…)s", tag)] += count
    return found


def check_smuggling(msgid: str, msgstr: str, ids: Reading, strs: Reading) -> list[str]:
    """Nothing that runs or changes the page where the source has none of it."""
    problems = []
    if SCRIPT.search(msgstr) and not SCRIPT.search(msgid):
        problems.append("<script> in the translation")
    extra_tags = tags(strs.html) - tags(ids.html)
    if extra_tags:
        problems.append(f"raw HTML not in the source: {', '.join(map(repr, extra_tags))}")
    extra_directives = strs.directives - ids.directives
    if extra_directives:
        problems.append(f"directive not in the source: {', '.join(extra_directives)}")
    extra_roles = strs.raw_roles - ids.raw_roles
    if extra_roles:
        problems.append(f"{', '.join(extra_roles)} role in the translation")
    if strs.front_matter and not ids.front_matter:
        problems.append("front matter in the translation")
    return problems


@dataclass
class Term:
    """A glossary term as the check of one language uses it: its pattern compiled."""

    source: str
    name: str
    pattern: re.Pattern[str]
    exclusive: bool
    source_pattern: re.Pattern[str]


def term_pattern(pattern: str) -> re.Pattern[str]:
    """A glossary's ``pattern_<language>`` as the check searches a translation with it:
    case aside, anywhere in the text (the translator's guide explains how to write one)."""
    return re.compile(pattern, re.IGNORECASE)


def load_glossary(path: Path, language: str) -> list[Term]:
    """The glossary's terms as ``language``'s catalogs are checked against them (none
    where the glossary has none in it: ``glossary_gaps`` says so of a finished language)."""
    terms = [
        Term(
            term.source,
            term.names[language],
            term_pattern(term.patterns[language]),
            term.exclusive,
            term.source_pattern,
        )
        for term in project.glossary(path)
        if language in term.patterns
    ]
    return sorted(terms, key=lambda t: len(t.source), reverse=True)


def glossary_gaps(path: Path, language: str) -> list[Finding]:
    """What a finished language lacks in the glossary: its columns, or, where it has them,
    its cells of each term it has not translated (its translations are checked against
    its terms, and its readers' glossary shows them)."""
    if language not in project.glossary_columns(path):
        own = project.language_glossary(path, language)
        return [
            Finding(
                path,
                1,
                f"no glossary terms for {language}: write {own} with the columns "
                f"{','.join([project.SOURCE_LANGUAGE, *project.language_columns(language)])}, "
                f"a row for each Chinese term of {path}",
            )
        ]
    findings = []
    for term in project.glossary(path):
        if language in term.names:
            continue
        cells = ", ".join(project.language_columns(language)).replace(", d", " and d")
        file, line = term.places.get(language, (path, term.line))
        if project.language_glossary(path, language).is_file() and language not in term.places:
            file, line = project.language_glossary(path, language), 1
            cells = f"add its row and fill its {cells}"
        else:
            cells = f"fill its {cells}"
        findings.append(
            Finding(file, line, f"glossary: {term.source} has no {language} term: {cells}")
        )
    return findings


def glossary_to_translate(path: Path, language: str) -> str:
    """How many of the glossary's terms a draft language has still to translate."""
    terms = project.glossary(path)
    if language not in project.glossary_columns(path):
        return f"the glossary has no columns for {language} yet ({path})"
    left = sum(language not in term.names for term in terms)
    own = project.language_glossary(path, language)
    where = f"{own}, where its translator fills them" if own.is_file() else str(path)
    return f"{left} of the glossary's {len(terms)} terms to translate ({where})"


def check_glossary(terms: list[Term], msgid: str, strs: Reading) -> list[str]:
    problems = []
    masked = msgid
    present = set()
    for term in terms:  # longest first: 向量化 must not count as 量化
        if term.source_pattern.search(masked):
            present.add(term.source)
            masked = term.source_pattern.sub("\0" * len(term.source), masked)
    translated = "".join(strs.english)
    for term in terms:
        if term.source in present and not term.pattern.search(translated):
            problems.append(f"glossary: {term.source} must be translated as {term.name!r}")
        if (
            term.exclusive
            and term.source not in present
            and term.pattern.search(translated)
            and not term.pattern.search(msgid)
        ):
            problems.append(
                f"glossary: {term.name!r} is only for {term.source}, which the source does not say"
            )
    return problems


def check_headers(path: Path, po: polib.POFile, language: str) -> list[Finding]:
    findings = []
    meta = po.metadata
    if meta.get("Language") != language:
        findings.append(
            Finding(path, 1, f"header Language is {meta.get('Language')!r}, expected {language!r}")
        )
    try:
        expected = plural_forms(language)
    except ValueError:
        expected = None  # a language CLDR does not know: the header must only be there
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


def source_page(path: Path) -> Path | None:
    """The Chinese page whose catalog ``path`` is (``locale/<lang>/LC_MESSAGES/<page>.po``)."""
    place = project.catalog_place(path)
    if place is None:
        return None
    locale, _language, domain = place
    # The book whose locale/ holds the catalog, not one that only encloses it (a test's
    # small book inside the project).
    if not (locale.parent / "conf.py").is_file():
        return None
    page = source_file(locale.parent, domain)
    return page if page.is_file() else None


def page_syntax(page: Path | None) -> Syntax:
    return MYST if page is not None and page.suffix == ".md" else REST


def entry_syntax(page: Path | None) -> Callable[[polib.POEntry], Syntax]:
    """How an entry's message is written: the page's syntax, or reST for the
    content of a MyST page's ``{eval-rst}`` (found by the entry's line); where the
    page is not found, the syntax its occurrences name (``index.md:12``: MyST)."""
    if page is None:
        return lambda entry: (
            MYST if any(file.endswith(".md") for file, _line in entry.occurrences) else REST
        )
    syntax = page_syntax(page)
    if syntax is REST:
        return lambda entry: syntax
    rest_lines = parsers.eval_rst_lines(page.read_text(encoding="utf-8"))

    def of(entry: polib.POEntry) -> Syntax:
        lines = {
            int(line)
            for file, line in entry.occurrences
            if file.endswith(page.name) and line.isdigit()
        }
        return REST if lines & rest_lines else MYST

    return of


def squashed(text: str) -> str:
    return "".join(text.split())


def page_blocks(page: Path) -> set[str]:
    """The page's blocks (paragraphs, titles, code), spacing aside."""
    blocks = parsers.block_texts(page.read_text(encoding="utf-8"), page_syntax(page).markdown)
    return {squashed(block) for block in blocks if block.strip()}


def lost_translations(path: Path, po: polib.POFile, page: Path | None) -> list[Finding]:
    """Obsolete translations whose source text the page still has: a merge dropped them."""
    if page is None:
        return []
    blocks = page_blocks(page)
    return [
        Finding(
            path,
            entry_line(entry),
            f"obsolete, but {page.name} still shows this text: the templates lost it, "
            "so its translation is no longer used",
        )
        for entry in po
        if entry.obsolete and entry.msgstr and squashed(entry.msgid) in blocks
    ]


def template_of(path: Path) -> Path | None:
    """The committed template a catalog is merged from, if any: ``<page>.pot`` under the
    ``pot`` directory beside the catalog's language (``locale/pot``), or, for a catalog the
    package holds (its Chinese labels), the project's."""
    place = project.catalog_place(path)
    if place is None:
        return None
    locale, _language, domain = place
    name = f"{domain}.pot"
    template = locale / project.TEMPLATES.name / name
    if locale in project.package_catalog_dirs():
        root = find_root(locale)
        template = root / project.TEMPLATES / name if root else template
    return template if template.is_file() else None


def shown(path: Path) -> str:
    """``path`` as a finding names it: relative to the current directory where it can be."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def message_key(entry: polib.POEntry) -> tuple[str, str]:
    return (entry.msgctxt or "", entry.msgid)


def template_name(template: Path) -> str:
    """A template as a finding names it: from its book (``locale/pot/ch01/arrays.pot``)."""
    # The nearest "pot" above it: a page's template may sit in its chapter's folder.
    locale = next(p for p in template.parents if p.name == project.TEMPLATES.name).parent
    return template.relative_to(locale.parent).as_posix()


def check_template(
    path: Path, po: polib.POFile, lines: list[str], template: Path
) -> tuple[list[Finding], set[tuple[str, str]]]:
    """Each msgid the template does not have (edited by hand, or the source moved on), and
    the template's messages the catalog lacks; the first's keys, which nothing else checks.

    A msgid that is not in the template names the template's line of the message it most
    resembles (which is then not also reported as missing), to copy back if the msgid was
    edited by hand: that works in a language git has never seen, where 'make update-po'
    would keep the entry's translation only as fuzzy, or as obsolete after a large edit."""
    entries = [e for e in polib.pofile(str(template)) if not e.obsolete]
    known: set[tuple[str, str]] = {message_key(e) for e in entries}
    live = [entry for entry in po if not entry.obsolete]
    stray: set[tuple[str, str]] = {message_key(e) for e in live} - known
    present = {message_key(e) for e in live}
    missing = [e for e in entries if message_key(e) not in present]
    template_lines = template.read_text(encoding="utf-8").splitlines()
    name = template_name(template)
    findings = []
    for entry in live:
        if message_key(entry) not in stray:
            continue
        nearest = resembled(entry, missing)
        if nearest is None:
            where = f"this msgid is not in the template {name}, nor any like it"
            edited = "delete the entry"
        else:
            missing.remove(nearest)
            where = f"this msgid is not in the template {name}"
            line = msgid_line(template_lines, entry_line(nearest))
            edited = f"copy back the msgid at {name}:{line}, keeping the msgstr"
        findings.append(
            Finding(
                path,
                msgid_line(lines, entry_line(entry)),
                f"{where}: if you edited it, {edited} (only the msgstr is the translator's); "
                "if the page changed since the last merge, run 'make update-po'",
            )
        )
    if missing:
        findings.append(
            Finding(
                path,
                1,
                f"{len(missing)} message(s) of the template {name} are not in the catalog: "
                "run 'make update-po'"
                + (", once the msgids named above are mended" if findings else ""),
            )
        )
    return findings, stray


# How alike an edited msgid and its template's message are, at the least (difflib's ratio).
RESEMBLANCE = 0.6


def resembled(entry: polib.POEntry, candidates: list[polib.POEntry]) -> polib.POEntry | None:
    """The candidate whose msgid ``entry``'s most resembles, if any resembles it enough."""
    scored = [
        (difflib.SequenceMatcher(None, entry.msgid, other.msgid, autojunk=False).ratio(), i)
        for i, other in enumerate(candidates)
        if bool(other.msgid_plural) == bool(entry.msgid_plural)
    ]
    best = max(scored, default=None)
    return candidates[best[1]] if best is not None and best[0] >= RESEMBLANCE else None


# The scripts (CLDR's likely subtags) whose writing uses Han characters: in their text,
# Chinese left behind is told by clauses copied from the source, not by the characters.
HAN_SCRIPTS = {"Hani", "Hans", "Hant", "Jpan", "Kore"}
HAN_RUN = re.compile(f"[{HAN_RANGES}]+")
COPIED_RUN = 4  # Han characters in a row that a Japanese or Korean text does not share by chance


@functools.cache
def writes_han(language: str) -> bool:
    likely = get_global("likely_subtags").get(language.split("_")[0], "")
    return bool(set(likely.split("_")) & HAN_SCRIPTS) or language.startswith("zh")


def source_left(msgid: str, strs: Reading, language: str) -> str | None:
    """Chinese of the source left in a translation (a zh role's mention and the inline code,
    which must stay as written, aside)."""
    if not HAN.search(msgid) or is_literal(msgid):
        return None  # an output comes from its code, an example of markup stays as written
    prose = "".join(strs.prose)
    if writes_han(language):
        for run in HAN_RUN.findall(msgid):
            match = difflib.SequenceMatcher(None, run, prose, autojunk=False).find_longest_match()
            if match.size >= COPIED_RUN:
                copied = run[match.a : match.a + match.size]
                return (
                    f"Chinese left in the translation: {copied!r} is copied from the source; "
                    "translate it"
                )
        return None
    left = re.search(f"[{HAN_RANGES}][^\\n]{{0,24}}", prose)
    if left:
        return (
            f"Chinese left in the translation: {left[0].strip()!r}; translate it (a Chinese "
            "word the text talks about is marked with the zh role)"
        )
    return None


@functools.cache
def sphinx_translates(language: str) -> frozenset[str]:
    """The messages Sphinx's own catalog of ``language`` translates (the theme's catalog of
    the book needs only the others: Sphinx reads both)."""
    import sphinx  # where its catalogs are; nothing of it runs

    found: set[str] = set()
    for code in dict.fromkeys([language, language.split("_")[0]]):
        po = Path(sphinx.__file__).parent / "locale" / code / "LC_MESSAGES" / "sphinx.po"
        if po.is_file():
            found |= {e.msgid for e in polib.pofile(str(po)) if e.msgstr and not e.fuzzy}
    return frozenset(found)


def review_state(entry: polib.POEntry) -> str | None:
    """Why a translator still has to look at an entry: fuzzy, or untranslated."""
    if entry.fuzzy:
        return (
            "fuzzy: review the translation against the changed source (#|), then remove the flag"
            if entry.previous_msgid
            # Babel's merge (sphinx-intl) marks an entry fuzzy without the #| lines.
            else "fuzzy: review the translation against the page (the merge kept "
            "no #| lines to show what changed), then remove the flag"
        )
    translated = entry.msgstr or any(entry.msgstr_plural.values())
    return None if translated else "untranslated"


CODE_SPAN = re.compile(r"``(.+?)``")


def check_interface(path: Path, po: polib.POFile, lines: list[str]) -> list[Finding]:
    """An interface catalog's translations keep their code spans (``code``), which the
    extensions set as code; placeholders and plural forms are msgfmt's (``msgfmt_check``)."""
    findings = []
    for entry in po:
        if entry.obsolete or entry.fuzzy or not entry.msgstr:
            continue
        missing = Counter(CODE_SPAN.findall(entry.msgid)) - Counter(CODE_SPAN.findall(entry.msgstr))
        if missing:
            findings.append(
                Finding(
                    path,
                    msgstr_line(lines, entry_line(entry)),
                    f"inline code missing from the translation: {', '.join(map(repr, missing))}",
                )
            )
    return findings


def check_catalog(
    path: Path, language: str, terms: list[Term], draft: bool = False
) -> list[Finding]:
    """The findings of one catalog; in a ``draft`` language's, its untranslated and fuzzy
    entries are work still to do, not findings (``draft_summary`` counts them)."""
    broken = faults(path)
    if broken:
        return broken  # the rest needs a catalog that parses
    findings = wrap_faults(path)
    po = polib.pofile(str(path))
    lines = path.read_text(encoding="utf-8").splitlines()
    findings += check_headers(path, po, language)
    template = template_of(path)
    stray: set[tuple[str, str]] = set()
    if template is not None:
        found, stray = check_template(path, po, lines, template)
        findings += found
    interface = is_interface(path)
    if interface:
        if project.speaks_interface_source(language):
            return [
                Finding(
                    path,
                    1,
                    f"{language} is the language of the interface's messages, so it needs no "
                    "catalog of them (another merge tool made this one): delete it",
                )
            ]
        findings += check_interface(path, po, lines)
    else:
        findings += [
            Finding(path, line, f"{what}, written by another merge tool; 'make wrap-po' removes it")
            for line, what in foreign_marks(po)
        ]
    page = None if interface else source_page(path)
    syntax_of = entry_syntax(page)
    findings += lost_translations(path, po, page)
    for entry in po:
        if entry.obsolete or message_key(entry) in stray:
            continue
        where = msgstr_line(lines, entry_line(entry))
        state = review_state(entry)
        if (
            state == "untranslated"
            and path.stem == project.THEME_DOMAIN
            and entry.msgid in sphinx_translates(language)
        ):
            continue  # Sphinx's own catalog of the language translates it
        if state is not None:
            if not draft:
                findings.append(Finding(path, where, state))
            continue
        if interface:
            continue
        problems = []
        syntax = syntax_of(entry)
        ids, strs = syntax.read(entry.msgid), syntax.read(entry.msgstr)
        if syntax is MYST or is_html_message(entry):
            strs.html -= language_tags(entry.msgstr)  # a foreign phrase's mark is the translator's
        if is_python(entry.msgid):
            problem = check_code(entry.msgid, entry.msgstr)
            if problem:
                problems.append(problem)
        else:
            problems += check_markup(ids, strs)
            if language == "en":
                problems += check_style(entry.msgid, entry.msgstr, ids, strs)
        problems += check_placeholders(entry.msgid, entry.msgstr)
        problems += check_smuggling(entry.msgid, entry.msgstr, ids, strs)
        left = source_left(entry.msgid, strs, language)
        if left:
            problems.append(left)
        problems += check_glossary(terms, entry.msgid, strs)
        findings += [Finding(path, where, problem) for problem in problems]
    return findings


def inconsistent_translations(paths: list[Path], terms: Sequence[Term] = ()) -> list[Finding]:
    """Each message translated one way across the catalogs: the second way is a finding.

    A glossary term said alone is the exception: a table's row ("Function
    transformations"), a cheat sheet's cell ("Reduce") and an index entry's headword
    ("function transformation", the glossary's own words, under which the index merges
    the term's places) each take the form their place needs, and ``check_glossary`` holds
    every one of them to the term."""
    first: dict[str, tuple[str, Path, int]] = {}
    findings = []
    alone = {term.source for term in terms}
    for path in readable(paths):  # check_catalog names what is wrong with the others
        for entry in polib.pofile(str(path)):
            if entry.obsolete or entry.fuzzy or not entry.msgstr or not entry.msgid:
                continue
            if entry.msgid in alone:
                continue
            line = entry_line(entry)
            seen = first.setdefault(entry.msgid, (entry.msgstr, path, line))
            if seen[0] != entry.msgstr:
                findings.append(
                    Finding(
                        path,
                        msgstr_line(path.read_text(encoding="utf-8").splitlines(), line),
                        f"translated otherwise in {seen[1]}:{seen[2]} ({seen[0][:60]!r}); a "
                        "message the book says in several places is translated one way",
                    )
                )
    return findings


def codespell(paths: list[Path], words: Path) -> list[Finding]:
    """US spelling (the JAX and Python docs'): codespell's British-to-American list."""
    if not paths:
        return []
    command = [
        sys.executable,
        "-m",
        "codespell_lib",
        "--builtin",
        "clear,rare,en-GB_to_en-US",
        *(["--ignore-words", str(words)] if words.is_file() else []),
        *map(str, paths),
    ]
    result = subprocess.run(command, capture_output=True, text=True)
    findings = []
    for line in result.stdout.splitlines():
        match = re.match(r"(.+?):(\d+): (.*)", line)
        if match:
            findings.append(Finding(Path(match[1]), int(match[2]), f"spelling: {match[3]}"))
    return findings


# Where Debian's hunspell dictionaries are (hunspell-en-us, hunspell-es, ...); DICPATH first.
DICTIONARY_DIRS = ("/usr/share/hunspell", "/usr/share/myspell", "/usr/share/myspell/dicts")
# A word, without a possessive's "'s" (which a word list's entries do not take).
WORD = re.compile(r"[^\W\d_]+(?:['’](?![sS]\b)[^\W\d_]+)*")
PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|%[sdr]|\{\w*\}")


def dictionary(language: str) -> Path | None:
    """``language``'s hunspell dictionary (``es`` is ``es_ES``, as CLDR's likely subtags
    say), or None where none is installed."""
    base = language.split("_")[0]
    region = get_global("likely_subtags").get(base, base).split("_")[-1]
    names = dict.fromkeys([language, f"{base}_{region}", base])
    places = [*filter(None, os.environ.get("DICPATH", "").split(os.pathsep)), *DICTIONARY_DIRS]
    for name in names:
        for place in places:
            if Path(place, f"{name}.dic").is_file() and Path(place, f"{name}.aff").is_file():
                return Path(place, name)
    return None


def code_text(code: str) -> str:
    """What a translator writes in code: its comments and the text of its strings."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return ""
    kinds = {"COMMENT", "STRING", "FSTRING_MIDDLE"}
    text = "\n".join(t.string for t in tokens if tokenize.tok_name[t.type] in kinds)
    return re.sub(r"\\[ntr]", " ", text)  # "\njax" is a line break before "jax"


def is_literal(msgid: str) -> bool:
    """Whether a message is a literal block other than code (an output, an example of
    markup): Sphinx joins a paragraph's lines, and keeps a literal block's."""
    return "\n" in msgid.strip() and not is_python(msgid)


# A token with a name's punctuation inside (block_until_ready, jax.numpy, x=1) is no word.
NAME_LIKE = re.compile(r"\S*\w[_.=/\\@]\w\S*")
# Nor is code in backquotes (`xs`, ``jax.jit``), in prose or in a code block's comment.
BACKQUOTED = re.compile(r"(`+)[^`\n]+?\1")


def code_names(code: str) -> set[str]:
    """The names a code block uses (``xs``, ``in_axes``, its keywords): a comment or a
    string that names one of them names the code, not a word."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return set()
    return {token.string for token in tokens if token.type == tokenize.NAME}


# What markup spells that no dictionary need know: an HTML entity's name (&ndash;).
HTML_ENTITY = re.compile(r"&#?\w+;")
# A phrase in another language, marked as HTML marks one (the book's texts, MyST pages): the
# browser and screen readers read it in that language, and no dictionary spells it.
LANGUAGE_SPAN = re.compile(r'<span lang="[\w-]+">(.*?)</span>', re.DOTALL)


def is_html_message(entry: polib.POEntry) -> bool:
    """Whether a message is one of ``conf.py``'s texts (``book.po``: the footer's credit),
    which the templates insert as HTML."""
    files = [Path(file).name for file, _line in entry.occurrences]
    return bool(files) and set(files) == {"conf.py"}


def language_tags(msgstr: str) -> Counter:
    """The tags of the foreign phrases a translation marks (``LANGUAGE_SPAN``)."""
    opened = [re.match(r"<[^<>]*>", span[0]) for span in LANGUAGE_SPAN.finditer(msgstr)]
    return Counter(tag[0] for tag in opened if tag) + Counter({"</span>": len(opened)})


def spelled_words(entry: polib.POEntry, syntax: Syntax | None) -> set[str]:
    """The words of a translation that its language's dictionary must know: its prose (code,
    roles and links aside), or a code block's comments and strings (the code's own names
    aside); not the names of its placeholders, HTML tags and entities, nor a phrase marked
    as another language's, nor a word the message itself has (English the Chinese source
    quotes, or every word of an interface message, which is English); names written with
    capitals inside (NumPy, XLA) are names, not words, and so is anything in backquotes."""
    names: set[str] = set()
    msgstr = LANGUAGE_SPAN.sub(" ", entry.msgstr)
    if syntax is None:  # an interface message: plain text with code spans and placeholders
        text = CODE_SPAN.sub(" ", msgstr)
    elif is_python(entry.msgid):
        text = code_text(msgstr)
        names = code_names(msgstr)
    elif HAN.search(entry.msgid) and not is_literal(entry.msgid):
        text = "".join(syntax.read(msgstr).prose)
    else:
        return set()  # an output, an example or a name: nothing the translator wrote
    text = HTML_ENTITY.sub(" ", HTML_TAG.sub(" ", PLACEHOLDER.sub(" ", text)))
    # A word as the translator typed it, outside backquotes: a parser may join a name's
    # pieces (count_labels read as a reference to count_).
    typed = set(WORD.findall(NAME_LIKE.sub(" ", BACKQUOTED.sub(" ", msgstr))))
    quoted = {word.casefold() for word in WORD.findall(entry.msgid)}
    return {
        word
        for word in WORD.findall(NAME_LIKE.sub(" ", text))
        if word in typed
        and word not in names
        and word.casefold() not in quoted
        and len(word) > 1
        and not HAN.search(word)
        and not any(c.isupper() for c in word[1:])
    }


def hunspell(paths: list[Path], language: str, words: Path) -> tuple[list[Finding], str | None]:
    """Each word of the translations that ``language``'s hunspell dictionary and the word
    list ``words`` do not know, at its entry; or, without a dictionary, why nothing was."""
    found = dictionary(language)
    if found is None or shutil.which("hunspell") is None:
        base = language.split("_")[0]
        return [], (
            f"{language}: spelling unchecked: no hunspell dictionary for {language} is "
            f"installed (Debian/Ubuntu: 'apt-cache search hunspell-{base}' names it)"
        )
    where: dict[str, list[tuple[Path, int]]] = {}
    for path in readable(paths):
        po = polib.pofile(str(path))
        lines = path.read_text(encoding="utf-8").splitlines()
        syntax_of = None if is_interface(path) else entry_syntax(source_page(path))
        for entry in po:
            if entry.obsolete or entry.fuzzy or not entry.msgstr:
                continue
            line = msgstr_line(lines, entry_line(entry))
            for word in spelled_words(entry, syntax_of(entry) if syntax_of else None):
                where.setdefault(word, []).append((path, line))
    command = ["hunspell", "-d", str(found), "-i", "UTF-8", "-l"]
    if words.is_file():
        command += ["-p", str(words)]
    result = subprocess.run(
        command, input="\n".join(sorted(where)), capture_output=True, text=True, encoding="utf-8"
    )
    unknown = sorted(set(result.stdout.split()) & set(where))
    return [
        Finding(
            path,
            line,
            f"spelling: {word!r} is not in the {found.name} dictionary: correct it, or, if it "
            f"is right, add it to {shown(words)}",
        )
        for word in unknown
        for path, line in where[word]
    ], None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--glossary", type=Path, default=project.GLOSSARY)
    parser.add_argument(
        "--words",
        type=Path,
        help="the language's word list (default: locale/<language>/words.txt), names and "
        "terms its dictionary does not know",
    )


def is_draft(po_dir: Path, language: str) -> bool:
    """Whether the book around ``po_dir`` lists ``language`` as a draft (a language of
    no book, or one it does not list, is checked as finished)."""
    root = find_root(po_dir)
    if root is None or not (root / project.LANGUAGE_LIST).is_file():
        return False
    listed = project.languages(root).get(language)
    return listed is not None and listed.draft


def still_to_review(path: Path, po: polib.POFile, language: str) -> list[str]:
    """Each entry's review state (untranslated, fuzzy) that ``check_catalog`` would report
    in a finished language: what Sphinx's own catalog translates is not the theme's work."""
    states = []
    for entry in po:
        state = None if entry.obsolete else review_state(entry)
        theme_done = path.stem == project.THEME_DOMAIN and entry.msgid in sphinx_translates(
            language
        )
        if state is not None and not (state == "untranslated" and theme_done):
            states.append(state.split(":")[0])
    return states


def draft_summary(paths: list[Path], language: str, glossary: Path) -> str:
    """What a draft language still has to translate, and when that becomes findings."""
    pages: Counter = Counter()
    interface: Counter = Counter()
    for path in readable(paths):
        counts = interface if is_interface(path) else pages
        counts.update(still_to_review(path, polib.pofile(str(path)), language))
    return (
        f"{language} is a draft (locale/languages.csv): {pages['untranslated']} untranslated "
        f"and {pages['fuzzy']} fuzzy entries in the pages' catalogs, "
        f"{interface['untranslated'] + interface['fuzzy']} of the interface's labels "
        f"(sphinx.po, jaxbook.po) to translate, and {glossary_to_translate(glossary, language)}, "
        f"are not findings until its translator runs 'jaxbook language done {language}'"
    )


def word_list(po_dir: Path, args: argparse.Namespace) -> Path:
    """The language's word list: ``locale/<language>/words.txt`` beside its catalogs."""
    return args.words or (po_dir.parent if po_dir.name == "LC_MESSAGES" else po_dir) / "words.txt"


def missing_interface(po_dir: Path, language: str, paths: list[Path]) -> list[Finding]:
    """A finished language that does not translate the interface: its labels show in English."""
    if project.speaks_interface_source(language) or po_dir.name != "LC_MESSAGES":
        return []
    have = {path.stem for path in paths if is_interface(path)}
    return [
        Finding(
            po_dir / f"{domain}.po",
            1,
            f"no catalog of the {INTERFACE_NAMES.get(domain, domain + ' extensions')}'s "
            f"labels, which show in English: 'make update-po' creates it from "
            f"{shown(project.TEMPLATES / domain)}.pot",
        )
        for domain in project.interface_domains()
        if domain not in have
    ]


def run(po_dir: Path, args: argparse.Namespace) -> int:
    """Check the catalogs under ``po_dir`` with ``args``' glossary and words."""
    language = project.catalog_language(po_dir)
    draft = is_draft(po_dir, language)
    try:
        terms = load_glossary(args.glossary, language)
    except ValueError as refused:  # each problem a finding, file:line: what is wrong
        print(str(refused).partition("\n")[2])
        return 1
    paths = catalog_files(po_dir)
    if not paths:
        print(f"{po_dir}: no catalogs; run 'make update-po'")
        return 1
    findings = [f for path in paths for f in check_catalog(path, language, terms, draft)]
    source = language == project.SOURCE_LANGUAGE  # its catalogs translate the interface only
    if not draft and not source:
        findings += glossary_gaps(args.glossary, language)
    if not draft and not source:
        findings += missing_interface(po_dir, language, paths)
    findings += inconsistent_translations([path for path in paths if not is_interface(path)], terms)
    words = word_list(po_dir, args)
    if language.split("_")[0] == "en":
        findings += codespell(readable(paths), words)
    # The source's catalogs translate the interface into Chinese, which no hunspell
    # dictionary spells (its copy is the Chinese lint's): nothing to check, nothing to say.
    spelled, unchecked = ([], None) if source else hunspell(paths, language, words)
    findings += spelled
    for finding in findings:
        print(finding)
    if unchecked:
        print(unchecked, file=sys.stderr)
    if draft:
        print(draft_summary(paths, language, args.glossary), file=sys.stderr)
    print(f"{language}: {len(paths)} catalogs, {len(findings)} finding(s)", file=sys.stderr)
    return 1 if findings else 0
