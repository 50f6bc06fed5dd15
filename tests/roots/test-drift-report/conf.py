extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.drift_report"]
language = "en"
jaxbook_release_drift = "drift.json"
