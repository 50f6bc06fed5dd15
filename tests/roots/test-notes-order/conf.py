extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.notes"]
language = "zh_CN"
