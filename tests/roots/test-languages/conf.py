extensions = ["jaxbook.sphinxext.notes"]
language = "zh_CN"
locale_dirs = ["../locale/"]
gettext_compact = False
