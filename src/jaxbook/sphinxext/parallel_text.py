"""中英对照 / "Parallel text": each passage of an HTML page beside its translation.

A button at the top of the page turns the view on for the whole site. Each paragraph and
heading then shows its other-language text from the translation's catalog: the ``msgstr``
on a source-language page, the ``msgid`` on a translated one. The text is recorded before
Sphinx translates the page (:class:`RecordMessages`), parsed as it is read
(:func:`add_parallel_text`, on ``doctree-read``) and finished as it is written
(:class:`ShowParallelText`); other builders drop it (:class:`DropParallelText`).

Config values:

- ``jaxbook_parallel_languages`` (default: the source language and ``""``): the source
  language and the translation shown beside its pages; any other language pairs with the
  source.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polib
from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import docname_join
from sphinx.util.fileutil import copy_asset_file
from sphinx.util.nodes import extract_messages
from sphinx_design.shared import is_component

from jaxbook._compat import parse_as_page
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
    from sphinx.environment import BuildEnvironment
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


class parallel_link(nodes.Inline, nodes.TextElement):
    """A link's words in the other language's text, to be spaced from Chinese as a link is.
    A reference whose words only the whole book knows (a ``:ref:`` or ``:doc:`` without a
    title, a section's reference) keeps its ``pending_xref``'s attributes."""


class parallel_figure(nodes.Inline, nodes.TextElement):
    """A measured figure in the other language's text: its ``variable`` and format ``spec``,
    and the words it was written with."""


class RecordMessages(SphinxTransform):
    """Keep each passage's catalog message on the node, before Locale translates it.

    On a source-language page the translation's catalog becomes a dependency, so that a
    change to the catalog rereads and rewrites the page."""

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


def catalog(env: BuildEnvironment, docname: str, language: str) -> dict[str, polib.POEntry]:
    return catalog_entries(env.srcdir, env.config, page_domain(env.config, docname), language)


# A link whose title ends in Chinese at a line end: the message joins the lines with no
# space ("《JAX 入门》<https://...>`__"), and reST needs one before an embedded target.
JOINED_TARGET = re.compile(r"(?<!`)`([^`<]*\S)<([^<>`]+)>`(_{1,2})")


def parse(app: Sphinx, doctree: nodes.document, docname: str, text: str, heading: bool):
    """The inline content of ``text``, parsed as the page's source would be."""
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
    document = parse_as_page(app, docname, text, settings)
    found = document.next_node(nodes.title if heading else nodes.paragraph)
    if found is None:
        return [nodes.Text(text)]
    return plain(found.children)


def section_reference(env: BuildEnvironment, docname: str, link: nodes.Element) -> str | None:
    """What a section reference (``:book:sec:``) in the other language's text says, as
    that language says it: the section's number and its title there."""
    if link.get("refdomain") != "book":
        return None
    found = numbering.section_target(env, link["reftarget"], docname)
    number = found and _chapters.page_number(env, found[0])
    if not found or not number:
        return None
    page, _label, title = found
    explicit = link.astext() if link.get("refexplicit") else None
    other = other_language(env.config)
    return numbering.section_text(
        link["reftype"],
        number,
        # In the other language as its catalog has it, then in words, as the page says it.
        without_emoji(other_title(env, page, title)),
        explicit,
        words=lambda message: label_in(env, other, message),
    )


def other_language(config: Config) -> str:
    """The language of the text beside the page's."""
    languages = pair(config)
    assert languages is not None
    return languages[1] if config.language == languages[0] else languages[0]


def label_in(env: BuildEnvironment, language: str, message: str) -> str:
    """One of this package's labels in ``language``: the book's catalog of it
    (``<locale_dir>/<language>/LC_MESSAGES/jaxbook.po``, a translator's), else the
    package's, where reviewed; else the message itself, which is English."""
    for entries in (
        catalog_entries(env.srcdir, env.config, MESSAGE_CATALOG_NAME, language),
        package_entries(language),
    ):
        entry = entries.get(message)
        if entry is not None and reviewed(entry):
            return entry.msgstr
    return message


def implicit_title(env: BuildEnvironment, docname: str, link: nodes.Element) -> str | None:
    """The other-language title that a ``:ref:`` or ``:doc:`` without a title of its own
    shows, as Sphinx would resolve it; None when it is not such a reference."""
    if link.get("refexplicit") or link.get("refdomain") != "std":
        return None
    if link.get("reftype") == "ref":
        label = env.domains.standard_domain.labels.get(link["reftarget"].lower())
        if label is None:
            return None
        target, title = label[0], label[2]
    elif link.get("reftype") == "doc":
        target = docname_join(docname, link["reftarget"])
        if target not in env.titles:
            return None
        title = env.titles[target].astext()
    else:
        return None
    return other_title(env, target, title)


def other_title(env: BuildEnvironment, target: str, title: str) -> str:
    """A title of the page ``target``, as the page's language has it, in the other language:
    its catalog entry's (the title itself where the catalog has none)."""
    languages = pair(env.config)
    assert languages is not None
    entries = catalog(env, target, languages[1]).values()
    for entry in entries:
        if entry.fuzzy or not entry.msgstr:
            continue
        if env.config.language == languages[0] and entry.msgid == title:
            return entry.msgstr
        if env.config.language != languages[0] and entry.msgstr == title:
            return entry.msgid
    return title


KEPT = (nodes.emphasis, nodes.strong, nodes.literal, nodes.subscript, nodes.superscript, zh_term)
DROPPED = (nodes.Invisible, nodes.system_message, nodes.footnote_reference, nodes.image, nodes.raw)
# What a reference in the other language's text keeps to find its words when the page is
# written (implicit_title, section_reference).
XREF_ATTRIBUTES = ("refdomain", "reftype", "reftarget", "refexplicit")


def plain(children: list[nodes.Node]) -> list[nodes.Node]:
    """Text, code, math, emphasis and ``:zh:`` mentions kept; a measured figure and each
    reference's words kept for the page's writing (``parallel_figure``, ``parallel_link``);
    every other element its text."""
    out: list[nodes.Node] = []
    for child in children:
        if isinstance(child, nodes.Text):
            out.append(nodes.Text(str(child)))
        elif isinstance(child, DROPPED):
            continue
        elif isinstance(child, nodes.math):
            out.append(child.deepcopy())  # set by the page's math renderer, as the text's
        elif isinstance(child, measured_value):
            out.append(
                parallel_figure("", child.astext(), variable=child["variable"], spec=child["spec"])
            )
        elif isinstance(child, KEPT) or (
            isinstance(child, nodes.inline) and "jb-fact" in child["classes"]
        ):
            kept = plain(child.children)
            out.append(type(child)("", "", *kept, classes=child["classes"]))
        elif isinstance(child, nodes.reference | addnodes.pending_xref):
            words = "".join(node.astext() for node in plain(child.children))
            xref = {k: child[k] for k in XREF_ATTRIBUTES if k in child.attributes}
            out.append(parallel_link("", words, **xref))
        elif isinstance(child, nodes.Element):
            out.extend(plain(child.children))
    return out


def figure(value: nodes.Element, values: dict[str, object]) -> str:
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
    env: BuildEnvironment, docname: str, message: str, languages: tuple[str, str]
) -> tuple[str, str | None]:
    """("text", the other language's message), or ("marker", a label), or ("same", None).

    A missing or empty entry is marked "not yet translated" and a fuzzy one "awaiting
    review": a fuzzy ``msgstr`` is never shown. A translation equal to its source (a name,
    a number) shows nothing."""
    source, translation = languages
    entry = catalog(env, docname, translation).get(message)
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
    return "text", entry.msgstr if env.config.language == source else entry.msgid


