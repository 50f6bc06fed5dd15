"""The book's LaTeX translator: one class of every feature's mixin, each feature's LaTeX
written by it."""

from __future__ import annotations

import re

import pytest
from sphinx.writers.latex import LaTeXTranslator

from jaxbook.sphinxext.editions.latex import OutputFrame
from jaxbook.sphinxext.latex_translator import BookLaTeXTranslator
from jaxbook.sphinxext.pinyin_index import IndexEntries


@pytest.mark.sphinx("latex", testroot="latex-translator")
def test_the_one_latex_translator_is_made_of_each_features_mixin(app):
    assert app.registry.translators["latex"] is BookLaTeXTranslator
    # Sphinx's translator last: each mixin's super() reaches the next mixin, then Sphinx's.
    mixins = (IndexEntries, OutputFrame, LaTeXTranslator)
    assert BookLaTeXTranslator.__mro__[1:4] == mixins


@pytest.mark.sphinx("latex", testroot="latex-translator")
def test_each_features_latex_is_written(app):
    app.build()
    tex = next(app.outdir.glob("*.tex")).read_text(encoding="utf-8")
    # The index entry's (IndexEntries): set in the text's type, not Sphinx's code type.
    assert r"\index{pure function@\spxentry{\textrm{pure function}}}" in tex
    # The output frame's (OutputFrame): the printed block alone, in a group of its own.
    groups = re.findall(r"\\begingroup\\sphinxsetup\{VerbatimColor=.*?\\endgroup", tex, re.S)
    assert len(groups) == 1
    assert "printed" in groups[0]
    assert 'print("code")' not in groups[0]
    # The badge's (editions.latex.visit_badge, over sphinx-design's visitors): boxed, where
    # sphinx-design writes its text alone.
    assert r"\jbbadge{Optional} For readers" in tex
