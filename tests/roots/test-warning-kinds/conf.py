extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.guards", "jaxbook.sphinxext.pairs"]
