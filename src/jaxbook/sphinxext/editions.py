"""The book on paper and in e-readers: PDF (LaTeX, xelatex + xeCJK) and EPUB, per language.

One ``conf.py`` serves every language: the editions' settings are made from
the book's (already localised) title, authors, translators and publisher
(``jaxbook.sphinxext.book_texts``), which are set in one place each.

The PDF (``latex_elements`` and ``texinputs/jaxbook.sty``):

- a trim size each edition's readers expect (``TRIM``: 185 by 260 mm for
  Chinese, 7 by 9.25 in for English), with margins to match;
- front matter: a title page that names the authors (and a translation's
  translators) and the publisher, a copyright page with the JAX series the
  book is for ("For JAX 0.12", of the release it runs on), the edition
  statement ("First edition, December 2026"), the course credit and the
  licences, the contents, and
  the preface (the root page's text) in the contents and the PDF's bookmarks,
  all roman-numbered; no blank page carries a running head or folio;
- the PDF's information (title, authors, subject, keywords) in the edition's
  language, and its language, with its region, in its catalog (``/Lang``:
  ``zh-CN``, ``en-US``); it is not tagged (``dev/how-it-works.md`` says why);
- the edition's language as polyglossia's main language, so that a word is
  hyphenated by its language's patterns (Spanish "sa-li-da", not English's
  "sal-ida"; ``jaxbook.preflight.HYPHENATION`` names the language and the
  TeX package of its patterns, which ``make pdf`` checks are installed); a
  Chinese, Japanese or Korean edition's Latin words take US English's. The
  names the build gives the contents, figures, tables, chapters and the
  index's "see" stay as it sets them when polyglossia sets its own;
- Noto Serif and Noto Sans beside the Noto CJK of the edition's script
  (``jaxbook.sphinxext.fonts.cjk_family``), Noto Sans Mono CJK for code, each
  CJK face from a file of its own that names it as it is ("NotoSansCJKsc",
  not its collection's "NotoSansCJKjp": ``jaxbook.sphinxext.fonts.write_face``);
  the symbols those lack from a symbol font through xeCJK's fallback, and each
  emoji as its picture from Noto Color Emoji (``jaxbook-glyphs.sty``, written
  for the emoji the book uses);
- figures, tables and listings numbered per chapter ("图 1-1", "Figure 1-1"),
  with sections "1.5", as the website and the EPUB number them too
  (``jaxbook.sphinxext.numbering``, which this extension sets up; LaTeX's
  layout of the numbers is ``jaxbook.sty``'s), a figure set where the
  text has it (never between an output and its label), a code block or a box
  begun at a page's foot only if its first lines fit there, an output's label
  kept with the output, a heading kept with the block under it
  (``need_room``), black links, and each cross-reference followed by its page,
  outside the quotes of a quoted title and before the sentence's full stop
  ("“How to read this book” (page v).");
- a long line of code or output broken only at a space or after a comma, the
  next line starting with a small grey hook; inline code that breaks with no
  mark, and table rows that align: an index entry or link target at the head
  of a cell moves into its first paragraph;
- a dropdown becomes a labelled block, since paper cannot fold; a quiz's answers
  (its "answer and explanation" dropdowns) are collected after its last question,
  each linked to its question and from it (``LabelDropdowns``; the EPUB too).

The EPUB is Sphinx's EPUB 3 builder extended (``BookEpubBuilder``): a cover
drawn from the title and names, full metadata (the authors as creator, a
translation's translators as contributor with the ``trl`` role, the
publisher, the accessibility metadata; an identifier that stays the
edition's, ``urn:uuid:`` and a name-based UUID of ``jaxbook_book_url``, the
language and the edition, so that a rebuild is the same book to a reader's
library; the edition's number as its version), landmarks and the index in the
navigation, each page's language declared, code that wraps, and output set
apart from code (``static/jaxbook-epub.css``). The course credit is in the
book once, on its copyright page, with the edition statement that the PDF's
copyright page and every page of the website (under its copyright line) give
too.

Both hold the reader's book only: the pages the root page's toctrees reach.
Each page of a site links the PDF and the
EPUB of its language that the site holds (``jaxbook editions`` copies them
there and writes the pages again).

Config values:

``jaxbook_editions_basename``
   File name stem of the PDF and EPUB (default ``"jaxbook"``): the files are
   ``<basename>-<language>.pdf`` and ``.epub``.
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

import datetime
import html
import math
import re
import unicodedata
import uuid
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from babel import Locale
from babel.core import get_global
from babel.dates import format_skeleton
from docutils import nodes
from packaging.version import Version
from sphinx import addnodes
from sphinx.builders.epub3 import Epub3Builder
from sphinx.errors import ConfigError
from sphinx.locale import _ as sphinx_
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging, texescape
from sphinx.util.fileutil import copy_asset_file
from sphinx_design.badges_buttons import sd_badge

from jaxbook import project
from jaxbook.chinese import spaced
from jaxbook.preflight import tex_language, unknown_language
from jaxbook.sphinxext import PARALLEL_SAFE, _artwork, _chapters, book_texts, numbering
from jaxbook.sphinxext._locale import _, add_catalog, gettext_noop
from jaxbook.sphinxext._nodes import ancestors, section_title
from jaxbook.sphinxext._settings import set_default
from jaxbook.sphinxext.fonts import (
    Face,
    cjk_family,
    cjk_region,
    find_face,
    font_cache,
    write_face,
)
from jaxbook.sphinxext.languages import site_url
from jaxbook.sphinxext.pairs import pair, pair_half

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

HERE = Path(__file__).parent
STYLE = HERE / "texinputs" / "jaxbook.sty"
TEMPLATES = HERE / "templates"
EPUB_TEMPLATES = TEMPLATES / "epub3"
EPUB_STYLE = HERE / "static" / "jaxbook-epub.css"
COVER = "_static/jaxbook-cover.png"
GLYPHS_STYLE = "jaxbook-glyphs"
# Arrows and mathematical signs (→, ≥): from this font where the text font lacks them.
MATH_SYMBOL_FONT = "Noto Sans Math"
MATH_SYMBOLS = (0x2190, 0x22FF)
FORMATS = ("pdf", "epub")

# The page and type area an edition's readers expect of a technical book: 16开 (185 by 260
# mm) for Chinese, whose text is a whole number of characters wide (40 at 10.5 pt), and
# 7 by 9.25 in for English. The inner margin is the wider, for the binding.
TRIM = {
    "cjk": {
        "pointsize": "10pt",
        "geometry": "paperwidth=185mm,paperheight=260mm,textwidth=420pt,inner=20mm,"
        "top=24mm,bottom=26mm,headsep=6mm,footskip=12mm",
    },
    "latin": {
        "pointsize": "10pt",
        "geometry": "paperwidth=7in,paperheight=9.25in,inner=0.875in,outer=0.7in,"
        "top=0.85in,bottom=0.95in,headsep=0.2in,footskip=0.45in",
    },
}
# The code measure: the columns of a line of code that fit the type area; LaTeX wraps a
# longer one with a continuation mark, and a reader who types the code from the page gets
# it wrong. A column is a character of the code font: Noto Sans Mono CJK's Latin at \small
# (9 pt), scaled to Noto Serif's x-height, 4.44 pt wide; a Chinese character takes two. The
# English type area is 392.1 pt wide, 88.3 columns. The Chinese one is 397.2 pt, 89.4
# columns, not TRIM's 420 pt: Sphinx passes geometry its hmargin (1 in), which sets the
# outer margin that TRIM leaves open. test_editions holds the measure to the width the
# LaTeX log gives, and test_code_width every source line of a listing to the measure (an
# output's lines may wrap).
CODE_COLUMN_PT = 4.44
CODE_COLUMNS = {"cjk": 89, "latin": 88}


def code_columns(language: str) -> int:
    """The code measure of ``language``'s PDF (``CODE_COLUMNS``), in half-width columns."""
    return CODE_COLUMNS["cjk" if cjk_region(language) is not None else "latin"]


def licences() -> list[tuple[str, str]]:
    """The licences the copyright page names (the text's and the tools'), with the addresses
    of their texts."""
    return [
        ("CC BY 4.0", "https://creativecommons.org/licenses/by/4.0/"),
        # Translators: The licence's name on the books' copyright page, listed with its address.
        (str(_("MIT License")), "https://opensource.org/license/mit"),
    ]


def edition_name(config: Config) -> str:
    return f"{config.jaxbook_editions_basename}-{config.language}"


