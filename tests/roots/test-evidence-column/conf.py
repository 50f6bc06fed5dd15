# A book whose build publishes its places, which the lab's report reads
# (packages/jaxbook-lab/tests/roots/test-lab-evidence).
extensions = [
    "jaxbook.sphinxext.notes",
    "jaxbook.sphinxext.evidence_column",
    "jaxbook.sphinxext.places",
]
language = "en"
jaxbook_release_evidence = "evidence.json"
