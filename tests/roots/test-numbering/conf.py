# Figures, tables and listings in two chapters, numbered per chapter in every edition, and
# references to them by number; a chapter's section numbered "1.1", and references to it.

# The book's numbering settings (its conf.py's too).
from jaxbook.sphinx_settings import html_secnumber_suffix, numfig, numfig_secnum_depth  # noqa: F401

extensions = ["jaxbook.sphinxext.numbering"]
language = "zh_CN"
project = "小书"
author = "作者"
release = version = "1.0"
copyright = "2026, 作者"  # the EPUB must name one