@dataclass(frozen=True)
class Credits:
    """Which edition this is and who made it, in the build's language: what the title page,
    the copyright page, the EPUB's metadata and its cover say."""

    title: str
    scope: str  # what the edition holds ("第 1 章 JAX 简介"); "" for the whole of a book
    authors: str
    translators: str  # none in the source language
    publisher: str
    release: str  # the JAX release the edition runs on
    edition: int  # the edition's number: 1 is the first
    published: str  # the month the edition came out, as the language writes it
    copyright: str
    credit: str  # the course credit, as HTML (the website's footer has it)
    site: str  # the website's address, where a deploy build knows it; else ""
    # How a sentence names the authors, translators or publisher (``jaxbook_name_in_text``):
    # "the %(name)s" in English, whose credit lines read "Written by the ... Project".
    in_text: str = ""  # "": the name alone

    def named(self, name: str) -> str:
        """``name`` as a credit line's sentence names it; the name alone stands on the
        cover's imprint, in the EPUB's metadata and in the copyright line."""
        return (self.in_text or "%(name)s") % {"name": name}

    @property
    def subtitle(self) -> str:
        """The line under the title, as a publisher words an edition: what it holds
        (``jaxbook_scope``), then the JAX series it is for, from the release it runs on
        ("0.12" of "0.12.0.1"): "第 1 章 JAX 简介（适用于 JAX 0.12）". The PDF's title and
        copyright pages, the EPUB's cover and copyright page and the website's sidebar show
        it; each part is left out where the book names none."""
        series = ".".join(map(str, Version(self.release).release[:2])) if self.release else ""
        # Translators: The line under the title on the PDF's title page, the EPUB's cover
        # and the copyright pages: "For JAX 0.12", the series of JAX releases the book is for.
        for_series = str(_("For JAX %s")) % series if series else ""
        if self.scope and for_series:
            # Translators: The line under the title: what the edition holds, then the JAX
            # series it is for, "Chapter 1: Introduction to JAX · For JAX 0.12" (in Chinese
            # the series in brackets: GB/T 15834 has no use of the middle dot between them).
            return str(_("%(scope)s · %(series)s")) % {"scope": self.scope, "series": for_series}
        return self.scope or for_series

    def makers(self) -> tuple[str, str, str]:
        """Who wrote, translated ("" in the source language) and published the edition."""
        return (
            # Translators: A line of the PDF's title page and the books' copyright page.
            str(_("Written by %(authors)s")) % {"authors": self.named(self.authors)},
            # Translators: A line of the PDF's title page and the books' copyright page.
            str(_("Translated by %(translators)s")) % {"translators": self.named(self.translators)}
            if self.translators
            else "",
            # Translators: A line of the PDF's title page and the books' copyright page.
            str(_("Published by %(publisher)s")) % {"publisher": self.named(self.publisher)},
        )

    def edition_line(self) -> str:
        """The edition statement, as a publisher prints it on the copyright page: "First
        edition, December 2026", "第 1 版，2026 年 12 月"."""
        # Translators: The edition statement of an edition after the fifth, as "Edition 6,
        # December 2026".
        message = EDITIONS.get(self.edition, gettext_noop("Edition %(number)d, %(date)s"))
        return str(_(message)) % {"number": self.edition, "date": self.published}

    def release_line(self) -> str:
        """The copyright page's line on the exact release the edition's code ran on: the
        subtitle names its series only."""
        if not self.release:
            return ""
        # Translators: A line of the books' copyright page, under the edition statement: the
        # exact JAX release whose runs gave the book's outputs.
        return str(_("The code in this edition was run with JAX %s.")) % self.release

    def addresses(self) -> list[tuple[str, str]]:
        """What the copyright page lists with its address: the website first (the printed
        book sends readers there, to its notebooks), the credit's links, the licences."""
        _credit, links = linked_text(self.credit)
        # Translators: On the books' copyright page, the label of the website's address ("Website:
        # https://...").
        return [*([(str(_("Website")), self.site)] if self.site else []), *links, *licences()]


# The edition statement of each edition a book is likely to see, in words; a later one
# gives its number ("Edition 6, ...").
EDITIONS = {
    # Translators: The edition statement of the copyright pages and the site's footer;
    # %(date)s is the month, as "December 2026".
    1: gettext_noop("First edition, %(date)s"),
    # Translators: The edition statement of the copyright pages and the site's footer;
    # %(date)s is the month, as "December 2026".
    2: gettext_noop("Second edition, %(date)s"),
    # Translators: The edition statement of the copyright pages and the site's footer;
    # %(date)s is the month, as "December 2026".
    3: gettext_noop("Third edition, %(date)s"),
    # Translators: The edition statement of the copyright pages and the site's footer;
    # %(date)s is the month, as "December 2026".
    4: gettext_noop("Fourth edition, %(date)s"),
    # Translators: The edition statement of the copyright pages and the site's footer;
    # %(date)s is the month, as "December 2026".
    5: gettext_noop("Fifth edition, %(date)s"),
}


def preface_name() -> str:
    """What every edition calls the root page's text, in its contents and navigation: the
    preface ("前言", "Preface"), as a published book does; the book's title is the title
    page's, the cover's and the website's."""
    # Translators: The name of the book's first page of text (the root page's) in the PDF's
    # heading and contents, the EPUB's contents and heading, and the website's links to it.
    return str(_("Preface"))


def edition_month(config: Config) -> datetime.date:
    """The first day of the month the edition came out (``jaxbook_edition_date``)."""
    if not config.jaxbook_edition_date:
        return datetime.date.today().replace(day=1)
    try:
        return datetime.datetime.strptime(config.jaxbook_edition_date, "%Y-%m").date()
    except ValueError:
        raise ConfigError(
            f"jaxbook_edition_date must be a month, YYYY-MM: {config.jaxbook_edition_date!r}"
        ) from None


def credits_of(config: Config) -> Credits:
    # The month as the language names it: "December 2026", "2026 年 12 月".
    month = format_skeleton("yMMMM", edition_month(config), locale=config.language)
    return Credits(
        title=config.project,
        scope=config.jaxbook_scope,
        authors=config.author,
        translators=config.jaxbook_translators.get(config.language, ""),
        publisher=config.jaxbook_publisher,
        release=config.release,
        edition=config.jaxbook_edition,
        published=spaced(month),
        copyright=config.copyright,
        credit=config.html_context.get("jaxbook_credit", ""),
        site=site_url(config),
        in_text=config.jaxbook_name_in_text,
    )


def configure(app: Sphinx, config: Config) -> None:
    if not config.jaxbook_publisher:
        raise ConfigError(
            f"{Path(app.confdir, 'conf.py')}: jaxbook_publisher must name who publishes the "
            "book (its authors, where they publish it themselves)"
        )
    # The edition is the JAX release it runs on: the title page and the copyright page say
    # it in a sentence, the EPUB's version is the number. (A test root has no
    # pyproject.toml, and keeps its own release.)
    if (Path(app.confdir) / "pyproject.toml").is_file():
        pinned = project.pinned_release(Path(app.confdir))
        set_default(config, "release", pinned)
        set_default(config, "version", pinned)
    # The EPUB's cover page (languages also adds the directory, for the sidebar's templates).
    if str(TEMPLATES) not in config.templates_path:
        config.templates_path = [*config.templates_path, str(TEMPLATES)]
    configure_latex(app, config, credits_of(config))
    configure_epub(config, credits_of(config))
    config.jaxbook_editions_held = [
        fmt for fmt in FORMATS if Path(app.outdir, f"{edition_name(config)}.{fmt}").is_file()
    ]


# -- The PDF ----------------------------------------------------------------------------


def see_name(message: str) -> str:
    """ "see" or "see also" as Sphinx's index says it in the build's language ("see %s"):
    Sphinx has the words only in these messages."""
    return str(sphinx_(message)).replace("%s", "").strip()


def tex(text: str) -> str:
    return texescape.escape(text, "xelatex")


def pdf_string(text: str) -> str:
    """``text`` for the PDF's information: hyperref drops Sphinx's ``\\sphinxhyphen{}``
    ("justintime"), so a hyphen stays a hyphen."""
    return tex(text).replace(r"\sphinxhyphen{}", "-")


class _LinkedText(HTMLParser):
    """The course credit (HTML with a link) as text, and the addresses of its links."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.links: list[tuple[str, str]] = []
        self.href: str | None = None
        self.link_text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.href = dict(attrs).get("href") or ""
            self.link_text = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self.href is not None:
            self.links.append(("".join(self.link_text), self.href))
            self.href = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self.href is not None:
            self.link_text.append(data)


def linked_text(credit: str) -> tuple[str, list[tuple[str, str]]]:
    """The credit's text, and each link's text and address: on paper the addresses follow
    the sentence, each on a line of its own, as the licences' do."""
    parser = _LinkedText()
    parser.feed(credit)
    parser.close()
    return "".join(parser.text), parser.links


def url(address: str) -> str:
    escaped = address.replace("%", r"\%").replace("#", r"\#")
    return rf"\url{{{escaped}}}"


def front_matter(credits: Credits) -> str:
    """The title page and the copyright page on its back, as macros ``jaxbook.sty`` sets."""
    written, translated, published = (tex(line) for line in credits.makers())
    edition = tex(credits.edition_line())
    credit, links = linked_text(credits.credit)
    # The course's title (the credit's link) in italics, as the preface sets it; a Chinese
    # title's own marks (《JAX 入门》) set it apart.
    titles = {name for name, _address in links if not name.startswith("《")}
    addresses = r"\\".join(
        # Translators: A line of the PDF's copyright page: what an address is ("Website",
        # the course's title, a licence), then the address.
        tex(str(_("%(name)s: %(url)s")) % {"name": "\1", "url": "\0"})
        .replace("\0", url(address))
        .replace("\1", rf"\emph{{{tex(name)}}}" if name in titles else tex(name))
        for name, address in credits.addresses()
    )
    credit = tex(credit)
    for name in titles:
        credit = credit.replace(tex(name), rf"\emph{{{tex(name)}}}")
    title_page = [
        r"\centering\py@HeaderFamily\vspace*{0.12\textheight}",
        rf"{{\fontsize{{32}}{{40}}\selectfont {tex(credits.title)}\par}}\vspace{{1.2em}}",
        r"{\rule{0.3\textwidth}{0.8pt}\par}\vspace{1.2em}",
        rf"{{\Large\mdseries {tex(credits.subtitle)}\par}}",
        r"\vfill",
        rf"{{\Large {written}\par}}",
        rf"\vspace{{0.8em}}{{\large\mdseries {translated}\par}}" if translated else "",
        r"\vfill\vfill",
        # The imprint at the foot, unless the authors publish the book themselves: the line
        # above has named them.
        rf"{{\large\mdseries {tex(credits.publisher)}\par}}"
        if credits.publisher != credits.authors
        else "",
    ]
    copyright_page = [
        r"\null\vfill{\small\raggedright\setlength{\parskip}{0.6\baselineskip}",
        rf"{{\bfseries {tex(credits.title)}}}\\{tex(credits.subtitle)}\par",
        r"\\".join(line for line in (written, translated, published) if line) + r"\par",
        rf"{edition}\\{tex(credits.release_line())}\par" if credits.release else rf"{edition}\par",
        rf"© {tex(credits.copyright)}\par",
        rf"{credit}\par" if credit else "",
        rf"{addresses}\par}}",
    ]
    return "\n".join(
        [
            r"\makeatletter",
            r"\newcommand\jbtitlepage{%",
            *(f"  {line}%" for line in title_page if line),
            "}",
            r"\makeatother",
            r"\newcommand\jbcopyrightpage{%",
            *(f"  {line}%" for line in copyright_page if line),
            "}",
        ]
    )


def pdf_language(language: str) -> str:
    """The PDF's language, with the region whose conventions the edition follows (CLDR's
    likely region where the language names none): ``zh-CN``, ``en-US``. A screen reader
    reads the text in it, and picks the voice by it."""
    locale = Locale.parse(language)
    if locale.territory:
        return project.bcp47(language)
    likely = get_global("likely_subtags").get(locale.language, "")
    territory = likely.rsplit("_", 1)[-1] if likely.count("_") == 2 else ""
    return f"{locale.language}-{territory}" if territory else locale.language


