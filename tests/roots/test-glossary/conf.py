# A glossary with columns for English and Japanese, and a page whose first uses link to it.
from pathlib import Path

extensions = ["jaxbook.sphinxext.glossary"]
language = "zh_CN"
locale_dirs = [str(Path(__file__).resolve().parent / "locale")]
gettext_compact = False
jaxbook_glossary = "glossary.csv"
# As the book's conf.py: jaxbook.sphinxext.search_terms adds the glossary's jieba dictionary.
html_search_options = {}
