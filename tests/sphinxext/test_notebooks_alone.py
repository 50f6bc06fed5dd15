"""The notebooks set up on their own: they need the book's file name stem
(``jaxbook_basename``, ``jaxbook.sphinxext.book_texts``'s), not the PDF and EPUB machinery
(``jaxbook.sphinxext.editions``) that names its files by it too. When the notebooks set up
the editions for that value, this book could not even start: the editions demand a
publisher."""

from __future__ import annotations

import pytest


@pytest.mark.sphinx("html", testroot="notebooks")
def test_the_notebooks_need_no_editions(built):
    extensions = built.app.extensions
    assert "jaxbook.sphinxext.notebooks" in extensions
    assert "jaxbook.sphinxext.editions" not in extensions
    assert built.warnings == ""


@pytest.mark.sphinx("html", testroot="notebooks")
def test_the_notebooks_zip_is_named_by_the_books_file_name_stem(built):
    folder = built.app.outdir / "_notebooks"
    assert sorted(p.name for p in folder.iterdir()) == [
        "index.ipynb",
        "small-book-notebooks-en.zip",
    ]
    assert 'href="_notebooks/small-book-notebooks-en.zip"' in built.page()


def test_the_install_cell_leaves_out_the_workspaces_members(tmp_path):
    """A dependency from the workspace (the book's pagerun) is on no index: a reader's
    notebook installs the others, each as pyproject.toml writes it."""
    from jaxbook.sphinxext.notebooks import project_pins

    (tmp_path / "pyproject.toml").write_text(
        '[project]\ndependencies = ["jax==0.12.0.1", "pagerun", "numpy>=2"]\n'
        '[project.optional-dependencies]\ntpu = ["jax[tpu]==0.12.0.1"]\n'
        '[tool.uv.sources]\npagerun = { workspace = true }\nnumpy = { index = "mirror" }\n',
        encoding="utf-8",
    )
    assert project_pins(tmp_path) == (["jax==0.12.0.1", "numpy>=2"], "", "jax[tpu]==0.12.0.1")
