extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.testplot"]
