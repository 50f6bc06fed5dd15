extensions = ["jaxbook.sphinxext.api_names"]
