extensions = ["sphinx.ext.doctest", "pagerun.sphinxext.run"]
# pagerun_exclusive_devices: each test names a file of its own (-D).
