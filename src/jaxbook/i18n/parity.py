"""Whether a translation keeps what its message must keep: the markup, read by the page's
parser (docutils for reST, myst-parser's markdown-it for MyST), Python code token for token,
the named placeholders the build fills, and nothing smuggled in that the source lacks.

The checks of :mod:`jaxbook.i18n.check`; each returns the problems of one entry.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import polib
from docutils import nodes

from jaxbook import project
from jaxbook.i18n import parsers
from jaxbook.project import source_file

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


CODE_SPAN = re.compile(r"``(.+?)``")
