extensions = ["jaxbook.sphinxext.notes"]
language = "zh_CN"
# No dictionary for the Chinese search: Sphinx would load jieba's own again as a user
# dictionary in each HTML build (a second of CPU). The book gives its glossary's instead
# (jaxbook.sphinxext.search_terms).
html_search_options = {"dict": ""}
