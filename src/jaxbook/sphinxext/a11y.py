"""Small accessibility repairs to the theme's and Sphinx's HTML.

- Every ``<pre>`` gets ``tabindex="0"``: long code lines scroll sideways,
  and a scrollable region must be reachable from the keyboard (WCAG 2.1.1).
  So does furo's wrapper of each table and displayed formula
  (``table-wrapper``, ``math-wrapper``), which scrolls sideways on a phone.
- A toctree caption is marked ``role="heading"`` by Sphinx but has no
  ``aria-level``; it gets ``aria-level="2"``, in the page and in furo's
  sidebar navigation.

Config values: none.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

PRE = re.compile(r"<pre(?![^>]*\btabindex=)")
WRAPPER = re.compile(r'<div class="((?:table|math)-wrapper\b[^"]*)"(?![^>]*\btabindex=)')
HEADING_ROLE = re.compile(r'role="heading"(?! aria-level)')


def repair(html: str) -> str:
    html = WRAPPER.sub(r'<div class="\1" tabindex="0"', PRE.sub('<pre tabindex="0"', html))
    return HEADING_ROLE.sub('role="heading" aria-level="2"', html)


def repair_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    for key in ("body", "furo_navigation_tree", "toc"):
        if isinstance(context.get(key), str):
            context[key] = repair(context[key])


def setup(app: Sphinx) -> ExtensionMetadata:
    # After furo has put its navigation tree into the context.
    app.connect("html-page-context", repair_context, priority=900)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
