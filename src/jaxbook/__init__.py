"""The bilingual, doctested JAX course book: its Sphinx extensions and its tooling.

- :mod:`jaxbook.sphinxext`: the Sphinx extensions, one module per feature;
- :mod:`jaxbook.doctest`: running the pages' code (runner, runtime, bundle,
  output refresh, backend records);
- :mod:`jaxbook.i18n`: the translators' workflow (catalog merge, statistics,
  checks, the Chinese copy lint);
- :mod:`jaxbook.site`: the built site (landing page, headless browser);
- :mod:`jaxbook.bench`: ``make bench``;
- :mod:`jaxbook.cli`: the ``jaxbook`` command that the Makefile calls.
"""
