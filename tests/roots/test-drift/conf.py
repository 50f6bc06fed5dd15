extensions = ["sphinx.ext.doctest"]
doctest_global_setup = "import jax"
