extensions = ["jaxbook.doctest_lines"]
