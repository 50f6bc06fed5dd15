# The editions' LaTeX and EPUB set up for a small book, in the language a test asks for.

# The book's settings of Sphinx that do not depend on the language (its conf.py's too).
from jaxbook.sphinx_settings import *  # noqa: F403  # every one: settings, which Sphinx reads

# The book's LaTeX translator, as the book loads it: its mixins set the PDF's output frames
# and badges (sphinx-design's, for the page's :bdg-secondary:).
extensions = [
    "sphinx.ext.doctest",
    "sphinx_design",
    "jaxbook.sphinxext.editions",
    "jaxbook.sphinxext.latex_translator",
]
language = "zh_CN"
project = "小书"
author = "作者"
copyright = f"2026 {author}"
jaxbook_publisher = "小书出版组"
jaxbook_translators = {"en": "小书译者"}
jaxbook_credit = '整理自课程<a href="https://example.org/course">《课程》</a>。'
jaxbook_description = "一本用来检查版本的小书"
jaxbook_keywords = "小书，版本，检查"
release = version = "1.0"
jaxbook_edition_date = "2026-12"
