extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.backend_tabs", "jaxbook.sphinxext.guards"]
doctest_global_setup = "import jax\nfrom jaxbook.doctest.runtime import *"
# Recordings with planted device names: this machine's CPU is never the planted one, so
# its cell passes only where the name is read as a wildcard.
jaxbook_recorded_on = {
    "cpu": {
        "device": "Planted CPU 9000",
        "platform": "jaxlib 0.12.0.1",
        "python": "3.13.0",
        "jax": "0.12.0.1",
        "date": "2026-12-01",
    },
    "gpu": {
        "device": "Planted GPU 9000",
        "platform": "CUDA 13",
        "python": "3.12",
        "jax": "0.12.0.1",
        "date": "2026-11-29",
    },
    "tpu": {
        "device": "Planted TPU 7",
        "platform": "libtpu 0.0.50.1",
        "python": "3.13.0",
        "jax": "0.12.0.1",
        "date": "2026-12-05",
    },
}
