"""中英对照 / parallel text: each block of prose beside its translation.

On a translated page every heading and paragraph (list items, table cells and
note titles included) also carries its source text; on a page in the source
language, its translation from the catalog of ``jaxbook_parallel_language``.
Both come from the same catalogs the editions are built from, so a fuzzy or
untranslated entry shows as such ("translation awaiting review", "not yet
translated"), never as a guess. Code and outputs are not doubled: they
appear once, in the page's language.

A switch under the page title turns the view on and off. It is a button and a
small script of the book's own (no third-party request); the choice is kept
in ``localStorage`` so that it holds on every page, offline too. CSS puts the
two texts side by side on a wide screen and one under the other on a phone.
The texts are found while reading (before and after Sphinx applies the
translation) and written when an HTML page is, after its notebook: the
catalogs, the PDF, the EPUB and the notebooks never see them, and the other
text is ``Invisible``, so it stays out of the page's description. It is shown
as read, never parsed as reStructuredText (code spans, emphasis and link
texts are kept): a catalog runs no directive here.

Config values:

``jaxbook_parallel_language``
   The language whose catalog gives a source-language page its parallel text
   (default ``"en"``; ``""`` turns the view off).
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polib
from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx.util.i18n import docname_to_domain
from sphinx.util.nodes import extract_messages

from jaxbook.project import SOURCE_LANGUAGE
from jaxbook.sphinxext._locale import _, add_catalog
from jaxbook.sphinxext._nodes import chrome

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

SCRIPT = "jaxbook-parallel.js"  # and jaxbook-parallel.css, both in ./static
# The blocks that get a parallel text: prose, not code.
BLOCKS = (nodes.paragraph, nodes.title)
HTML_LANG = {"zh_CN": "zh-CN", "en": "en"}


class parallel_own(nodes.inline):
    """The block's own text, when it has a parallel one."""


class parallel_text(nodes.inline, nodes.Invisible):
    """The same block in the other language (or a note that it is missing)."""


def _wanted(app: Sphinx) -> bool:
    return app.builder.name in ("html", "dirhtml") and bool(app.config.jaxbook_parallel_language)


class StashSource(SphinxTransform):
    """Before the translation is applied: keep each block's source text."""

    default_priority = 19  # sphinx.transforms.i18n.Locale is 20

    def apply(self, **kwargs: Any) -> None:
        if not self.config.jaxbook_parallel_language or self.config.language == SOURCE_LANGUAGE:
            return
        for node, msg in extract_messages(self.document):
            if isinstance(node, BLOCKS):
                node["jaxbook_source"] = msg


class FindParallel(SphinxTransform):
    """After it: note every block's text in the other language, or that it is missing."""

    default_priority = 26

    def apply(self, **kwargs: Any) -> None:
        # Found for every builder (a note on the nodes); only the HTML writer shows it.
        if not self.config.jaxbook_parallel_language:
            return
        if self.config.language == SOURCE_LANGUAGE:
            self.from_catalog()
        else:
            self.from_source()

    def entries(self, language: str) -> dict[str, polib.POEntry]:
        """This page's catalog in ``language``, by msgid."""
        domain = docname_to_domain(self.env.current_document.docname, self.config.gettext_compact)
        for directory in self.config.locale_dirs:
            po = Path(self.env.srcdir, directory, language, "LC_MESSAGES", f"{domain}.po")
            if po.exists():
                return {e.msgid: e for e in polib.pofile(str(po)) if not e.obsolete}
        return {}

    @staticmethod
    def missing(entry: polib.POEntry | None) -> str:
        """Why a message has no translation to show ("" when it has one)."""
        if entry is None or not entry.msgstr:
            return "untranslated"
        return "fuzzy" if entry.fuzzy else ""

    def from_source(self) -> None:
        entries = self.entries(self.config.language)
        for node in self.document.findall(nodes.Element):
            source = node.attributes.pop("jaxbook_source", None)
            if source is None:
                continue
            if node.get("translated"):
                node["jaxbook_parallel"] = (SOURCE_LANGUAGE, source, "")
            else:  # the page shows the source here: say why
                missing = self.missing(entries.get(source)) or "untranslated"
                node["jaxbook_parallel"] = (SOURCE_LANGUAGE, "", missing)

    def from_catalog(self) -> None:
        language = self.config.jaxbook_parallel_language
        entries = self.entries(language)
        for node, msg in extract_messages(self.document):
            if isinstance(node, BLOCKS):
                entry = entries.get(msg)
                missing = self.missing(entry)
                node["jaxbook_parallel"] = (language, "" if missing else entry.msgstr, missing)


