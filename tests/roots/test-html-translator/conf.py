extensions = ["jaxbook.sphinxext.html_translator"]
html_theme = "furo"
