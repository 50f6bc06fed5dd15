"""The PDF edition's settings: the ``latex_elements`` of Sphinx's LaTeX builder (xelatex +
xeCJK), on ``texinputs/jaxbook.sty``.

:func:`configure_latex` sets the edition's trim size, front matter, PDF metadata,
language, fonts and preamble; :func:`write_cjk_faces` and :func:`write_glyphs` write the
CJK faces and the glyphs the fonts lack. Changes to the resolved book are
:mod:`jaxbook.sphinxext.editions.layout`'s. Also here: :class:`OutputFrame`, a mixin of
:mod:`jaxbook.sphinxext.latex_translator`, and the LaTeX of sphinx-design's badges
(:func:`visit_badge`).
"""

from __future__ import annotations

import re
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel import Locale
from babel.core import get_global
from docutils import nodes
from sphinx.errors import ConfigError
from sphinx.locale import _ as sphinx_
from sphinx.util import logging, texescape

from jaxbook import project
from jaxbook.preflight import tex_language, unknown_language
from jaxbook.sphinxext import _artwork
from jaxbook.sphinxext._locale import _
from jaxbook.sphinxext._settings import set_default
from jaxbook.sphinxext.editions.credits import (
    Credits,
    edition_name,
    identifier,
    licences,
    linked_text,
    preface_name,
)
from jaxbook.sphinxext.fonts import (
    Face,
    cjk_family,
    cjk_region,
    find_face,
    font_cache,
    write_face,
)
from pagerun.pages import doctest_kind

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.config import Config
    from sphinx.writers.latex import LaTeXTranslator

logger = logging.getLogger(__name__)

# The printed book's design, in the extensions' directory above this package.
STYLE = Path(__file__).parents[1] / "texinputs" / "jaxbook.sty"
GLYPHS_STYLE = "jaxbook-glyphs"
# Arrows and mathematical signs (→, ≥): from this font where the text font lacks them.
MATH_SYMBOL_FONT = "Noto Sans Math"
# The maths font of the formulas' signs, operators and delimiters.
MATH_FONT = "DejaVu Math TeX Gyre"

MATH_SYMBOLS = (0x2190, 0x22FF)


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


def pdf_metadata(credits: Credits, language: str, book: str = "") -> str:
    """The PDF's document information and catalog, in the edition's language: its title,
    authors, subject (the EPUB's description), keywords and language, and a viewer shows the
    title rather than the file's name. The same in its XMP metadata (hyperxmp), which a
    library's or an archive's tools read rather than the information, with the publisher,
    the copyright, the address of the text's licence and the edition's identifier (``book``,
    the EPUB's ``urn:uuid:``), which a rebuild keeps. The information keeps its authors and
    keywords (``keeppdfinfo``), which hyperxmp leaves to the XMP alone."""
    document = book.removeprefix("urn:")
    _licence, licence_url = licences()[0]
    return "\n".join(
        [
            r"\usepackage{hyperxmp}",
            rf"\hypersetup{{pdftitle={{{pdf_string(credits.title)}}}, "
            rf"pdfauthor={{{pdf_string(credits.authors)}}}, "
            rf"pdfsubject={{{pdf_string(credits.description)}}}, "
            rf"pdfkeywords={{{pdf_string(credits.keywords)}}}, "
            rf"pdflang={{{pdf_language(language)}}}, pdfdisplaydoctitle=true, keeppdfinfo, "
            rf"pdfpublisher={{{pdf_string(credits.publisher)}}}, "
            rf"pdfcopyright={{© {pdf_string(credits.copyright)}}}, "
            rf"pdflicenseurl={{{licence_url}}}"
            + (rf", pdfdocumentid={{{document}}}" if document else "")
            + "}",
        ]
    )


def index_note() -> str:
    """What the index says under its heading of its bold page numbers (``!single`` entries:
    the main discussions), as a publisher's index does."""
    # Translators: In the PDF, under the index's heading.
    return str(_("Page numbers in bold mark the main discussion of an entry."))


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


