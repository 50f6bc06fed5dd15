"""中英对照 / "Parallel text": each passage of an HTML page beside its translation.

What the reader sees:

- A button at the top of a page switches the view on; the choice is kept in
  ``localStorage`` for the whole site.
- Each paragraph (in text, list items, notes, table cells) shows its other-language text
  beside it on a wide screen, under it on a narrow one and in table cells. A heading's
  follows the heading, outside it, so the contents, page title and anchors keep only the
  page's own. Code, literal blocks and outputs appear once, in the page's language.
- A missing or empty entry shows "not yet translated", a fuzzy one "translation awaiting
  review (fuzzy)", in the page's language; a fuzzy ``msgstr`` is never shown. A passage
  whose translation equals its source (a name, a number) shows nothing.

Where the text comes from: the catalogs of the translated edition,
``<locale_dir>/<translation>/LC_MESSAGES/<domain>.po``: on a source-language page the
``msgstr`` in the translation ``jaxbook_parallel_languages`` names; on a translated page
the ``msgid`` (the source). A transform before Sphinx's ``Locale`` records on each passage
the message ``gettext`` extracts (``extract_messages``) so it survives translation, and
makes the translation's catalog a dependency of a source page, so a catalog change
rereads and rewrites it.

The message is parsed as its page is (reST or MyST) and kept to text, code, math,
emphasis, strong text and ``:zh:`` mentions; references and roles become text (spaced
from Chinese as a link is), so nothing is left to resolve, and a measured figure shows
the page's run. A ``:ref:`` or ``:doc:`` with no title shows its target's title from that
page's catalog.

Only the HTML builders (``html``, ``dirhtml``, ``singlehtml``) add the text, button,
stylesheet (``jaxbook-parallel.css``) and small inline script; EPUB and PDF get none. Each
inserted element has the class ``jb-parallel``, its text's ``lang`` (``zh-CN``, ``en``,
...) and ``hidden``, which the stylesheet lifts while the view is on; it is kept out of
the search index (``no-search``) and the page's text (``astext``), so description and
search stay in the page's language.

Config values:

``jaxbook_parallel_languages``
   The source language and the translation shown beside its pages (default: the book's
   source language and none). A page in any other language pairs with the source.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import docutils.utils
import polib
from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform
from sphinx.util import docname_join, get_filetype
from sphinx.util.docutils import LoggingReporter, sphinx_domains
from sphinx.util.fileutil import copy_asset_file
from sphinx.util.nodes import extract_messages

from jaxbook.chinese import HAN
from jaxbook.project import SOURCE_LANGUAGE, bcp47
from jaxbook.sphinxext import PARALLEL_SAFE, _chapters, cjk, numbering
from jaxbook.sphinxext._artwork import without_emoji
from jaxbook.sphinxext._locale import (
    MESSAGE_CATALOG_NAME,
    _,
    add_catalog,
    catalog_entries,
    catalog_paths,
    package_entries,
    page_domain,
    reviewed,
)
from jaxbook.sphinxext.cjk import LATIN
from jaxbook.sphinxext.terms import zh_term
from pagerun.sphinxext import measured_value

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata

STATIC = Path(__file__).parent / "static"
STYLESHEET = "jaxbook-parallel.css"
MESSAGE = "jb_parallel_message"
HTML_BUILDERS = {"html", "dirhtml", "singlehtml"}
STORAGE_KEY = "jaxbook-parallel"

# Sets the view before the page is drawn (no flash of the other layout), then
# wires the buttons; without a script the button stays hidden, as does the view.
SCRIPT = f"""(function () {{
  var key = "{STORAGE_KEY}", root = document.documentElement, on = false;
  try {{ on = localStorage.getItem(key) === "on"; }} catch (e) {{}}
  root.classList.toggle("jb-parallel-on", on);
  document.addEventListener("DOMContentLoaded", function () {{
    document.querySelectorAll("button.jb-parallel-toggle").forEach(function (button) {{
      button.hidden = false;
      button.setAttribute("aria-pressed", String(on));
      button.addEventListener("click", function () {{
        on = !root.classList.contains("jb-parallel-on");
        root.classList.toggle("jb-parallel-on", on);
        try {{ localStorage.setItem(key, on ? "on" : "off"); }} catch (e) {{}}
        button.setAttribute("aria-pressed", String(on));
      }});
    }});
  }});
}})();"""


class parallel_source(nodes.Inline, nodes.TextElement):
    """A paragraph's own content, wrapped so that its translation can sit beside it."""


class parallel_text(nodes.Inline, nodes.TextElement):
    """A paragraph's other-language text (or its marker), inside the paragraph."""

    def astext(self) -> str:
        return ""  # not the page's text: no description or summary quotes it


class parallel_heading(nodes.Part, nodes.TextElement):
    """A heading's other-language text, right after the heading."""

    def astext(self) -> str:
        return ""


