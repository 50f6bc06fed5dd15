# The lab's report of a book's drift data (tests/roots/test-drift-report, built first): the
# tests say where the book's sources, places and site are (jaxbook_book_*).
extensions = ["jaxbook_lab.sphinxext.drift_report"]
language = "en"
