extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.measured"]
doctest_global_setup = "import math, os"
