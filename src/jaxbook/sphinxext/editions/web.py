"""What the EPUB's and the website's pages (Sphinx's HTML writer) say of the editions: the root
page's heading and the links to it name the preface, as the PDF's contents do; and each page
of a site links the PDF and the EPUB of its language that the site holds (``jaxbook
editions`` copies them there and writes the pages again), with the edition statement under
its copyright line.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from jaxbook.sphinxext._locale import _
from jaxbook.sphinxext._nodes import is_parallel_text
from jaxbook.sphinxext.editions.credits import credits_of, edition_name, preface_name

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)


class NameThePreface(SphinxPostTransform):
    """In the EPUB and on the website the root page's heading names the preface, as their
    contents and links do (the title is the cover's, and the website's sidebar's); the PDF
    sets its own heading (``\\jbprefacename``)."""

    builders = ("epub", "html")
    default_priority = 950

    def run(self, **kwargs: Any) -> None:
        if self.env.current_document.docname != self.config.root_doc:
            return
        section = next(iter(self.document.findall(nodes.section)), None)
        if section is not None and isinstance(section[0], nodes.title):
            section[0] = nodes.title("", preface_name())
            # The title's words in the other language (jaxbook.sphinxext.parallel_text's)
            # were the book's title, which the heading no longer says.
            if len(section) > 1 and is_parallel_text(section[1]):
                del section[1]


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
    # book's title (context["title"]).
    if app.builder.name == "html" and pagename == root and context.get("docstitle"):
        context["jaxbook_page_title"] = preface_name()
    for key in ("prev", "next"):
        link = context.get(key)
        if link and link.get("link") == context["pathto"](root):
            context[key] = {**link, "title": html.escape(preface_name())}


def add_site_links(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """On the website: the PDF and EPUB it offers, and the edition statement."""
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
        for fmt in app.config.jaxbook_editions
    ]
    credits = credits_of(app.config)
    # Under the copyright line, as the copyright pages of the PDF and the EPUB give it.
    context["jaxbook_edition_line"] = credits.edition_line()
    # Under the book's title in the sidebar, as under the title on the title page and cover.
    # The sidebar's narrow column may break the line, but not inside "JAX 0.12".
    series = f"JAX {credits.series}"
    context["jaxbook_subtitle"] = credits.subtitle.replace(
        series, series.replace(" ", "\N{NO-BREAK SPACE}")
    )


def note_editions_to_come(app: Sphinx, exception: Exception | None) -> None:
    """Say which of the books the site's pages link it does not hold yet: the site and the
    books build apart (the books from the site's run of each page), so a site built alone
    links books that the editions' build then puts beside its pages."""
    if exception is not None or app.builder.name != "html":
        return
    name = edition_name(app.config)
    missing = [
        f"{name}.{fmt}"
        for fmt in app.config.jaxbook_editions
        if not Path(app.outdir, f"{name}.{fmt}").is_file()
    ]
    if missing:
        logger.info("the pages link %s, which the editions' build puts here", ", ".join(missing))
