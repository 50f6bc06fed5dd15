"""The book on paper and in e-readers: PDF (LaTeX, xelatex + xeCJK) and EPUB, per language.

Sets the LaTeX and EPUB configuration from the book's (already localised)
title and author, so that one ``conf.py`` serves every language:

- LaTeX: ``xelatex`` with ``xeCJK`` and the Noto CJK fonts of the edition's
  script (``jaxbook.sphinxext.fonts.cjk_family``: serif for text, sans for
  headings, Noto Sans Mono CJK for code), so every glyph is embedded; ❌ ✅ ⚠️
  and the other symbols the pages use come from a symbol font through xeCJK's
  fallback.
- A dropdown (the quiz's "answer and explanation") becomes a labelled block,
  since paper cannot fold.
- On every HTML page of a site that publishes them (``jaxbook_editions_linked``),
  links to the PDF and EPUB of its language, at ``<language
  root>/<basename>-<language>.pdf`` and ``.epub``: ``jaxbook editions`` builds
  them and copies them there.

Config values:

``jaxbook_editions_basename``
   File name stem of the PDF and EPUB (default ``"jaxbook"``): the files are
   ``<basename>-<language>.pdf`` and ``.epub``.
``jaxbook_symbol_font``
   Font for the symbols the CJK and Latin fonts lack (default ``"Symbola"``).
``jaxbook_editions_linked``
   Whether the site's pages link the PDF and EPUB (default ``False``: a plain
   ``make html`` builds neither, and a site links no file it does not hold).
"""

from __future__ import annotations

import datetime
import html
import re
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel.dates import format_date
from docutils import nodes
from sphinx.builders.epub3 import Epub3Builder
from sphinx.locale import _ as sphinx_
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx_design.badges_buttons import sd_badge

from jaxbook import project
from jaxbook.chinese import spaced
from jaxbook.sphinxext._locale import _, add_catalog
from jaxbook.sphinxext._nodes import section_title
from jaxbook.sphinxext.fonts import cjk_family, cjk_region

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata

# xeCJK treats these as CJK characters, so they are drawn with the CJK font's
# fallback (the symbol font) instead of vanishing from a Latin font.
SYMBOL_RANGES = r"""
\xeCJKsetup{AutoFallBack=true}
\xeCJKDeclareCharClass{CJK}{"2300 -> "23FF, "2600 -> "27BF, "1F300 -> "1F9FF}
"""
# No section numbers (the titles have them); each page's head names the book only.
PREAMBLE = r"""
\setcounter{secnumdepth}{-1}
\renewcommand{\chaptername}{}
\setlength{\headheight}{14pt}
\makeatletter
\fancypagestyle{normal}{%
  \fancyhf{}%
  \fancyfoot[RO]{{\py@HeaderFamily\thepage}}%
  \fancyfoot[LO]{{\py@HeaderFamily\nouppercase{\rightmark}}}%
  \fancyfoot[LE]{{\py@HeaderFamily\thepage}}%
  \fancyfoot[RE]{{\py@HeaderFamily\nouppercase{\leftmark}}}%
  \fancyhead[LE,RO]{{\py@HeaderFamily\@title}}%
  \renewcommand{\headrulewidth}{0.4pt}%
  \renewcommand{\footrulewidth}{0.4pt}%
}
% Cross-references upright: in Chinese, italics are no emphasis, and the Latin of a
% title ("1.6 设备管理：CPU、GPU、TPU") must not lean.
\protected\def\sphinxcrossref#1{#1}
% Table cells ragged right: a narrow justified cell spreads Chinese letter by letter
% and keeps long inline code from breaking at its dots and underscores. A word is
% hyphenated in a cell only when it cannot fit its column whole ("dif-ferent", "ma-cOS"
% were hyphenated where a ragged line had room to end early).
% (Explicit breaks stay: Sphinx breaks code after "/" and "." with them.)
\newcommand\jbcell{\raggedright\arraybackslash\hyphenpenalty=5000}
\newcolumntype{\X}[2]{>{\jbcell}p{\dimexpr
  (\linewidth-\spx@arrayrulewidth)*#1/#2-\tw@\tabcolsep-\spx@arrayrulewidth\relax}}
\newcolumntype{\Y}[1]{>{\jbcell}p{\dimexpr
  #1\dimexpr\linewidth-\spx@arrayrulewidth\relax-\tw@\tabcolsep-\spx@arrayrulewidth\relax}}
% Sphinx sets each cell in a varwidth box, which (a minipage) makes its text justified
% again: the cell's own paragraphs are set as the column says.
\def\@@vwid@minipagerestore{\raggedright\hyphenpenalty=5000}
% Inline code may also break after an underscore (XLA_PYTHON_CLIENT_PREALLOCATE): Sphinx
% breaks it only at . , ; ? ! / and a backslash, and a name with none runs off the page.
\let\jbupquote\sphinxupquote
\protected\def\sphinxupquote#1{\jbupquote{\def\_{\textunderscore\allowbreak}#1}}
% A space the text has between two Chinese characters ("🔍 补充", "❌ 错误写法") stays:
% the build itself drops the line breaks between them (jaxbook.sphinxext.cjk).
\xeCJKsetup{CJKspace=true}
% A continued table names no number: the book's tables have no numbered captions.
\protected\def\sphinxtablecontinued#1{{\def\tablename{}\def\thetable{}\def\textendash{}%
  \textsf{\ignorespaces#1}}}
% A badge ("Optional") boxed and apart from the sentence it opens, as on the web.
\newcommand{\jbbadge}[1]{\fbox{\footnotesize\sffamily#1}\enspace}
% A glossary term in the other language is never hyphenated ("im-mutable").
\expandafter\def\csname DUrolejb-term-other\endcsname#1{\mbox{#1}}
\makeatother
"""
# Chinese editions: the marks of a code block continued over a page in full-width
# parentheses, as Chinese text has them.
CJK_PREAMBLE = r"""
\renewcommand*\sphinxstylecodecontinued[1]{{\footnotesize（#1）}}
\renewcommand*\sphinxstylecodecontinues[1]{{\footnotesize（#1）}}
"""
# Newer than the symbol font (Unicode 11): drawn as the nearest older symbol.
SUBSTITUTES = "\n".join(
    [
        r"\usepackage{newunicodechar}",
        r"\newunicodechar{🧪}{⚗}",
        # The emoji presentation selector after ⚠ has no glyph on paper.
        "\\newunicodechar{\ufe0f}{}",
    ]
)


