# The three forms of an update note: a warning, a correction, and a repeat's pointer.
extensions = ["jaxbook.sphinxext.notes"]
language = "zh_CN"
