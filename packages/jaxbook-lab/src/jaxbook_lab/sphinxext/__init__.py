"""The lab's report in the guides: Sphinx extensions of the guides' site, never of the book's.

The lab's report (``guides/lab.rst``) is a page of the guides, a Sphinx project
apart from the book (``make guides``, :mod:`jaxbook.sphinxext.guides`), built
after the book. The guides' ``conf.py`` (``guides/conf.py``) loads these extensions:

- :mod:`jaxbook_lab.sphinxext.book`: the book as the report sees it: its sources,
  the places of its examples and update notes that its build keeps beside its
  doctrees (``book-places.json``, :mod:`jaxbook.sphinxext.places`), and its site, which the
  report links through the lab's domain (``jaxbook_lab``);
- :mod:`jaxbook_lab.sphinxext.drift_report`: ``.. drift-report::``, what ran
  where and when of a chapter's drift data, and every difference;
- :mod:`jaxbook_lab.sphinxext.evidence_report`: ``.. evidence-report::``, the
  evidence of each update note of a table, in sentences.

They read the book's files through their declared formats (:mod:`jaxbook.formats`)
and show them with the book's own helpers (:mod:`jaxbook.sphinxext.drift_report`,
:mod:`jaxbook.sphinxext.evidence_column`), whose catalog (``jaxbook.pot``) holds
their labels too: :mod:`jaxbook.sphinxext.interface` reads these modules as files.
They use only the book's public modules, the labels' helpers through
:mod:`jaxbook.sphinxext.interface` (import-linter forbids them the book's ``_`` modules).
The book's package never imports them. They follow the book's rule for extensions
(:mod:`jaxbook.sphinxext`): each report is built by a post-transform, and its links are
``pending_xref`` nodes that the lab's domain makes with the builder.
"""
