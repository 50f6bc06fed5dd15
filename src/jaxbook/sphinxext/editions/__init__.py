"""The book on paper and in e-readers: PDF (LaTeX, xelatex + xeCJK) and EPUB, per language.

One ``conf.py`` serves every language: the settings come from the book's localised
title, authors, translators and publisher (``jaxbook.sphinxext.book_texts``). Both
editions hold the reader's book only: the pages the root page's toctrees reach.

Modules, one per concern:

- ``credits``: which edition and who made it, as every edition and the site say it
  (title, names, edition statement, licences, identifier);
- ``latex``: the PDF's settings (trim, front matter, metadata, language, fonts, preamble),
  the characters its fonts lack, a ``jaxbook.sphinxext.latex_translator`` mixin
  (``OutputFrame``) and the LaTeX of sphinx-design's badges (``visit_badge``);
- ``layout``: the PDF's rewrites of the resolved book (``PaperLayout``): page references,
  marks after quotes, table cells, names that break, ragged breaks, bookmarks;
- ``page_breaks``: where the PDF's pages may break (``need_room``);
- ``dropdowns``: a dropdown on paper and in the EPUB (``LabelDropdowns``);
- ``epub``: the EPUB builder (``BookEpubBuilder``) and its settings;
- ``web``: the preface's name in EPUB and website pages, and each site's links to its
  language's PDF and EPUB.

This module sets them up and declares the config values; ``configure`` makes both
editions' settings once ``conf.py``'s texts are localised.

Config values (the file stem ``jaxbook_basename`` is ``jaxbook.sphinxext.book_texts``'s):

``jaxbook_symbol_font``
   Font for symbols the text fonts lack (default ``"Symbola"``).
``jaxbook_font_cache``
   Where the PDF's CJK faces are written, one per file
   (``jaxbook.sphinxext.fonts.write_face``; default ``""``:
   ``$XDG_CACHE_HOME/jaxbook/fonts``, or ``~/.cache/jaxbook/fonts``).
``jaxbook_editions``
   The formats the site offers for download, which its pages link (default ``["pdf",
   "epub"]``): ``jaxbook editions`` builds them into the site, as a deploy does; a site
   built alone links them before they are there, and its build says so.
``jaxbook_edition``
   The edition's number (default ``1``): "First edition", "第 1 版".
``jaxbook_edition_date``
   Month of the edition, ``YYYY-MM`` (default ``""``: the build's month, as a draft's).
``jaxbook_book_url``
   The address naming the book, whatever host serves it (default ``""``:
   ``jaxbook:<basename>``); the EPUB's identifier derives from it, the language and the
   edition.
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
