"""The book's settings of Sphinx that hold in every language: numbering, the PDF, the EPUB.

``conf.py`` imports each by its name, for a reader of it to see them; the test books
under ``tests/roots`` that number figures or build the editions take those they need
(the editions' every one), so that they build as the book does without reading the
book's ``conf.py`` (its pages, languages and extensions). What depends on the build's
language or its translated texts is not here: ``jaxbook.sphinxext.numbering`` and
``jaxbook.sphinxext.editions`` compute it, and warn where a setting here is changed to
one they cannot honour (``numfig`` off, a ``latex_engine`` other than xelatex).

The module imports nothing: its public names are the settings alone, so that a test book
takes every one with ``from jaxbook.sphinx_settings import *``.
"""

# -- Numbering (jaxbook.sphinxext.numbering) ------------------------------------------------

# Figures, tables and code listings are numbered, through the book whatever the sections'
# numbers (jaxbook.sphinxext.numbering numbers them per chapter, as the PDF does, and names
# them in the build's language: numfig_format is its).
numfig = True
numfig_secnum_depth = 0
# "1.5 使用 JAX 数组": a space after a section's number, no full stop.
html_secnumber_suffix = " "

# -- LaTeX (PDF) and EPUB (jaxbook.sphinxext.editions) ---------------------------------------

# xeCJK and the Noto CJK fonts; Sphinx's default class for Japanese, jsbook, is (u)pLaTeX's.
latex_engine = "xelatex"
latex_docclass: dict[str, str] = {}
latex_show_urls = "footnote"
latex_domain_indices = False
# makeindex, not xindy (another TeX Live package): jaxbook.sphinxext.pinyin_index gives each
# Chinese entry its pinyin as the sort key.
latex_use_xindy = False
epub_show_urls = "no"
# The chapters list their sections in a hidden toctree (each chapter page has its own table
# of contents); the e-reader's contents must list them.
epub_tocscope = "includehidden"
# A page's entry in the e-reader's contents is not repeated as its own first child (Sphinx's
# default): "第 1 章 JAX 简介" under "第 1 章 JAX 简介", "1.1 JAX 是什么？" under itself.
epub_tocdup = False
# The identifier's XML id (the package's unique-identifier); the NCX's dtb:uid is the
# identifier itself, as EPUBCheck holds it.
epub_uid = "bookid"
# The cover (drawn by jaxbook.sphinxext.editions) and its page, a template of the extension.
epub_cover = ("_static/jaxbook-cover.png", "jaxbook-epub-cover.html")