# A CJK edition: its code blocks' continuation notes in full-width brackets, as Chinese
# text has them, its leading, the line before inline code free to end short, and the
# index's "see" and "see also" run into the term they point to ("见即时编译"), upright:
# makeidx puts a space between and sets the words in italics, which Chinese has neither of.
CJK_PREAMBLE = r"""
\renewcommand*\sphinxstylecodecontinued[1]{{\footnotesize（#1）}}
\renewcommand*\sphinxstylecodecontinues[1]{{\footnotesize（#1）}}
\linespread{1.3}
\def\jbraggedstretch{1fil}
\renewcommand*\see[2]{\seename#1}
\renewcommand*\seealso[2]{\alsoname#1}
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
            # Mathematics in the text's faces: its letters, Greek and digits in Noto Serif
            # (upright and italic), everything else (signs, large operators, delimiters) in
            # one maths font whose weight and proportions go with Noto Serif's, DejaVu Math
            # TeX Gyre. Computer Modern, LaTeX's default, stood beside Noto Serif's heavier,
            # wider letters; Noto Sans Math is no OpenType maths font to unicode-math.
            r"\usepackage{unicode-math}",
            rf"\setmathfont{{{MATH_FONT}}}",
            r"\setmathfont{Noto Serif}[range={up/{latin,Latin,greek,Greek,num}}]",
            r"\setmathfont{Noto Serif Italic}[range={it/{latin,Latin,greek,Greek}}]",
            # The emoji presentation selector after ⚠ has no glyph on paper.
            r"\usepackage{newunicodechar}",
            "\\newunicodechar{\ufe0f}{}",
            # English text: curly quotes, the middle dot ("Warning · Update note 3") and the
            # dashes belong to the Latin font, not the CJK one, and a range's en dash does not
            # end a line ("E1–" / "E4" in the English preface, in the CJK font).
            ""
            if is_cjk
            else r'\xeCJKDeclareCharClass{Default}{"2013 -> "2014, "2018 -> "201D, "00B7}',
        ]
    )


# The names the build may give in the edition's words (Sphinx's messages, the index's "see",
# no chapter name), which stay when polyglossia sets its captions (jaxbook.sty).
KEPT_NAMES = ("contentsname", "figurename", "tablename", "chaptername", "seename", "alsoname")


def multilingual(language: str) -> str:
    """polyglossia with ``language``'s TeX language as the main one, so that words
    hyphenate by its patterns (Spanish "sa-li-da", not "sal-ida"), and the names of
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
    """Set the PDF's ``latex_elements`` and ``latex_documents``; ``conf.py``'s own values win.

    The PDF is not tagged: tagging needs ``\\DocumentMetadata`` before ``\\documentclass``,
    where Sphinx's template has no place (short of copying it), and TeX Live 2022's XeLaTeX
    (LaTeX 2022-11-01, tagpdf 0.98a) stops at each longtable that breaks over a page
    ("Infinite glue shrinkage found in box being split"), tags paragraphs at most, and
    lacks the interword spaces a tagged PDF needs. So the PDF declares its language and
    information, and the EPUB is the accessible edition. Retry under LuaLaTeX with a LaTeX
    that tags tables and lists.
    """
    texescape.init()
    name = edition_name(config)
    is_cjk = cjk_region(config.language) is not None
    trim = TRIM["cjk" if is_cjk else "latin"]
    # The book's conf.py writes the LaTeX settings that do not depend on the language
    # (latex_engine, latex_docclass, latex_show_urls, latex_domain_indices, latex_use_xindy).
    if config.latex_engine != "xelatex":
        # conf.py's engine is kept, but the preamble below is xelatex's (xeCJK, fontspec).
        logger.warning(
            "latex_engine is %r: the editions' preamble is xelatex's",
            config.latex_engine,
            type="jaxbook",
            subtype="editions",
        )
    set_default(
        config,
        "latex_documents",
        [(config.root_doc, f"{name}.tex", credits.title, credits.authors, "manual", False)],
    )
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
        # unicode-math (in fontpkg) sets the symbols amssymb would.
        "amsmath": r"\usepackage{amsmath,amstext}",
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
                rf"\newcommand\jbindexnote{{{tex(index_note())}}}",
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


# The characters of the documents each LaTeX build has written so far.
_characters: weakref.WeakKeyDictionary[Sphinx, set[str]] = weakref.WeakKeyDictionary()


def write_glyphs(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``jaxbook-glyphs.sty``: how the PDF sets each character of the book that its fonts
    lack. An emoji is its picture, drawn here; an arrow or a mathematical sign comes from
    the symbol font where the font in use lacks it. One file serves every document of the
    build (``latex_documents``), so it holds the characters of all of them."""
    if app.builder.name != "latex":
        return
    characters = _characters.setdefault(app, set())
    characters.update(doctree.astext())
    used = sorted(characters)
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


if TYPE_CHECKING:
    # A mixin's methods reach the translator's through super(); mypy sees its base.
    _Translator = LaTeXTranslator
else:
    _Translator = object


class OutputFrame(_Translator):
    """The output frame of the book's LaTeX translator (``jaxbook.sphinxext.latex_translator``):
    what a cell prints (a ``testoutput`` block) set apart from its code, on white under a dark
    frame, as the web and the EPUB set it apart; code keeps ``sphinxsetup``'s grey."""

    def visit_literal_block(self, node: Any) -> None:
        if doctest_kind(node) == "testoutput":
            self.body.append(
                "\n\\begingroup\\sphinxsetup{VerbatimColor={rgb}{1,1,1}, "
                "VerbatimBorderColor={rgb}{0.34,0.38,0.42}}"
            )
            try:
                super().visit_literal_block(node)
            except nodes.SkipNode:
                self.body.append("\\endgroup\n")
                raise
        else:
            super().visit_literal_block(node)

    def depart_literal_block(self, node: Any) -> None:
        super().depart_literal_block(node)
        if doctest_kind(node) == "testoutput":
            self.body.append("\\endgroup\n")


def visit_badge(translator: Any, node: nodes.Element) -> None:
    """A sphinx-design badge (``:bdg-secondary:`选读```) boxed apart from the sentence it
    opens (``\\jbbadge``), where sphinx-design writes its text alone ("选读 适合…", one run of
    text). ``jaxbook.sphinxext.latex_translator`` registers it over sphinx-design's."""
    translator.body.append(r"\jbbadge{")


def depart_badge(translator: Any, node: nodes.Element) -> None:
    translator.body.append("}")