def keywords() -> str:
    """The PDF's keywords, in the edition's language and with its commas."""
    return str(
        _(
            "JAX, NumPy, Python, automatic differentiation, just-in-time compilation, "
            "vectorization, XLA"
        )
    )


def pdf_metadata(credits: Credits, language: str, book: str = "") -> str:
    """The PDF's document information and catalog, in the edition's language: its title,
    authors, subject (the EPUB's description), keywords and language, and a viewer shows the
    title rather than the file's name. The same in its XMP metadata (hyperxmp), which a
    library's or an archive's tools read rather than the information, with the publisher,
    the copyright, the address of the text's licence and the edition's identifier (``book``,
    the EPUB's ``urn:uuid:``), which a rebuild keeps. The information keeps its authors and
    keywords (``keeppdfinfo``), which hyperxmp leaves to the XMP alone."""
    subject = str(description())
    document = book.removeprefix("urn:")
    _licence, licence_url = licences()[0]
    return "\n".join(
        [
            r"\usepackage{hyperxmp}",
            rf"\hypersetup{{pdftitle={{{pdf_string(credits.title)}}}, "
            rf"pdfauthor={{{pdf_string(credits.authors)}}}, "
            rf"pdfsubject={{{pdf_string(subject)}}}, "
            rf"pdfkeywords={{{pdf_string(keywords())}}}, "
            rf"pdflang={{{pdf_language(language)}}}, pdfdisplaydoctitle=true, keeppdfinfo, "
            rf"pdfpublisher={{{pdf_string(credits.publisher)}}}, "
            rf"pdfcopyright={{© {pdf_string(credits.copyright)}}}, "
            rf"pdflicenseurl={{{licence_url}}}"
            + (rf", pdfdocumentid={{{document}}}" if document else "")
            + "}",
        ]
    )


def description() -> str:
    """What the book is, in a sentence: the EPUB's description and the PDF's subject."""
    return str(_("An introduction to JAX, based on the course %(course)s by %(author)s")) % {
        "course": _("Getting Started with JAX"),
        "author": "ApX Machine Learning",
    }


def page_reference_macro(inner: bool = False, quoted: bool = False) -> str:
    """``\\jbpagereference{label}``: the page of a cross-reference, as the language writes it
    ("（第 12 页）", " (page 12)"); a Latin opening bracket is spaced from the text before it.
    ``\\jbinnerpagereference``, for a reference already in brackets, adds the page without
    brackets of its own ("（见 1.6 节，第 71 页）", not "（见 1.6 节（第 71 页））").
    ``\\jbquotedinnerpagereference{label}{quote}``, for one whose title a quote closes in an
    edition that sets a comma inside the quotes, puts the comma before the quote: "(see
    “Random numbers,” page 50)"."""
    message = str(
        # Translators: In the PDF, the page a reference inside brackets leads to, after it:
        # "(see 1.6, page 71)".
        _(", page %s")
        if inner or quoted
        # Translators: In the PDF, the page a reference leads to, after it: "1.6 (page 71)".
        else _("(page %s)")
    )
    before, _sep, after = message.partition("%s")
    latin = before[:1].isascii()
    # "page~12" stays together, and may go to the next line; Chinese spaces the number with
    # xeCJK's own glue on both sides ("第 12 页": xeCJK alone spaced only the side before),
    # and never breaks there either ("（第 51" / "页）" in the contents' table).
    space, tie = ("\\ ", "~") if latin else ("", r"\nobreak\CJKecglue\nobreak{}")
    if quoted:
        # The comma (what the message has before its first letter) goes in the quotes.
        mark = before[: len(before) - len(before.lstrip(",，;； "))].rstrip()
        before = before[len(mark) :]
        before, after = tex(before).replace(" ", tie), tex(after).replace(" ", tie)
        before = before.replace(tie, "\\ ", 1) if before.startswith(tie) else before
        reference = rf"{tex(mark)}#2{before}\pageref*{{#1}}{after}"
        return (
            r"\newcommand\jbquotedinnerpagereference[2]"
            rf"{{\ifdim\linewidth<6em#2\else{reference}\fi}}"
        )
    before, after = tex(before).replace(" ", tie), tex(after).replace(" ", tie)
    # A table column narrower than the page reference (the update-notes table's numbers)
    # shows none: its row names the section, and that reference has its page.
    if inner:
        space = ""
    reference = rf"{space}{before}\pageref*{{#1}}{after}"
    name = "jbinnerpagereference" if inner else "jbpagereference"
    return rf"\newcommand\{name}[1]{{\ifdim\linewidth<6em\else{reference}\fi}}"


# Chinese editions: the marks of a code block continued over a page in full-width
# parentheses, as Chinese text has them, and a Chinese line spacing.
CJK_PREAMBLE = r"""
\renewcommand*\sphinxstylecodecontinued[1]{{\footnotesize（#1）}}
\renewcommand*\sphinxstylecodecontinues[1]{{\footnotesize（#1）}}
\linespread{1.3}
\def\jbraggedstretch{1fil}
"""


def latin_preamble(language: str) -> str:
    """An edition in a Latin script: a glossary term's words set whole (``\\jbwholeterms``);
    one space after a full stop or a colon, as US house style sets it (polyglossia's English
    set TeX's wider sentence space: "ways.   In"); and a paragraph that cannot be set within
    TeX's tolerance (a long name of inline code, a term's unhyphenated words) spread a little
    more rather than run a line into the margin (``\\emergencystretch``)."""
    tex_lang = tex_language(language)
    french = rf"\PolyglossiaSetup{{{tex_lang.name}}}{{frenchspacing=true}}" if tex_lang else ""
    return "\n".join([r"\jbwholeterms", french, r"\setlength\emergencystretch{1.5em}"])


# xeCJK treats the emoji blocks (_artwork.EMOJI_BLOCKS, one list for every use) as CJK
# characters, so they are drawn with the CJK font's fallback (the symbol font) instead of
# vanishing from a Latin font.
SYMBOL_RANGES = (
    "\n\\xeCJKsetup{AutoFallBack=true}\n\\xeCJKDeclareCharClass{CJK}{"
    + ", ".join(f'"{first:X} -> "{last:X}' for first, last in _artwork.EMOJI_BLOCKS)
    + "}\n"
)


# The CJK faces the PDF sets, by their role: the family's style (cjk_family) and weight.
CJK_FACES = {
    "serif": ("Serif", "Regular"),
    "sans": ("Sans", "Regular"),
    "sans-bold": ("Sans", "Bold"),
    "mono": ("Sans Mono", "Regular"),
    "mono-bold": ("Sans Mono", "Bold"),
}
# What a font's path may hold in the LaTeX that names it.
PLAIN_PATH = re.compile(r"[A-Za-z0-9_./+-]+")


def cjk_faces(language: str) -> dict[str, Face]:
    """The CJK faces of the edition in ``language``, as fontconfig finds them."""
    return {
        role: find_face(cjk_family(language, style), weight)
        for role, (style, weight) in CJK_FACES.items()
    }


def write_cjk_faces(app: Sphinx, builder: Builder) -> None:
    """The PDF's CJK faces, each in a file of its own, in the font cache (once), when the
    LaTeX is written."""
    if builder.format != "latex":
        return
    for face in cjk_faces(app.config.language).values():
        write_face(face, font_cache(app.config.jaxbook_font_cache))


def fonts(config: Config, is_cjk: bool) -> str:
    faces = {role: face.file_name for role, face in cjk_faces(config.language).items()}
    cache = font_cache(config.jaxbook_font_cache).resolve().as_posix() + "/"
    if not PLAIN_PATH.fullmatch(cache):
        raise ConfigError(
            f"jaxbook_font_cache: LaTeX reads the fonts from {cache!r}; give a path of "
            "letters, digits and _ . / + - only"
        )
    symbols = config.jaxbook_symbol_font
    # Chinese text at 10.5 pt (五号) beside 10 pt Latin.
    scale = "Scale=1.05," if is_cjk else ""

    def face(role: str, bold: str, options: str = "") -> str:
        return f"{{{faces[role]}}}[Path={cache},BoldFont={faces[bold]},{options}]"

    return "\n".join(
        [
            # Noto Serif is drawn to go with Noto Serif CJK; code in Noto Sans Mono CJK's
            # Latin, half as wide as a Chinese character. The CJK faces are files of their
            # own (jaxbook.sphinxext.fonts), so that the PDF names each as it is
            # ("NotoSansCJKsc"), not as its collection's first face ("NotoSansCJKjp").
            r"\setmainfont{Noto Serif}",
            r"\setsansfont{Noto Sans}[Scale=MatchLowercase]",
            r"\setmonofont" + face("mono", "mono-bold", "Scale=MatchLowercase"),
            r"\setCJKmainfont" + face("serif", "sans-bold", scale),
            r"\setCJKsansfont" + face("sans", "sans-bold", scale),
            r"\setCJKmonofont" + face("mono", "mono-bold"),
            SYMBOL_RANGES,
            *(
                rf"\setCJKfallbackfamilyfont{{\CJK{family}default}}{{{symbols}}}"
                for family in ("rm", "sf", "tt")
            ),
            rf"\newfontfamily\jbsymbolfont{{{symbols}}}",
            rf"\newfontfamily\jbmathsymbolfont{{{MATH_SYMBOL_FONT}}}",
            # The emoji presentation selector after ⚠ has no glyph on paper.
            r"\usepackage{newunicodechar}",
            "\\newunicodechar{\ufe0f}{}",
            # English text: curly quotes and the middle dot ("Warning · Update note 3")
            # belong to the Latin font, not the CJK one.
            "" if is_cjk else r'\xeCJKDeclareCharClass{Default}{"2018 -> "201D, "00B7}',
        ]
    )


# The names the build may give in the edition's words (Sphinx's messages, the index's "see",
# no chapter name), which stay when polyglossia sets its captions (jaxbook.sty).
KEPT_NAMES = ("contentsname", "figurename", "tablename", "chaptername", "seename", "alsoname")


