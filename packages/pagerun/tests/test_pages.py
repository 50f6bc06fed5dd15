"""A page's blocks as the engine runs them (``pagerun.pages``)."""

from __future__ import annotations

from docutils import nodes

from pagerun.pages import block_of


class Config:
    doctest_test_doctest_blocks = "default"


def test_an_included_block_is_named_by_its_file_in_the_project_wherever_the_build_runs(
    tmp_path, monkeypatch
):
    """docutils names included text by a path relative to where the page was read (the
    project's root); a build that runs from elsewhere still finds the file."""
    project = tmp_path / "book"
    (project / "docs").mkdir(parents=True)
    (project / "docs" / "_part.rst").write_text("text\n")
    block = nodes.literal_block("print(1)", "print(1)", testnodetype="testcode")
    block.source, block.line = "docs/_part.rst", 3
    monkeypatch.chdir(tmp_path)  # not the project's root: docs/_part.rst is not here
    recorded = block_of(block, Config(), project, project / "docs" / "page.rst")
    assert (recorded["file"], recorded["line"]) == ("docs/_part.rst", 3)
