"""Tell readers of a translated page what is not translated yet, and mark it as source text.

In a build in another language than the source, each page's passages are counted as it
is read (``doctree-read``, :func:`count_passages`), against its catalog found through
``locale_dirs``; a post-transform (:class:`AddNotices`) puts a notice with the count at
the top of a page with any untranslated passage, and a draft notice on every page of a
draft edition. Each passage left in the source language is marked as written in it.

Config values:

- ``jaxbook_draft_languages`` (``[]``): the languages whose edition is a draft, built
  and linked for its translators but not offered to readers (``conf.py`` gives those
  ``locale/languages.csv`` lists as ``draft``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from sphinx.domains import Domain
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.nodes import extract_messages

from jaxbook.project import SOURCE_LANGUAGE, bcp47
from jaxbook.sphinxext import PARALLEL_SAFE
from jaxbook.sphinxext._locale import _, add_catalog, catalog_entries, page_domain, reviewed
from jaxbook.sphinxext._nodes import after_title

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata


class TranslationDomain(Domain):
    """Each page's (translated, total) passages, as last read: the extension's own data,
    not the page's metadata, which the templates see as ``meta``."""

    name = "jaxbook_translation"
    label = "Translation status"
    initial_data: ClassVar[dict[str, Any]] = {"progress": {}}  # docname -> (done, total)
    data_version = 3

    def clear_doc(self, docname: str) -> None:
        self.data["progress"].pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for docname in docnames & otherdata["progress"].keys():
            self.data["progress"][docname] = otherdata["progress"][docname]


def _domain(env: BuildEnvironment) -> TranslationDomain:
    domain = env.domains[TranslationDomain.name]
    assert isinstance(domain, TranslationDomain), "setup() adds the domain under its name"
    return domain


def count_passages(app: Sphinx, doctree: nodes.document) -> None:
    """Store (translated, total) passages of the page just read, in the domain's data.

    A passage is whatever Sphinx would translate (paragraphs, titles, code blocks and their
    outputs); it is untranslated when the page's catalog has no entry for it yet (the
    source changed after the merge), an empty ``msgstr`` or a fuzzy one, which is never
    published. An untranslated passage gets docutils' ``language-zh-CN`` class, which the
    HTML writer turns into ``lang="zh-CN"``, so that a browser, a screen reader and a
    search engine read it as Chinese on an English page.
    """
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
    _domain(app.env).data["progress"][docname] = (done, total)


def page_progress(env: BuildEnvironment, docname: str) -> tuple[int, int] | None:
    """(translated, total) passages of a page as last read, or None in the source language."""
    return _domain(env).data["progress"].get(docname)


def at_top(doctree: nodes.document, notice: nodes.Element) -> None:
    sections = list(doctree.findall(nodes.section))
    if sections:
        sections[0].insert(after_title(sections[0]), notice)
    else:
        doctree.insert(0, notice)


class AddNotices(SphinxPostTransform):
    """The notices at the top of a translated page: what is not translated, a draft."""

    # After every other post-transform, as when this was a doctree-resolved handler, so that
    # none reads the notices as the page's text; after discovery's page links (960), so that
    # the notices, put at the same place, go above them.
    default_priority = 970
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        add_notices(self.env, self.document, self.env.current_document.docname)


def add_notices(env: BuildEnvironment, doctree: nodes.document, docname: str) -> None:
    config = env.config
    if config.language == SOURCE_LANGUAGE:
        return
    progress = page_progress(env, docname)
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
    if config.language in config.jaxbook_draft_languages:
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
    app.add_domain(TranslationDomain)
    app.connect("doctree-read", count_passages)
    app.add_post_transform(AddNotices)
    return {"version": "1.0", "env_version": TranslationDomain.data_version, **PARALLEL_SAFE}
