"""The book's markup read by its own parsers, for tools that run without Sphinx.

reStructuredText goes through docutils, with every directive and role read
generically (:class:`directive` and :class:`role` nodes that keep the name,
the arguments and the content), so that a page, a message id or a hostile
translation is parsed without running anything: no file is included, no raw
output passes, no extension is loaded. MyST Markdown goes through
myst-parser's markdown-it set-up; a fenced directive's options and body are
split by myst-parser's own ``parse_directive_text``.

The copy lint (:mod:`jaxbook.i18n.zh_source`) reads pages with these, and the
catalog check (:mod:`jaxbook.i18n.check`) reads message ids and translations.
:func:`located` says where each directive of a page is written (its line, its
body's lines), from docutils' lines and markdown-it's ``token.map``: the one
source locator, for reST and MyST alike, of the tools that edit a page
(``jaxbook refresh``, and ``jaxbook-lab record``, which writes another backend's
outputs onto the pages).
"""

from __future__ import annotations

import configparser
import contextlib
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from docutils import frontend, nodes, utils
from docutils.parsers import rst
from docutils.parsers.rst import Directive, directives
from docutils.parsers.rst.states import Inliner
from docutils.utils import Reporter
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from myst_parser.config.main import MdParserConfig
from myst_parser.parsers.directives import parse_directive_text
from myst_parser.parsers.mdit import create_md_parser

from jaxbook._compat import docutils_markup_lookup
from jaxbook.project import find_root

# Directives whose content is code, an output, or not the page's text: it is
# kept as it is written, never parsed as markup. An index directive's argument is
# its entries ("single: 纯函数; 与副作用"), written in Sphinx's syntax, not prose.
LITERAL_DIRECTIVES = frozenset(
    {
        "index",
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
        "selfcheck",
        "literalinclude",
        "highlight",
        "toctree",
        "include",
        "only",
        "eval-rst",
    }
)


class directive(nodes.Element):
    """A directive as written: ``name``, ``argument``, ``options``, ``line`` (its first).

    A literal directive holds its ``content`` (lines) from ``content_line`` on,
    each indented by ``indent`` in the source; any other holds its parsed body."""


class directive_argument(nodes.TextElement):
    """A directive's argument (a title), with its inline markup parsed."""


class role(nodes.Inline, nodes.TextElement):
    """Interpreted text with its role: ``name``, and the text as written."""


class _AnyOption(dict):
    """An option spec that takes every option, unchanged."""

    def __contains__(self, key: object) -> bool:
        return True

    def __getitem__(self, key: str) -> Any:
        return directives.unchanged

    def __bool__(self) -> bool:
        return True


class GenericDirective(Directive):
    """Any directive: its name, argument, options and body, and nothing run."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar[dict[str, Any]] = _AnyOption()

    def run(self) -> list[nodes.Node]:
        node = directive(
            self.block_text,
            name=self.name,
            argument=" ".join(self.arguments),
            options=dict(self.options),
            line=self.lineno,
        )
        node.source, node.line = self.state_machine.get_source_and_line(self.lineno)
        if self.arguments and self.name not in LITERAL_DIRECTIVES:
            texts, messages = self.state.inline_text(self.arguments[0], self.lineno)
            node += directive_argument(self.arguments[0], "", *texts, line=self.lineno)
            node += messages
        if self.name in LITERAL_DIRECTIVES:
            node["content"] = list(self.content)
            node["content_line"] = self.content_offset + 1
        else:
            self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


RoleResult = tuple[list[nodes.Node], list[nodes.system_message]]


def _generic_role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Inliner,
    options: Mapping[str, Any] | None = None,
    content: Sequence[str] | None = None,
) -> RoleResult:
    return [role(rawtext, utils.unescape(text), name=name)], []


def _directive(
    directive_name: str, language_module: Any, document: nodes.document
) -> tuple[type[Directive], list[nodes.system_message]]:
    return type(directive_name, (GenericDirective,), {}), []


def _role(
    role_name: str, language_module: Any, lineno: int, reporter: Reporter
) -> tuple[Callable[..., RoleResult], list[nodes.system_message]]:
    return _generic_role, []


def _generic_markup() -> contextlib.AbstractContextManager[None]:
    """Read every directive and role generically (as Sphinx swaps in its domains)."""
    return docutils_markup_lookup(_directive, _role)


@cache
def _settings() -> Any:
    settings = frontend.get_default_settings(rst.Parser)
    settings.report_level = 5
    settings.halt_level = 5
    settings.warning_stream = io.StringIO()
    settings.file_insertion_enabled = False
    settings.raw_enabled = False
    # The book's own parser settings (character-level inline markup), as Sphinx reads them.
    root = find_root(Path(__file__).parent)
    config = configparser.ConfigParser()
    config.read(root / "docutils.conf" if root else [], encoding="utf-8")
    for section in ("general", "parsers", "restructuredtext parser"):
        for key, value in config.items(section) if config.has_section(section) else []:
            boolean = value.lower() in config.BOOLEAN_STATES
            setattr(settings, key, config.getboolean(section, key) if boolean else value)
    return settings


def rest_document(text: str, source: str = "<text>") -> nodes.document:
    """``text`` parsed as reStructuredText, with every directive and role generic."""
    document = utils.new_document(source, _settings())
    with _generic_markup():
        rst.Parser().parse(text, document)
    return document


@cache
def markdown() -> MarkdownIt:
    """myst-parser's markdown-it, with the extensions whose syntax the book may use."""
    config = MdParserConfig(enable_extensions={"colon_fence", "dollarmath", "substitution"})
    return create_md_parser(config, RendererHTML)


