"""The book's LaTeX translator: Sphinx's, with what the PDF needs beyond it, one mixin per feature.

The LaTeX counterpart of :mod:`jaxbook.sphinxext.html_translator`. Sphinx takes one
translator per builder, so each feature that changes how the PDF's LaTeX is written
keeps a mixin in its own module, and :class:`BookLaTeXTranslator` is made of them. This
extension also writes sphinx-design's badge boxed apart from the sentence it opens
(``editions.latex.visit_badge``).

Config values: none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sphinx.writers.latex import LaTeXTranslator
from sphinx_design.badges_buttons import sd_badge

from jaxbook.sphinxext import PARALLEL_SAFE
from jaxbook.sphinxext.editions.latex import OutputFrame, depart_badge, visit_badge
from jaxbook.sphinxext.pinyin_index import IndexEntries

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


class BookLaTeXTranslator(IndexEntries, OutputFrame, LaTeXTranslator):
    """Sphinx's LaTeX translator with each feature's mixin, whose docstring says what it adds:
    ``pinyin_index.IndexEntries`` (the index entries, a Chinese one sorted by its pinyin) and
    ``editions.latex.OutputFrame`` (what a cell prints, set apart from its code).

    A feature adds its mixin to the bases, before ``LaTeXTranslator``; a method it overrides
    calls ``super()``, so that two mixins that override the same method both take effect."""


def setup(app: Sphinx) -> ExtensionMetadata:
    # This module alone registers a LaTeX translator: a second registration would replace
    # this one, and with it every other feature's part.
    app.set_translator("latex", BookLaTeXTranslator, override=True)
    # Visitors registered with add_node are set on the translator object, over any class's
    # method, so another extension's node is written here with override=True, after
    # sphinx-design's own registration (a no-op where conf.py has set it up already).
    app.setup_extension("sphinx_design")
    app.add_node(sd_badge, override=True, latex=(visit_badge, depart_badge))
    return {"version": "1.0", **PARALLEL_SAFE}
