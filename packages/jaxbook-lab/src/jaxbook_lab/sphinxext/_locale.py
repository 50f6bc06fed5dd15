"""The labels of the lab's report: a catalog of the lab's own, the ``jaxbook_lab`` domain.

The report's extensions (``drift_report``, ``evidence_report``) write their labels in
English with ``_()``, ``ngettext()`` and ``N_()`` from here, translated through
``locales/<lang>/LC_MESSAGES/jaxbook_lab.po`` beside this module (its Chinese labels)
or a translator's ``<locale_dir>/<lang>/LC_MESSAGES/jaxbook_lab.po`` of the book, which
comes first. :func:`setup_catalog` registers the catalog with Sphinx as the book's
extensions register theirs (:func:`jaxbook.sphinxext.interface.add_catalog`: compiled
into the build's doctree directory, loaded again for each build's language), and has the
gettext build write its template, ``jaxbook_lab.pot``, from this package's modules
(:func:`jaxbook.sphinxext.interface.add_package_template`); ``make update-po`` merges
it here, as ``pyproject.toml``'s ``[tool.jaxbook] package-catalogs`` says. The book's
helpers come from :mod:`jaxbook.sphinxext.interface`, the surface the book offers another
package's extensions, never from its private modules (import-linter's contract).

What the report shows with the book's helpers (a "Changed in" phrase, an outcome's
label) stays the book's, in the book's catalog.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.locale import get_translation

from jaxbook.sphinxext import interface
from jaxbook.sphinxext.interface import N_

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = ["MESSAGE_CATALOG_NAME", "N_", "_", "ngettext", "setup_catalog"]

MESSAGE_CATALOG_NAME = "jaxbook_lab"
LOCALE_DIR = Path(__file__).parent / "locales"
HEADER = (
    "# The labels of the lab's report in the guides: the template of each language's "
    "jaxbook_lab.po."
)

_ = get_translation(MESSAGE_CATALOG_NAME)


def ngettext(singular: str, plural: str, n: int) -> str:
    """A label with a count, in the form the language gives that count."""
    return interface.ngettext(singular, plural, n, domain=MESSAGE_CATALOG_NAME)


def setup_catalog(app: Sphinx) -> None:
    """Register the lab's catalog for the build's language, and its template for gettext."""
    interface.add_catalog(app, MESSAGE_CATALOG_NAME, LOCALE_DIR)
    modules = sorted(Path(__file__).parent.glob("*.py"))
    interface.add_package_template(
        app, MESSAGE_CATALOG_NAME, modules, Path(__file__).parents[1], HEADER
    )
