extensions = ["sphinx.ext.doctest", "jaxbook.notes"]
language = "zh_CN"
