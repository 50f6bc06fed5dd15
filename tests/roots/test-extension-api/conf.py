# Every extension of the package in one application, whose registrations
# tests/sphinxext/test_extension_api.py holds to each extension's contract.
import pkgutil

import jaxbook.sphinxext

project = "小书"
author = "作者"
jaxbook_publisher = "小书出版组"
language = "zh_CN"
extensions = [
    f"jaxbook.sphinxext.{module.name}"
    for module in pkgutil.iter_modules(jaxbook.sphinxext.__path__)
    if not module.name.startswith("_")
]
# The book's run-at-read extensions (pagerun's), which its handlers must come before.
extensions += ["pagerun.sphinxext.run", "pagerun.sphinxext.measured", "pagerun.sphinxext.testplot"]
# As the book's conf.py: jaxbook.sphinxext.search_terms adds the glossary's jieba dictionary.
html_search_options = {}
