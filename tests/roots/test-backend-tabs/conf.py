extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.backend_tabs", "jaxbook.sphinxext.guards"]
doctest_global_setup = "import jax\nfrom jaxbook.doctest.runtime import *"
# The CPU stands in for a recorded backend: this machine's CPU is never the planted one.
jaxbook_recorded_on = {
    "CPU": {
        "device": "Planted CPU 9000",
        "cuda": "13",
        "python": "3.12",
        "jax": "0.12.0.1",
        "date": "2026-11-29",
    }
}
jaxbook_machine_names = {"CPU": ["Planted CPU 9000"]}
