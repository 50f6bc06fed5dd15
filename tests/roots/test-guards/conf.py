extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.guards"]
