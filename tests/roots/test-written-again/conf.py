extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.written_again"]
language = "en"
locale_dirs = ["locale/"]
gettext_compact = False