def multilingual(language: str) -> str:
    """polyglossia with ``language``'s TeX language as the main one, and the names of
    ``KEPT_NAMES`` as they are before the build gives any (none where
    ``jaxbook.preflight.HYPHENATION`` does not know it: ``warn_unknown_language`` says so)."""
    tex = tex_language(language)
    if tex is None:
        return ""
    options = f"[{tex.options}]" if tex.options else ""
    return "\n".join(
        [
            r"\usepackage{polyglossia}",
            rf"\setmainlanguage{options}{{{tex.name}}}",
            r"\makeatletter",
            rf"\def\jb@names{{{','.join(KEPT_NAMES)}}}",
            r"\@for\jb@name:=\jb@names\do{\expandafter\let"
            r"\csname jb@before@\jb@name\expandafter\endcsname\csname\jb@name\endcsname}",
            r"\makeatother",
        ]
    )


def warn_unknown_language(app: Sphinx) -> None:
    if app.builder.name == "latex" and tex_language(app.config.language) is None:
        logger.warning(unknown_language(app.config.language), type="jaxbook", subtype="editions")


def configure_latex(app: Sphinx, config: Config, credits: Credits) -> None:
    texescape.init()
    name = edition_name(config)
    is_cjk = cjk_region(config.language) is not None
    trim = TRIM["cjk" if is_cjk else "latin"]
    set_default(config, "latex_engine", "xelatex")
    # Sphinx's default for Japanese is jsbook, a class for (u)pLaTeX, not xelatex.
    set_default(config, "latex_docclass", {})
    set_default(
        config,
        "latex_documents",
        [(config.root_doc, f"{name}.tex", credits.title, credits.authors, "manual", False)],
    )
    set_default(config, "latex_show_urls", "footnote")
    config.latex_additional_files = [*config.latex_additional_files, str(STYLE)]
    # conf.py's keys win, as they win over Sphinx's own defaults.
    config.latex_elements = {
        "pointsize": trim["pointsize"],
        "geometry": rf"\usepackage[{trim['geometry']}]{{geometry}}",
        # Sphinx loads xeCJK itself for Chinese; other editions quote Chinese too. Then the
        # edition's language, set here rather than by Sphinx (which would name a Japanese
        # edition's language japanese, with no patterns for its Latin words, and defer the
        # contents' title to the captions of a language not set): Sphinx sees no
        # multilingual package, and writes its names in the preamble, which jaxbook.sty
        # keeps when polyglossia sets its captions.
        "fontenc": "\n".join([r"\usepackage{xeCJK}", multilingual(config.language)]),
        "fontpkg": fonts(config, is_cjk),
        "fvset": r"\fvset{fontsize=\small,formatcom=\xeCJKVerbAddon}",
        "babel": "",
        "polyglossia": "",
        # The chapters' titles carry their own numbers ("第 1 章"); LaTeX numbers the
        # sections (jaxbook.sty).
        "fncychap": "",
        "preamble": "\n".join(
            [
                front_matter(credits),
                pdf_metadata(credits, config.language, identifier(config)),
                rf"\newcommand\jbprefacename{{{tex(preface_name())}}}",
                # The index's "see" and "see also", in Sphinx's words for the language.
                rf"\renewcommand\seename{{{tex(see_name('see %s'))}}}",
                rf"\renewcommand\alsoname{{{tex(see_name('see also %s'))}}}",
                page_reference_macro(),
                page_reference_macro(inner=True),
                page_reference_macro(quoted=True),
                rf"\newcommand\jbcaptionsep{{{r'\quad' if is_cjk else '. '}}}",
                r"\usepackage{jaxbook}",
                rf"\usepackage{{{GLYPHS_STYLE}}}",
                CJK_PREAMBLE if is_cjk else latin_preamble(config.language),
            ]
        ),
        "maketitle": r"\jbmaketitle",
        "tableofcontents": r"\jbfrontmatter",
        # A figure stays where the text puts it: floated, it landed between an output's
        # label and the output.
        "figure_align": "H",
        # Not empty: Sphinx would put its own "Release" back.
        "releasename": "{}",
        # Links in black, as print has them: the page number after each says where. A long
        # line of code or output breaks with no visible space at its end, and the next line
        # starts with a small grey hook (jaxbook.sty says where it may break).
        "sphinxsetup": "verbatimwithframe=true, VerbatimColor={rgb}{0.97,0.97,0.97}, "
        "InnerLinkColor={rgb}{0,0,0}, OuterLinkColor={rgb}{0,0,0}, "
        r"verbatimvisiblespace={}, verbatimcontinued=\jbverbatimcontinued",
        **config.latex_elements,
    }
    set_default(config, "latex_domain_indices", False)
    # makeindex, not xindy (another TeX Live package): jaxbook.sphinxext.pinyin_index
    # gives each Chinese entry its pinyin as the sort key.
    set_default(config, "latex_use_xindy", False)


class page_reference(nodes.Inline, nodes.Element):
    """On paper, the page a cross-reference leads to, after its text."""


def visit_page_reference(self: Any, node: page_reference) -> None:
    # As Sphinx's LaTeX writer names the label of the reference's target.
    uri = node["refuri"] or "%" + self.curfilestack[-1] + "#" + node["refid"]
    label = self.idescape(uri[1:].replace("#", ":") if "#" in uri else uri[1:] + "::doc")
    if node.get("quote"):
        self.body.append(rf"\jbquotedinnerpagereference{{{label}}}{{{node['quote']}}}")
    else:
        macro = "jbinnerpagereference" if node.get("inner") else "jbpagereference"
        self.body.append(rf"\{macro}{{{label}}}")
    raise nodes.SkipNode


# A reference in these says nothing a page number would add to, or cannot hold one.
NO_PAGE = (nodes.title, nodes.caption, nodes.term, addnodes.toctree, nodes.literal_block)


CLOSING_QUOTES = "”’」』"
# After a reference: the quote that closes a quoted title, and before it the full stop or
# comma that US English sets inside the quotes (“How to read this book.”), past what an
# escaped space (”\ ) leaves in the text, a NUL and the space.
QUOTE_AFTER = re.compile(rf"([\x00 ]*)([.,!?。，！？]?)([{CLOSING_QUOTES}])")


def commas_inside_quotes(language: str) -> bool:
    """Whether the edition's language sets a comma before a closing quote, as US English
    does (“Random numbers,” page 50); Chinese sets it after (“随机数”，第 50 页)."""
    return pdf_language(language) == "en-US"


def _in_brackets(parent: nodes.Element, reference: nodes.Node) -> bool:
    """Whether the text before ``reference`` in its paragraph left a bracket open."""
    before = "".join(child.astext() for child in parent.children[: parent.index(reference)])
    return before.count("（") + before.count("(") > before.count("）") + before.count(")")


def add_page_references(doctree: nodes.Node, language: str) -> None:
    """Each cross-reference within the book is followed by its page: "见 1.2 节（第 12
    页）". A glossary term's first-use link is not: the glossary is in alphabetical order.

    A quoted title's page follows its closing quote, and the sentence's full stop or comma
    follows the page, wherever the text had it: “阅读说明”（第 5 页）。, “How to read this
    book” (page v). In brackets, an edition that sets commas inside quotes puts the page's
    comma there: (see “Random numbers,” page 50)."""
    for reference in list(doctree.findall(nodes.reference)):
        uri = reference.get("refuri", "")
        internal = uri.startswith("%") or (not uri and reference.get("refid"))
        # A :term: reference, or the glossary's first-use link (jaxbook.sphinxext.glossary).
        term = any(
            {"std-term", "jb-term"} & set(child.get("classes", []))
            for child in reference.children
            if isinstance(child, nodes.Element)
        )
        shown_in = [ancestor for ancestor in ancestors(reference) if isinstance(ancestor, NO_PAGE)]
        if not internal or term or shown_in:
            continue
        parent = reference.parent
        at = parent.index(reference) + 1
        inner = _in_brackets(parent, reference)
        page = page_reference(refuri=uri, refid=reference.get("refid", ""), inner=inner)
        after = parent[at] if at < len(parent) else None
        quoted = QUOTE_AFTER.match(str(after)) if isinstance(after, nodes.Text) else None
        if quoted is None:
            parent.insert(at, page)
            continue
        space, mark, quote = quoted.groups()
        rest = str(after)[quoted.end() :]
        assert isinstance(after, nodes.Text)
        if inner and not mark and commas_inside_quotes(language):
            # Replaced by position: docutils finds a Text node by equality.
            page["quote"] = quote
            parent[at] = nodes.Text(space + rest)
            parent.insert(at, page)
        else:
            parent[at] = nodes.Text(mark + rest)
            parent.insert(at, [nodes.Text(space + quote), page])


# What a note's mark follows in an edition in a Latin script: a closing quote and the
# punctuation that ends the clause, wherever the link it notes ends.
AFTER_MARK = re.compile(r"^(?:[”’]+[.,;:!?]?|[.,;:!?]+)")


def marks_after_quotes(doctree: nodes.document, language: str) -> None:
    """In an edition in a Latin script, a footnote's mark (a link's address, on paper) follows
    the closing quote and the punctuation after the link it notes, as Chicago (14.26) sets it:
    “The Sharp Bits”⁷, not “The Sharp Bits⁷”. Chinese sets it where the text has it."""
    if cjk_region(language) is not None:
        return
    for mark in list(
        doctree.findall(lambda n: isinstance(n, (nodes.footnote, nodes.footnote_reference)))
    ):
        parent = mark.parent
        if parent is None or isinstance(parent, (nodes.document, nodes.section)):
            continue
        at = parent.index(mark) + 1
        after = parent[at] if at < len(parent) else None
        if not isinstance(after, nodes.Text):
            continue
        found = AFTER_MARK.match(str(after))
        if found is None:
            continue
        text = str(after)
        parent[at] = nodes.Text(text[found.end() :])
        parent.insert(parent.index(mark), nodes.Text(found.group(0)))


# The characters of a table that may not fit one page whole.
LONG_TABLE = 900


