extensions = ["sphinx.ext.doctest"]
doctest_global_setup = "ANSWER = 42"
doctest_global_cleanup = "ANSWER = None"
doctest_test_doctest_blocks = "default"
