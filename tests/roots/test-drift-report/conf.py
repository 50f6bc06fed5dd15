extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.drift_report"]
language = "en"