def fit_table_cells(doctree: nodes.Node) -> None:
    """An index entry or a link target that heads a table cell goes into the cell's first
    paragraph: on a line of its own it pushed the cell's text below its neighbours' (the
    cheat sheet, the comparison table, the key/PRNGKey table), so that rows did not
    align."""
    # A long table in the running text may break across pages (a longtable): kept whole,
    # the installation table ran past the foot of its page. A short one stays whole (the
    # chapter's ten-row contents had split after two rows), and one inside a box (an
    # admonition, a list) stays a tabulary, which LaTeX can set there.
    for table in doctree.findall(nodes.table):
        long = len(table.astext()) > LONG_TABLE
        if long and isinstance(table.parent, (nodes.section, nodes.document)):
            table["classes"] = [*table["classes"], "longtable"]
    for cell in doctree.findall(nodes.entry):
        marks = [c for c in cell.children if isinstance(c, (addnodes.index, nodes.target))]
        paragraph = next((c for c in cell.children if isinstance(c, nodes.paragraph)), None)
        if marks and paragraph is not None:
            for mark in reversed(marks):
                cell.remove(mark)
                if isinstance(mark, addnodes.index):
                    mark["inline"] = True
                paragraph.insert(0, mark)


# The paragraphs that say where the output under them comes from ("CPU 上的输出：",
# "Output on CPU:", "Measured on: ..."): jaxbook.sphinxext.backend_tabs and measured.
OUTPUT_LABELS = {"jb-backend-label", "jb-measured-label"}


def keep_code_together(doctree: nodes.Node) -> None:
    """On paper a code block or output starts at the foot of a page only if its first lines
    fit there ("import sys" alone above "(续下页)" opened chapter 1), and an output's label
    never ends a page: it goes over with the output ("Output on CPU:" ended page 37 of the
    English edition, its output on page 38). A box (an update note, a quiz's answer) starts
    there only if its title and first lines fit. Where such a block follows a heading, the
    room is asked for before the heading, which goes over with it ("The overall pipeline"
    ended page 5 of the English edition, its text on page 6)."""
    depths = section_depths(doctree)
    for block in list(doctree.findall(nodes.literal_block)):
        parent = block.parent
        place = parent.index(block)
        label = parent[place - 1] if place else None
        # How many lines it has, for the page break inside it (jaxbook.sty's \jbcodelines).
        lines = rf"\jbcodelines{{{code_lines(block)}}}"
        parent.insert(place, nodes.raw("", lines, format="latex"))
        if isinstance(label, nodes.paragraph) and OUTPUT_LABELS & set(label["classes"]):
            # Room for the label and the block's first lines; nothing between them.
            need_room(label, block_room(block, label), depths)
            parent.insert(parent.index(label) + 1, nodes.raw("", KEEP_WITH_NEXT, format="latex"))
        elif isinstance(label, nodes.paragraph) and label.astext().rstrip().endswith(LEAD_IN):
            # A lead-in ("本节用到的导入：", "The code below prints:") stays with its code:
            # room for its lines and the block's first lines before it. Not with a block in a
            # box that takes most of a page, which cannot break there: the box would go over
            # whole from a page left short (the ✅ box of "运行 NumPy 对照代码" left page 66
            # of the Chinese edition a third full); the box breaks above the block instead.
            need_room(label, block_room(block, label), depths)
            boxed = any(isinstance(a, (nodes.Admonition, pair_half)) for a in ancestors(block))
            if not boxed or block.astext().count("\n") + 1 < BOX_LINES - NEED_BLOCK:
                keep = nodes.raw("", KEEP_WITH_NEXT, format="latex")
                parent.insert(parent.index(label) + 1, keep)
        else:
            need_room(block, block_room(block, None), depths)
    boxes = [node for node in doctree.findall(nodes.Element) if isinstance(node, nodes.Admonition)]
    for box in boxes:
        if not any(isinstance(a, (nodes.Admonition, nodes.table)) for a in ancestors(box)):
            need_room(box, NEED_BLOCK, depths)
    # A pair's title (a bold line) stays with its first box, and that box's title with its
    # first lines ("显式指定 float64" ended page 16 of the Chinese edition, its ❌ box on page
    # 17): the room for all three is asked for before the title, and no page breaks after it;
    # its second box asks for room of its own.
    for twin in list(doctree.findall(pair)):
        if any(isinstance(a, (nodes.Admonition, nodes.table)) for a in ancestors(twin)):
            continue
        need_room(twin, NEED_PAIR, depths)
        halves = [child for child in twin.children if isinstance(child, pair_half)]
        if halves and twin.index(halves[0]) == 1:
            twin.insert(1, nodes.raw("", KEEP_WITH_NEXT, format="latex"))
        for half in halves[1:]:
            need_room(half, box_room(half), depths)
    # A table that may break over pages starts at a page's foot only if its header and first
    # rows fit there: the chapter's contents broke after its first row at the foot of page 2
    # of the English edition. (Over its rubric too: need_room.)
    for table in list(doctree.findall(nodes.table)):
        inside = any(isinstance(a, (nodes.Admonition, nodes.table)) for a in ancestors(table))
        if "longtable" in table["classes"] and not inside:
            need_room(table, NEED_TABLE, depths)
    # A heading starts at a page's foot only with room for the first lines of its text too,
    # through a short paragraph to the heading under it: the quiz's title ended page 105 of
    # the Chinese edition with the two lines that introduce it, "问题 1" on the next page.
    # LaTeX kept a heading with as little as one line. A section that opens its parent's text
    # has its room asked for with its parent's.
    for section in list(doctree.findall(nodes.section)):
        parent = section.parent
        if depths.get(id(section), 0) < 3 or (
            isinstance(parent, nodes.section)
            and depths.get(id(parent), 0) >= 3
            and all(isinstance(c, UNSEEN) for c in parent.children[: parent.index(section)])
        ):
            continue
        need_room(section, heading_room(section), depths)


def box_room(box: nodes.Element) -> int:
    """The lines a pair's second box needs at the foot of a page: where a code block follows
    its lead-in, the lead-in and the whole block, which LaTeX sets in the box unbroken, in its
    frame; with less room the box breaks above the block (jaxbook.sty), and its title and
    lead-in stood alone at the page's foot. Not more than ``BOX_LINES``: a box whose block
    is longer breaks above it where it must, rather than leave the page before it short
    (a ❌ box of 11 lines, then white, on page 66 of the Chinese edition, its ✅ box's 24
    lines of code on the next). Else its title and first lines."""
    room = 2
    for child in box.children[:5]:
        if isinstance(child, UNSEEN):
            continue
        if isinstance(child, nodes.paragraph):
            room += 1 + len(child.astext()) // 40
        elif isinstance(child, nodes.literal_block) or (
            isinstance(child, nodes.container) and child.get("literal_block")
        ):
            block = next(child.findall(nodes.literal_block))
            return min(room + 2 + block.astext().count("\n") + 1, BOX_LINES)
    return NEED_BLOCK


# What \needspace may ask for at most: a box longer than a page breaks wherever it must.
PAGE_LINES = 30
# What a pair's second box may ask for: two thirds of a page.
BOX_LINES = 24


# A paragraph ending so introduces the code block after it.
LEAD_IN = ("：", ":")
# After an output's label or a lead-in: no page break before the block (jaxbook.sty).
KEEP_WITH_NEXT = r"\jbkeepwithnext"


# The lines a code block (or a box) needs at the foot of a page, and a labelled output (the
# label's line more); and the lines a heading takes, with the space around it.
NEED_BLOCK = 5
NEED_LABELLED = 7
# A pair's title, its first box's title, and that box's first lines.
NEED_PAIR = 8
# A table's header and its first rows.
NEED_TABLE = 8
HEADING_LINES = 3
# The lines of text a heading needs under it at the foot of a page.
TEXT_UNDER_HEADING = 4
# A line of text, in half the width of a Chinese character: 40 characters of the Chinese
# edition's line; a Latin letter (with its share of the spaces) is a little narrower than
# half of one, some 85 to the English edition's line.
LINE_WIDTHS = 80
LATIN_WIDTH = 0.9
# What stands between a heading and the text under it without a line of its own: labels,
# index entries, comments, and the LaTeX this module adds.
UNSEEN = (nodes.title, nodes.target, addnodes.index, nodes.comment, nodes.raw)


def section_depths(doctree: nodes.Node) -> dict[int, int]:
    """How deep each section of the book lies (by ``id``): 1 for the root page's (the book's
    title, never printed), 2 for a chapter's, 3 for a section's. Counted from the top: in the
    book's tree, a page's nodes still name their own page's document as their parent."""
    depths: dict[int, int] = {}

    def walk(node: nodes.Node, depth: int) -> None:
        for child in node.children if isinstance(node, nodes.Element) else ():
            if isinstance(child, nodes.section):
                depths[id(child)] = depth + 1
                walk(child, depth + 1)
            else:
                walk(child, depth)

    walk(doctree, 0)
    return depths


def text_lines(text: str) -> int:
    """About how many lines ``text`` takes, a wide (Chinese) character as two halves."""
    widths = sum(2 if unicodedata.east_asian_width(c) in "WF" else LATIN_WIDTH for c in text)
    return max(1, math.ceil(widths / LINE_WIDTHS))


def heading_room(section: nodes.section) -> int:
    """The lines a section's heading needs at the foot of a page: its own and the first
    ``TEXT_UNDER_HEADING`` lines of text under it; where a short paragraph is followed by
    another heading, that heading's too, and where text is followed by a block (code, a box,
    a pair, a table), the room the block asks for at a page's foot (from its lead-in or its
    label, if it has one). The lines are counted roughly: a box and a lead-in are given one
    more, and a heading ``HEADING_LINES``."""
    headings, text, block, notes = 0, 0, 0, 0
    last: nodes.Node | None = None

    def count(section: nodes.section) -> None:
        nonlocal headings, text, block, last, notes
        headings += 1
        for child in section.children:
            if block or text >= TEXT_UNDER_HEADING:
                return
            if isinstance(child, nodes.section):
                count(child)
            elif isinstance(child, nodes.paragraph):
                # A link's address is a footnote at the page's foot: two lines of the room,
                # apart from the text's.
                footnotes = list(child.findall(nodes.footnote))
                notes += 2 * len(footnotes)
                words = child.astext()
                for footnote in footnotes:
                    words = words.replace(footnote.astext(), "")
                text += text_lines(words)
                last = child
            elif not isinstance(child, UNSEEN):
                block = block_room(child, last)
                if last is not None and block != block_room(child, None):
                    # The label's or lead-in's lines are the block's, and a line more: with
                    # the space above its block, the lead-in of the quiz's imports took more
                    # than its lines.
                    text -= text_lines(last.astext()) - 1
                elif isinstance(child, (nodes.Admonition, pair)):
                    block += 1  # a box's frame and title take more than their lines

    count(section)
    room = headings * HEADING_LINES + (text + block if block else min(text, TEXT_UNDER_HEADING))
    room += notes
    return min(room, PAGE_LINES)


