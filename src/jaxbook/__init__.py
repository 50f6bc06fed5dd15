"""The bilingual, doctested JAX course book: its Sphinx extensions and its tooling.

- :mod:`jaxbook.sphinxapp`: the book's Sphinx application, as every tool starts and reads it;
- :mod:`jaxbook.sphinxext`: the Sphinx extensions, one module per feature;
- :mod:`jaxbook.doctest`: running the pages' code (the one engine, ``make doctest``
  on it, runtime, bundle, output refresh, backend records);
- :mod:`jaxbook.i18n`: the translators' workflow (catalog merge, statistics,
  checks, the Chinese copy lint);
- :mod:`jaxbook.releases`: the book on other JAX releases (an environment per
  release, drift, the evidence bisection and its probes);
- :mod:`jaxbook.site`: the built site (landing page, headless browser);
- :mod:`jaxbook.bench`: ``make bench``;
- :mod:`jaxbook.cli`: the ``jaxbook`` command that the Makefile calls.

Each imports only what lies below it: ``project``, ``files``, ``myst`` and
``preflight`` (the standard library only), then ``sphinxapp``, then
``i18n``, ``doctest``, ``releases``, ``sphinxext``, then ``site``, ``bench``,
and ``cli`` on top; ``tests/test_layers.py`` holds the package to it.
"""
