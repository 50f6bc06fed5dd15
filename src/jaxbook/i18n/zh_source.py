"""The text of a page or a Python file as the copy lint's rules read it: its pieces.

:func:`read` splits a ``.rst``, ``.md`` or ``.py`` file into :class:`Piece` objects,
each one run of text with its scope (``prose``, ``code`` or ``output``). Every character
keeps the span of the file it came from, so that a correction is written back to just
that span. A ``zh-lint: disable=RULE[,RULE]`` comment is a :class:`Suppression`.
"""

from __future__ import annotations

import bisect
import io
import re
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from docutils import nodes
from markdown_it.token import Token

from jaxbook.chinese import HAN
from jaxbook.i18n import parsers

OPAQUE = "\ue000"
HUGGING = "\ue001"
# The roles whose text sits in a Chinese sentence with no space beside it, as a
# Chinese link's does: cross-references, glossary terms and the course's links.
HUGGING_ROLES = frozenset({"doc", "ref", "term", "course", "book:sec", "book:secnum"})
PLACEHOLDERS = OPAQUE + HUGGING
SUPPRESSION = re.compile(r"^\s*zh-lint:\s*disable=([\w,\s-]+?)\s*$")
MD_SUPPRESSION = re.compile(r"^\s*<!--\s*zh-lint:\s*disable=([\w,\s-]+?)\s*-->\s*$")
# Directive options whose value is text a reader sees.
PROSE_OPTIONS = ("alt", "caption", "title")
PYTHON = {"testcode", "testsetup", "testcleanup", "testplot"}
OUTPUT = {"testoutput", "measured-output"}
CODE_BLOCK = {"code-block", "code", "sourcecode"}
PYTHON_LANGUAGES = {"python", "py", "python3", "ipython"}
SHELL_LANGUAGES = {"bash", "sh", "shell", "console"}
TEXT_LANGUAGES = {"text", "none", ""}
PROMPT = re.compile(r"^(?:>>>|\.\.\.)(?: |$)")
ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1+\s*$")
STRING_START = re.compile(r"^([rRbBuUfFtT]*)('''|\"\"\"|'|\")")


class SourceError(Exception):
    """A place where a parser's reading cannot be found in the file again."""


@dataclass
class Piece:
    """One run of text: ``spans[i]`` is where ``text[i]`` is written in the file.

    Its ``scope`` is one of:

    - ``prose``: a paragraph, a title, a directive's title (its argument), an ``alt``,
      ``caption`` or ``title`` option; read from docutils' doctree (reST, and the content
      of ``{eval-rst}``) or from markdown-it's tokens (MyST). Inline markup that is not
      running text (code, roles, links, footnote and substitution references, math) stands
      as one placeholder character, :data:`OPAQUE`, or :data:`HUGGING` for a link or
      cross-reference that sits in a Chinese sentence without spaces; emphasis is read as
      its text;
    - ``code``: a comment, or the text of a string literal (an f-string's fields as
      placeholders), found by Python's tokenizer in ``testcode`` and the other Python
      blocks, ``>>>`` lines and ``.py`` files; a shell block's comments; a line of a text
      block;
    - ``output``: a line of an expected output (``testoutput``, ``measured-output``).
    """

    scope: str
    text: str
    spans: list[tuple[int, int]]
    depth: list[int]
    syntax: str  # "rst", "md" or "py": how the markup around the text is written
    adornments: list[int] = field(default_factory=list)  # a section title's lines of marks
    joined: set[int] = field(default_factory=set)  # after an escaped space: no space wanted


@dataclass
class Suppression:
    """``zh-lint: disable=rule`` at ``line``, for the findings on ``lines``.

    The comment (reST ``..``, MyST ``<!-- -->``, Python ``#``) covers the block after it; in
    Python, the next line, or its own line when code precedes it."""

    line: int
    rule: str
    lines: set[int] = field(default_factory=set)
    used: bool = False


@dataclass
class Source:
    path: Path
    text: str
    pieces: list[Piece] = field(default_factory=list)
    suppressions: list[Suppression] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)  # what could not be read

    def __post_init__(self) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", self.text)]

    def line_of(self, offset: int) -> int:
        """The line (from 1) of a character's offset."""
        return bisect.bisect_right(self.starts, offset)

    def offset(self, line: int) -> int:
        """The offset of a line's (from 1) first character."""
        return self.starts[min(max(line, 1), len(self.starts)) - 1]

    def line_text(self, line: int) -> str:
        start = self.offset(line)
        end = self.text.find("\n", start)
        return self.text[start : end if end >= 0 else len(self.text)]

    def lines_of(self, piece: Piece) -> set[int]:
        return {self.line_of(start) for start, _ in piece.spans}

    def error(self, offset: int, what: str) -> SourceError:
        return SourceError(f"{self.path}:{self.line_of(offset)}: {what}")


