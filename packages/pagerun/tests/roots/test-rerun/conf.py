# A project whose pages print: one translated by its catalog, one with an included file and
# a name from the global setup, one of prose alone. What pagerun's tests of its kernel and of
# when a page runs again change, copied first.
extensions = ["sphinx.ext.doctest", "pagerun.sphinxext.run"]
language = "en"
locale_dirs = ["locale/"]
gettext_compact = False
gettext_additional_targets = ["literal-block"]  # the code, and what it prints
exclude_patterns = ["_*.rst"]  # included, not a page
doctest_global_setup = "BASE = 40\n"
