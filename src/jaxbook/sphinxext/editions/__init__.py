"""The book on paper and in e-readers: PDF (LaTeX, xelatex + xeCJK) and EPUB, per language.

One ``conf.py`` serves every language: the editions' settings are made from
the book's (already localised) title, authors, translators and publisher
(``jaxbook.sphinxext.book_texts``), which are set in one place each. Both
editions hold the reader's book only: the pages the root page's toctrees reach.

The extension, one module per concern:

- ``credits``: which edition this is and who made it, as every edition and the
  website say it (title, names, edition statement, licences, identifier);
- ``latex``: the PDF's settings (trim size, front matter, metadata, language,
  fonts, preamble), the characters its fonts lack, and two mixins of
  ``jaxbook.sphinxext.latex_translator``: a cell's output set apart (``OutputFrame``)
  and a sphinx-design badge boxed (``BoxedBadges``);
- ``layout``: the PDF's rewrites of the resolved book (``PaperLayout``): page
  references, marks after quotes, table cells, names that break, ragged
  breaks, bookmarks;
- ``page_breaks``: where the PDF's pages may break (``need_room``);
- ``dropdowns``: a dropdown on paper and in the EPUB (``LabelDropdowns``);
- ``epub``: the EPUB builder (``BookEpubBuilder``) and its settings;
- ``web``: the preface's name in the EPUB's and the website's pages, and each
  site's links to the PDF and EPUB of its language.

This module sets them up and declares their config values; ``configure`` makes the
settings of both editions once ``conf.py``'s texts are localised.

Config values (the files' name stem, ``jaxbook_basename``, is
``jaxbook.sphinxext.book_texts``'s: ``<basename>-<language>.pdf`` and ``.epub``):

``jaxbook_symbol_font``
   Font for the symbols the text fonts lack (default ``"Symbola"``).
``jaxbook_font_cache``
   Where the PDF's CJK faces are written, each in a file of its own
   (``jaxbook.sphinxext.fonts.write_face``; default ``""``:
   ``$XDG_CACHE_HOME/jaxbook/fonts``, or ``~/.cache/jaxbook/fonts``).
``jaxbook_editions_held``
   Set by the build: the formats (``pdf``, ``epub``) whose file the site's
   directory holds, which its pages link.
``jaxbook_edition``
   The edition's number (default ``1``): "First edition", "第 1 版".
``jaxbook_edition_date``
   The month the edition came out, ``YYYY-MM`` (default ``""``: the month of the
   build, as a draft's).
``jaxbook_book_url``
   The address that names the book, whatever host serves a build of it (default
   ``""``: the name ``jaxbook:<basename>``); the EPUB's identifier is derived
   from it, the language and the edition.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.errors import ConfigError

from jaxbook.sphinxext import PARALLEL_SAFE, add_templates, book_texts, numbering
from jaxbook.sphinxext._locale import add_catalog
from jaxbook.sphinxext.editions.credits import credits_of, edition_name
from jaxbook.sphinxext.editions.dropdowns import LabelDropdowns
from jaxbook.sphinxext.editions.epub import BookEpubBuilder, configure_epub
from jaxbook.sphinxext.editions.latex import (
    configure_latex,
    warn_unknown_language,
    write_cjk_faces,
    write_glyphs,
)
from jaxbook.sphinxext.editions.layout import PaperLayout, page_reference, visit_page_reference
from jaxbook.sphinxext.editions.web import NameThePreface, add_site_links, preface_in_links

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata

FORMATS = ("pdf", "epub")


def configure(app: Sphinx, config: Config) -> None:
    if not config.jaxbook_publisher:
        raise ConfigError(
            f"{Path(app.confdir, 'conf.py')}: jaxbook_publisher must name who publishes the "
            "book (its authors, where they publish it themselves)"
        )
    configure_latex(app, config, credits_of(config))
    configure_epub(config, credits_of(config))
    config.jaxbook_editions_held = [
        fmt for fmt in FORMATS if Path(app.outdir, f"{edition_name(config)}.{fmt}").is_file()
    ]


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    add_templates(app)  # the EPUB's cover page, the sidebar's downloads and subtitle
    app.setup_extension(book_texts.__name__)  # the texts, and the files' name stem
    # The numbers of sections, figures, tables and listings, and the words of a reference to
    # one, are the web's and the PDF's alike.
    app.setup_extension(numbering.__name__)
    app.setup_extension("sphinx.builders.epub3")
    app.add_config_value("jaxbook_symbol_font", "Symbola", "env", types=frozenset({str}))
    app.add_config_value("jaxbook_font_cache", "", "", types=frozenset({str}))
    app.add_config_value("jaxbook_editions_held", [], "html", types=frozenset({list}))
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
    app.connect("write-started", write_cjk_faces)
    return {"version": "1.0", **PARALLEL_SAFE}
