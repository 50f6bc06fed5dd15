"""Code blocks that are laid out late keep their height until they are.

The stylesheet defers the layout of the code blocks in a page's later
sections (``content-visibility: auto``): a page of many highlighted cells
would otherwise spend its first second on a phone laying out thousands of
token spans. Until a block is laid out, the browser gives it the height of
``contain-intrinsic-size``. One height for every block put each one off by
up to 700 px, so a link to a later section landed short of it and the page
moved under the reader as blocks came into view. Each ``<pre>`` of a
highlighted block now carries its number of lines (``--jb-lines``), and the
stylesheet makes the placeholder that many lines high.

Config values: none.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

BLOCK = re.compile(r'(<div class="highlight"><pre)([^>]*>)(.*?)(</pre>)', re.DOTALL)


def _with_lines(match: re.Match[str]) -> str:
    start, attributes, code, end = match.groups()
    lines = code.rstrip("\n").count("\n") + 1
    return f'{start} style="--jb-lines: {lines}"{attributes}{code}{end}'


def mark_lines(html: str) -> str:
    """Every highlighted block's ``<pre>`` with its number of lines."""
    return BLOCK.sub(_with_lines, html)


def mark_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    if isinstance(context.get("body"), str):
        context["body"] = mark_lines(context["body"])


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("html-page-context", mark_context)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
