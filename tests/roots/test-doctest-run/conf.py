extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.doctest"]
language = "en"
locale_dirs = ["locale/"]
gettext_compact = False
version = copyright = "1"  # what an EPUB must name
