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
    "jaxbook.sphinxext.measured",
    "jaxbook.sphinxext.notes",
    "jaxbook.sphinxext.pairs",
    "jaxbook.sphinxext.snippets",
    "jaxbook.sphinxext.testplot",
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