class parallel_toggle(nodes.General, nodes.Element):
    """The button at the top of a page with a parallel text, which shows it (``label``)."""


class RecordMessages(SphinxTransform):
    """Keep each passage's catalog message on the node, before Locale translates it."""

    # After cjk.JoinCJKLines (15), whose joined lines are the catalog's message ids, and
    # before Locale (20) translates them.
    default_priority = 16

    def apply(self, **kwargs: Any) -> None:
        languages = pair(self.config)
        if languages is None:
            return
        if self.config.language == languages[0]:
            domain = page_domain(self.config, self.env.docname)
            for shown in catalog_paths(self.env.srcdir, self.config, domain, languages[1]):
                self.env.note_dependency(shown)
        for node, message in extract_messages(self.document):
            if passage_kind(node):
                node[MESSAGE] = message


def passage_kind(node: nodes.Element) -> str | None:
    if isinstance(node, nodes.title) and isinstance(node.parent, nodes.section):
        return "heading"
    if isinstance(node, nodes.rubric):
        return "heading"
    if isinstance(node, nodes.paragraph) and "admonition-title" not in node["classes"]:
        return "paragraph"
    return None


def pair(config: Config) -> tuple[str, str] | None:
    """(the source language, the translation shown beside it) for a build in ``config``'s
    language; None where the build shows no parallel text."""
    source, shown = config.jaxbook_parallel_languages
    if config.language != source:
        return source, config.language
    return (source, shown) if shown and shown != source else None


def catalog(app: Sphinx, docname: str, language: str) -> dict[str, polib.POEntry]:
    return catalog_entries(app.srcdir, app.config, page_domain(app.config, docname), language)


# A link whose title ends in Chinese at a line end: the message joins the lines with no
# space ("《JAX 入门》<https://...>`__"), and reST needs one before an embedded target.
JOINED_TARGET = re.compile(r"(?<!`)`([^`<]*\S)<([^<>`]+)>`(_{1,2})")


def parse(
    app: Sphinx,
    doctree: nodes.document,
    docname: str,
    text: str,
    heading: bool,
    values: dict[str, object],
):
    """The inline content of ``text``, parsed as the page's source would be."""
    source = str(app.env.doc2path(docname))
    text = JOINED_TARGET.sub(r"`\1 <\2>`\3", text)
    if heading:  # as Locale does: else "1. Setup" would read as a list
        text = text + "\n" + "=" * len(text) * 2
    settings = copy.copy(doctree.settings)
    # The other language's text names its facts (a date) as that language does.
    settings.jaxbook_language = (
        (languages[1] if app.config.language == languages[0] else languages[0])
        if (languages := pair(app.config))
        else app.config.language
    )
    document = docutils.utils.new_document(f"{source}:<parallel>", settings)
    document.reporter = LoggingReporter.from_reporter(document.reporter)
    parser = app.registry.create_source_parser(
        get_filetype(app.config.source_suffix, source), config=app.config, env=app.env
    )
    with sphinx_domains(app.env):  # the roles of Sphinx's domains (:ref:, :doc:) outside a read
        parser.parse(text, document)
    found = document.next_node(nodes.title if heading else nodes.paragraph)
    if found is None:
        return [nodes.Text(text)]
    for xref in list(found.findall(addnodes.pending_xref)):
        title = implicit_title(app, docname, xref)
        if title is None:
            title = section_reference(app, docname, xref)
        if title is not None:
            xref.replace_self(nodes.reference("", "", nodes.Text(title)))
    return plain(found.children, values)


def section_reference(app: Sphinx, docname: str, xref: addnodes.pending_xref) -> str | None:
    """What a section reference (``:book:sec:``) in the other language's text says, as
    that language says it: the section's number and its title there."""
    if xref.get("refdomain") != "book":
        return None
    env = app.env
    found = numbering.section_target(env, xref["reftarget"], docname)
    number = found and _chapters.page_number(env, found[0])
    if not found or not number:
        return None
    page, _label, title = found
    explicit = xref.astext() if xref.get("refexplicit") else None
    other = other_language(app.config)
    return numbering.section_text(
        xref["reftype"],
        number,
        # In the other language as its catalog has it, then in words, as the page says it.
        without_emoji(other_title(app, page, title)),
        explicit,
        words=lambda message: label_in(app, other, message),
    )


def other_language(config: Config) -> str:
    """The language of the text beside the page's."""
    languages = pair(config)
    assert languages is not None
    return languages[1] if config.language == languages[0] else languages[0]