# The contributors' pages: the website's only (docs/index.rst lists them under
# ``.. only:: html and not epub``), not the reader's PDF and EPUB; and the lab's report
# (an orphan page, linked from the chapters' notes on other releases on the web only).
WEBSITE_ONLY = ("contributing", "authoring", "translating", "lab")

ITEM = re.compile(r'<item id="[^"]*" href="([^"]+)" media-type="application/xhtml\+xml" />')


def edition_name(config: Config) -> str:
    return f"{config.jaxbook_editions_basename}-{config.language}"


def configure(app: Sphinx, config: Config) -> None:
    name = edition_name(config)
    is_cjk = cjk_region(config.language) is not None
    serif, sans = cjk_family(config.language, "Serif"), cjk_family(config.language)
    config.latex_engine = "xelatex"
    # Sphinx's default for Japanese is jsbook, a class for (u)pLaTeX, not xelatex.
    config.latex_docclass = {}
    config.latex_documents = [
        (config.root_doc, f"{name}.tex", config.project, config.author, "manual", False)
    ]
    config.latex_show_urls = "footnote"
    config.latex_elements = {
        "papersize": "a4paper",
        "pointsize": "11pt",
        # Sphinx loads xeCJK itself for Chinese; other editions quote Chinese too.
        "fontenc": r"\usepackage{xeCJK}",
        "fontpkg": "\n".join(
            [
                r"\setmainfont{DejaVu Serif}",
                r"\setsansfont{DejaVu Sans}",
                r"\setmonofont[Scale=0.9]{DejaVu Sans Mono}",
                rf"\setCJKmainfont{{{serif}}}[BoldFont={sans} Bold]",
                rf"\setCJKsansfont{{{sans}}}",
                rf"\setCJKmonofont{{{cjk_family(config.language, 'Sans Mono')}}}",
                SYMBOL_RANGES,
                rf"\setCJKfallbackfamilyfont{{\CJKrmdefault}}{{{config.jaxbook_symbol_font}}}",
                rf"\setCJKfallbackfamilyfont{{\CJKsfdefault}}{{{config.jaxbook_symbol_font}}}",
                rf"\setCJKfallbackfamilyfont{{\CJKttdefault}}{{{config.jaxbook_symbol_font}}}",
                SUBSTITUTES,
                # English text: curly quotes and the middle dot ("Warning · Update note 3")
                # belong to the Latin font, not the CJK one.
                "" if is_cjk else r'\xeCJKDeclareCharClass{Default}{"2018 -> "201D, "00B7}',
            ]
        ),
        "fvset": r"\fvset{fontsize=\small,formatcom=\xeCJKVerbAddon}",
        "babel": "",
        "polyglossia": "",
        # The titles carry their own numbers ("第 1 章", "1.2 ..."): LaTeX adds none.
        "fncychap": "",
        "preamble": PREAMBLE + (CJK_PREAMBLE if is_cjk else ""),
        # Right after the contents, the home page's text, under a heading of its own.
        "tableofcontents": "\\sphinxtableofcontents\n"
        + rf"\chapter*{{{_('Preface')}}}\markboth{{{_('Preface')}}}{{{_('Preface')}}}",
        # Not empty: Sphinx would put its own "Release" back.
        "releasename": "{}",
        "sphinxsetup": "verbatimwithframe=true, VerbatimColor={rgb}{0.97,0.97,0.97}",
    }
    config.numfig_format = {
        "code-block": str(_("Listing %s")),
        "table": str(_("Table %s")),
        "figure": str(_("Figure %s")),
        "section": str(_("Section %s")),
    }
    config.latex_domain_indices = False
    # makeindex, not xindy (another TeX Live package): jaxbook.sphinxext.pinyin_index
    # gives each Chinese entry its pinyin as the sort key.
    config.latex_use_xindy = False
    config.epub_basename = name
    config.epub_title = config.project
    config.epub_author = config.author
    config.epub_publisher = config.author
    # dc:rights, which a reader's library shows: the project's text and what is the course's.
    config.epub_copyright = str(
        _(
            "© %(copyright)s. The book's own text is licensed under CC BY 4.0; the "
            "course's content belongs to %(author)s."
        )
    ) % {"copyright": config.copyright, "author": "ApX Machine Learning"}
    config.epub_language = config.language.replace("_", "-")
    config.epub_show_urls = "no"
    # The chapters list their sections in a hidden toctree (each chapter page has its own
    # table of contents); the e-reader's contents must list them.
    config.epub_tocscope = "includehidden"
    config.epub_exclude_files = ["search.html", *(f"{p}.xhtml" for p in WEBSITE_ONLY)]
    config.epub_description = str(
        _("An introduction to JAX, based on the course %(course)s by %(author)s")
    ) % {"course": _("Getting Started with JAX"), "author": "ApX Machine Learning"}
    # A stable identifier per edition, so that a reader's library sees a new build as
    # the same book.
    # Sphinx writes the uid as the identifier's XML id and as the NCX's dtb:uid, which
    # EPUBCheck holds equal to the identifier itself: one value, an XML name, for both.
    config.epub_identifier = f"{name}-{uuid.uuid5(uuid.NAMESPACE_URL, f'jaxbook:{name}')}"
    config.epub_uid = config.epub_identifier
    config.epub_contributor = config.author
    # The date on the title page, as the language writes it ("2026 年 12 月 2 日").
    config.today = spaced(format_date(datetime.date.today(), "long", locale=config.language))
    # The title page says which JAX the book runs; "Release" would read as the book's.
    # (A test root has no pyproject.toml, and keeps its own release.)
    if (Path(app.confdir) / "pyproject.toml").is_file():
        config.release = str(_("for JAX %s")) % project.pinned_release(Path(app.confdir))


