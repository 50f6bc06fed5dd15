# Terms that hold one another, and pages that break a longer term across lines or use a
# term inside a longer word: only whole uses of a term are linked.
from pathlib import Path

extensions = ["myst_parser", "jaxbook.sphinxext.glossary"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
language = "zh_CN"
locale_dirs = [str(Path(__file__).resolve().parent / "locale")]
gettext_compact = False
jaxbook_glossary = "glossary.csv"
# As the book's conf.py: jaxbook.sphinxext.search_terms adds the glossary's jieba dictionary.
html_search_options = {}
