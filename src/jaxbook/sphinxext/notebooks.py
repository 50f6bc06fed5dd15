"""Offer each page's code as a runnable Jupyter notebook, in the page's language.

While the HTML pages are written, each page that holds code cells becomes
``<outdir>/_notebooks/<page>.ipynb``: its headings and paragraphs as Markdown
cells and its code as code cells, in page order. A script shown with
``.. snippet::`` becomes a ``%%writefile`` cell, so the cell after it finds
the file just as the doctest does. The notebook is built from the translated
page, so the English notebook has English comments and strings.

Each code cell carries, as its output, the expected output that the page
shows after it (the CPU one where a cell has a CPU and a GPU output): those
outputs come from real runs (``make refresh-outputs``) and ``make doctest``
checks them, so a notebook read on GitHub or nbviewer shows what the code
really prints. The first cells install the versions the outputs were produced
with, taken from the ``[project]`` dependencies of ``pyproject.toml``, and
say how to get the CUDA build; that cell is tagged ``jaxbook-install``.

Under the page title go links to the notebook, to a zip of all of the
language's notebooks (``_notebooks/<basename>-notebooks-<language>.zip``) and,
when a repository is configured, to the notebook in Google Colab.

Config values:

``jaxbook_notebook_requirements``
   The packages the install cell pins (default: the ``[project]``
   dependencies of the ``pyproject.toml`` beside ``conf.py``).
``jaxbook_notebook_gpu_extra``
   The requirement that replaces ``jax`` for an NVIDIA GPU (default: the
   ``cuda`` extra of ``pyproject.toml``, ``""`` if none).
``jaxbook_repo_url``
   ``https://github.com/<owner>/<repo>`` (the ``JAXBOOK_REPO_URL``
   environment variable overrides it; default ``""``: no Colab link).
``jaxbook_notebooks_branch``
   The branch of that repository whose ``<language>/_notebooks/`` Colab
   opens (default ``"notebooks"``, which the deploy job writes with
   ``jaxbook publish-notebooks``).
"""

from __future__ import annotations

import os
import re
import tomllib
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

import nbformat
from docutils import nodes

from jaxbook.sphinxext._locale import _
from jaxbook.sphinxext._nodes import chrome

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

NOTEBOOK_DIR = "_notebooks"
# Written by `jaxbook publish-notebooks` on each deploy (jaxbook.site.publish).
NOTEBOOKS_BRANCH = "notebooks"
INSTALL_TAG = "jaxbook-install"
GITHUB = re.compile(r"^https://github\.com/([^/]+)/([^/]+?)(?:\.git)?/?$")
# Cells that answer another backend than the one a notebook runs on by default.
OTHER_BACKENDS = {"not ON_GPU"}


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


def _shown_output(node: nodes.Element) -> str | None:
    """The expected output a page shows for the notebook's backend, or None."""
    if node.get("testnodetype") != "testoutput":
        return None
    if str(node.get("skipif", "")).strip() in OTHER_BACKENDS:
        return None
    return node.astext()


def install_cells(requirements: list[str], gpu: str) -> list[nbformat.NotebookNode]:
    note = _(
        "The outputs below were produced with these versions; other releases may print "
        "otherwise. On an NVIDIA GPU, install %s instead of jax."
    ) % (f"`{gpu}`" if gpu else "the CUDA build of jax")
    install = nbformat.v4.new_code_cell(
        "%pip install " + " ".join(requirements), metadata={"tags": [INSTALL_TAG]}
    )
    return [nbformat.v4.new_markdown_cell(note), install]


