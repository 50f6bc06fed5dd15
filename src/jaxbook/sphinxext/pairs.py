"""❌ outdated / ✅ recommended pairs: an outdated idiom beside the one to use instead.

Adds the ``pair``, ``outdated`` and ``recommended`` directives (nodes :class:`pair` and
:class:`pair_half`, for HTML and LaTeX), and checks each pair on ``doctree-read``. Both
halves hold real doctest blocks: the ❌ half demonstrates the failure, which its doctest
checks; the ✅ half passes::

    .. pair:: Requesting float64 under the default configuration

       .. outdated::

          .. testcode:: ...

       .. recommended::

          .. testcode:: ...
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from jaxbook.sphinxext import PARALLEL_SAFE
from jaxbook.sphinxext._locale import _, add_catalog, gettext_noop
from jaxbook.sphinxext._nodes import PASSTHROUGH
from pagerun.pages import doctest_kind

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

HALVES = {
    # Translators: A badge on the code of a pair of examples: the old way, which no longer works or
    # is discouraged.
    "outdated": ("❌", gettext_noop("Outdated")),
    # Translators: A badge on the code of a pair of examples: the way to write it now.
    "recommended": ("✅", gettext_noop("Recommended")),
}
# Translators: A badge on the code of an example that fails on the pinned JAX release, on purpose.
BROKEN = gettext_noop("Broken")


class pair(nodes.General, nodes.Element):
    """A titled box holding an outdated and a recommended half."""


class pair_half(nodes.General, nodes.Element):
    """One half of a pair; ``node['kind']`` is ``outdated`` or ``recommended``."""


def _is_test_block(node: nodes.Node) -> bool:
    return isinstance(node, nodes.Element) and doctest_kind(node) in {"doctest", "testcode"}


class PairDirective(SphinxDirective):
    has_content = True
    required_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar[dict[str, Any]] = {}

    def run(self) -> list[nodes.Node]:
        node = pair(classes=["jb-pair"])
        self.set_source_info(node)
        title_text = self.arguments[0]
        inline, messages = self.parse_inline(title_text, lineno=self.lineno)
        title = nodes.paragraph(title_text, "", *inline, classes=["jb-pair-title"])
        self.set_source_info(title)
        node += title
        node += self.parse_content_to_nodes()
        return [node, *messages]


class HalfDirective(SphinxDirective):
    """``outdated`` or ``recommended``: one half of a pair, under its label. An ❌ half whose
    code is not old but simply wrong (it uses ``np`` without importing it) says so with
    ``:broken:``: its label reads "Broken" instead of "Outdated"."""

    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {"broken": directives.flag}

    def run(self) -> list[nodes.Node]:
        symbol, label = HALVES[self.name]
        if "broken" in self.options and self.name == "outdated":
            label = BROKEN
        node = pair_half(kind=self.name, classes=["jb-half", f"jb-{self.name}"])
        self.set_source_info(node)
        # The label comes from this extension's catalog, not the page's.
        node += nodes.paragraph(
            "", f"{symbol} {_(label)}", classes=["jb-half-label"], translatable=False
        )
        node += self.parse_content_to_nodes()
        return [node]


def check_pairs(app: Sphinx, doctree: nodes.document) -> None:
    """Warn, at the pair's location, when a pair does not hold exactly one ``outdated``
    half followed by one ``recommended`` half, when a half holds no doctest block, or when
    a half stands outside a pair."""
    for half in doctree.findall(pair_half):
        if not isinstance(half.parent, pair):
            logger.warning(
                "%s half outside a pair directive",
                half["kind"],
                location=half,
                type="jaxbook",
                subtype="pairs",
            )
        if not any(_is_test_block(n) for n in half.findall(nodes.Element)):
            logger.warning(
                "%s half holds no doctest block: it must demonstrate its claim",
                half["kind"],
                location=half,
                type="jaxbook",
                subtype="pairs",
            )
    for box in doctree.findall(pair):
        kinds = [child["kind"] for child in box.children if isinstance(child, pair_half)]
        if kinds != ["outdated", "recommended"]:
            logger.warning(
                "a pair holds %s; it needs one outdated half followed by one recommended half",
                kinds or "no halves",
                location=box,
                type="jaxbook",
                subtype="pairs",
            )


def visit_pair_html(self: Any, node: pair) -> None:
    self.body.append(self.starttag(node, "section", CLASS=""))


def depart_pair_html(self: Any, node: pair) -> None:
    self.body.append("</section>\n")


def visit_half_html(self: Any, node: pair_half) -> None:
    self.body.append(self.starttag(node, "div", CLASS=""))


def depart_half_html(self: Any, node: pair_half) -> None:
    self.body.append("</div>\n")


# On paper: the pair's title in bold, each half a box titled by its label
# (a box around both would not break across pages).
LATEX_BOX = {"outdated": "error", "recommended": "tip"}


def visit_pair_latex(self: Any, node: pair) -> None:
    title = node.children[0]
    assert isinstance(title, nodes.paragraph), "a pair starts with its title"
    title.replace_self(nodes.paragraph("", "", nodes.strong("", "", *title.children)))
    self.body.append("\n" + self.hypertarget_to(node))


def visit_half_latex(self: Any, node: pair_half) -> None:
    label = node.children[0]
    node.remove(label)
    box, title = LATEX_BOX[node["kind"]], self.encode(label.astext())
    self.body.append("\n" + rf"\begin{{sphinxadmonition}}{{{box}}}{{{title}}}")
    self.no_latex_floats += 1


def depart_box_latex(self: Any, node: nodes.Element) -> None:
    self.body.append(r"\end{sphinxadmonition}" + "\n")
    self.no_latex_floats -= 1


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    app.add_node(
        pair,
        html=(visit_pair_html, depart_pair_html),
        latex=(visit_pair_latex, PASSTHROUGH["text"][1]),
        **PASSTHROUGH,
    )
    app.add_node(
        pair_half,
        html=(visit_half_html, depart_half_html),
        latex=(visit_half_latex, depart_box_latex),
        **PASSTHROUGH,
    )
    app.add_directive("pair", PairDirective)
    app.add_directive("outdated", HalfDirective)
    app.add_directive("recommended", HalfDirective)
    app.connect("doctree-read", check_pairs)
    return {"version": "1.0", **PARALLEL_SAFE}