def read(path: Path, text: str | None = None) -> Source:
    """The pieces and suppressions of a ``.rst``, ``.md`` or ``.py`` file; :class:`SourceError`
    (``file:line``) where a parser's text cannot be found in the file again."""
    source = Source(path, path.read_text(encoding="utf-8") if text is None else text)
    if path.suffix == ".py":
        _Python(source).read(source.text.split("\n"), 1)
    elif path.suffix == ".md":
        _Myst(source).read(source.text, 1)
    else:
        _Rest(source).read(source.text, 1)
    return source


# -- Finding the parsers' text in the file --------------------------------------


class _Builder:
    """Builds one prose piece by finding its texts, in order, in the file."""

    def __init__(self, source: Source, syntax: str, start: int) -> None:
        self.source, self.syntax, self.at = source, syntax, start
        self.text: list[str] = []
        self.spans: list[tuple[int, int]] = []
        self.depth: list[int] = []
        self.joined: set[int] = set()
        self.open_gap: int | None = None  # a placeholder whose end is the next text's start

    def _match(self, text: str, at: int) -> tuple[list[tuple[str, int, int]], set[int]] | None:
        """Each character of ``text`` that is the page's text, with its span, if
        ``text`` is written at ``at``, and the indexes of those that follow an escaped
        space; docutils marks an escaped character with a NUL before it (an escaped
        space is no text at all)."""
        src = self.source.text
        found: list[tuple[str, int, int]] = []
        joined: set[int] = set()
        i = 0
        while i < len(text):
            char = text[i]
            if char == "\x00" and self.syntax == "rst":
                escaped = text[i + 1 : i + 2]
                if not src.startswith("\\" + escaped, at):
                    return None
                if escaped.isspace():
                    joined.add(len(found))
                    at = _skip(src, at + 2, " \t") if escaped == "\n" else at + 2
                else:
                    found.append((escaped, at, at + 2))
                    at += 2
                i += 2
                continue
            if char == "\n":
                at = _skip(src, at, " \t")
                if not src.startswith("\n", at):
                    return None
                found.append((char, at, at + 1))
                at = _skip(src, at + 1, " \t>" if self.syntax == "md" else " \t")
            elif src.startswith(char, at):
                found.append((char, at, at + 1))
                at += 1
            elif src.startswith("\\" + char, at) and (self.syntax == "rst" or char.isascii()):
                found.append((char, at, at + 2))
                at += 2
            else:
                return None
            i += 1
        return found, joined

    def _find(self, text: str) -> tuple[list[tuple[str, int, int]], set[int]]:
        at = self.at
        while at <= len(self.source.text):
            found = self._match(text, at)
            if found is not None:
                return found
            at += 1
        raise self.source.error(self.at, f"cannot find the parsed text {text[:40]!r} here")

    def add_text(self, text: str, depth: int) -> None:
        """Find ``text`` from the cursor on (past any markup) and take it in."""
        if not text:
            return
        found, joined = self._find(text)
        self.joined |= {len(self.text) + j for j in joined}
        if not found:
            return
        self._close_gap(found[0][1])
        self.text += [char for char, _, _ in found]
        self.spans += [(start, end) for _, start, end in found]
        self.depth += [depth] * len(found)
        self.at = found[-1][2]

    def skip_text(self, text: str) -> None:
        """Move past ``text`` (a link's text, read as part of its placeholder)."""
        found = self._find(text)[0] if text else None
        if found:
            self.at = found[-1][2]

    def add_placeholder(self, char: str, depth: int, span: tuple[int, int] | None) -> None:
        """Take in one placeholder for markup written at ``span`` (None: up to the next text)."""
        self._close_gap(self.at)
        if span is None:
            self.open_gap = len(self.spans)
            span = (self.at, self.at)
        self.text.append(char)
        self.spans.append(span)
        self.depth.append(depth)
        self.at = max(self.at, span[1])

    def _close_gap(self, at: int) -> None:
        if self.open_gap is not None:
            start = self.spans[self.open_gap][0]
            src = self.source.text
            end = at
            while end > start and src[end - 1] in "*_ \t\n":
                end -= 1  # the emphasis marks and spaces after it are not its markup
            self.spans[self.open_gap] = (start, max(start, end))
            self.open_gap = None

    def locate(self, pattern: str | re.Pattern[str]) -> tuple[int, int] | None:
        """The span of the first match of ``pattern`` from the cursor on."""
        regex = re.compile(re.escape(pattern)) if isinstance(pattern, str) else pattern
        match = regex.search(self.source.text, self.at)
        return match.span() if match else None

    def piece(self, scope: str = "prose") -> Piece | None:
        self._close_gap(self.at)
        text = "".join(self.text)
        if not text.strip():
            return None
        return Piece(scope, text, self.spans, self.depth, self.syntax, joined=self.joined)


