"""The book's LaTeX translator: Sphinx's, with what the PDF needs beyond it, one mixin per feature.

The LaTeX counterpart of ``html_translator`` (the web pages' and the EPUB's translator). Sphinx
takes one translator per builder, so the features that change how the PDF's LaTeX is written
share this one: each keeps its part in its own module, as a mixin class whose docstring says
what it adds, and ``BookLaTeXTranslator`` is made of them:

- ``pinyin_index.IndexEntries``: the index entries (``visit_index``, a glossary term's entry
  after its label, the "see" entries where the index begins), a Chinese one sorted by its
  pinyin;
- ``editions.latex.OutputFrame``: what a cell prints set apart from its code
  (``visit_literal_block``);

A feature adds its mixin to the bases below, before ``LaTeXTranslator``; a method it overrides
calls ``super()``, so that two mixins that override the same method both take effect. This
module alone registers a LaTeX translator (``set_translator``): a second registration would
replace this one, and with it every other feature's part. Another extension's node whose
visitors that extension registers with ``add_node`` (they are set on the translator object,
over any class's method) is written here through ``add_node(override=True)``, after that
extension is set up: sphinx-design's badge, boxed apart from the sentence it opens
(``editions.latex.visit_badge``). The features' other parts (the Chinese index's makeindex
style, the PDF's settings) stay their extensions'.

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
    pass


def setup(app: Sphinx) -> ExtensionMetadata:
    app.set_translator("latex", BookLaTeXTranslator, override=True)
    # After sphinx-design's own registration (a no-op where conf.py has set it up already).
    app.setup_extension("sphinx_design")
    app.add_node(sd_badge, override=True, latex=(visit_badge, depart_badge))
    return {"version": "1.0", **PARALLEL_SAFE}
