"""The bilingual, doctested JAX course book: its Sphinx extensions and its tooling.

- :mod:`jaxbook.sphinxapp`: the book's Sphinx application, as the tools start it.
- :mod:`jaxbook.sphinxext`: the Sphinx extensions, one module per feature.
- :mod:`jaxbook.doctest`: the tools on the pages' runs (``make doctest``, output refresh).
- :mod:`jaxbook.i18n`: the translators' workflow: catalogs, checks, the Chinese copy lint.
- :mod:`jaxbook.site`: the built site: every language, landing page, editions, live preview.
- :mod:`jaxbook.formats`: the JSON files that pass between the book and the lab.
- :mod:`jaxbook.cli`: the ``jaxbook`` command that the Makefile calls.

Each part imports only the layers below it, as the import-linter contracts in
``pyproject.toml`` list them (``make lint``; dev/layers.md). The lab, :mod:`jaxbook_lab`
(``packages/jaxbook-lab``), imports the book and nothing here imports it; :mod:`pagerun`
(``packages/pagerun``) runs the pages' code as they are read and imports neither.
"""
