extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.drift_report"]
language = "en"
release = "JAX 0.12.0.1"