def myst_tokens(text: str) -> list[Token]:
    return markdown().parse(text)


def myst_inline(text: str) -> list[Token]:
    """The inline tokens of one line of MyST (a directive's argument)."""
    tokens = markdown().parseInline(text)
    return tokens[0].children or [] if tokens else []


def fence_directive(token: Token) -> tuple[str, str] | None:
    """(name, argument) of a fenced directive (```` ```{name} argument ````), else None."""
    info = token.info.strip()
    if not info.startswith("{") or "}" not in info:
        return None
    name, _, argument = info[1:].partition("}")
    return name.strip(), argument.strip()


def fence_body(token: Token) -> tuple[list[str], int, dict[str, Any]]:
    """A fenced directive's body lines, how many lines precede them after the
    opening line (its options), and its options, as myst-parser splits them."""
    named = fence_directive(token)
    if named is None:
        return token.content.splitlines(), 0, {}
    result = parse_directive_text(
        type(named[0], (GenericDirective,), {}), named[1], token.content, validate_options=False
    )
    return result.body, result.body_offset, result.options


def block_texts(text: str, markdown: bool) -> list[str]:
    """The text of each block of a page as written (paragraphs, titles, directive
    titles, code): what the gettext builder makes a message of."""
    blocks: list[str] = []
    if markdown:
        _myst_blocks(myst_tokens(text), blocks)
    else:
        _rest_blocks(rest_document(text), blocks)
    return blocks


def _rest_blocks(node: nodes.Node, blocks: list[str]) -> None:
    for child in node.children:
        if isinstance(child, directive):
            if child.get("content"):
                blocks.append("\n".join(child["content"]))
            blocks += [v for k, v in child["options"].items() if k in ("alt", "caption")]
            inner: list[str] = []
            _rest_blocks(child, inner)
            blocks += inner
            if child["argument"] and len(inner) > 1:
                # A directive that takes no argument reads it as its body's first line.
                blocks.append(f"{child['argument']}\n{inner[1]}")
        elif isinstance(child, (nodes.literal_block, nodes.doctest_block)):
            blocks.append(child.astext())
        elif isinstance(child, nodes.TextElement) and not isinstance(child, nodes.Inline):
            blocks.append(child.rawsource)
        elif isinstance(child, nodes.Element):
            _rest_blocks(child, blocks)


def _myst_blocks(tokens: list[Token], blocks: list[str]) -> None:
    for token in tokens:
        if token.type == "inline":
            blocks.append(token.content)
        elif token.type in ("fence", "colon_fence", "code_block"):
            named = fence_directive(token)
            body, _, options = fence_body(token)
            if named is None or named[0] in LITERAL_DIRECTIVES - {"eval-rst"}:
                blocks.append("\n".join(body))
                continue
            blocks += [named[1], *(v for k, v in options.items() if k in ("alt", "caption"))]
            inner: list[str] = []
            if named[0] == "eval-rst":
                _rest_blocks(rest_document("\n".join(body)), inner)
            else:
                _myst_blocks(myst_tokens("\n".join(body)), inner)
            blocks += inner
            if named[1] and inner:
                # A directive that takes no argument reads it as its body's first line.
                blocks.append(f"{named[1]}\n{inner[0]}")


@dataclass(frozen=True)
class Located:
    """A directive where a page's source writes it: its ``name``, its own ``line`` and the
    first ``body`` line after its options (both from 1), and how many ``lines`` its body
    has, the blank ones after it aside. Only a literal directive's body (code, an output)
    is counted: another's is read for the directives inside it."""

    name: str
    line: int
    body: int
    lines: int


def located(text: str, markdown: bool, first: int = 1) -> list[Located]:
    """Every directive of a page, nested ones too, in the order the source writes them:
    docutils' lines for reST, markdown-it's ``token.map`` for MyST (and a MyST page's
    ``{eval-rst}``)."""
    found: list[Located] = []
    if not markdown:
        for node in rest_document(text).findall(directive):
            content: list[str] = node.get("content", [])
            body = node.get("content_line", node["line"] + 1)
            found.append(
                Located(node["name"], first - 1 + node["line"], first - 1 + body, len(content))
            )
        return found
    for token in myst_tokens(text):
        named = fence_directive(token) if token.type in ("fence", "colon_fence") else None
        if named is None or not token.map:
            continue
        body, offset, _ = fence_body(token)
        line = first + token.map[0]
        start = line + 1 + offset
        literal = named[0] in LITERAL_DIRECTIVES
        found.append(Located(named[0], line, start, len(body) if literal else 0))
        if named[0] == "eval-rst":
            found += located("\n".join(body), markdown=False, first=start)
        elif not literal:
            found += located("\n".join(body), markdown=True, first=start)
    return found


def eval_rst_lines(text: str) -> set[int]:
    """The lines (from 1) of a MyST page that are the content of ``{eval-rst}``: reST."""
    return {
        line
        for block in located(text, markdown=True)
        if block.name == "eval-rst"
        for line in range(block.body, block.body + block.lines)
    }