def _skip(text: str, at: int, chars: str) -> int:
    while at < len(text) and text[at] in chars:
        at += 1
    return at


class _Reader:
    syntax = ""

    def __init__(self, source: Source) -> None:
        self.source = source

    def add(self, piece: Piece | None) -> None:
        if piece is not None and piece.text.strip(PLACEHOLDERS + " \n"):
            self.source.pieces.append(piece)

    def suppress(self, comment: str, line: int, pattern: re.Pattern[str]) -> list[Suppression]:
        match = pattern.match(comment)
        if not match:
            return []
        found = [Suppression(line, rule.strip()) for rule in match[1].split(",") if rule.strip()]
        self.source.suppressions += found
        return found

    def options(self, options: dict, line: int) -> None:
        """The options a reader sees (alt text, a caption), written from ``line`` on."""
        for name in PROSE_OPTIONS:
            value = options.get(name)
            if isinstance(value, str) and value:
                builder = _Builder(self.source, self.syntax, self.source.offset(line))
                found = builder.locate(re.compile(rf"^[ \t]*:{name}:[ \t]*", re.MULTILINE))
                if found is None:
                    raise self.source.error(builder.at, f"cannot find the option :{name}:")
                builder.at = found[1]
                self.option_text(builder, value)
                self.add(builder.piece())

    def option_text(self, builder: _Builder, value: str) -> None:
        builder.add_text(value, 0)

    def covering(self, suppressions: list[Suppression], first_piece: int) -> None:
        """The suppressions cover the pieces read since ``first_piece``."""
        for piece in self.source.pieces[first_piece:]:
            lines = self.source.lines_of(piece)
            for suppression in suppressions:
                suppression.lines |= lines

    # -- literal blocks --

    def literal(self, kind: str, lines: list[str], first: int) -> None:
        """The pieces of a literal block's ``lines``, the first at line ``first``."""
        if kind == "python":
            _Python(self.source).read(lines, first)
        elif kind == "doctest":
            self.doctest(lines, first)
        elif kind in ("shell", "text", "output"):
            for n, line in enumerate(lines):
                at = self.column(line, first + n)
                if at is None:
                    continue
                if kind == "shell":
                    comment = _shell_comment(line)
                    if comment is None:
                        continue
                    line, at = line[comment:], at + comment
                scope = "output" if kind == "output" else "code"
                self.add(_plain(scope, line, at))

    def column(self, line: str, number: int) -> int | None:
        """The offset where a block's ``line`` is written on the file's line ``number``."""
        if not line.strip():
            return None
        written = self.source.line_text(number)
        if not written.endswith(line) or written[: len(written) - len(line)].strip(" \t>"):
            raise self.source.error(self.source.offset(number), f"cannot find {line[:40]!r}")
        return self.source.offset(number) + len(written) - len(line)

    def doctest(self, lines: list[str], first: int) -> None:
        """``>>>`` lines are Python (one source per example); the others are text."""
        n = 0
        while n < len(lines):
            if not PROMPT.match(lines[n]):
                at = self.column(lines[n], first + n)
                if at is not None:
                    self.add(_plain("code", lines[n], at))
                n += 1
                continue
            end = n + 1
            while end < len(lines) and lines[end].startswith("..."):
                end += 1
            code = [line[4:] for line in lines[n:end]]
            _Python(self.source).read(code, first + n)
            n = end


def _plain(scope: str, text: str, at: int) -> Piece:
    return Piece(scope, text, [(at + i, at + i + 1) for i in range(len(text))], [0] * len(text), "")


def _shell_comment(line: str) -> int | None:
    """Where a shell line's comment text starts (after its ``#``), if it has one."""
    for match in re.finditer(r"(?:^|\s)#", line):
        before = line[: match.start()]
        if before.count("'") % 2 == 0 and before.count('"') % 2 == 0:
            return match.end()
    return None


