extensions = ["jaxbook.sphinxext.notes"]
language = "zh_CN"
