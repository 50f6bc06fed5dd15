extensions = ["sphinx.ext.doctest", "pagerun.sphinxext.testplot"]