def literal_kind(name: str, argument: str) -> str | None:
    """How a literal directive's body is read: python, doctest, shell, text or output."""
    language = argument.strip().lower()
    if name in PYTHON:
        return "python"
    if name == "doctest":
        return "doctest"
    if name in OUTPUT:
        return "output"
    if name in CODE_BLOCK:
        if language in PYTHON_LANGUAGES:
            return "python"
        if language == "pycon":
            return "doctest"
        if language in SHELL_LANGUAGES:
            return "shell"
        if language in TEXT_LANGUAGES:
            return "text"
    return None


# -- Python -----------------------------------------------------------------------


class _Python(_Reader):
    """Comments and string literals, by Python's tokenizer."""

    syntax = "py"

    def read(self, lines: list[str], first: int) -> None:
        code = "\n".join(lines)
        try:
            tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
        except (tokenize.TokenError, SyntaxError, IndentationError) as error:
            self.source.problems.append(
                (
                    first,
                    f"this Python does not tokenize ({error.args[0]}): its comments and strings "
                    "are not checked; if it is not Python, mark its block as text",
                )
            )
            return
        starts = []  # where each line of the code is written in the file
        for n, line in enumerate(lines):
            written = self.source.line_text(first + n)
            if not written.endswith(line):
                raise self.source.error(self.source.offset(first + n), f"cannot find {line!r}")
            starts.append(self.source.offset(first + n) + len(written) - len(line))

        def offset(row: int, col: int) -> int:
            return starts[row - 1] + col

        depth = 0
        fstring_start = None
        for token in tokens:
            if token.type == tokenize.FSTRING_START:
                depth += 1
                if depth == 1:
                    fstring_start = token
                continue
            if token.type == tokenize.FSTRING_END:
                depth -= 1
                if depth == 0 and fstring_start is not None:
                    start = offset(*fstring_start.start)
                    self.string(start, offset(*token.end))
                continue
            if depth:
                continue
            if token.type == tokenize.COMMENT:
                start = offset(*token.start)
                row = token.start[0]
                alone = not lines[row - 1][: token.start[1]].strip()
                found = self.suppress(token.string[1:], first + row - 1, SUPPRESSION)
                for suppression in found:
                    suppression.lines.add(first + row if alone else first + row - 1)
                if not found:
                    self.add(_plain("code", token.string[1:], start + 1))
            elif token.type == tokenize.STRING:
                self.string(offset(*token.start), offset(*token.end))

    def string(self, start: int, end: int) -> None:
        """The text of the string literal written at ``[start, end)``."""
        literal = self.source.text[start:end]
        prefix = STRING_START.match(literal)
        if prefix is None or "b" in prefix[1].lower():
            return
        body_start, body_end = start + prefix.end(), end - len(prefix[2])
        if "f" not in prefix[1].lower() and "t" not in prefix[1].lower():
            self.add(_plain("code", self.source.text[body_start:body_end], body_start))
            return
        # Each literal part of an f-string is read between its fields (or quotes), as
        # Python's tokenizer gives it: a placeholder on either side.
        src = self.source.text
        parts: list[tuple[int, int]] = []  # the fields, and the quotes as the ends
        at, part = body_start, body_start
        bounds = [(start, body_start)]
        while at < body_end:
            if src.startswith(("{{", "}}"), at):
                at += 2
            elif src[at] == "{":
                field_end, nested = at + 1, 1
                while field_end < body_end and nested:
                    nested += {"{": 1, "}": -1}.get(src[field_end], 0)
                    field_end += 1
                parts.append((part, at))
                bounds.append((at, field_end))
                at = part = field_end
            else:
                at += 1
        parts.append((part, body_end))
        bounds.append((body_end, end))
        for n, (part_start, part_end) in enumerate(parts):
            if part_start == part_end:
                continue
            piece = _plain("code", src[part_start:part_end], part_start)
            piece.text = OPAQUE + piece.text + OPAQUE
            piece.spans = [bounds[n], *piece.spans, bounds[n + 1]]
            piece.depth = [0, *piece.depth, 0]
            self.add(piece)


# -- reStructuredText ------------------------------------------------------------


SKIPPED = (nodes.Invisible, nodes.raw, nodes.math_block, nodes.system_message)


