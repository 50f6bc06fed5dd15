# A book in the project's layout (docs/, locale/), small enough to run in a test: its
# pages print and need no JAX. Each unexpected warning is an error, as in the book.
project = "Tiny book"
extensions = ["sphinx.ext.doctest", "myst_parser", "pagerun.sphinxext.run"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
language = "zh_CN"
locale_dirs = ["../locale/"]
gettext_compact = False
gettext_additional_targets = ["literal-block"]
doctest_global_setup = """
import warnings
_watching = warnings.catch_warnings()
_watching.__enter__()
warnings.simplefilter("error")
"""
doctest_global_cleanup = """
_watching.__exit__(None, None, None)
"""
doctest_test_doctest_blocks = "default"
exclude_patterns = ["_*.rst"]
# The book's flags (conf.py): a timing is checked with a wildcard, a printed line with
# the trailing space print() leaves.
import doctest  # noqa: E402

doctest_default_flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# No dictionary for the Chinese search: Sphinx would load jieba's own again as a user
# dictionary in each HTML build (a second of CPU). The book gives its glossary's instead
# (jaxbook.sphinxext.search_terms).
html_search_options = {"dict": ""}