INLINE = re.compile(
    r"``(?P<code>.+?)``"
    r"|:(?P<role>[\w:+-]+):`(?P<role_text>[^`<]*?)(?:\s*<[^`]*>)?`"
    r"|`(?P<link>[^`<]+?)\s*<[^`]*>`__?"
    r"|\*\*(?P<strong>.+?)\*\*"
    r"|\*(?P<em>[^*]+?)\*",
    re.S,
)


def inline_nodes(text: str) -> list[nodes.Node]:
    """A translation's inline markup as nodes, for reading: code, emphasis, link texts.

    The text is shown, never parsed as reStructuredText: a catalog runs no directive
    and pulls in no file here.
    """
    out: list[nodes.Node] = []
    position = 0
    for match in INLINE.finditer(text):
        out.append(nodes.Text(text[position : match.start()].replace("\\ ", "")))
        if match["code"] is not None:
            out.append(nodes.literal("", match["code"]))
        elif match["role"] is not None:
            shown = match["role_text"] or ""
            out.append(nodes.literal("", shown) if match["role"] == "code" else nodes.Text(shown))
        elif match["link"] is not None:
            out.append(nodes.Text(match["link"]))
        elif match["strong"] is not None:
            out.append(nodes.strong("", match["strong"]))
        else:
            out.append(nodes.emphasis("", match["em"]))
        position = match.end()
    out.append(nodes.Text(text[position:].replace("\\ ", "")))
    return [node for node in out if not (isinstance(node, nodes.Text) and not str(node))]


def pair(node: nodes.Element, other: list[nodes.Node], language: str, missing: bool) -> None:
    own = parallel_own("", "", *node.children, classes=["jb-own"])
    shown = parallel_text(
        "", "", *other, classes=["jb-parallel", *(["jb-parallel-missing"] if missing else [])]
    )
    shown["lang"] = HTML_LANG.get(language, language)
    node.children = []
    node += own
    node += shown
    node["classes"].append("jb-has-parallel")


def missing_note(missing: str) -> nodes.Text:
    if missing == "fuzzy":
        return nodes.Text(_("translation awaiting review"))
    return nodes.Text(_("not yet translated"))


def show_parallel(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Write the other language beside each block, and the switch under the title."""
    if not _wanted(app):
        return
    paired = False
    for node in list(doctree.findall(nodes.Element)):
        found = node.attributes.pop("jaxbook_parallel", None)
        if found is None or not isinstance(node, BLOCKS):
            continue
        language, text, missing = found
        if not missing and " ".join(text.split()) == " ".join(node.astext().split()):
            continue  # the same in both languages: code names, numbers
        other = [missing_note(missing)] if missing else inline_nodes(text)
        pair(node, other, language, bool(missing))
        paired = True
    sections = list(doctree.findall(nodes.section))
    if not paired or not sections:
        return
    button = nodes.raw(
        "",
        '<button type="button" class="jb-parallel-switch" aria-pressed="false">'
        f"{html.escape(_('Parallel text'))}</button>",
        format="html",
    )
    title = sections[0].next_node(nodes.title)
    bar = chrome("", "", button, classes=["jb-parallel-bar"])
    sections[0].insert(sections[0].index(title) + 1, bar)


def visit_own(self: Any, node: parallel_own) -> None:
    self.body.append(self.starttag(node, "span", ""))


def visit_parallel(self: Any, node: parallel_text) -> None:
    self.body.append(self.starttag(node, "span", "", lang=node["lang"]))


def depart_span(self: Any, node: nodes.Element) -> None:
    self.body.append("</span>")


def add_static(app: Sphinx, config: Any) -> None:
    config.html_static_path.append(str(Path(__file__).parent / "static"))


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    app.connect("config-inited", add_static)
    app.add_css_file("jaxbook-parallel.css")
    app.add_config_value("jaxbook_parallel_language", "en", "env", types=frozenset({str}))
    app.add_node(parallel_own, html=(visit_own, depart_span))
    app.add_node(parallel_text, html=(visit_parallel, depart_span))
    app.add_transform(StashSource)
    app.add_transform(FindParallel)
    app.add_js_file(SCRIPT, loading_method="defer")
    # After the notebooks (900) have taken the page: a notebook keeps one language.
    app.connect("doctree-resolved", show_parallel, priority=950)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