def code_lines(block: nodes.Element) -> int:
    """About how many lines a code block or output takes on paper: each of its lines, and a
    line too long for the page as the lines it wraps to (``CODE_LINE_WIDTH``, a wide Chinese
    character as two)."""
    return sum(
        max(
            1,
            math.ceil(
                sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
                / CODE_LINE_WIDTH
            ),
        )
        for line in block.astext().split("\n")
    )


# The characters of a line of code that fit the page (86 in the English edition's, 92 in
# the Chinese's); a long line wraps at a space, so a little fewer.
CODE_LINE_WIDTH = 80


# A code block or output of at most this many lines is never broken over a page, and a
# longer one keeps at least ``CODE_LINES_APART`` lines on each side of the break (jaxbook.sty).
WHOLE_CODE = 12
CODE_LINES_APART = 3


def block_room(block: nodes.Node, before: nodes.Node | None) -> int:
    """The lines ``block`` asks for at the foot of a page (``keep_code_together``), with the
    paragraph ``before`` it where that is its label or lead-in. A code block that is never
    broken (``WHOLE_CODE`` lines or fewer) asks for its lines and frame; a longer one for its
    first ``CODE_LINES_APART`` lines and frame, as a block of five."""
    if isinstance(block, nodes.literal_block):
        lines = code_lines(block)
        own = lines + 2 if lines <= WHOLE_CODE else NEED_BLOCK
        if isinstance(before, nodes.paragraph) and OUTPUT_LABELS & set(before["classes"]):
            return max(NEED_LABELLED, own + 1)
        if isinstance(before, nodes.paragraph) and before.astext().rstrip().endswith(LEAD_IN):
            # A short block asks for no more than its own lines and frame: room for five
            # lines under the lead-in of a two-line block left page 5 of the English edition
            # a third empty ("The overall pipeline" went over with its lead-in and block).
            return own + 2 + len(before.astext()) // 60
        return own
    if isinstance(block, pair):
        return NEED_PAIR
    if isinstance(block, nodes.table) and "longtable" in block["classes"]:
        return NEED_TABLE
    return NEED_BLOCK


def need_room(node: nodes.Element, lines: int, depths: dict[int, int]) -> None:
    """A page break before ``node`` if fewer than ``lines`` lines are left on the page
    (``\\needspace``, as jaxbook.sty sets it). Right after a heading the room is asked for
    before the heading, for the heading's lines too: a break between them would leave the
    heading alone at the foot of its page. A rubric ("本章内容", a heading outside the
    sections) counts as one. Not before a chapter's heading, which starts a page of its
    own."""
    while True:
        parent = node.parent
        assert parent is not None
        before = parent.children[: parent.index(node)]
        seen = [child for child in before if not isinstance(child, UNSEEN)]
        if seen and isinstance(seen[-1], nodes.rubric):
            node, lines = seen[-1], lines + HEADING_LINES
            continue
        section = node.parent
        if not isinstance(section, nodes.section) or depths.get(id(section), 0) < 3:
            break
        before = section.children[: section.index(node)]
        if not all(isinstance(child, UNSEEN) for child in before):
            break
        node, lines = section, lines + HEADING_LINES
    need = nodes.raw("", rf"\needspace{{{lines}\baselineskip}}", format="latex")
    assert node.parent is not None
    node.parent.insert(node.parent.index(node), need)


# Before a dot between two letters of a name: where a name in a link's text may break.
NAME_DOT = re.compile(r"(?<=[A-Za-z_])(?=\.[A-Za-z_])")


def break_names_in_links(doctree: nodes.Node) -> None:
    """A dotted name in a link's text ("1.5 jax.random.key 与 jax.random.PRNGKey") may break
    before a dot, as inline code does ("jax.random" / ".PRNGKey"): whole, it ran
    out of its table column, and in Chinese prose it left the line before it spread. A long
    CamelCase name in inline code, which has no dot or underscore to break at, may break
    before a hump ("Concretization" / "TypeError") for the same reason."""
    for reference in doctree.findall(nodes.reference):
        for text in list(reference.findall(nodes.Text)):
            if any(isinstance(a, nodes.literal) for a in ancestors(text)):
                continue  # inline code breaks at its dots already
            _breakable(text, NAME_DOT)
    for literal in doctree.findall(nodes.literal):
        for text in list(literal.findall(nodes.Text)):
            for word in re.findall(r"[A-Za-z]{16,}", str(text)):
                if re.search(r"[a-z][A-Z]", word):
                    _breakable(text, CAMEL_HUMP)
                    break


# Where a line may end before inline code: after a space, a Chinese character, or a Chinese
# mark that may end a line.
BEFORE_RAGGED = re.compile(r"[\s\u3400-\u9fff，、：；。！？）》”]$")
# The brackets and quotes that open on inline code: a line may end before them.
OPENING_BEFORE_CODE = re.compile(r"[（“《‘(\[]+$")


def ragged_before_code(doctree: nodes.document) -> None:
    """``\\jbraggedbreak`` before inline code in running text, and before a glossary term's
    first use, where a line may end there: a line that cannot be set well (inline code breaks
    only before a dot or an underscore, and a term's words are never hyphenated) ends short
    there rather than spread (jaxbook.sty). Not in a title, which goes into the PDF's
    bookmarks, and is set ragged anyway, nor in a link's text."""
    terms = [
        reference
        for reference in doctree.findall(nodes.reference)
        if any("jb-term" in child.get("classes", []) for child in reference.findall(nodes.inline))
    ]
    for literal in [*doctree.findall(nodes.literal), *terms]:
        parent = literal.parent
        if parent is None or any(
            isinstance(a, (nodes.title, nodes.caption, nodes.reference)) for a in ancestors(literal)
        ):
            continue
        at = parent.index(literal)
        before = parent[at - 1] if at else None
        if not isinstance(before, nodes.Text):
            continue
        text = str(before)
        # Before the brackets or quotes that open on the code: "（" / "jnp.array(0.0)" may
        # not part, but the line may end before "（".
        opening = OPENING_BEFORE_CODE.search(text)
        head = text[: opening.start()] if opening else text
        if not BEFORE_RAGGED.search(head):
            continue
        ragged = nodes.raw("", r"\jbraggedbreak{}", format="latex")
        if opening:
            parent[at - 1] = nodes.Text(head)
            parent.insert(at, [ragged, nodes.Text(opening.group(0))])
        else:
            parent.insert(at, ragged)


# Where a CamelCase name may break: before a capital that follows a lower-case letter.
CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _breakable(text: nodes.Text, places: re.Pattern[str]) -> None:
    pieces = places.split(str(text))
    if len(pieces) > 1:
        breakable: list[nodes.Node] = [nodes.Text(pieces[0])]
        for piece in pieces[1:]:
            breakable += [nodes.raw("", r"\jbbreak{}", format="latex"), nodes.Text(piece)]
        assert text.parent is not None
        text.parent.replace(text, breakable)


def write_glyphs(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``jaxbook-glyphs.sty``: how the PDF sets each character of the book that its fonts
    lack. An emoji is its picture, drawn here; an arrow or a mathematical sign comes from
    the symbol font where the font in use lacks it."""
    if app.builder.name != "latex":
        return
    used = sorted(set(doctree.astext()))
    lines = [rf"\ProvidesPackage{{{GLYPHS_STYLE}}}", r"\RequirePackage{newunicodechar}"]
    for character in used:
        code = ord(character)
        if _artwork.drawn_as_picture(character):
            picture = f"emoji-{code:x}.png"
            _artwork.draw_emoji(character, Path(app.outdir, picture))
            lines.append(rf"\newunicodechar{{{character}}}{{\jbemoji{{{picture}}}}}")
        elif MATH_SYMBOLS[0] <= code <= MATH_SYMBOLS[1]:
            lines.append(rf'\newunicodechar{{{character}}}{{\jbglyph{{"{code:04X}}}}}')
    Path(app.outdir, f"{GLYPHS_STYLE}.sty").write_text("\n".join(lines) + "\n", encoding="utf-8")


def plain_bookmarks(doctree: nodes.Node) -> None:
    """A heading's emoji is its picture on the page, in the contents and in the running head,
    but not in the PDF's bookmarks, which are plain text: "补充：查看 jaxpr", not "🔍 补充：
    查看 jaxpr" (``\\texorpdfstring`` with nothing for the bookmark, the space after the
    emoji included)."""
    for title in list(doctree.findall(nodes.title)):
        if not isinstance(title.parent, nodes.section):
            continue
        for text in list(title.findall(nodes.Text)):
            pieces = _artwork.EMOJI_RUN.split(str(text))
            if len(pieces) == 1 or not any(_artwork.drawn_as_picture(c) for c in str(text)):
                continue
            plain: list[nodes.Node] = []
            for at, piece in enumerate(pieces):
                if at % 2 and any(_artwork.drawn_as_picture(c) for c in piece):
                    latex = rf"\texorpdfstring{{{tex(piece)}}}{{}}"
                    plain.append(nodes.raw("", latex, format="latex"))
                elif piece:
                    plain.append(nodes.Text(piece))
            assert text.parent is not None
            text.parent.replace(text, plain)


class PaperLayout(SphinxPostTransform):
    """The PDF's rewrites of the resolved book, in this order: each cross-reference's page,
    table cells that align, names that break in links, code and boxes kept together at a
    page's foot, footnote marks after closing quotes, lines that may end short before inline
    code, then headings' bookmarks without emoji. After every other post-transform
    that changes what the PDF shows (the outputs' labels, the measured outputs and the
    figures, at 920 and below; the notes' tables, 520; LaTeX's own, 750 and below), and
    after the references are resolved (10), the notes' among them."""

    builders = ("latex",)
    default_priority = 950

    def run(self, **kwargs: Any) -> None:
        add_page_references(self.document, self.config.language)
        fit_table_cells(self.document)
        break_names_in_links(self.document)
        keep_code_together(self.document)
        marks_after_quotes(self.document, self.config.language)
        ragged_before_code(self.document)
        plain_bookmarks(self.document)