def label_in(app: Sphinx, language: str, message: str) -> str:
    """One of this package's labels in ``language``: the book's catalog of it
    (``<locale_dir>/<language>/LC_MESSAGES/jaxbook.po``, a translator's), else the
    package's, where reviewed; else the message itself, which is English."""
    for entries in (
        catalog_entries(app.srcdir, app.config, MESSAGE_CATALOG_NAME, language),
        package_entries(language),
    ):
        entry = entries.get(message)
        if entry is not None and reviewed(entry):
            return entry.msgstr
    return message


def implicit_title(app: Sphinx, docname: str, xref: addnodes.pending_xref) -> str | None:
    """The other-language title that a ``:ref:`` or ``:doc:`` without a title of its own
    shows, as Sphinx would resolve it; None when it is not such a reference."""
    if xref.get("refexplicit") or xref.get("refdomain") != "std":
        return None
    env = app.env
    if xref.get("reftype") == "ref":
        label = env.domains.standard_domain.labels.get(xref["reftarget"].lower())
        if label is None:
            return None
        target, title = label[0], label[2]
    elif xref.get("reftype") == "doc":
        target = docname_join(docname, xref["reftarget"])
        if target not in env.titles:
            return None
        title = env.titles[target].astext()
    else:
        return None
    return other_title(app, target, title)


def other_title(app: Sphinx, target: str, title: str) -> str:
    """A title of the page ``target``, as the page's language has it, in the other language:
    its catalog entry's (the title itself where the catalog has none)."""
    languages = pair(app.config)
    assert languages is not None
    entries = catalog(app, target, languages[1]).values()
    for entry in entries:
        if entry.fuzzy or not entry.msgstr:
            continue
        if app.config.language == languages[0] and entry.msgid == title:
            return entry.msgstr
        if app.config.language != languages[0] and entry.msgstr == title:
            return entry.msgid
    return title


KEPT = (nodes.emphasis, nodes.strong, nodes.literal, nodes.subscript, nodes.superscript, zh_term)
DROPPED = (nodes.Invisible, nodes.system_message, nodes.footnote_reference, nodes.image, nodes.raw)


def plain(children: list[nodes.Node], values: dict[str, object]) -> list[nodes.Node]:
    """Text, code, math, emphasis and ``:zh:`` mentions kept; a measured figure as the page's run
    gave it (``values``); every other element its text, a link's spaced from Chinese as a
    link is (``jaxbook.sphinxext.cjk``)."""
    out: list[nodes.Node] = []
    links: list[int] = []  # where the links' titles are in ``out``
    for child in children:
        if isinstance(child, nodes.Text):
            out.append(nodes.Text(str(child)))
        elif isinstance(child, DROPPED):
            continue
        elif isinstance(child, nodes.math):
            out.append(child.deepcopy())  # set by the page's math renderer, as the text's
        elif isinstance(child, measured_value):
            out.append(nodes.Text(figure(child, values)))
        elif isinstance(child, KEPT) or (
            isinstance(child, nodes.inline) and "jb-fact" in child["classes"]
        ):
            kept = plain(child.children, values)
            out.append(type(child)("", "", *kept, classes=child["classes"]))
        elif isinstance(child, nodes.reference | addnodes.pending_xref):
            title = "".join(node.astext() for node in plain(child.children, values))
            before = out[-1].astext()[-1:] if out else ""
            if HAN.match(before) and LATIN.match(title[:1]):
                out.append(nodes.Text(" "))
            links.append(len(out))
            out.append(nodes.Text(title))
        elif isinstance(child, nodes.Element):
            out.extend(plain(child.children, values))
    for i in links:  # a space after a link that ends in Latin, before Chinese
        following = out[i + 1].astext()[:1] if i + 1 < len(out) else ""
        if LATIN.match(out[i].astext()[-1:]) and HAN.match(following):
            out[i] = nodes.Text(out[i].astext() + " ")
    return out


def figure(value: measured_value, values: dict[str, object]) -> str:
    """A measured figure of the other language's text, from the value the page's run gave
    the same variable (its format spec the other language's)."""
    name = value["variable"]
    if name not in values:
        return value.astext()
    try:
        return format(values[name], value["spec"])
    except (TypeError, ValueError):
        return value.astext()


def other_text(
    app: Sphinx, docname: str, message: str, languages: tuple[str, str]
) -> tuple[str, str | None]:
    """("text", the other language's message), or ("marker", a label), or ("same", None)."""
    source, translation = languages
    entry = catalog(app, docname, translation).get(message)
    if entry is None or not entry.msgstr.strip():
        # Translators: In the parallel text view, in place of a passage's translation that is
        # missing.
        return "marker", str(_("not yet translated"))
    if entry.fuzzy:
        # Translators: In the parallel text view, in place of a passage's translation that is fuzzy
        # (awaiting review).
        return "marker", str(_("translation awaiting review (fuzzy)"))
    if entry.msgstr == entry.msgid:
        return "same", None
    return "text", entry.msgstr if app.config.language == source else entry.msgid


