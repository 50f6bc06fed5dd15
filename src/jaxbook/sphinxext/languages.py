"""Language switcher, ``hreflang`` alternates and a canonical link on every page.

All languages are built from one source tree into sibling directories (``<root>/zh_CN/``,
``<root>/en/``, ...), so every page exists under the same name in each and the switcher links
a page to itself elsewhere. This extension fills the switcher's context and the page's head
links (``html-page-context``), adds the role ``:edition:`英文版 <en>``` that links another
language's edition, and makes a section's own label its anchor.

Config values:

``jaxbook_languages``
   Ordered mapping of language code to its name in that language, the source first
   (``conf.py`` reads ``locale/languages.csv``); default ``{}``: the build's language alone.
``jaxbook_site_url``
   Absolute URL of the site root that holds the language directories, for canonical and
   ``hreflang`` links (default ``""``: relative links). ``JAXBOOK_SITE_URL`` overrides it.
"""

from __future__ import annotations

import os
import posixpath
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

from docutils import nodes
from sphinx import addnodes
from sphinx.errors import NoUri
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import ReferenceRole

from jaxbook.project import bcp47
from jaxbook.sphinxext import PARALLEL_SAFE, LinksDomain, Xref, add_templates

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata


def site_url(config: Config) -> str:
    # getattr: a book without this extension (a test root) has no site.
    url = os.environ.get("JAXBOOK_SITE_URL") or str(getattr(config, "jaxbook_site_url", ""))
    return url.rstrip("/")


