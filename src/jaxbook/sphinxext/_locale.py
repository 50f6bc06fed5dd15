"""The extensions' own message catalog (labels such as "Outdated").

Labels are written in English and translated to the book's source language,
Chinese, through ``locales/<lang>/LC_MESSAGES/jaxbook.po``; the ``.mo`` files
are compiled from those catalogs at build time and never committed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sphinx import locale
from sphinx.locale import get_translation, get_translator
from sphinx.util.i18n import CatalogRepository

if TYPE_CHECKING:
    from sphinx.application import Sphinx

MESSAGE_CATALOG_NAME = "jaxbook"
LOCALE_DIR = Path(__file__).parent / "locales"

_ = get_translation(MESSAGE_CATALOG_NAME)


def N_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a label with a count for the catalog; ``ngettext`` translates it when used."""
    return singular, plural


def ngettext(singular: str, plural: str, n: int) -> str:
    """A label with a count, in the form the language gives that count."""
    return get_translator(MESSAGE_CATALOG_NAME).ngettext(singular, plural, n)


def add_catalog(app: Sphinx) -> None:
    """Compile this package's catalog for the build language and register it."""
    language = app.config.language
    repo = CatalogRepository(str(LOCALE_DIR.parent), ["locales"], language, "utf-8")
    for catalog in repo.catalogs:
        if catalog.domain == MESSAGE_CATALOG_NAME and catalog.is_outdated():
            catalog.write_mo(language)
    # Sphinx keeps one registry of catalogs per process, not per application, and
    # adds a new language's catalog only as a fallback of the one loaded first: an
    # English build after a Chinese one in the same process would show Chinese labels.
    locale.translators.pop(("general", MESSAGE_CATALOG_NAME), None)
    app.add_message_catalog(MESSAGE_CATALOG_NAME, str(LOCALE_DIR))
