"""The book on paper and in e-readers: a PDF (xelatex + xeCJK) and an EPUB per language.

One ``conf.py`` serves every language: both editions' settings come from the book's
localized texts (:mod:`jaxbook.sphinxext.book_texts`), and both hold the pages the root
page's toctrees reach. This module sets up the package's modules, one per concern:
``credits`` (who made which edition, its licenses and identifier), ``latex`` (the PDF's
settings, fonts and glyphs), ``layout`` (the PDF's rewrites of the resolved book),
``page_breaks`` (where the PDF's pages may break), ``dropdowns`` (a dropdown off the web),
``epub`` (the EPUB builder) and ``web`` (the preface's name, the site's download links).

Config values:

- ``jaxbook_symbol_font`` (``"Symbola"``): the font for symbols the text fonts lack.
- ``jaxbook_font_cache`` (``""``: the user's cache): where the PDF's CJK faces are
  written (:func:`jaxbook.sphinxext.fonts.font_cache`).
- ``jaxbook_editions`` (``["pdf", "epub"]``): the formats the site's pages offer for
  download; ``jaxbook editions`` builds them into the site.
- ``jaxbook_edition`` (``1``): the edition's number, as in "First edition".
- ``jaxbook_edition_date`` (``""``: the build's month): the edition's month, ``YYYY-MM``.
- ``jaxbook_book_url`` (``""``: ``jaxbook:<basename>``): the address naming the book,
  whatever host serves it; the EPUB's identifier derives from it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.errors import ConfigError

from jaxbook.sphinxext import PARALLEL_SAFE, add_templates, book_texts, numbering
from jaxbook.sphinxext._locale import add_catalog
from jaxbook.sphinxext.editions.credits import credits_of
from jaxbook.sphinxext.editions.dropdowns import LabelDropdowns
from jaxbook.sphinxext.editions.epub import BookEpubBuilder, configure_epub
from jaxbook.sphinxext.editions.latex import (
    configure_latex,
    warn_unknown_language,
    write_cjk_faces,
    write_glyphs,
)
from jaxbook.sphinxext.editions.layout import PaperLayout, page_reference, visit_page_reference
from jaxbook.sphinxext.editions.web import (
    NameThePreface,
    add_site_links,
    note_editions_to_come,
    preface_in_links,
)

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata

FORMATS = ("pdf", "epub")


def configure(app: Sphinx, config: Config) -> None:
    """Make both editions' settings, once ``conf.py``'s texts are localized."""
    if not config.jaxbook_publisher:
        raise ConfigError(
            f"{Path(app.confdir, 'conf.py')}: jaxbook_publisher must name who publishes the "
            "book (its authors, where they publish it themselves)"
        )
    unknown = [fmt for fmt in config.jaxbook_editions if fmt not in FORMATS]
    if unknown:
        raise ConfigError(
            f"{Path(app.confdir, 'conf.py')}: jaxbook_editions names {', '.join(unknown)}; "
            f"the editions are {', '.join(FORMATS)}"
        )
    configure_latex(app, config, credits_of(config))
    configure_epub(config, credits_of(config))


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    add_templates(app)  # the EPUB's cover page, the sidebar's downloads and subtitle
    app.setup_extension(book_texts.__name__)  # the texts, and the files' name stem
    # The numbers of sections, figures, tables and listings, and the words of a reference to
    # one, are the web's and the PDF's alike.
    app.setup_extension(numbering.__name__)
    app.add_config_value("jaxbook_symbol_font", "Symbola", "env", types=frozenset({str}))
    app.add_config_value("jaxbook_font_cache", "", "", types=frozenset({str}))
    app.add_config_value("jaxbook_editions", list(FORMATS), "html", types=frozenset({list}))
    app.add_config_value("jaxbook_edition", 1, "env", types=frozenset({int}))
    app.add_config_value("jaxbook_edition_date", "", "env", types=frozenset({str}))
    app.add_config_value("jaxbook_book_url", "", "env", types=frozenset({str}))
    # After conf.py's texts are localised (jaxbook.sphinxext.book_texts, 400), before Sphinx
    # reads the style sheets' list (800).
    app.connect("config-inited", configure, priority=750)
    app.connect("builder-inited", warn_unknown_language)
    app.add_builder(BookEpubBuilder, override=True)
    app.add_post_transform(LabelDropdowns)
    app.add_post_transform(PaperLayout)
    app.add_post_transform(NameThePreface)
    app.add_node(page_reference, latex=(visit_page_reference, None))
    # A handler: it writes a file into the builder's output, from every character of the
    # finished tree.
    app.connect("doctree-resolved", write_glyphs, priority=900)
    app.connect("html-page-context", add_site_links)
    app.connect("html-page-context", preface_in_links)
    app.connect("build-finished", note_editions_to_come)
    app.connect("write-started", write_cjk_faces)
    return {"version": "1.0", **PARALLEL_SAFE}
