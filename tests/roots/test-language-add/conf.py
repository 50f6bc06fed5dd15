# A book of two pages, its English catalogs and its list of languages: what
# `jaxbook language add` is tested on, end to end (catalogs, build, check-po, doctest).
from pathlib import Path

from jaxbook.project import SOURCE_LANGUAGE, languages

HERE = Path(__file__).resolve().parent
extensions = [
    "sphinx.ext.doctest",
    "jaxbook.sphinxext.book_texts",
    "jaxbook.sphinxext.chrome",
    "jaxbook.sphinxext.interface",
    "pagerun.sphinxext.run",
    "jaxbook.sphinxext.languages",
    "jaxbook.sphinxext.translation_status",
]
root_doc = "index"
language = SOURCE_LANGUAGE
locale_dirs = [str(HERE / "locale")]
gettext_compact = False
gettext_additional_targets = ["literal-block"]
project = "入门小书"
author = "小书的作者"
jaxbook_languages = {code: language.name for code, language in languages(HERE).items()}
jaxbook_draft_languages = [code for code, language in languages(HERE).items() if language.draft]
html_sidebars = {"**": ["jaxbook-language.html"]}
