extensions = ["jaxbook.sphinxext.terms", "jaxbook.sphinxext.parallel"]
language = "zh_CN"
locale_dirs = ["locale/"]
gettext_compact = False
