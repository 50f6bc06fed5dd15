"""Offer each page's code as a runnable Jupyter notebook, in the page's language.

While the HTML pages are written, each page that holds code cells becomes
``<outdir>/_notebooks/<page>.ipynb``: its headings and paragraphs as Markdown
cells and its code as code cells, in page order. A script shown with
``.. snippet::`` becomes a ``%%writefile`` cell, so the cell after it finds
the file just as the doctest does. The notebook is built from the translated
page, so the English notebook has English comments and strings. A link to it
is added under the page title. Outputs are left out: the reader runs it.

Config values: none.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import nbformat
from docutils import nodes

from jaxbook.sphinxext._locale import _

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

NOTEBOOK_DIR = "_notebooks"


def _ancestors(node: nodes.Node, kind: type[nodes.Element]):
    parent = node.parent
    while parent is not None:
        if isinstance(parent, kind):
            yield parent
        parent = parent.parent


def _code_cell(node: nodes.Element) -> str | None:
    if node.get("testnodetype") == "testcode":
        return node.astext()
    if isinstance(node, nodes.literal_block) and node.get("jaxbook_snippet"):
        return f"%%writefile {node['jaxbook_snippet']}\n{node.astext()}"
    return None


def notebook_for(doctree: nodes.document, language: str) -> nbformat.NotebookNode | None:
    cells = []
    has_code = False
    for node in doctree.findall(nodes.Element):
        code = _code_cell(node)
        if code is not None:
            cells.append(nbformat.v4.new_code_cell(code))
            has_code = True
        elif isinstance(node, nodes.title) and isinstance(node.parent, nodes.section):
            level = sum(1 for _ in _ancestors(node, nodes.section))
            cells.append(nbformat.v4.new_markdown_cell(f"{'#' * level} {node.astext()}"))
        elif isinstance(node, nodes.paragraph) and not any(_ancestors(node, nodes.table)):
            bullet = "- " if isinstance(node.parent, nodes.list_item) else ""
            cells.append(nbformat.v4.new_markdown_cell(bullet + node.astext()))
    if not has_code:
        return None
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata.update(
        {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
            "jaxbook": {"language": language},
        }
    )
    return notebook


def write_notebook(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    # The website only: an e-book has no place for a download.
    if app.builder.name != "html":
        return
    notebook = notebook_for(doctree, app.config.language)
    if notebook is None:
        return
    path = Path(app.outdir, NOTEBOOK_DIR, f"{docname}.ipynb")
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, str(path))
    up = "../" * docname.count("/")
    link = nodes.reference(
        "",
        _("Download this page as a notebook (.ipynb)"),
        refuri=f"{up}{NOTEBOOK_DIR}/{docname}.ipynb",
        classes=["jb-notebook-link"],
    )
    paragraph = nodes.paragraph("", "", link, classes=["jb-notebook"])
    sections = list(doctree.findall(nodes.section))
    if sections:
        title = sections[0].next_node(nodes.title)
        sections[0].insert(sections[0].index(title) + 1, paragraph)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("doctree-resolved", write_notebook)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
