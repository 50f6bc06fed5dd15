"""The book on other JAX releases: an environment for a release, and what differs there.

- :mod:`jaxbook_lab.releases.environments`: a virtual environment of its own for a given
  JAX release, on the newest Python it installs on (nothing is compared here);
- :mod:`jaxbook_lab.releases.drift`: ``jaxbook-lab drift``, every cell of the pages run on a
  release and sorted by what changed (each chapter's ``release-drift.json``);
- :mod:`jaxbook_lab.releases.evidence`: ``jaxbook-lab evidence``, a bisection over real
  releases for where each noted behavior changed (``docs/release-evidence.json``);
- :mod:`jaxbook_lab.releases.probes`: what a release answers to each probe, run inside
  that release's environment (what the answers mean, for the pages, is the book's:
  :data:`jaxbook.formats.PROBE_PHRASES`).

It is the lab: it runs :mod:`jaxbook.doctest`'s bundle and writes files whose
shapes :mod:`jaxbook.formats` declares, which the book's extensions read without
importing it. This file imports nothing: ``python -m jaxbook_lab.releases.probes``
runs it under Python 3.9 and JAX 0.4.1.
"""
