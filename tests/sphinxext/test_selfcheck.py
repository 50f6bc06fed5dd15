"""An exercise's self-check is in the page's catalog, notebook and (with ``:doctest:``) doctests,
and nowhere in what a reader of the page sees: the HTML, its search index, the LaTeX."""

from __future__ import annotations

import shutil

import pytest

from jaxbook.sphinxext.notebooks import notebook_for
from jaxbook.sphinxext.selfcheck import selfcheck
from pagerun.pages import doctest_nodes_of

MARK = "zyzzyva"  # a word of _check.py that nothing else in the root holds


@pytest.mark.sphinx("html", testroot="selfcheck")
def test_the_page_and_its_search_index_hold_no_self_check(built):
    for page in ("index", "wrong"):
        assert MARK not in built.page(page)
        assert "Define answer()" not in built.page(page)
    assert "Write" in built.page()  # the page itself is written
    search = (built.app.outdir / "searchindex.js").read_text(encoding="utf-8")
    assert MARK not in search


@pytest.mark.parametrize("builder", ["latex", "epub", "text", "man", "texinfo"])
def test_no_other_writer_writes_a_self_check(make_app, rootdir, tmp_path, builder):
    app = make_app(builder, srcdir=_copy_root(rootdir, tmp_path))
    app.build()
    written = [p for p in app.outdir.rglob("*") if p.is_file() and p.suffix != ".png"]
    texts = [p.read_bytes().decode("utf-8", "replace") for p in written]
    assert any("Write" in text for text in texts)
    assert not any(MARK in text for text in texts)


def _copy_root(rootdir, tmp_path):
    shutil.copytree(rootdir / "test-selfcheck", tmp_path / "selfcheck")
    return tmp_path / "selfcheck"


def test_the_self_check_is_a_message_to_translate(make_app, rootdir, tmp_path):
    app = make_app("gettext", srcdir=_copy_root(rootdir, tmp_path))
    app.build()
    catalog = (app.outdir / "index.pot").read_text(encoding="utf-8")
    assert f"# {MARK}: the self-check of the exercise" in catalog
    assert "Define answer() above, then run this cell again." in catalog


@pytest.mark.sphinx("html", testroot="selfcheck")
def test_only_the_self_check_marked_doctest_is_a_doctest(built):
    doctree = built.app.env.get_doctree("index")
    checks = list(doctree.findall(selfcheck))
    assert len(checks) == 2
    tested = [n for n in doctest_nodes_of(doctree, built.app.config) if MARK in n.astext()]
    [block] = tested
    assert block.parent is checks[1]
    assert block["testnodetype"] == "testcode"
    assert "testnodetype" not in checks[0][0]


@pytest.mark.sphinx("doctest", testroot="selfcheck")
def test_the_self_check_runs_after_the_answer_and_fails_a_wrong_one(built):
    # index: the answer area, the answer and its self-check; wrong: a wrong answer and its
    # self-check, which fails with its message. The exercise's self-check does not run (it
    # would print the message that asks for an answer, which no output expects).
    assert built.doctest_counts() == (5, 1)
    output = built.doctest_output
    assert "AssertionError: answer() should return 42" in output


def test_a_missing_file_is_an_error_at_its_line(make_app, rootdir, tmp_path):
    app = make_app("html", srcdir=_copy_root(rootdir, tmp_path))
    app.build()
    assert "wrong.rst:12: ERROR: selfcheck '_missing.py': no Python file" in app.warning.getvalue()


@pytest.mark.sphinx("html", testroot="selfcheck")
def test_the_notebook_has_the_self_check_below_each_answer_cell(built):
    notebook = notebook_for(built.app.env.get_doctree("index"), "en")
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    check = (built.app.srcdir / "_check.py").read_text(encoding="utf-8").rstrip("\n")
    assert code == ["# Answer here.", check, "def answer():\n    return 42", check]
    assert not any(cell.outputs for cell in notebook.cells if cell.cell_type == "code")
