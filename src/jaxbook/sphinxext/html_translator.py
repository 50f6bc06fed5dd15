"""The book's HTML translator: what the web pages and the EPUB need beyond Sphinx's own.

- A region that can scroll sideways takes the keyboard's focus
  (``tabindex="0"``, WCAG 2.1.1): every ``<pre>``, whose long code lines
  scroll, and furo's wrapper of each table and displayed formula
  (``table-wrapper``, ``math-wrapper``), which scroll on a phone.
- A toctree caption, which Sphinx marks ``role="heading"`` without a level,
  gets ``aria-level="2"``, in the page and in furo's sidebar (rendered by
  this translator too).
- Each highlighted code block's ``<pre>`` carries its number of lines
  (``--jb-lines``). The stylesheet defers the layout of a page's later code
  blocks (``content-visibility: auto``) and gives each placeholder that many
  lines' height; one height for every block put each off by up to 700 px, so
  a link to a later section landed short of it and the page moved under the
  reader as blocks came into view.
- In the EPUB, each line of a highlighted code block is a block of its own
  (``jb-line``), which the EPUB's stylesheet sets with a hanging indent: on a
  phone a wrapped line goes on indented under its start, never at the left
  edge where it would read as a new statement.

Config values: none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.writers.html5 import HTML5Translator

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

SCROLLING_WRAPPERS = {"table-wrapper", "math-wrapper"}
HIGHLIGHTED_PRE = '<div class="highlight"><pre>'


class BookHTMLTranslator(HTML5Translator):
    def starttag(
        self,
        node: nodes.Element,
        tagname: str,
        suffix: str = "\n",
        empty: bool = False,
        **attributes: Any,
    ) -> str:
        if tagname == "pre" or SCROLLING_WRAPPERS & set(node.get("classes", [])):
            attributes.setdefault("tabindex", "0")
        if attributes.get("ROLE") == "heading":
            attributes.setdefault("aria-level", "2")
        return super().starttag(node, tagname, suffix, empty, **attributes)

    def visit_literal_block(self, node: nodes.literal_block) -> None:
        try:
            super().visit_literal_block(node)
        except nodes.SkipNode:
            # Pygments wrote this block's <pre>, not starttag: mark the one just written.
            written = self.body[-1]
            start = written.find(HIGHLIGHTED_PRE)
            if start >= 0:
                code = written[start + len(HIGHLIGHTED_PRE) : written.index("</pre>", start)]
                lines = code.rstrip("\n").split("\n")
                rest = written[start + len(HIGHLIGHTED_PRE) :]
                if self.builder.name == "epub":
                    # Pygments closes its spans at each line's end, so a line is whole
                    # markup; an empty line keeps its height with a space.
                    rest = (
                        "".join(f'<span class="jb-line">{line or " "}</span>' for line in lines)
                        + rest[len(code) :]
                    )
                self.body[-1] = (
                    written[:start]
                    + f'<div class="highlight"><pre tabindex="0" style="--jb-lines: {len(lines)}">'
                    + rest
                )
            raise


def setup(app: Sphinx) -> ExtensionMetadata:
    for builder in ("html", "dirhtml", "singlehtml", "epub"):
        app.set_translator(builder, BookHTMLTranslator, override=True)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
