"""Sphinx configuration of the guides: how the book is made, the author's and the
translator's guides, the lab's report.

The guides are a site of their own, built after the book in each of its languages
(``make guides``, ``jaxbook.site.build``: ``sphinx-build -c guides guides/ ...``), but
the same project: its languages, catalogs (``locale/``), texts, theme and extensions.
So this file reads the book's ``conf.py``, one directory up, and takes every setting of
it; what follows is only what the guides add or change, and the paths that Sphinx reads
relative to the configuration directory, which is ``guides/`` here. Sphinx reads the
parser's settings (``docutils.conf``) from this directory too: ``guides/docutils.conf``
is a link to the book's. (``jaxbook.sphinx_settings`` holds only the settings that the
test books share, not the book's project, texts and extensions.)
"""

from __future__ import annotations

import os
import runpy
from pathlib import Path

# The book's settings, as Sphinx gives them: with the build's tags. Its conf.py finds its
# files from its own __file__ (the checkout's root), whatever the working directory. (The
# underscore keeps the name out of what is copied: no name of the book's can replace it.)
_book = runpy.run_path(
    str(Path(__file__).resolve().parent.parent / "conf.py"),
    init_globals={"tags": tags},  # noqa: F821  # Sphinx's tags, given to this file
)
globals().update({name: value for name, value in _book.items() if not name.startswith("_")})

# The guides' home page.
root_doc = "contributing"
extensions = [
    # The book's, but for the two that make what only the book has: its PDF and EPUB
    # (and its site's links to them, its preface), and the places of its examples, which
    # the lab's report below reads.
    *(
        name
        for name in _book["extensions"]
        if name not in {"jaxbook.sphinxext.editions", "jaxbook.sphinxext.places"}
    ),
    # Links to the book's pages, through the inventory of its site in the same language
    # (intersphinx's, which jaxbook.sphinxext.guides configures).
    "sphinx.ext.intersphinx",
    "jaxbook.sphinxext.guides",
    # The lab's report, which shows the book's examples and update notes from the places
    # the book's build published (jaxbook.sphinxext.places).
    "jaxbook_lab.sphinxext.book",
    "jaxbook_lab.sphinxext.drift_report",
    "jaxbook_lab.sphinxext.evidence_report",
]
# The checkout's root, relative to this directory: its pyproject.toml and .python-version
# (the facts, the pinned release) and the start of the edit links' paths.
jaxbook_repo_root = ".."
# Relative to the configuration directory: the book's files, one directory up.
templates_path = [os.path.join("..", path) for path in _book["templates_path"]]
html_static_path = [os.path.join("..", path) for path in _book["html_static_path"]]
html_favicon = os.path.join("..", _book["html_favicon"])
# Relative to the source directory, guides/: the book's pages and its evidence.
jaxbook_book_srcdir = "../docs"
jaxbook_release_evidence = f"{jaxbook_book_srcdir}/{_book['jaxbook_release_evidence']}"
# No download of the book, nor its subtitle: the guides' site offers no edition of it.
html_sidebars = {
    pattern: [
        name for name in names if name not in {"jaxbook-editions.html", "jaxbook-subtitle.html"}
    ]
    for pattern, names in _book["html_sidebars"].items()
}
