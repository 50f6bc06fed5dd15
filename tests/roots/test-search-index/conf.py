extensions = ["jaxbook.sphinxext.search_index"]
