# A book of two chapters whose build publishes its places, which the lab's report reads
# (packages/jaxbook-lab/tests/roots/test-lab-drift).
extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.drift_report", "jaxbook.sphinxext.places"]
language = "en"
