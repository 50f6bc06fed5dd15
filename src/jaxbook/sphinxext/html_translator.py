"""The book's HTML translator: what the web pages and the EPUB need beyond Sphinx's own.

For the HTML, dirhtml, singlehtml and EPUB builders this extension sets the translator
(``BookHTMLTranslator``) and, on ``builder-inited``, the Pygments formatter
(``CodeFormatter``), for keyboards, screen readers and phones; a post-transform keeps furo's
scrolling wrappers from repeating an id. Its counterpart for the PDF is ``latex_translator``
(one mixin per feature there, since several extensions change the LaTeX).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from docutils import nodes
from pygments.formatters import HtmlFormatter
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.writers.html5 import HTML5Translator

from jaxbook._compat import use_code_formatter
from jaxbook.sphinxext import PARALLEL_SAFE
from jaxbook.sphinxext._nodes import ancestors
from jaxbook.sphinxext.fonts import cjk_region

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

BUILDERS = ("html", "dirhtml", "singlehtml", "epub")
SCROLLING_WRAPPERS = {"table-wrapper", "math-wrapper"}


# Where inline code in a table cell may break, as the PDF breaks it: before a dot or
# an underscore that follows a letter, digit or bracket, and after an opening bracket or a
# comma that another character follows. Without it, on a phone, a long name held its column
# as wide as itself and pushed the next off the screen (the website), or broke between two
# letters ("jax_debu" / "g_key_reuse", the EPUB).
CODE_BREAKS = re.compile(r"(?<=[\w)\]])(?=[._]\w)|(?<=[(\[,])(?=[^\s)\]])")


def caption_number(number: str, language: str) -> str:
    """A caption's number as the book sets it before the caption's text: with a period in an
    edition in a Latin script ("Figure 1-1."), alone in a CJK one ("图 1-1")."""
    return number if cjk_region(language) is not None else f"{number}."


class BookHTMLTranslator(HTML5Translator):
    def visit_Text(self, node: nodes.Text) -> None:
        """Text as Sphinx writes it; in a table cell, inline code with a break allowed
        where the PDF breaks it (``CODE_BREAKS``).

        Why: Sphinx's ``visit_Text`` writes inline code's text itself, word by word, with no
        hook for where a word may break.
        Upstream: ``HTML5Translator.visit_Text`` (docutils' and Sphinx's).
        Written against: Sphinx 9.1.1 and 9.2.0.
        Remove when: Sphinx or docutils marks where inline code may break, or browsers
        break it by CSS (``overflow-wrap`` breaks a name anywhere).
        """
        start = len(self.body)
        super().visit_Text(node)
        if self.protect_literal_text and any(isinstance(a, nodes.entry) for a in ancestors(node)):
            self.body[start:] = [CODE_BREAKS.sub("<wbr />", piece) for piece in self.body[start:]]

    def add_fignumber(self, node: nodes.Element) -> None:
        """A caption's number as the PDF sets it (``\\jbcaptionsep``): followed by a period
        in an edition in a Latin script ("Figure 1-1. The five points"), by a space alone in
        a CJK one ("图 1-1 正弦曲线").

        Why: Chicago's style, and the book's PDF, end a caption's number with a period.
        Upstream: ``HTML5Translator.add_fignumber`` writes ``numfig_format``'s text and a
        space; a period in ``numfig_format`` would also end every ``:numref:`` reference.
        Written against: Sphinx 9.1.1 and 9.2.0.
        Remove when: Sphinx has a setting for what follows a caption's number.
        """
        start = len(self.body)
        super().add_fignumber(node)
        language = self.config.language or "en"
        for at in range(start + 1, len(self.body)):
            if self.body[at - 1] == '<span class="caption-number">' and self.body[at].endswith(" "):
                self.body[at] = f"{caption_number(self.body[at][:-1], language)} "

    def starttag(
        self,
        node: nodes.Element,
        tagname: str,
        suffix: str = "\n",
        empty: bool = False,
        **attributes: Any,
    ) -> str:
        """Sphinx's start tag, and: a region that can scroll sideways takes the keyboard's
        focus (``tabindex="0"``, WCAG 2.1.1), every ``<pre>`` and furo's table and formula
        wrappers, which scroll on a phone; a toctree caption, which Sphinx marks
        ``role="heading"`` without a level, gets ``aria-level="2"``, in the page and in
        furo's sidebar (rendered by this translator too)."""
        if tagname == "pre" or SCROLLING_WRAPPERS & set(node.get("classes", [])):
            attributes.setdefault("tabindex", "0")
        if attributes.get("ROLE") == "heading":
            attributes.setdefault("aria-level", "2")
        if tagname == "a" and is_term_link(node):
            # Styled as a quiet link (jaxbook.css): a class of its own, since the EPUB's
            # CSS may not select a link by its content (:has(), which EPUBCheck refuses).
            attributes["classes"] = [*attributes.get("classes", []), "jb-term-link"]
        return super().starttag(node, tagname, suffix, empty, **attributes)


