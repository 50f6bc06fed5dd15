# The book's LaTeX translator alone: each feature's part of it, written for a small page.
extensions = ["sphinx.ext.doctest", "sphinx_design", "jaxbook.sphinxext.latex_translator"]
language = "en"
