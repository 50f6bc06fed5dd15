# A book whose build publishes its places (jaxbook.sphinxext.places): a chapter of two pages,
# examples in two sections, and an update note in two places, listed by the chapter's table.
extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.places"]
language = "en"
