extensions = ["jaxbook.sphinxext.mathml"]
html_math_renderer = "mathml"
