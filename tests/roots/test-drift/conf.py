extensions = ["sphinx.ext.doctest"]
# The book's own watch on warnings, so that a warning on the release is its own outcome.
doctest_global_setup = "import jax\nfrom jaxbook.doctest.runtime import watch_warnings\nwatch_warnings()"
doctest_global_cleanup = "from jaxbook.doctest.runtime import unwatch_warnings\nunwatch_warnings()"
