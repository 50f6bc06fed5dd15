extensions = ["sphinx.ext.doctest", "jaxbook.backend_tabs", "jaxbook.guards"]
doctest_global_setup = "from jaxbook.doctest_runtime import *"
