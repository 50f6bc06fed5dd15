extensions = ["jaxbook.sphinxext.cjk", "jaxbook.sphinxext.myst_i18n"]
language = "zh_CN"
