extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.selfcheck"]
gettext_additional_targets = ["literal-block"]