def add_parallel_text(app: Sphinx, doctree: nodes.document) -> None:
    """Each passage's other-language text, parsed as the page is read, beside it in the
    doctree; its message dropped.

    A ``doctree-read`` handler, not a transform, for the application's parsers, which a
    transform cannot reach (``jaxbook.sphinxext``); after the collectors and every other
    handler that reads the page's text (the counts of passages, the glossary's uses), so
    that none reads the other language's. The doctree keeps the parsed text, so every build
    of the page reuses it. The catalogs' templates (``gettext``) show no translation.

    A heading's text goes after the heading, not inside it, so the contents, page title and
    anchors keep only the page's own. Each added element has the class ``jb-parallel``, its
    text's ``lang`` and ``hidden``, which the stylesheet lifts while the view is on; with
    ``no-search`` and an empty ``astext()`` it stays out of the search index and the page's
    description."""
    docname = app.env.docname
    languages = pair(app.config)
    for node in [n for n in doctree.findall(nodes.Element) if MESSAGE in n.attributes]:
        message = node.attributes.pop(MESSAGE)  # an extra attribute would uncompact lists
        if languages is None or app.builder.name == "gettext":
            continue
        kind, text = other_text(app.env, docname, message, languages)
        if kind == "same":
            continue
        assert text is not None, "only the same text comes without one"
        heading = passage_kind(node) == "heading"
        if heading and is_component(node.parent, "dropdown"):
            continue  # a dropdown's title: its summary on the website, where no block goes
        if kind == "marker":
            lang, children = bcp47(app.config.language), [nodes.Text(text)]
            classes = ["jb-parallel", "jb-parallel-marker", "no-search"]
        else:
            lang, classes = bcp47(other_language(app.config)), ["jb-parallel", "no-search"]
            children = parse(app, doctree, docname, text, heading)
        if heading:
            added = parallel_heading("", "", *children, classes=classes, lang=lang)
            node.parent.insert(node.parent.index(node) + 1, added)
        else:
            node += parallel_text("", "", *children, classes=classes, lang=lang)