class _Rest(_Reader):
    syntax = "rst"

    def read(self, text: str, first: int) -> None:
        """Read ``text``, written in the file from line ``first`` on."""
        self.first = first
        document = parsers.rest_document(text, str(self.source.path))
        self.walk(document)

    def line(self, node: nodes.Node) -> int:
        """The file's line of a node's (from 1), or of the block it is in."""
        at: nodes.Node | None = node
        while at is not None:
            if at.line is not None:
                return self.first + at.line - 1
            at = at.parent
        return self.first

    def walk(self, node: nodes.Node) -> None:
        pending: list[Suppression] = []
        for child in node.children:
            if isinstance(child, nodes.comment):
                line = self.comment_line(child)
                pending += self.suppress(child.astext(), line, SUPPRESSION)
                continue
            first_piece = len(self.source.pieces)
            self.visit(child)
            if pending:
                self.covering(pending, first_piece)
                pending = []

    def comment_line(self, comment: nodes.comment) -> int:
        line = self.line(comment)
        for number in (line - 1, line, line - 2):
            if comment.astext().split("\n")[0] in self.source.line_text(number):
                return number
        return line

    def visit(self, node: nodes.Node) -> None:
        if isinstance(node, SKIPPED):
            return
        if isinstance(node, parsers.directive):
            self.directive(node)
        elif isinstance(node, (nodes.literal_block, nodes.doctest_block)):
            lines = node.astext().split("\n")
            self.doctest(lines, self.line(node))
        elif isinstance(node, nodes.TextElement) and not isinstance(
            node, (nodes.FixedTextElement, nodes.Inline)
        ):
            self.prose(node)
        else:
            self.walk(node)

    def directive(self, node: parsers.directive) -> None:
        line = self.line(node)
        content_line = node.get("content_line")
        self.options(node["options"], line)
        if node["name"] in parsers.LITERAL_DIRECTIVES:
            kind = literal_kind(node["name"], node["argument"])
            if kind is not None and node["content"]:
                self.literal(kind, node["content"], self.first + content_line - 1)
            return
        self.walk(node)

    def option_text(self, builder: _Builder, value: str) -> None:
        paragraph = parsers.rest_document(value).next_node(nodes.paragraph)
        if paragraph is None:
            builder.add_text(value, 0)
        else:
            self.inline(builder, paragraph, 0)

    def prose(self, node: nodes.TextElement) -> None:
        line = self.line(node)
        adornments = []
        if isinstance(node, nodes.title) and isinstance(node.parent, nodes.section):
            adornments = [line - 1]  # docutils gives a title the line of its underline
            line -= 1
            above = self.source.line_text(line - 1)
            if ADORNMENT.match(above) and above.strip()[0] == self.source.line_text(line + 1)[0]:
                adornments.append(line - 2)
        builder = _Builder(self.source, self.syntax, self.source.offset(line))
        self.inline(builder, node, 0)
        piece = builder.piece()
        if piece is not None:
            piece.adornments = adornments
        self.add(piece)

    def inline(self, builder: _Builder, node: nodes.Element, depth: int) -> None:
        for child in node.children:
            if isinstance(child, nodes.Text):
                builder.add_text(str(child), depth)
            elif isinstance(child, (nodes.emphasis, nodes.strong)):
                self.inline(builder, child, depth + 1)
            elif isinstance(child, nodes.system_message):
                continue
            else:
                assert isinstance(child, nodes.Element), "an element holds text and elements"
                hugging = (isinstance(child, nodes.reference) and HAN.search(child.astext())) or (
                    isinstance(child, parsers.role) and child["name"] in HUGGING_ROLES
                )
                span = builder.locate(child.rawsource) if child.rawsource else None
                builder.add_placeholder(HUGGING if hugging else OPAQUE, depth, span)


# -- MyST Markdown --------------------------------------------------------------


