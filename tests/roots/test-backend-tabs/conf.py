extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.backend_tabs", "jaxbook.sphinxext.guards"]
doctest_global_setup = "import jax\nfrom jaxbook.doctest.runtime import *"
# The CPU stands in for a recorded backend: this machine's CPU is never the planted one.
jaxbook_recorded_on = {"CPU": "Planted CPU 9000, JAX 0.12.0.1, 2026-11-29"}
jaxbook_machine_names = {"CPU": ["Planted CPU 9000"]}
