extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.backend_tabs", "jaxbook.sphinxext.guards"]
doctest_global_setup = "from jaxbook.doctest.runtime import *"
