# The lab's report of the evidence behind a book's update notes (tests/roots/test-evidence-column,
# built first): the tests say where the book's sources, places, site and evidence are.
extensions = ["jaxbook_lab.sphinxext.evidence_report"]
language = "en"
