"""``:zh:`向量化``` marks a deliberate mention of a Chinese term.

The English pages hold no Chinese text except where a sentence talks about a
Chinese term itself (“向量化 is vectorization, not 量化”). Such a mention is
written with this role, which renders ``<span lang="zh-CN">``: screen readers
and fonts treat it as Chinese, and the check for stray Chinese on the English
site skips exactly these spans.

Config values: none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes

from jaxbook.sphinxext import PARALLEL_SAFE

if TYPE_CHECKING:
    from docutils.parsers.rst.states import Inliner
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


class zh_term(nodes.inline):
    """Inline Chinese text inside another language's page."""


def zh_role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Inliner,
    options: dict[str, Any] | None = None,
    content: list[str] | None = None,
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    return [zh_term(rawtext, text, classes=["jb-zh-term"])], []


def visit_zh_term_html(self: Any, node: zh_term) -> None:
    self.body.append(self.starttag(node, "span", "", lang="zh-CN"))


def depart_zh_term_html(self: Any, node: zh_term) -> None:
    self.body.append("</span>")


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_node(zh_term, html=(visit_zh_term_html, depart_zh_term_html))
    app.add_role("zh", zh_role)
    return {"version": "1.0", **PARALLEL_SAFE}
