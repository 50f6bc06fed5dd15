extensions = ["jaxbook.sphinxext.notes", "jaxbook.sphinxext.evidence_column"]
language = "en"
jaxbook_release_evidence = "evidence.json"