class ShowParallelText(SphinxPostTransform):
    """On the website: each passage's own content and its other-language text side by side,
    with what only the whole book or the page's run knows filled in, and the button that
    shows them: a ``:ref:`` or ``:doc:`` without a title shows its target's title from that
    page's catalog, a section reference the section's number, a measured figure the value
    of the page's run.

    After every other post-transform (the page's measured figures are 900's): no other
    changes the page beside the passages, and the notebooks (``doctree-resolved``) take
    the text out again (``without_parallel_text``)."""

    default_priority = 950
    builders = tuple(HTML_BUILDERS)

    def run(self, **kwargs: Any) -> None:
        doctree, env = self.document, self.env
        docname = env.current_document.docname
        added = added_text(doctree)
        if not added:
            return
        # The figures the page's run measured (pagerun.sphinxext.measured, before this).
        values = {
            value["variable"]: value["pagerun_value"]
            for value in doctree.findall(measured_value)
            if "pagerun_value" in value
        }
        for value in list(doctree.findall(parallel_figure)):
            value.replace_self(nodes.Text(figure(value, values)))
        for link in list(doctree.findall(parallel_link)):
            title = implicit_title(env, docname, link)
            if title is None:
                title = section_reference(env, docname, link)
            link.replace_self(nodes.Text(spaced(link, link.astext() if title is None else title)))
        for text in added:
            if isinstance(text, parallel_text):
                node = text.parent
                own = [child for child in node.children if child is not text]
                node.clear()
                node.append(parallel_source("", "", *own, classes=["jb-parallel-source"]))
                node.append(text)
        # Translators: A toggle button at the top of a translated page that shows each passage's
        # source beside it.
        doctree.insert(0, parallel_toggle(label=str(_("Parallel text"))))


def added_text(doctree: nodes.Node) -> list[nodes.Element]:
    """The other language's text that the page holds beside its passages."""
    added = (parallel_text, parallel_heading)
    return [node for node in doctree.findall(nodes.Element) if isinstance(node, added)]


def spaced(link: nodes.Element, words: str) -> str:
    """A link's words, spaced from the Chinese before and after them as a link is
    (``jaxbook.sphinxext.cjk``): a space between Chinese and Latin letters."""
    parent = link.parent
    index = parent.index(link)
    before = parent[index - 1].astext()[-1:] if index > 0 else ""
    following = parent[index + 1].astext()[:1] if index + 1 < len(parent) else ""
    if HAN.match(before) and LATIN.match(words[:1]):
        words = " " + words
    if LATIN.match(words[-1:]) and HAN.match(following):
        words = words + " "
    return words


class DropParallelText(SphinxPostTransform):
    """For every builder but the website's: the page as read, without the other language's
    text (the EPUB, the PDF, the catalogs' templates)."""

    # Before every other post-transform: each sees the page as read.
    default_priority = 1
    builders = tuple(HTML_BUILDERS)

    def is_supported(self) -> bool:
        return not super().is_supported()  # every builder but those

    def run(self, **kwargs: Any) -> None:
        for node in added_text(self.document):
            node.parent.remove(node)


def without_parallel_text(doctree: nodes.document) -> nodes.document:
    """A copy of a page as read, without the other language's text that the website shows
    beside it (for what is made from the page alone: its notebook)."""
    alone = doctree.deepcopy()
    for node in [*added_text(alone), *alone.findall(parallel_toggle)]:
        node.parent.remove(node)
    for source in list(alone.findall(parallel_source)):
        parent = source.parent
        index = parent.index(source)
        parent[index : index + 1] = source.children
    return alone


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
    """The stylesheet and the small inline script, for the HTML builders only."""
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
    app.add_node(parallel_link)
    app.add_node(parallel_figure)
    app.connect("builder-inited", add_assets)
    # After every other handler that reads the page's text (500); before the page's run
    # (pagerun's, 900), which reads only its code: add_parallel_text says why.
    app.connect("doctree-read", add_parallel_text, priority=800)
    app.add_post_transform(ShowParallelText)
    app.add_post_transform(DropParallelText)
    # Version 1: the doctrees hold the other language's text, parsed as the page is read.
    return {"version": "1.0", "env_version": 1, **PARALLEL_SAFE}
