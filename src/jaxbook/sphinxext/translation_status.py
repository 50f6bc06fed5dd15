"""Tell readers of a translated page that is not fully translated yet.

For a build in another language than the source, each page whose catalog
(``<locale_dir>/<language>/LC_MESSAGES/<page>.po``) still has untranslated or
fuzzy messages gets a notice at its top saying how much is translated. Fuzzy
translations are never published (Sphinx leaves them out), so those passages
show the source text.

Config values: none; the catalogs are found through ``locale_dirs``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import polib
from docutils import nodes
from sphinx.util import logging

from jaxbook.sphinxext._locale import _, add_catalog

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)
SOURCE_LANGUAGE = "zh_CN"


def page_progress(app: Sphinx, docname: str) -> tuple[int, int] | None:
    """(finished, total) messages of a page's catalog, or None without a catalog."""
    for locale_dir in app.config.locale_dirs:
        path = Path(app.srcdir, locale_dir, app.config.language, "LC_MESSAGES", f"{docname}.po")
        if path.exists():
            live = [e for e in polib.pofile(str(path)) if not e.obsolete]
            done = sum(1 for e in live if e.translated() and not e.fuzzy)
            return done, len(live)
    return None


def add_notice(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if app.builder.format != "html" or app.config.language == SOURCE_LANGUAGE:
        return
    progress = page_progress(app, docname)
    if progress is None or progress[0] == progress[1]:
        return
    done, total = progress
    text = _(
        "This page is %(percent)d%% translated: %(missing)d of %(total)d passages "
        "still appear in the original language."
    ) % {"percent": 100 * done // max(total, 1), "missing": total - done, "total": total}
    notice = nodes.admonition(classes=["jb-translation-notice", "attention"])
    notice += nodes.title("", _("Translation in progress"))
    notice += nodes.paragraph("", text)
    sections = list(doctree.findall(nodes.section))
    if sections:
        title = sections[0].next_node(nodes.title)
        sections[0].insert(sections[0].index(title) + 1, notice)
    else:
        doctree.insert(0, notice)


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    app.connect("doctree-resolved", add_notice)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
