"""The bilingual, doctested JAX course book: its Sphinx extensions and its tooling.

- :mod:`jaxbook.sphinxapp`: the book's Sphinx application, as the tools start it in
  their own process and read it;
- :mod:`jaxbook.sphinxext`: the Sphinx extensions, one module per feature;
- :mod:`jaxbook.doctest`: running the pages' code (the one engine, ``make doctest``
  on it, runtime, bundle, output refresh, backend records);
- :mod:`jaxbook.i18n`: the translators' workflow (templates and catalog merge,
  checks, the markup parsers and source locator they read pages with, the Chinese
  copy lint);
- :mod:`jaxbook.releases`: the book on other JAX releases (an environment per
  release, drift, the evidence bisection and its probes);
- :mod:`jaxbook.site`: the built site (the build of every language, the landing page,
  the PDF and EPUB editions, the live preview, the notebooks' publication, the
  browser and Lighthouse audits);
- :mod:`jaxbook.bench`: ``make bench``;
- :mod:`jaxbook.cli`: the ``jaxbook`` command that the Makefile calls.

Each imports only what lies below it: ``project``, ``files``, ``myst``,
``preflight``, ``formats``, ``chinese`` and ``backends`` (the standard library
only), then ``sphinxapp``, ``i18n``, ``doctest``, ``sphinxext``, ``site``, then
``releases`` and ``bench``, and ``cli`` on top; ``make lint`` holds the package to
it (import-linter's contracts in ``pyproject.toml``, which also keep the release
tools and the bench out of the extensions and the site).
"""
