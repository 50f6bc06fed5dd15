extensions = ["sphinx.ext.doctest", "jaxbook.guards"]
