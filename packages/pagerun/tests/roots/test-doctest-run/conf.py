extensions = ["sphinx.ext.doctest", "pagerun.sphinxext.run"]
language = "en"
locale_dirs = ["locale/"]
gettext_compact = False
version = copyright = "1"  # what an EPUB must name
