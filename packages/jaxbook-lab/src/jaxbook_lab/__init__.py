"""The lab: what measures and polices the book, apart from the book's own package.

- :mod:`jaxbook_lab.bundle`: the book's doctests carried to a machine with Python and
  JAX alone (``python -m jaxbook_lab bundle run``), and :mod:`jaxbook_lab.record`, which
  writes another backend's recorded outputs onto the pages;
- :mod:`jaxbook_lab.releases`: the book on other JAX releases (an environment per
  release, drift, the evidence bisection and its probes);
- :mod:`jaxbook_lab.lighthouse`: Lighthouse on every page of a deploy build, in the book's
  headless Chromium (:mod:`jaxbook.testing.browser`, which the bench drives too);
- :mod:`jaxbook_lab.bench`: ``make bench``;
- :mod:`jaxbook_lab.cli`: the ``jaxbook-lab`` command that the Makefile's lab targets call.

It imports the book (:mod:`jaxbook`); the book never imports it. The files it writes
for the book (a chapter's drift data, the release evidence, run records) are declared
in :mod:`jaxbook.formats` and its JSON Schema, which both read. ``make lint`` holds
both packages to their layers (``pyproject.toml``'s import-linter contracts).
This file imports nothing: ``python -m jaxbook_lab.releases.probes`` runs under
Python 3.9 and JAX 0.4.1.
"""
