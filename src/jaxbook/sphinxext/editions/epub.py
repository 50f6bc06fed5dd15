"""The EPUB: Sphinx's EPUB 3 builder extended (``BookEpubBuilder``), and its settings.

A cover drawn from the title and names, full metadata (the authors as creator, a
translation's translators as contributor with the ``trl`` role, the publisher, the
accessibility metadata; an identifier that stays the edition's, ``urn:uuid:`` and a
name-based UUID of ``jaxbook_book_url``, the language and the edition, so that a rebuild is
the same book to a reader's library; the edition's number as its version), a copyright page
after the cover, landmarks and the index in the navigation, each page's language declared,
code that wraps, and output set apart from code (``static/jaxbook-epub.css``).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from docutils import nodes
from sphinx import addnodes
from sphinx.builders.epub3 import Epub3Builder
from sphinx.locale import _ as sphinx_
from sphinx.util.fileutil import copy_asset_file

from jaxbook import project
from jaxbook._compat import BUILD_INFO_BACKUP
from jaxbook.sphinxext import TEMPLATES, _artwork, _chapters
from jaxbook.sphinxext._locale import _
from jaxbook.sphinxext._settings import set_default
from jaxbook.sphinxext.editions.credits import (
    Credits,
    credits_of,
    edition_name,
    identifier,
    linked_text,
    preface_name,
)
from jaxbook.sphinxext.fonts import cjk_family, cjk_region

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.config import Config


# The templates of the EPUB's package and navigation, and its style sheet: in the extensions'
# directory, above this package.
EPUB_TEMPLATES = TEMPLATES / "epub3"
EPUB_STYLE = Path(__file__).parents[1] / "static" / "jaxbook-epub.css"
COVER = "_static/jaxbook-cover.png"


def configure_epub(config: Config, credits: Credits) -> None:
    """The EPUB's settings that depend on the build's language and its translated texts;
    conf.py writes the rest (epub_show_urls, epub_tocscope, epub_uid, epub_cover)."""
    name = edition_name(config)
    set_default(config, "epub_basename", name)
    set_default(config, "epub_title", credits.title)
    set_default(config, "epub_author", credits.authors)
    set_default(config, "epub_publisher", credits.publisher)
    # Sphinx asks for a contributor; the package names a translation's translators (with
    # the trl role) and no one else, so the source's is its authors, not written twice.
    set_default(config, "epub_contributor", credits.translators or credits.authors)
    # dc:rights, which a reader's library shows: the copyright line, then the credit (what is
    # the course's, and the licences of what is the project's), as the footer words it.
    credit, _links = linked_text(credits.credit)
    rights = f"© {credits.copyright}" if credits.copyright else ""
    if rights and credit:
        # Translators: The EPUB's rights (dc:rights): the copyright line, then the credit.
        rights = str(_("© %(copyright)s. %(credit)s")) % {
            "copyright": credits.copyright,
            "credit": credit,
        }
    set_default(config, "epub_copyright", rights or credit)
    set_default(config, "epub_language", project.bcp47(config.language))
    set_default(config, "epub_description", credits.description)
    set_default(config, "epub_identifier", identifier(config))
    # The copyright page, after the cover, as the PDF has it on the title page's back.
    # Translators: The EPUB's copyright page, as a reader's table of contents names it.
    set_default(config, "epub_pre_files", [(COPYRIGHT_PAGE, str(_("Copyright")))])
    config.epub_exclude_files = [
        *config.epub_exclude_files,
        *(f"_static/{name}" for name in sorted(WEB_ONLY_FILES)),
        # Sphinx 9 keeps the last build's .buildinfo beside it when the config changed; its
        # EPUB builder ignores .buildinfo only, and would warn of an unknown file (fatal
        # under -W) at the first `make epub` after an edit of conf.py.
        BUILD_INFO_BACKUP,
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

    Written against: Sphinx 9.1.1 and 9.2.0, whose EPUB builders document neither the
    methods overridden here nor the attributes read or set (``html_tag``, ``guide_titles``,
    ``refnodes``, ``coverpage_name``, ``images``, ``use_index``); EPUBCheck and the EPUB's
    tests (``tests/site/test_editions.py``, ``tests/sphinxext/test_editions.py``) fail
    where one of them changes.
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
        # show it: "1.5 使用 JAX 数组" (numbering.ChapterNumbering).
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
        # The directory html_static_path documents (the builder keeps it privately).
        copy_asset_file(EPUB_STYLE, Path(self.outdir, "_static"), force=True)
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
