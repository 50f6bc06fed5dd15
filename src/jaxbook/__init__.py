"""The bilingual, doctested JAX course book: its Sphinx extensions and its tooling.

- :mod:`jaxbook.sphinxapp`: the book's Sphinx application, as the tools start it in
  their own process and read it;
- :mod:`jaxbook.sphinxext`: the Sphinx extensions, one module per feature;
- :mod:`jaxbook.doctest`: the book's tools on the pages' runs (``make doctest``, the
  runtime the pages import, output refresh);
- :mod:`jaxbook.i18n`: the translators' workflow (templates and catalog merge,
  checks, the markup parsers and source locator they read pages with, the Chinese
  copy lint);
- :mod:`jaxbook.site`: the built site (the build of every language, the landing page,
  the PDF and EPUB editions, the live preview, the notebooks' publication);
- :mod:`jaxbook.formats`: the JSON files that pass between the book and the lab, each
  validated against its JSON Schema (``formats.schema.json``);
- :mod:`jaxbook.cli`: the ``jaxbook`` command that the Makefile calls.

Each imports only what lies below it: ``_compat``; ``project``, ``files``,
``preflight``, ``formats``, ``chinese``, ``backends`` and ``sphinx_settings``; then ``sphinxapp``,
then ``i18n``, ``doctest``, ``sphinxext``, ``site``, and ``cli`` on top;
``make lint`` holds the package to it (import-linter's contracts in
``pyproject.toml``, dev/layers.md).

The lab (other JAX releases, the doctest bundle and the recording of another
backend's outputs, speed, Lighthouse and the headless browser) is a distribution
of its own (``packages/jaxbook-lab``, a member of the checkout's uv workspace),
:mod:`jaxbook_lab`, with its own command, ``jaxbook-lab``. It imports the book;
nothing here imports it. What the book
shows of its findings it reads from the data files the lab writes.

What runs the pages while they are read (the engine, the kernel, the ``run``,
``measured`` and ``testplot`` extensions) is a third distribution
(``packages/pagerun``), :mod:`pagerun`, which imports neither; ``conf.py``
configures it with the book's policy (its ``pagerun_*`` settings).
"""