def version_for_epub(app: Sphinx) -> None:
    """EPUB 3 metadata wants a version; the book's is the JAX release it runs on."""
    if app.builder.name == "epub" and not app.config.version:
        app.config.version = app.config.release


def name_epub_guides(app: Sphinx) -> None:
    """The e-reader's contents and cover, named in the book's language (Sphinx names
    them in English)."""
    if isinstance(app.builder, Epub3Builder):
        app.builder.guide_titles = {
            **app.builder.guide_titles,
            "toc": str(_("Table of Contents")),
            "cover": str(_("Cover")),
        }


QUESTION = "jb-question"  # a quiz question's section (docs/ch01/quiz.rst)


class LabelDropdowns(SphinxPostTransform):
    """Off the website a dropdown cannot fold: show its title as a label above its content.

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
                # On paper an answer right under its question is read before the
                # question is answered: the quiz's answers follow the quiz.
                number = section_title(question).astext()
                heading = _("%(question)s: %(label)s") % {"question": number, "label": label}
                box[0] = nodes.title("", heading)
                question.remove(node)
                answers.setdefault(id(question.parent), []).append(box)
            else:
                node.replace_self(box)
        for quiz in list(self.document.findall(nodes.section)):
            if id(quiz) not in answers:
                continue
            questions = [c for c in quiz.children if isinstance(c, nodes.section)]
            last = [c for c in questions if QUESTION in c["classes"]][-1]
            section = nodes.section(ids=[nodes.make_id(f"jb-quiz-answers-{quiz['ids'][0]}")])
            section += nodes.title("", _("Answers to the quiz"))
            section.extend(answers[id(quiz)])
            quiz.insert(quiz.index(last) + 1, section)


def declare_epub_properties(app: Sphinx, exception: Exception | None) -> None:
    """EPUB 3 wants each page with MathML or inline SVG flagged in the package file, and a
    reader wants the "contents" landmark to open the contents, the index listed in them, and
    each page's language declared.

    Sphinx's EPUB builder does none of it, so the package file and the navigation are
    amended and the book zipped again.
    """
    if exception is not None or not isinstance(app.builder, Epub3Builder):
        return
    opf = Path(app.outdir, "content.opf")
    text = opf.read_text(encoding="utf-8")

    def amend(match: re.Match[str]) -> str:
        item, href = match.group(0), match.group(1)
        page = Path(app.outdir, href)
        if not href.endswith(".xhtml") or not page.exists():
            return item
        content = page.read_text(encoding="utf-8")
        properties = [p for p, tag in (("mathml", "<math"), ("svg", "<svg")) if tag in content]
        if not properties:
            return item
        return item.replace(" />", f' properties="{" ".join(properties)}" />')

    text = ITEM.sub(amend, text)
    # The reader's "contents" landmark opens the contents, not the front page.
    text = GUIDE_TOC.sub(r'\1href="nav.xhtml"', text)
    opf.write_text(text, encoding="utf-8")
    list_the_index(Path(app.outdir))
    declare_language(Path(app.outdir), app.config.epub_language)
    app.builder.build_epub()


HTML_ROOT = re.compile(r"<html(?![^>]*\blang=)([^>]*)>")


def declare_language(outdir: Path, language: str) -> None:
    """Each page says its language, as the package does: a reader picks the glyphs and line
    breaking of Chinese from it (zh-CN's, not Japanese or traditional forms)."""
    for page in outdir.rglob("*.xhtml"):
        text = page.read_text(encoding="utf-8")
        declared = HTML_ROOT.sub(rf'<html\1 lang="{language}" xml:lang="{language}">', text, 1)
        if declared != text:
            page.write_text(declared, encoding="utf-8")


GUIDE_TOC = re.compile(r'(<reference type="toc" title="[^"]*" )href="[^"]*"')
NAV_POINT = re.compile(r'<navPoint id="navPoint(\d+)" playOrder="(\d+)">')


def list_the_index(outdir: Path) -> None:
    """The index is in the book (its last page) but not in Sphinx's navigation: an e-reader's
    contents list it last, as a printed book's does."""
    if not (outdir / "genindex.xhtml").exists():
        return
    title = html.escape(sphinx_("Index"))
    nav = outdir / "nav.xhtml"
    text = nav.read_text(encoding="utf-8")
    end = text.rindex("</ol>")
    item = f'  <li>\n          <a href="genindex.xhtml">{title}</a>\n        </li>\n      '
    nav.write_text(text[:end] + item + text[end:], encoding="utf-8")
    ncx = outdir / "toc.ncx"
    text = ncx.read_text(encoding="utf-8")
    last = max((int(i), int(order)) for i, order in NAV_POINT.findall(text))
    point = (
        f'  <navPoint id="navPoint{last[0] + 1}" playOrder="{last[1] + 1}">\n'
        f"      <navLabel>\n        <text>{title}</text>\n      </navLabel>\n"
        '      <content src="genindex.xhtml" />\n    </navPoint>\n  '
    )
    end = text.rindex("</navMap>")
    ncx.write_text(text[:end] + point + text[end:], encoding="utf-8")


def add_download_links(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    if app.builder.name != "html" or not app.config.jaxbook_editions_linked:
        return
    up = "../" * pagename.count("/")
    name = edition_name(app.config)
    context["jaxbook_editions_label"] = _("Download the book")
    context["jaxbook_editions"] = [
        {"label": _("Book as PDF"), "url": f"{up}{name}.pdf", "type": "application/pdf"},
        {"label": _("Book as EPUB"), "url": f"{up}{name}.epub", "type": "application/epub+zip"},
    ]


def visit_badge_latex(self: Any, node: nodes.Element) -> None:
    self.body.append(r"\jbbadge{")


def depart_badge_latex(self: Any, node: nodes.Element) -> None:
    self.body.append("}")


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    app.add_config_value("jaxbook_editions_basename", "jaxbook", "env", types=frozenset({str}))
    app.add_config_value("jaxbook_symbol_font", "Symbola", "env", types=frozenset({str}))
    app.add_config_value("jaxbook_editions_linked", False, "html", types=frozenset({bool}))
    # After conf.py has localised the title and author.
    app.connect("config-inited", configure, priority=800)
    # Before Sphinx's EPUB builder checks its metadata.
    app.connect("builder-inited", version_for_epub, priority=400)
    app.connect("builder-inited", name_epub_guides)
    app.add_post_transform(LabelDropdowns)
    # sphinx-design writes a badge's text alone in LaTeX: "Optional For readers who…".
    app.setup_extension("sphinx_design")
    app.add_node(sd_badge, override=True, latex=(visit_badge_latex, depart_badge_latex))
    app.connect("build-finished", declare_epub_properties)
    app.connect("html-page-context", add_download_links)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