QUESTION = "jb-question"  # a quiz question's section (docs/ch01/quiz.rst)


class LabelDropdowns(SphinxPostTransform):
    """Off the website a dropdown cannot fold: show its title as a label above its content.

    A quiz's answers (a dropdown in a question's section, ``jb-question``) go after its last
    question instead, in a section of their own ("Answers and explanations"), each titled
    with its question's number, which links to the question; where each answer was, its
    question links to it. On paper an answer right under its question is read before the
    question is answered.

    Runs before sphinx-design turns dropdowns into HTML ``<details>`` (whose
    icons an EPUB may not hold there).
    """

    default_priority = 150
    # The editions; not the site, nor the gettext builder, which must see the dropdown
    # as the page has it, title included.
    builders = ("latex", "epub")

    def run(self, **kwargs: Any) -> None:
        # A quiz's answers (by the section that holds its questions), for a section of
        # their own after its last question.
        answers: dict[int, list[nodes.Element]] = {}
        for node in list(self.document.findall(nodes.container)):
            if node.get("design_component") != "dropdown":
                continue
            title = next(iter(node.findall(nodes.rubric)), None)
            # Translators: The title of a quiz question's answer in the books, where the page's
            # dropdown has no title of its own.
            label = title.astext() if title is not None else _("Answer")
            box = nodes.admonition(classes=["jb-answer", "hint"])
            box += nodes.title("", label)
            # Moved, not copied: a copy would lose what Sphinx keeps on the node (its uid).
            for child in list(node.children):
                node.remove(child)
                if child is not title:
                    box += child
            question = node.parent
            if isinstance(question, nodes.section) and QUESTION in question["classes"]:
                answers.setdefault(id(question.parent), []).extend(
                    self.answer_apart(question, node, box, label)
                )
            else:
                node.replace_self(box)
        for quiz in list(self.document.findall(nodes.section)):
            if id(quiz) not in answers:
                continue
            questions = [c for c in quiz.children if isinstance(c, nodes.section)]
            last = [c for c in questions if QUESTION in c["classes"]][-1]
            section = nodes.section(ids=[nodes.make_id(f"jb-quiz-answers-{quiz['ids'][0]}")])
            # Translators: In the books, the heading of the section after a quiz's last question
            # that holds the answers to its questions.
            section += nodes.title("", _("Answers and explanations"))
            section.extend(answers[id(quiz)])
            quiz.insert(quiz.index(last) + 1, section)

    def answer_apart(
        self, question: nodes.section, dropdown: nodes.Element, box: nodes.Element, label: str
    ) -> list[nodes.Element]:
        """The answer ``box`` of ``question``, titled with the question's number linked to the
        question, with a target in it; where the dropdown was, a link to that target."""
        anchor = nodes.make_id(f"jb-answer-{question['ids'][0]}")
        number = section_title(question).astext()
        box[0] = nodes.title("", "", nodes.reference("", number, refid=question["ids"][0]))
        # Translators: In the books, under a quiz's question, where the answer is: "%s" is the
        # link to it, named as the section that holds the answers ("Answers and explanations").
        before, _sep, after = str(_("See “%s” at the end of the quiz.")).partition("%s")
        link = nodes.paragraph(classes=["jb-answer-link"])
        link += [
            nodes.Text(before),
            nodes.reference("", str(_("Answers and explanations")), refid=anchor),
            nodes.Text(after),
        ]
        dropdown.replace_self(link)
        # In the box, after its title: before it, a page break could part them.
        box.insert(1, nodes.target("", "", ids=[anchor]))
        return [box]


def visit_badge_latex(self: Any, node: nodes.Element) -> None:
    self.body.append(r"\jbbadge{")


def depart_badge_latex(self: Any, node: nodes.Element) -> None:
    self.body.append("}")


# -- The EPUB ---------------------------------------------------------------------------


def identifier(config: Config) -> str:
    """The EPUB's ``dc:identifier``: a name-based UUID (version 5) of the book's address,
    the language and the edition. A rebuild keeps it, so that a reader's library sees the
    same book; a translation or a new edition is another book."""
    book = (config.jaxbook_book_url or f"jaxbook:{config.jaxbook_editions_basename}").rstrip("/")
    name = f"{book}/{config.language}/edition-{config.jaxbook_edition}"
    return f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, name)}"


def configure_epub(config: Config, credits: Credits) -> None:
    name = edition_name(config)
    set_default(config, "epub_basename", name)
    set_default(config, "epub_title", credits.title)
    set_default(config, "epub_author", credits.authors)
    set_default(config, "epub_publisher", credits.publisher)
    # Sphinx asks for a contributor; the package names a translation's translators (with
    # the trl role) and no one else, so the source's is its authors, not written twice.
    set_default(config, "epub_contributor", credits.translators or credits.authors)
    # dc:rights, which a reader's library shows: the project's text and what is the course's.
    epub_copyright = str(
        _(
            "© %(copyright)s. The book's own text and its translations are licensed under "
            "CC BY 4.0, and the code of the tools that build the book under the MIT License; "
            "the course's content belongs to %(author)s."
        )
    ) % {"copyright": credits.copyright, "author": "ApX Machine Learning"}
    set_default(config, "epub_copyright", epub_copyright)
    set_default(config, "epub_language", project.bcp47(config.language))
    set_default(config, "epub_show_urls", "no")
    # The chapters list their sections in a hidden toctree (each chapter page has its own
    # table of contents); the e-reader's contents must list them.
    set_default(config, "epub_tocscope", "includehidden")
    set_default(config, "epub_description", description())
    set_default(config, "epub_identifier", identifier(config))
    # The identifier's XML id (the package's unique-identifier); the NCX's dtb:uid is the
    # identifier itself (templates/epub3/toc.ncx.jinja), as EPUBCheck holds it.
    set_default(config, "epub_uid", "bookid")
    set_default(config, "epub_cover", (COVER, "jaxbook-epub-cover.html"))
    # The copyright page, after the cover, as the PDF has it on the title page's back.
    # Translators: The EPUB's copyright page, as a reader's table of contents names it.
    set_default(config, "epub_pre_files", [(COPYRIGHT_PAGE, str(_("Copyright")))])
    config.epub_exclude_files = [
        *config.epub_exclude_files,
        *(f"_static/{name}" for name in sorted(WEB_ONLY_FILES)),
        # Sphinx 9 keeps the last build's .buildinfo beside it when the config changed; its
        # EPUB builder ignores .buildinfo only, and warned of an unknown file (which -W made
        # fatal) at the first `make epub` after an edit of conf.py.
        ".buildinfo.bak",
    ]
    # The reader's "contents" landmark opens the contents, not the front page.
    # Translators: The EPUB's contents page, as a reader's menu names it.
    set_default(config, "epub_guide", (("toc", "nav.xhtml", str(_("Table of Contents"))),))
    set_default(config, "epub_css_files", [*config.html_css_files, EPUB_STYLE.name])


COPYRIGHT_PAGE = "copyright.xhtml"
# What the website's pages use and an EPUB's do not: the copy button's stylesheet and
# icons, the site's icon, and the pictures of the index's collapsible groups.
WEB_ONLY_FILES = {
    "copybutton.css",
    "copy-button.svg",
    "check-solid.svg",
    "favicon.svg",
    "plus.png",
    "minus.png",
}


def copyright_page(credits: Credits, language: str) -> str:
    """The EPUB's copyright page: what the PDF's says, as XHTML."""
    lines = [
        f"<p><strong>{html.escape(credits.title)}</strong><br/>{html.escape(credits.subtitle)}</p>",
        "<p>" + "<br/>".join(html.escape(line) for line in credits.makers() if line) + "</p>",
        f"<p>{html.escape(credits.edition_line())}<br/>{html.escape(credits.release_line())}</p>"
        if credits.release
        else f"<p>{html.escape(credits.edition_line())}</p>",
        f"<p>© {html.escape(credits.copyright)}</p>",
        *([f'<p class="jb-credit">{credits.credit}</p>'] if credits.credit else []),
        "<p>"
        + "<br/>".join(
            html.escape(str(_("%(name)s: %(url)s")) % {"name": name, "url": "\0"}).replace(
                "\0", f'<a href="{html.escape(url)}">{html.escape(url)}</a>'
            )
            for name, url in credits.addresses()
        )
        + "</p>",
    ]
    lang = html.escape(project.bcp47(language))
    return "\n".join(
        [
            '<?xml version="1.0" encoding="utf-8"?>',
            "<!DOCTYPE html>",
            '<html xmlns="http://www.w3.org/1999/xhtml" '
            f'xmlns:epub="http://www.idpf.org/2007/ops" lang="{lang}" xml:lang="{lang}">',
            f'<head><meta charset="utf-8"/><title>{html.escape(str(_("Copyright")))}</title>',
            f'<link rel="stylesheet" href="_static/{EPUB_STYLE.name}" type="text/css"/></head>',
            '<body><section epub:type="copyright-page" class="jb-copyright">',
            *lines,
            "</section></body></html>",
            "",
        ]
    )