def notebook_for(
    doctree: nodes.document,
    language: str,
    requirements: list[str] | None = None,
    gpu: str = "",
) -> nbformat.NotebookNode | None:
    cells = []
    has_code = False
    last_code = None
    for node in doctree.findall(nodes.Element):
        code = _code_cell(node)
        output = _shown_output(node)
        if code is not None:
            last_code = nbformat.v4.new_code_cell(code)
            cells.append(last_code)
            has_code = True
        elif output is not None:
            if last_code is not None and not last_code.outputs:
                text = output if output.endswith("\n") else output + "\n"
                last_code.outputs.append(nbformat.v4.new_output("stream", name="stdout", text=text))
        elif isinstance(node, nodes.title) and isinstance(node.parent, nodes.section):
            level = sum(1 for _ in _ancestors(node, nodes.section))
            cells.append(nbformat.v4.new_markdown_cell(f"{'#' * level} {node.astext()}"))
        elif isinstance(node, nodes.paragraph) and not any(_ancestors(node, nodes.table)):
            bullet = "- " if isinstance(node.parent, nodes.list_item) else ""
            cells.append(nbformat.v4.new_markdown_cell(bullet + node.astext()))
    if not has_code:
        return None
    if requirements:
        # Right under the page title, before anything else.
        at = 1 if cells[0].cell_type == "markdown" and cells[0].source.startswith("# ") else 0
        cells[at:at] = install_cells(requirements, gpu)
    for count, cell in enumerate((c for c in cells if c.cell_type == "code"), start=1):
        if cell.outputs:
            cell.execution_count = count
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata.update(
        {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
            "jaxbook": {"language": language},
        }
    )
    return notebook


def project_pins(confdir: str) -> tuple[list[str], str]:
    """The ``[project]`` dependencies of pyproject.toml and its ``cuda`` extra's first entry."""
    path = Path(confdir, "pyproject.toml")
    if not path.exists():
        return [], ""
    project = tomllib.loads(path.read_text(encoding="utf-8")).get("project", {})
    cuda = project.get("optional-dependencies", {}).get("cuda", [])
    return list(project.get("dependencies", [])), cuda[0] if cuda else ""


def zip_name(app: Sphinx) -> str:
    return f"{app.config.jaxbook_editions_basename}-notebooks-{app.config.language}.zip"


def colab_url(app: Sphinx, docname: str) -> str | None:
    repo = os.environ.get("JAXBOOK_REPO_URL") or app.config.jaxbook_repo_url
    match = GITHUB.match(repo.strip())
    if not match:
        return None
    owner, name = match.groups()
    branch = app.config.jaxbook_notebooks_branch
    return (
        f"https://colab.research.google.com/github/{owner}/{name}/blob/{branch}/"
        f"{app.config.language}/{NOTEBOOK_DIR}/{docname}.ipynb"
    )


def write_notebook(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    # The website only: an e-book has no place for a download.
    if app.builder.name != "html":
        return
    pins, gpu = project_pins(app.confdir)
    requirements = app.config.jaxbook_notebook_requirements or pins
    gpu = app.config.jaxbook_notebook_gpu_extra or gpu
    notebook = notebook_for(doctree, app.config.language, requirements, gpu)
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
    paragraph = chrome("", "", link, classes=["jb-notebook"])
    paragraph += nodes.Text(" · ")
    paragraph += nodes.reference(
        "",
        _("all notebooks (.zip)"),
        refuri=f"{up}{NOTEBOOK_DIR}/{zip_name(app)}",
        classes=["jb-notebook-zip"],
    )
    colab = colab_url(app, docname)
    if colab:
        paragraph += nodes.Text(" · ")
        paragraph += nodes.reference(
            "", _("open in Colab"), refuri=colab, classes=["jb-colab-link"]
        )
    sections = list(doctree.findall(nodes.section))
    if sections:
        title = sections[0].next_node(nodes.title)
        sections[0].insert(sections[0].index(title) + 1, paragraph)


def zip_notebooks(app: Sphinx, exception: Exception | None) -> None:
    """All of a language's notebooks in one download."""
    if exception is not None or app.builder.name != "html":
        return
    folder = Path(app.outdir, NOTEBOOK_DIR)
    notebooks = sorted(folder.rglob("*.ipynb"))
    if not notebooks:
        return
    with zipfile.ZipFile(folder / zip_name(app), "w", zipfile.ZIP_DEFLATED) as archive:
        for path in notebooks:
            archive.write(path, path.relative_to(folder).as_posix())


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_config_value("jaxbook_notebook_requirements", [], "html", types=frozenset({list}))
    app.add_config_value("jaxbook_notebook_gpu_extra", "", "html", types=frozenset({str}))
    app.add_config_value("jaxbook_repo_url", "", "html", types=frozenset({str}))
    app.add_config_value(
        "jaxbook_notebooks_branch", NOTEBOOKS_BRANCH, "html", types=frozenset({str})
    )
    app.setup_extension("jaxbook.sphinxext.editions")
    app.connect("doctree-resolved", write_notebook)
    app.connect("build-finished", zip_notebooks)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
