"""Every page's notebook, in each language, runs top to bottom and passes its asserts."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

PAGES = [
    "what-is-jax",
    "jax-vs-numpy",
    "transformations",
    "installation",
    "arrays",
    "devices",
    "exercises",
    "quiz",
    "answers",
    "index",
]


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_notebook_runs(built_site, tmp_path, language, page):
    path = built_site / language / "_notebooks" / "ch01" / f"{page}.ipynb"
    notebook = nbformat.read(str(path), as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code, path
    assert notebook.metadata["jaxbook"]["language"] == language
    # Raises CellExecutionError, naming the cell, on any exception or failed assert.
    NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute()
    errors = [o for cell in code for o in cell.get("outputs", []) if o.output_type == "error"]
    assert not errors


def test_notebook_links_on_pages(built_site):
    html = (built_site / "en" / "ch01" / "arrays.html").read_text(encoding="utf-8")
    assert 'href="../_notebooks/ch01/arrays.ipynb"' in html
    notebook = nbformat.read(str(built_site / "en" / "_notebooks/ch01/jax-vs-numpy.ipynb"), 4)
    sources = "\n".join(cell.source for cell in notebook.cells)
    assert "%%writefile x64_startup.py" in sources
    assert "不" not in "".join(c.source for c in notebook.cells if c.cell_type == "code")
    assert Path(built_site / "zh_CN" / "_notebooks/ch01/quiz.ipynb").exists()
