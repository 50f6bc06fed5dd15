# A page's own index entries (concepts, subentries, "see" entries) beside the ones the
# extensions make, in reST and in MyST, translated through the catalogs.
from pathlib import Path

extensions = [
    "myst_parser",
    "jaxbook.sphinxext.api_names",
    "jaxbook.sphinxext.book_index",
    # The index entries' LaTeX: pinyin_index's mixin of the book's LaTeX translator.
    "jaxbook.sphinxext.latex_translator",
    "jaxbook.sphinxext.pinyin_index",
]
language = "zh_CN"
locale_dirs = [str(Path(__file__).resolve().parent / "locale")]
gettext_compact = False
gettext_additional_targets = ["index"]
jaxbook_glossary = "glossary.csv"
jaxbook_glossary_pages = ["ch*/*"]
# As the book's conf.py: jaxbook.sphinxext.search_terms adds the glossary's jieba dictionary.
html_search_options = {}