def insert_parallel_text(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Each passage's other-language text beside it, on the site; its message dropped.

    A ``doctree-resolved`` handler, not a post-transform, for what only comes after every
    post-transform: it runs after the notebooks' handler (which writes the page's notebook
    from the page alone, without the other language's text), and it parses the other
    language's text as a passage outside the page being read, as the builder's handlers
    do (``env.docname`` empty: a role in it notes no dependency or data for the page, see
    :func:`jaxbook.sphinxext.drift_report.load`), with the application's parsers, which a
    post-transform cannot reach (``jaxbook.sphinxext``)."""
    passages = [n for n in doctree.findall(nodes.Element) if MESSAGE in n.attributes]
    # The figures the page's run measured (pagerun.sphinxext.measured, before this).
    values = {
        value["variable"]: value["pagerun_value"]
        for value in doctree.findall(measured_value)
        if "pagerun_value" in value
    }
    languages = pair(app.config)
    shown = False
    for node in passages:
        message = node.attributes.pop(MESSAGE)  # an extra attribute would uncompact lists
        if languages is None or app.builder.name not in HTML_BUILDERS:
            continue
        kind, text = other_text(app, docname, message, languages)
        if kind == "same":
            continue
        shown = True
        assert text is not None, "only the same text comes without one"
        if kind == "marker":
            lang, children = bcp47(app.config.language), [nodes.Text(text)]
            classes = ["jb-parallel", "jb-parallel-marker", "no-search"]
        else:
            other = languages[1] if app.config.language == languages[0] else languages[0]
            lang, classes = bcp47(other), ["jb-parallel", "no-search"]
            heading = passage_kind(node) == "heading"
            children = parse(app, doctree, docname, text, heading, values)
        if passage_kind(node) == "heading":
            added = parallel_heading("", "", *children, classes=classes, lang=lang)
            node.parent.insert(node.parent.index(node) + 1, added)
        else:
            own = parallel_source("", "", *node.children, classes=["jb-parallel-source"])
            node.clear()
            node += own
            node += parallel_text("", "", *children, classes=classes, lang=lang)
    if shown:
        # Translators: A toggle button at the top of a translated page that shows each passage's
        # source beside it.
        doctree.insert(0, parallel_toggle(label=str(_("Parallel text"))))


def visit_parallel_source(self: Any, node: nodes.Element) -> None:
    self.body.append(self.starttag(node, "span", ""))


def visit_parallel_text(self: Any, node: nodes.Element) -> None:
    self.body.append(self.starttag(node, "span", "", lang=node["lang"], hidden=""))


def depart_span(self: Any, node: nodes.Element) -> None:
    self.body.append("</span>")


def visit_parallel_heading(self: Any, node: nodes.Element) -> None:
    self.body.append(self.starttag(node, "p", "", lang=node["lang"], hidden=""))


def depart_parallel_heading(self: Any, node: nodes.Element) -> None:
    self.body.append("</p>\n")


def add_assets(app: Sphinx) -> None:
    if pair(app.config) is not None and app.builder.name in HTML_BUILDERS:
        # In the output before any page is written, so that each page's link carries the
        # stylesheet's checksum (Sphinx's cache-busting ?v=); an older copy is replaced.
        static = Path(app.outdir, "_static")
        static.mkdir(parents=True, exist_ok=True)
        copy_asset_file(STATIC / STYLESHEET, static, force=True)
        app.add_css_file(STYLESHEET)
        app.add_js_file(None, body=SCRIPT)


def visit_parallel_toggle(self: Any, node: nodes.Element) -> None:
    # Hidden until the page's script, which it drives, has run.
    self.body.append(
        '<button type="button" class="jb-parallel-toggle" aria-pressed="false" hidden>'
        f"{self.encode(node['label'])}</button>\n"
    )
    raise nodes.SkipNode


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    # The messages are kept as the page is read: a changed pair of languages reads it again.
    app.add_config_value(
        "jaxbook_parallel_languages",
        (SOURCE_LANGUAGE, ""),
        "env",
        types=frozenset({tuple, list}),
    )
    app.setup_extension(cjk.__name__)  # its joined lines are the messages RecordMessages keeps
    app.add_transform(RecordMessages)
    app.add_node(parallel_source, html=(visit_parallel_source, depart_span))
    app.add_node(parallel_text, html=(visit_parallel_text, depart_span))
    app.add_node(parallel_heading, html=(visit_parallel_heading, depart_parallel_heading))
    app.add_node(parallel_toggle, html=(visit_parallel_toggle, None))
    app.connect("builder-inited", add_assets)
    # After every other handler: the notebooks see the page alone (the docstring says why this
    # is a handler, not a post-transform).
    app.connect("doctree-resolved", insert_parallel_text, priority=950)
    return {"version": "1.0", **PARALLEL_SAFE}