class BookEpubBuilder(Epub3Builder):
    """Sphinx's EPUB 3 builder, with the book's cover, metadata, navigation and language.

    Its package and navigation documents come from ``templates/epub3`` (Sphinx's, with the
    metadata, the manifest's properties and the landmarks added); the other files of the
    container from Sphinx's own templates.
    """

    # Sphinx types it as its private path class; any Path serves (it is only joined).
    template_dir = EPUB_TEMPLATES  # type: ignore[assignment]

    def init(self) -> None:
        super().init()
        self.guide_titles = {
            **self.guide_titles,
            "toc": str(_("Table of Contents")),
            # Translators: The EPUB's cover, as a reader's menu of landmarks names it.
            "cover": str(_("Cover")),
        }
        self.math_pages: set[str] = set()
        # Each page says its language, as the package does: a reader picks the glyphs and
        # line breaking of Chinese from it (zh-CN's, not Japanese or traditional forms).
        language = html.escape(self.config.epub_language)
        self.html_tag = (
            '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"'
            f' lang="{language}" xml:lang="{language}">'
        )

    def toc_add_files(self, refnodes: list[dict[str, Any]]) -> None:
        super().toc_add_files(refnodes)
        # The root page is the preface, as the PDF's contents name it, not the book's title.
        root = html.escape(self.config.root_doc + self.out_suffix)
        for node in refnodes:
            if node["refuri"] == root:
                node["text"] = html.escape(preface_name())
            # Words, as the PDF's bookmarks are (plain_bookmarks): "补充：查看 jaxpr", not
            # "🔍 补充：查看 jaxpr".
            node["text"] = _artwork.without_emoji(node["text"])

    def get_refnodes(
        self, doctree: nodes.Node, result: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        # A numbered page's entry with its number, as its title and the website's sidebar
        # show it: "1.5 使用 JAX 数组" (numbering.number_sections_in_chapter).
        number = doctree.get("secnumber") if isinstance(doctree, nodes.reference) else None
        if not number:
            return super().get_refnodes(doctree, result)
        prefix = ".".join(map(str, number)) + self.config.html_secnumber_suffix
        found = super().get_refnodes(doctree, [])
        return [*result, *({**entry, "text": prefix + entry["text"]} for entry in found)]

    def write_documents(self, docnames: Set[str]) -> None:
        # The reader's book: the pages its contents reach, no orphan page.
        super().write_documents(set(docnames) & set(_chapters.book_order(self.env)))

    def write_doc_serialized(self, docname: str, doctree: nodes.document) -> None:
        super().write_doc_serialized(docname, doctree)
        # EPUB 3 wants each page with MathML flagged in the package (jaxbook.sphinxext.mathml
        # writes every formula as MathML).
        if next(doctree.findall(lambda n: isinstance(n, (nodes.math, nodes.math_block))), None):
            self.math_pages.add(docname + self.out_suffix)

    def add_css_file(self, filename: str, **kwargs: Any) -> None:
        # A book has no copy button: its stylesheet stays the website's.
        if Path(filename).name not in WEB_ONLY_FILES:
            super().add_css_file(filename, **kwargs)

    def copy_static_files(self) -> None:
        super().copy_static_files()
        copy_asset_file(EPUB_STYLE, self._static_dir, force=True)
        credits = credits_of(self.config)
        Path(self.outdir, COPYRIGHT_PAGE).write_text(
            copyright_page(credits, self.config.language), encoding="utf-8"
        )
        # In the edition's script: Noto Sans CJK would set an English title's apostrophe
        # full width.
        is_cjk = cjk_region(self.config.language) is not None
        family = cjk_family(self.config.language, "Sans") if is_cjk else "Noto Sans"
        written, translated, _published = credits.makers()
        _artwork.draw_cover(
            Path(self.outdir, COVER),
            family,
            [
                ("title", credits.title),
                ("edition", credits.subtitle),
                ("authors", written),
                ("translators", translated),
                # The imprint: the name on its own.
                ("publisher", credits.publisher),
            ],
        )

    def content_metadata(self) -> dict[str, Any]:
        metadata = super().content_metadata()
        credits = credits_of(self.config)
        # Sphinx's is the release (here the JAX release the book runs on); a reader's
        # library compares the book's own versions: the edition's number.
        metadata["version"] = str(credits.edition)
        metadata["translators"] = html.escape(credits.translators)
        # What the edition holds and the JAX series, as under the title on the cover: a
        # reader's library shows the scope beside the title.
        metadata["subtitle"] = html.escape(credits.subtitle)
        images = any(self.images) or bool(self.config.epub_cover)
        metadata["access_modes"] = ["textual", "visual"] if images else ["textual"]
        metadata["accessibility_features"] = [
            "structuralNavigation",
            "tableOfContents",
            "readingOrder",
            *(["index"] if self.use_index else []),
            *(["alternativeText"] if images else []),
            *(["MathML"] if self.math_pages else []),
        ]
        metadata["accessibility_summary"] = html.escape(
            str(
                _(
                    "The text, code and outputs are text; each figure has a text alternative "
                    "and each formula is MathML. Headings, the contents, landmarks and the "
                    "index lead through the book, read in the order it is printed."
                )
            )
        )
        metadata["properties"] = {
            **{quote(page): "mathml" for page in self.math_pages},
            quote(COVER): "cover-image",
        }
        return metadata

    def toc_metadata(self, level: int, navpoints: list[Any]) -> dict[str, Any]:
        # The NCX's dtb:uid is the identifier itself (templates/epub3/toc.ncx.jinja).
        return {
            **super().toc_metadata(level, navpoints),
            "id": html.escape(self.config.epub_identifier),
        }

    def build_navlist(self, navnodes: list[dict[str, Any]]) -> list[Any]:
        return super().build_navlist([*navnodes, *self.index_entry()])

    def build_navpoints(self, nodes: list[dict[str, Any]]) -> list[Any]:
        return super().build_navpoints([*nodes, *self.index_entry()])

    def index_entry(self) -> list[dict[str, Any]]:
        """The index, last in the e-reader's contents, as a printed book's contents list it."""
        if not self.use_index:
            return []
        return [{"level": 1, "refuri": "genindex.xhtml", "text": html.escape(sphinx_("Index"))}]

    def navigation_doc_metadata(self, navlist: list[Any]) -> dict[str, Any]:
        metadata = super().navigation_doc_metadata(navlist)
        marks = [("cover", self.coverpage_name, self.guide_titles["cover"])]
        marks.append(("toc", "nav.xhtml#toc", self.guide_titles["toc"]))
        # The body begins with the first chapter: after the front matter (the copyright page,
        # the preface).
        root = html.escape(self.config.root_doc + self.out_suffix)
        tops = [node for node in self.refnodes if node["level"] == 1]
        uris = [node["refuri"] for node in tops]
        chapters = tops[uris.index(root) + 1 :] if root in uris else []
        if chapters:
            marks.append(("bodymatter", chapters[0]["refuri"], chapters[0]["text"]))
        glossary = next(
            (
                name
                for name in _chapters.book_order(self.env)
                if next(self.env.get_doctree(name).findall(addnodes.glossary), None)
            ),
            None,
        )
        if glossary:
            title = self.env.titles[glossary].astext()
            marks.append(("glossary", glossary + self.out_suffix, html.escape(title)))
        if self.use_index:
            marks.append(("index", "genindex.xhtml", html.escape(sphinx_("Index"))))
        metadata["landmarks"] = [
            {"type": kind, "href": href, "title": title} for kind, href, title in marks
        ]
        # Translators: The title of the EPUB's list of landmarks (cover, contents, index) that a
        # reader's menu shows.
        metadata["landmarks_title"] = html.escape(str(_("Landmarks")))
        return metadata


class NameThePreface(SphinxPostTransform):
    """In the EPUB and on the website the root page's heading names the preface, as their
    contents and links do (the title is the cover's, and the website's sidebar's); the PDF
    sets its own heading (``\\jbprefacename``)."""

    builders = ("epub", "html")
    default_priority = 950

    def run(self, **kwargs: Any) -> None:
        if self.env.current_document.docname != self.config.root_doc:
            return
        if "jaxbook_book_root" in self.config:  # the guides' (jaxbook.sphinxext.guides): no preface
            return
        section = next(iter(self.document.findall(nodes.section)), None)
        if section is not None and isinstance(section[0], nodes.title):
            section[0] = nodes.title("", preface_name())


def preface_in_links(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """A page's links to the root page name the preface, as the books' contents do: the
    website's "previous" link, the EPUB's root page's own title."""
    if app.builder.name not in ("html", "epub"):
        return
    root = app.config.root_doc
    if app.builder.name == "epub" and pagename == root:
        context["title"] = html.escape(preface_name())
    # The browser's title as every other page has it, "前言 - JAX 入门" (furo gives the root
    # page the book's title alone, over a heading that says 前言); the link previews keep the
    # book's title (context["title"]). The guides' root is no preface.
    book = "jaxbook.sphinxext.guides" not in app.extensions
    if app.builder.name == "html" and pagename == root and context.get("docstitle") and book:
        context["jaxbook_page_title"] = preface_name()
    for key in ("prev", "next"):
        link = context.get(key)
        if link and link.get("link") == context["pathto"](root):
            context[key] = {**link, "title": html.escape(preface_name())}


# -- The website ------------------------------------------------------------------------


def add_site_links(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """On the website: the PDF and EPUB the site holds, and the edition statement."""
    if app.builder.name != "html":
        return
    name = edition_name(app.config)
    labels = {
        # Translators: A link in the website's sidebar, under "Download the book".
        "pdf": _("Book as PDF"),
        # Translators: A link in the website's sidebar, under "Download the book".
        "epub": _("Book as EPUB"),
    }
    types = {"pdf": "application/pdf", "epub": "application/epub+zip"}
    # Translators: The heading, in the website's sidebar, of the links to the book's PDF and EPUB.
    context["jaxbook_editions_label"] = _("Download the book")
    context["jaxbook_editions"] = [
        {"label": labels[fmt], "url": context["pathto"](f"{name}.{fmt}", 1), "type": types[fmt]}
        for fmt in app.config.jaxbook_editions_held
    ]
    credits = credits_of(app.config)
    # Under the copyright line, as the copyright pages of the PDF and the EPUB give it.
    context["jaxbook_edition_line"] = credits.edition_line()
    # Under the book's title in the sidebar, as under the title on the title page and cover.
    context["jaxbook_subtitle"] = credits.subtitle


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    app.setup_extension(book_texts.__name__)
    # The numbers of sections, figures, tables and listings, and the words of a reference to
    # one, are the web's and the PDF's alike.
    app.setup_extension(numbering.__name__)
    app.setup_extension("sphinx.builders.epub3")
    app.add_config_value("jaxbook_editions_basename", "jaxbook", "env", types=frozenset({str}))
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
    # sphinx-design writes a badge's text alone in LaTeX: "Optional For readers who…".
    app.setup_extension("sphinx_design")
    app.add_node(sd_badge, override=True, latex=(visit_badge_latex, depart_badge_latex))
    app.add_node(page_reference, latex=(visit_page_reference, None))
    # A handler: it writes a file into the builder's output, from every character of the
    # finished tree.
    app.connect("doctree-resolved", write_glyphs, priority=900)
    app.connect("html-page-context", add_site_links)
    app.connect("html-page-context", preface_in_links)
    app.connect("write-started", write_cjk_faces)
    return {"version": "1.0", **PARALLEL_SAFE}
