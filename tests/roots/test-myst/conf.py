# The book's constructs on a MyST Markdown page (index.md), and a reST page beside it.
extensions = [
    # Listed although myst_i18n loads it, so that a build without myst_i18n still reads .md.
    "myst_parser",
    "sphinx.ext.doctest",
    "sphinx_design",
    "jaxbook.sphinxext.backend_tabs",
    "jaxbook.sphinxext.evidence_column",
    "jaxbook.sphinxext.glossary",
    "jaxbook.sphinxext.guards",
    "pagerun.sphinxext.measured",
    "jaxbook.sphinxext.notes",
    "jaxbook.sphinxext.pairs",
    "jaxbook.sphinxext.snippets",
    "pagerun.sphinxext.testplot",
    "jaxbook.sphinxext.myst_i18n",
]
myst_enable_extensions = ["colon_fence"]
language = "zh_CN"
locale_dirs = ["locale/"]
gettext_compact = False
# The book's target, and reST's own doctest blocks (written in {eval-rst}) too.
gettext_additional_targets = ["literal-block", "doctest-block"]
doctest_global_setup = "import time\nimport jax\nfrom jaxbook.doctest.runtime import *"
doctest_test_doctest_blocks = "default"
jaxbook_glossary = "glossary.csv"
jaxbook_glossary_pages = []
jaxbook_release_evidence = "evidence.json"
plot_html_show_source_link = False
plot_html_show_formats = False
# The book's measured label, in the page's language, from where JAX ran the page.
pagerun_where = "jaxbook.doctest.runtime:where"
pagerun_measured_label = "jaxbook.sphinxext.backend_tabs:measured_label"
pagerun_printed_nodes = ["jaxbook.sphinxext.backend_tabs:backend_tabs"]
# As the book's conf.py: jaxbook.sphinxext.search_terms adds the glossary's jieba dictionary.
html_search_options = {}
