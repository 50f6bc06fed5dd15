"""The book's title, authors, publisher and credit in the build's language, and its file names.

``conf.py`` gives these texts once, in the source language. Another language's build takes
the title from the root page's catalog and the rest from ``book.po``, whose template the
gettext builder writes (:func:`extract`); a missing, untranslated or fuzzy entry leaves the
source text. :func:`localise` sets them at ``config-inited``.

Config values (default ``""`` unless given):

- ``jaxbook_basename`` (``"jaxbook"``): the file name stem of the PDF, EPUB and notebooks.
- ``jaxbook_publisher``: who publishes the book; ``author`` when self-published.
- ``jaxbook_name_in_text``: how a credit line names a person, ``%(name)s`` for the name.
- ``jaxbook_scope``: what the edition holds, under its title (empty: the whole book).
- ``jaxbook_description``: one sentence: the EPUB's description and the PDF's subject.
- ``jaxbook_keywords``: the PDF's keywords, with the language's commas.
- ``jaxbook_translators`` (``{}``): each translation's translators by language code.
- ``jaxbook_credit``: the footer's credit, HTML; ``%(course)s`` is the course's address.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from jaxbook._compat import gettext_catalogs
from jaxbook.sphinxext import PARALLEL_SAFE, facts
from jaxbook.sphinxext._locale import catalog_entries, page_domain, reviewed
from jaxbook.sphinxext.facts import course_url

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata

# The book's own texts' catalog (locale/<language>/LC_MESSAGES/book.po).
DOMAIN = "book"
# This extension's texts of conf.py (each "" by default), with what a change rebuilds: the
# title page's and the EPUB's metadata alone ("epub"), the line under the title on every
# page ("env"), the footer ("html"). jaxbook_name_in_text set to "%(name)s" lets a translation
# word the credit lines of the title page, copyright pages and cover as its language needs
# ("Published by the ..."); left "", the name stands alone and book.pot has no message for it.
OWN_TEXTS: dict[str, Literal["epub", "env", "html"]] = {
    "jaxbook_publisher": "epub",
    "jaxbook_name_in_text": "epub",
    "jaxbook_scope": "env",
    "jaxbook_description": "epub",
    "jaxbook_keywords": "epub",
    "jaxbook_credit": "html",
}
# conf.py's names of the texts in book.po, in the order the catalog lists them.
TEXTS = ("author", *OWN_TEXTS)


def translated(config: Config, srcdir: str | Path, domain: str) -> dict[str, str]:
    """The reviewed translations of ``domain``'s catalog in the build's language."""
    entries = catalog_entries(srcdir, config, domain)
    return {e.msgid: e.msgstr for e in entries.values() if e.msgstr and reviewed(e)}


def localise(app: Sphinx, config: Config) -> None:
    """The book's texts in ``config`` translated into the build's language.

    The copyright line names the author in that language. ``jaxbook_credit`` keeps the
    source text; the footer gets its translation, ``%(course)s`` filled in, as
    ``jaxbook_credit`` in ``html_context``."""
    texts = translated(config, app.srcdir, DOMAIN)
    # The book's root page: in the guides, a project apart, the book's (jaxbook.sphinxext.guides).
    book_root = getattr(config, "jaxbook_book_root", "") or config.root_doc
    root_page = translated(config, app.srcdir, page_domain(config, book_root))
    title = root_page.get(config.project, config.project)
    author = texts.get(config.author, config.author)
    config.copyright = config.copyright.replace(config.author, author)
    config.project = config.html_title = title
    config.author = author
    # The credit stays the source's in conf.py's value: the footer takes its translation.
    for name in OWN_TEXTS.keys() - {"jaxbook_credit"}:
        setattr(config, name, texts.get(getattr(config, name), getattr(config, name)))
    credit = texts.get(config.jaxbook_credit, config.jaxbook_credit)
    if credit:
        credit %= {"course": course_url(config)}
    config.html_context = {**config.html_context, "jaxbook_credit": credit}


def conf_line(conf: Path, name: str) -> int:
    """The line of the file ``conf`` that sets ``name`` (0 where none does)."""
    text = conf.read_text(encoding="utf-8") if conf.is_file() else ""
    match = re.search(rf"^{name}\s*=", text, re.MULTILINE)
    return text.count("\n", 0, match.start()) + 1 if match else 0


def conf_origin(app: Sphinx, name: str) -> tuple[str, int]:
    """The ``conf.py`` and the line that set ``name``: the project's, or the book's that it reads
    (the guides' ``conf.py`` takes the book's texts from the ``conf.py`` of the checkout,
    ``jaxbook_repo_root``); the project's first line where neither sets it."""
    own = Path(app.confdir, "conf.py")
    for conf in (own, Path(app.config.jaxbook_repo_root, "conf.py")):
        if line := conf_line(conf, name):
            return str(conf), line
    return str(own), 1


def extract(app: Sphinx) -> None:
    """Put the book's texts into the gettext builder's ``book.pot``, so that ``make
    update-po``, ``check-po`` and ``po-stats`` treat them as a page's."""
    from sphinx.builders.gettext import MessageCatalogBuilder, MsgOrigin

    if not isinstance(app.builder, MessageCatalogBuilder):
        return
    catalog = gettext_catalogs(app.builder)[DOMAIN]
    for name in TEXTS:
        text = getattr(app.config, name)
        if text:
            catalog.add(text, MsgOrigin(*conf_origin(app, name)))


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension(facts.__name__)
    for name, rebuild in OWN_TEXTS.items():
        app.add_config_value(name, "", rebuild, types=frozenset({str}))
    # The files' names: the PDF's and the EPUB's (editions), the notebooks' zip (notebooks);
    # declared here so that neither of those sets up the other.
    app.add_config_value("jaxbook_basename", "jaxbook", "env", types=frozenset({str}))
    # Each translation's translators, in its language: only that edition shows them (title
    # page, EPUB), so they are in no catalog.
    app.add_config_value("jaxbook_translators", {}, "epub", types=frozenset({dict}))
    # Before the extensions that take the title and author (editions, discovery: 800).
    app.connect("config-inited", localise, priority=400)
    app.connect("builder-inited", extract)
    return {"version": "1.0", **PARALLEL_SAFE}
