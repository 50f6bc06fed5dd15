extensions = ["jaxbook.sphinxext.doctest_lines"]
