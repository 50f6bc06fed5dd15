extensions = ["sphinx.ext.doctest", "pagerun.sphinxext.measured"]
doctest_global_setup = "import math, os"
