extensions = ["sphinx.ext.doctest", "jaxbook.snippets"]