def is_term_link(node: nodes.Element) -> bool:
    """A glossary term's first-use link: a reference whose one child is the term's words."""
    return (
        isinstance(node, nodes.reference)
        and len(node.children) == 1
        and "jb-term" in getattr(node[0], "get", lambda *_: [])("classes", [])
    )


class CodeFormatter(HtmlFormatter):
    """Pygments' HTML for a highlighted block, whose ``<pre>`` Pygments writes, not
    ``starttag``: it takes the keyboard's focus and carries its number of lines.

    The stylesheet defers the layout of a page's later code blocks (``content-visibility:
    auto``) and gives each placeholder ``--jb-lines`` lines' height: with one height for
    every block, a link to a later section would land short of it, and the page would move
    under the reader as blocks came into view.
    """

    line_blocks = False  # each line a block of its own (the EPUB's)

    def wrap(self, source: Iterator[tuple[int, str]]) -> Iterator[tuple[int, str]]:
        lines = [text for _kind, text in source]
        yield 0, f'<pre tabindex="0" style="--jb-lines: {len(lines)}">'
        # As Pygments' own <pre>: an empty span first keeps a leading empty line.
        lines[:1] = [f"<span></span>{line}" for line in lines[:1]]
        if self.line_blocks:
            # Pygments closes its spans at each line's end, so a line is whole markup; an
            # empty line keeps its height with a space. The line feed stays, at the line's end
            # (a block's last line feed adds no line): a reader that drops the stylesheet still
            # sets the lines apart.
            lines = [
                f'<span class="jb-line"{hanging(line)}>{line.rstrip("\n") or " "}\n</span>'
                for line in lines
            ]
        yield from ((1, line) for line in lines)
        yield 0, "</pre>"


def hanging(line: str) -> str:
    """The style of an indented line's block: a wrapped part goes on two characters right of
    the line's own indentation (the stylesheet's 2ch is a line at the margin's). At 2ch from
    the margin, an indented line's wrapped part read as a statement dedented."""
    text = re.sub(r"<[^>]*>", "", line)
    indent = len(text) - len(text.lstrip(" "))
    if not indent or not text.strip():
        return ""
    return f' style="padding-left: {indent + 2}ch; text-indent: -{indent + 2}ch"'


class EpubCodeFormatter(CodeFormatter):
    """Each line a block (``jb-line``) with a hanging indent (:func:`hanging`): on a phone a
    wrapped line never goes at the left edge, where it would read as a new statement."""

    line_blocks = True


def use_formatter(app: Sphinx) -> None:
    if isinstance(app.builder, StandaloneHTMLBuilder) and app.builder.name in BUILDERS:
        epub = app.builder.name == "epub"
        use_code_formatter(app.builder, EpubCodeFormatter if epub else CodeFormatter)


class WrapperWithoutIds(SphinxPostTransform):
    """furo's wrapper of a table or a formula (its post-transform, at 500) copies the wrapped
    node's attributes, ids too: the ids stay the wrapped node's alone, once in the page."""

    formats = ("html",)
    default_priority = 510

    def run(self, **kwargs: Any) -> None:
        for wrapper in self.document.findall(nodes.container):
            wrapped = wrapper.children[0] if len(wrapper.children) == 1 else None
            if SCROLLING_WRAPPERS & set(wrapper["classes"]) and isinstance(wrapped, nodes.Element):
                wrapper["ids"] = [i for i in wrapper["ids"] if i not in wrapped["ids"]]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_post_transform(WrapperWithoutIds)
    for builder in BUILDERS:
        app.set_translator(builder, BookHTMLTranslator, override=True)
    app.connect("builder-inited", use_formatter)
    return {"version": "1.0", **PARALLEL_SAFE}
