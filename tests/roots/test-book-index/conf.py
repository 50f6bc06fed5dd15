# The general index made from the prose: APIs, options, variables and glossary terms.
extensions = [
    "jaxbook.sphinxext.api_names",
    "jaxbook.sphinxext.book_index",
    # The index entries' LaTeX: pinyin_index's mixin of the book's LaTeX translator.
    "jaxbook.sphinxext.latex_translator",
    "jaxbook.sphinxext.pinyin_index",
]
language = "zh_CN"
jaxbook_glossary = "glossary.csv"
jaxbook_glossary_pages = ["ch*/*"]
# As the book's conf.py: jaxbook.sphinxext.search_terms adds the glossary's jieba dictionary.
html_search_options = {}
