extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.parallel"]
language = "zh_CN"
locale_dirs = ["locale/"]
gettext_compact = False
gettext_additional_targets = ["literal-block"]
