extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.snippets"]