class _Myst(_Reader):
    syntax = "md"

    def read(self, text: str, first: int) -> None:
        """Read ``text``, written in the file from line ``first`` on."""
        tokens = parsers.myst_tokens(text)
        pending: list[Suppression] = []
        covered_until: int | None = None
        first_piece = 0
        for index, token in enumerate(tokens):
            if token.type == "html_block" and token.map:
                line = first + token.map[0]
                found = self.suppress(token.content.strip(), line, MD_SUPPRESSION)
                if found:
                    pending += found
                    continue
            if pending and covered_until is None and token.nesting >= 0:
                covered_until = _closing(tokens, index)
                first_piece = len(self.source.pieces)
            self.token(token, first)
            if covered_until is not None and index >= covered_until:
                self.covering(pending, first_piece)
                pending, covered_until = [], None

    def token(self, token: Token, first: int) -> None:
        if token.type == "inline" and token.map:
            builder = _Builder(self.source, self.syntax, self.source.offset(first + token.map[0]))
            self.inline(builder, token.children or [])
            self.add(builder.piece())
        elif token.type in ("fence", "colon_fence") and token.map:
            self.fence(token, first + token.map[0])

    def fence(self, token: Token, line: int) -> None:
        named = parsers.fence_directive(token)
        body, body_offset, options = parsers.fence_body(token)
        body_line = line + 1 + body_offset
        if named is None:
            kind = literal_kind("code-block", token.info)
            if kind is not None:
                self.literal(kind, token.content.split("\n")[:-1], line + 1)
            return
        name, argument = named
        self.options(options, line + 1)
        if name == "eval-rst":
            _Rest(self.source).read("\n".join(body), body_line)
        elif name in parsers.LITERAL_DIRECTIVES:
            kind = literal_kind(name, argument)
            if kind is not None:
                self.literal(kind, body, body_line)
        else:
            if argument:
                builder = _Builder(self.source, self.syntax, self.source.offset(line))
                builder.at = self.source.text.index("}", builder.at) + 1
                self.inline(builder, parsers.myst_inline(argument))
                self.add(builder.piece())
            _Myst(self.source).read("\n".join(body), body_line)

    def option_text(self, builder: _Builder, value: str) -> None:
        self.inline(builder, parsers.myst_inline(value))

    def inline(self, builder: _Builder, children: Iterable[Token]) -> None:
        depth = 0
        link: list[Token] | None = None
        for child in children:
            if link is not None:
                link.append(child)
                if child.type == "link_close":
                    self.link(builder, link, depth)
                    link = None
                continue
            if child.type == "text":
                builder.add_text(child.content, depth)
            elif child.type in ("softbreak", "hardbreak"):
                builder.add_text("\n", depth)
            elif child.type.endswith("_open") and child.type != "link_open":
                depth += 1
            elif child.type.endswith("_close"):
                depth -= 1
            elif child.type == "link_open":
                link = [child]
            else:
                char, span = self.placeholder(builder, child)
                builder.add_placeholder(char, depth, span)

    def placeholder(self, builder: _Builder, token: Token) -> tuple[str, tuple[int, int] | None]:
        if token.type == "code_inline":
            ticks = re.escape(token.markup)
            return OPAQUE, builder.locate(
                re.compile(rf"(?<!`){ticks}(?!`).*?(?<!`){ticks}(?!`)", re.S)
            )
        if token.type == "myst_role":
            name = re.escape(token.meta.get("name", ""))
            span = builder.locate(re.compile(rf"\{{{name}\}}(`+).*?(?<!`)\1(?!`)", re.S))
            hugging = token.meta.get("name") in HUGGING_ROLES
            return (HUGGING if hugging else OPAQUE), span
        if token.type == "html_inline":
            return OPAQUE, builder.locate(token.content)
        return OPAQUE, None

    def link(self, builder: _Builder, tokens: list[Token], depth: int) -> None:
        """A link as one placeholder: hugging when its text is Chinese."""
        text = "".join(t.content for t in tokens if t.type in ("text", "code_inline"))
        start = builder.locate("<" if tokens[0].markup == "autolink" else "[")
        if start is None:
            raise self.source.error(builder.at, "cannot find a link here")
        builder.at = start[1]
        for token in tokens[1:-1]:
            if token.type == "text":
                builder.skip_text(token.content)
        src = self.source.text
        end = builder.at
        if tokens[0].markup == "autolink":
            end = src.index(">", end) + 1
        else:
            end = src.index("]", end) + 1
            if src.startswith("(", end):
                end = _balanced(src, end)
            elif src.startswith("[", end):
                end = src.index("]", end) + 1
        builder.at = start[0]
        char = HUGGING if HAN.search(text) else OPAQUE
        builder.add_placeholder(char, depth, (start[0], end))


def _balanced(text: str, at: int) -> int:
    """The end of the parenthesized group that opens at ``at``."""
    nested = 0
    for end in range(at, len(text)):
        if text[end] == "\\":
            continue
        nested += {"(": 1, ")": -1}.get(text[end], 0)
        if nested == 0:
            return end + 1
    return len(text)


def _closing(tokens: list[Token], index: int) -> int:
    """The index of the token that closes the one at ``index`` (itself if it opens nothing)."""
    if tokens[index].nesting == 0:
        return index
    level = 0
    for end in range(index, len(tokens)):
        level += tokens[end].nesting
        if level == 0:
            return end
    return len(tokens) - 1
