"""Render math as MathML at build time: no script, no web font, no CDN.

Registers the HTML math renderer ``mathml`` (select it with
``html_math_renderer = "mathml"``). Each ``:math:`` role and ``.. math::``
block is converted with latex2mathml while the page is written; browsers
render MathML natively, so a reader on a closed network sees every formula.

Config values: none.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from docutils import nodes
from latex2mathml.converter import convert
from sphinx.util import logging

from jaxbook.sphinxext import PARALLEL_SAFE

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)


def _mathml(latex: str, display: str, node: nodes.Element) -> str:
    try:
        return convert(latex, display=display)
    except Exception as exc:  # latex2mathml raises several exception types
        logger.warning(
            "cannot render math %r: %s", latex, exc, location=node, type="jaxbook", subtype="mathml"
        )
        return f"<code>{html.escape(latex)}</code>"


def visit_math(self: Any, node: nodes.math) -> None:
    self.body.append(f'<span class="math">{_mathml(node.astext(), "inline", node)}</span>')
    raise nodes.SkipNode


def visit_math_block(self: Any, node: nodes.math_block) -> None:
    self.body.append(self.starttag(node, "div", CLASS="math"))
    for part in node.astext().split("\n\n"):
        self.body.append(_mathml(part.strip(), "block", node))
    self.body.append("</div>\n")
    raise nodes.SkipNode


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_html_math_renderer(
        "mathml", inline_renderers=(visit_math, None), block_renderers=(visit_math_block, None)
    )
    return {"version": "1.0", **PARALLEL_SAFE}
