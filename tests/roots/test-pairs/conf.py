extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.pairs"]
language = "zh_CN"
