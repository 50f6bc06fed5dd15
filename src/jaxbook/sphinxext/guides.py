"""The guides' link to the book, for the guides' own Sphinx project (``guides/conf.py``).

The guides (how the book is made, the author's and translator's guides, the lab's
report) are built apart, so that the reader's site holds the book only. This extension
sends their ``:doc:`` links to the book's site in the same language through
intersphinx's ``book`` inventory (``config-inited``), fails if the book is not built yet
(``builder-inited``), and tells the lab's report (:mod:`jaxbook_lab.sphinxext`) where
the book is.

Config values:

- ``jaxbook_book_srcdir`` (``""``: no book): the book's sources, relative to the guides'.
- ``jaxbook_book_build`` (``"../_build"``): the book's build directory.
- ``jaxbook_book_html`` (``<build>/html/<language>``): the book's site, as built.
- ``jaxbook_book_places`` (``<build>/doctrees/<language>/book-places.json``): where its
  examples and notes are (:mod:`jaxbook.sphinxext.places`).
- ``jaxbook_book_site`` (computed): the book's site as the guides link it, a URL or a
  path relative to the guides' site.
- ``jaxbook_book_root`` (``"index"``): the book's root page, whose translated title is
  the guides' too (:mod:`jaxbook.sphinxext.book_texts`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.errors import ConfigError

from jaxbook.sphinxext import PARALLEL_SAFE
from jaxbook.sphinxext._settings import set_default

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata


def configure(app: Sphinx, config: Config) -> None:
    """The book's build, site and inventory in the build's language.

    ``jaxbook_book_site`` defaults to the book's build relative to the guides' output
    (``../../html/<language>`` from ``_build/guides/<language>``) or, for a deploy,
    ``<site URL>/<language>``: ``jaxbook guides`` (:mod:`jaxbook.site.build`) hands the
    book's URL over as ``JAXBOOK_BOOK_URL`` and gives the guides ``<site URL>/guides``
    as theirs (``JAXBOOK_SITE_URL``).
    """
    language = config.language
    if not config.jaxbook_book_html:
        config.jaxbook_book_html = str(Path(config.jaxbook_book_build, "html", language))
    if not config.jaxbook_book_places:
        # Beside the book's doctrees of the language (jaxbook.sphinxext.places), not in its site.
        config.jaxbook_book_places = str(
            Path(config.jaxbook_book_build, "doctrees", language, "book-places.json")
        )
    site = Path(app.srcdir, config.jaxbook_book_html)
    if not config.jaxbook_book_site:
        # The book's URL where the guides are deployed (jaxbook.site.build sets it).
        url = os.environ.get("JAXBOOK_BOOK_URL", "").rstrip("/")
        local = Path(os.path.relpath(site, app.outdir)).as_posix()
        config.jaxbook_book_site = f"{url}/{language}" if url else local
    inventory = site / "objects.inv"
    if inventory.is_file():
        # Beside conf.py's own projects, whose names win.
        config.intersphinx_mapping = {
            "book": (config.jaxbook_book_site, str(inventory)),
            **config.intersphinx_mapping,
        }
        # Plain :doc: links to the book's pages too (Sphinx sends only :external: by default).
        set_default(config, "intersphinx_disabled_reftypes", [])
    else:
        # The catalogs' templates need no book, and link nothing; a site does (need_the_book).
        config.suppress_warnings = [*config.suppress_warnings, "ref.doc", "ref.term", "ref.ref"]


def need_the_book(app: Sphinx) -> None:
    """A site of the guides links the book's pages and shows its examples: the book is built
    first, in the same language."""
    if app.builder.name == "gettext" or not app.config.jaxbook_book_srcdir:
        return  # no book to link: a project that loads the extension without one
    site = Path(app.srcdir, app.config.jaxbook_book_html).resolve()
    if not site.is_dir():
        raise ConfigError(
            f"the guides link the book, which is not built in {app.config.language}: "
            f"{site} (make html, then make guides)"
        )


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("sphinx.ext.intersphinx")
    app.add_config_value("jaxbook_book_srcdir", "", "env", types=frozenset({str}))
    app.add_config_value("jaxbook_book_build", "../_build", "env", types=frozenset({str}))
    app.add_config_value("jaxbook_book_site", "", "env", types=frozenset({str}))
    app.add_config_value("jaxbook_book_html", "", "env", types=frozenset({str}))
    app.add_config_value("jaxbook_book_places", "", "env", types=frozenset({str}))
    app.add_config_value("jaxbook_book_root", "index", "env", types=frozenset({str}))
    # Before intersphinx reads its mapping (800).
    app.connect("config-inited", configure, priority=400)
    app.connect("builder-inited", need_the_book)
    return {"version": "1.0", **PARALLEL_SAFE}
