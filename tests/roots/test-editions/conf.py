# The editions' LaTeX set up for one page, in the language a test asks for.
extensions = ["jaxbook.sphinxext.editions"]
language = "zh_CN"
project = "小书"
author = "作者"
