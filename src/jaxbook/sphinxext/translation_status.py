"""Tell readers of a translated page what is not translated yet, and mark it as source text.

For a build in another language than the source, each page is counted as it
is read, against its current source: every passage Sphinx would translate
(paragraphs, titles, code blocks and their outputs), and of those the ones the
catalog (``<locale_dir>/<language>/LC_MESSAGES/<page>.po``) did not translate:
no entry yet (the source changed after the catalog was merged), an empty
``msgstr``, or a fuzzy one, which is never published. A page with any such
passage gets a notice at its top with the count; a page whose every passage is
translated gets none, however its catalog's and its source's commit dates
compare.

Each passage left in the source language carries that language: its node gets
docutils' ``language-zh-CN`` class, which the HTML writer turns into
``lang="zh-CN"`` on its element, so that a browser, a screen reader and a
search engine read it as Chinese on an English page.

A draft edition (``jaxbook_draft_languages``) says so at the top of every page:
it is built and linked for its translators, not offered to readers.

Config values:

``jaxbook_draft_languages``
   The languages whose translation is a draft (``conf.py``: those
   ``locale/languages.csv`` lists as ``draft``; default ``[]``).

The catalogs are found through ``locale_dirs``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util.nodes import extract_messages

from jaxbook.project import SOURCE_LANGUAGE, bcp47
from jaxbook.sphinxext import PARALLEL_SAFE
from jaxbook.sphinxext._locale import _, add_catalog, catalog_entries, page_domain, reviewed
from jaxbook.sphinxext._nodes import after_title

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


def count_passages(app: Sphinx, doctree: nodes.document) -> None:
    """Store (translated, total) passages of the page just read, in its metadata."""
    if app.config.language == SOURCE_LANGUAGE:
        return
    docname = app.env.docname
    catalog = catalog_entries(app.srcdir, app.config, page_domain(app.config, docname))
    live = [e for e in catalog.values() if reviewed(e)]
    # Sphinx translates toctree captions and image alt texts without flagging the node.
    known = {e.msgid for e in live} | {e.msgstr for e in live}
    total = done = 0
    source = f"language-{bcp47(SOURCE_LANGUAGE)}"
    for node, message in extract_messages(doctree):
        total += 1
        if node.get("translated") or message in known:
            done += 1
        elif source not in node["classes"]:
            node["classes"].append(source)
    app.env.metadata[docname]["jaxbook_translated"] = (done, total)


def page_progress(app: Sphinx, docname: str) -> tuple[int, int] | None:
    """(translated, total) passages of a page as last read, or None in the source language."""
    return app.env.metadata.get(docname, {}).get("jaxbook_translated")


def at_top(doctree: nodes.document, notice: nodes.Element) -> None:
    sections = list(doctree.findall(nodes.section))
    if sections:
        sections[0].insert(after_title(sections[0]), notice)
    else:
        doctree.insert(0, notice)


def add_notice(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if app.builder.format != "html" or app.config.language == SOURCE_LANGUAGE:
        return
    progress = page_progress(app, docname)
    if progress is not None and progress[0] != progress[1]:
        done, total = progress
        text = _(
            "This page is %(percent)d%% translated: %(missing)d of %(total)d passages "
            "still appear in the original language."
        ) % {"percent": 100 * done // max(total, 1), "missing": total - done, "total": total}
        notice = nodes.admonition(classes=["jb-translation-notice", "attention"])
        # Translators: The title of the notice at the top of a page that is not fully translated
        # yet.
        notice += nodes.title("", _("Translation in progress"))
        notice += nodes.paragraph("", text)
        at_top(doctree, notice)
    if app.config.language in app.config.jaxbook_draft_languages:
        draft = nodes.admonition(classes=["jb-draft-notice", "caution"])
        # Translators: The title of the notice at the top of every page of a draft edition.
        draft += nodes.title("", _("Draft edition"))
        draft += nodes.paragraph(
            "",
            _(
                "This edition is a draft for its translators: it is not offered to readers "
                "yet, and what is not translated shows the original text."
            ),
        )
        at_top(doctree, draft)


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    # "html": the notice is added as a page is written, so a language added to the book, or
    # finished, writes every page again and reads none again.
    app.add_config_value("jaxbook_draft_languages", [], "html", types=frozenset({list, tuple}))
    app.connect("doctree-read", count_passages)
    # A handler, not a post-transform: the notice goes above the page's links, which
    # discovery's handler puts under the title first.
    app.connect("doctree-resolved", add_notice)
    return {"version": "1.0", "env_version": 2, **PARALLEL_SAFE}
