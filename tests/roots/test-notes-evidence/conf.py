extensions = ["jaxbook.sphinxext.notes"]
language = "en"
jaxbook_release_evidence = "evidence.json"