def add_language_links(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    current = app.config.language
    languages: dict[str, str] = app.config.jaxbook_languages or {current: current}
    site = site_url(app.config)
    # Documents and the builder's own pages (search, genindex) exist in every
    # language; anything else falls back to the other language's home page.
    # So does the not-found page of sphinx-notfound-page.
    in_tree = (
        pagename in app.env.found_docs
        or templatename != "page.html"
        or pagename == getattr(app.config, "notfound_pagename", None)
    )

    target = app.builder.get_target_uri(pagename if in_tree else app.config.root_doc)
    links = []
    for code, name in languages.items():
        # The other language's build is the output directory's sibling.
        url = context["pathto"](f"../{code}/{target}", resource=True)
        if url.startswith("/"):
            # The not-found page is served at any depth, so sphinx-notfound-page roots its
            # links at the site's root (/zh_CN/../en/404.html): the same, with no "..".
            url = urljoin("/", url)
        links.append(
            {
                "code": code,
                "lang": bcp47(code),
                "name": name,
                "url": url,
                "absolute": f"{site}/{code}/{target}" if site else url,
                "current": code == current,
            }
        )
    context["jaxbook_languages"] = links
    if app.builder.name != "html":
        # An EPUB holds one language: its pages link to no file outside the book.
        return
    head = [
        f'<link rel="alternate" hreflang="{link["lang"]}" href="{link["absolute"]}" />'
        for link in links
    ]
    default = links[0]
    head.append(f'<link rel="alternate" hreflang="x-default" href="{default["absolute"]}" />')
    canonical = next(link for link in links if link["current"])["absolute"]
    head.append(f'<link rel="canonical" href="{canonical}" />')
    context["metatags"] = context.get("metatags", "") + "\n".join(head) + "\n"


class EditionRole(ReferenceRole):
    """``:edition:`英文版 <en>```: the other edition's site root, by its language code.

    A translation keeps the target and translates the text. Where the builder has no
    address for the edition (a PDF or an EPUB without the site's address), the text stays
    alone: a link out of the book to a file beside it would lead nowhere.
    """

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        code = self.target.strip()
        known = self.config.jaxbook_languages or {self.config.language: self.config.language}
        if code not in known:
            message = self.inliner.reporter.error(
                f"no edition in {code!r}: the book's languages are {', '.join(known)}",
                line=self.lineno,
            )
            return [self.inliner.problematic(self.rawtext, self.rawtext, message)], [message]
        text = self.title if self.has_explicit_title else known[code]
        node = edition_reference(self.rawtext, text, language=code)
        return [node], []


class edition_reference(nodes.Inline, nodes.TextElement):
    """A link to another language's edition, the domain's reference once pages are written
    (:class:`PendingEditions`); no writer sees it."""


class PendingEditions(SphinxPostTransform):
    """Each link to another edition as a reference for the domain to make."""

    # Before Sphinx resolves the references (10): the domain's resolve_xref has the builder.
    default_priority = 5

    def run(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(edition_reference)):
            # Its words alone where the edition has no address for the builder (the domain's
            # NoUri leaves them).
            words = nodes.inline(node.rawsource, node.astext())
            xref = addnodes.pending_xref(
                node.rawsource,
                words,
                refdomain=EditionsDomain.name,
                reftype="edition",
                reftarget=node["language"],
                refexplicit=True,
                refwarn=False,
            )
            node.replace_self(xref)


def edition_address(builder: Builder, docname: str, code: str) -> str:
    """Where ``docname``'s link to the edition in ``code`` leads: the site's root in that
    language, absolute where the site's address is known; else, on the website, relative to
    the page ("" in a book, which holds no other edition)."""
    site = site_url(builder.config)
    if site:
        return f"{site}/{code}/"
    if builder.format != "html" or builder.name == "epub":
        return ""
    # Beside the page's own URL, whatever the builder makes it ("ch1/page.html", "ch1/page/").
    here = posixpath.dirname(builder.get_target_uri(docname)) or "."
    return posixpath.relpath(f"../{code}/index.html", here)


class EditionsDomain(LinksDomain):
    """The links of ``:edition:``, made for the builder that writes the page, which a
    post-transform cannot reach (``jaxbook.sphinxext``); it keeps no data.

    Not as the page is read: Sphinx's check of a translation's references would take the
    other edition a translation links for a wrong one.
    """

    name = "jaxbook_editions"
    label = "Editions"

    def _resolve_edition_xref(self, xref: Xref) -> nodes.reference:
        address = edition_address(xref.builder, xref.fromdocname, xref.target)
        if not address:
            raise NoUri(xref.target)  # Sphinx leaves the words, unlinked and unwarned
        link = nodes.reference(xref.node.rawsource, "", *xref.contnode.children, refuri=address)
        if xref.builder.format == "html":
            link["classes"].append("jb-edition-language")
        return link


class LabelsAsAnchors(SphinxTransform):
    """Put a section's label before the id its title made.

    The first id is the anchor: a Chinese title makes one like ``#id3`` and a translated
    title another, while a label (``.. _ch01-arrays-random:``) is the same readable anchor
    in every language.
    """

    # After docutils moves a label's id onto the section it precedes (PropagateTargets, 260).
    default_priority = 262

    def apply(self, **kwargs: object) -> None:
        explicit = self.document.nametypes  # a label's name is explicit, a title's implicit
        for section in self.document.findall(nodes.section):
            labels = {nodes.make_id(name) for name in section["names"] if explicit.get(name)}
            ids = section["ids"]
            section["ids"] = [i for i in ids if i in labels] + [i for i in ids if i not in labels]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_config_value("jaxbook_languages", {}, "html", types=frozenset({dict}))
    app.add_config_value("jaxbook_site_url", "", "html", types=frozenset({str}))
    add_templates(app)  # the switcher, jaxbook-language.html, for html_sidebars
    app.add_transform(LabelsAsAnchors)
    app.add_node(edition_reference)
    app.add_domain(EditionsDomain)
    app.add_role("edition", EditionRole())
    app.add_post_transform(PendingEditions)
    app.connect("html-page-context", add_language_links)
    return {"version": "1.0", "env_version": EditionsDomain.data_version, **PARALLEL_SAFE}
