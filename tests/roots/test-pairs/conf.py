extensions = ["sphinx.ext.doctest", "jaxbook.pairs"]
language = "zh_CN"
