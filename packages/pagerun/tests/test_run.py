"""Each page's code runs once, while the page is read; every builder of its doctree directory
renders that run, and a failure fails the build at its line every time."""

from __future__ import annotations

import json
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pagerun.pages import PageRecord, records
from pagerun.sphinxext import run as doctest_run


@pytest.fixture
def book(rootdir: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(rootdir / "test-doctest-run", tmp_path / "book"))


def test_the_builders_of_one_doctree_directory_share_one_run(book, build, edit):
    site, ran = build(book, "html")
    assert sorted(ran) == ["first", "second"]
    for builder in ("latex", "epub", "verdict"):
        app, ran = build(book, builder)
        assert ran == [], builder
        assert not app.warning.getvalue(), builder
    assert records(app.env)["first"].run.printed[0]["got"] == "42\n"

    edit(book / "second.rst", "2\n", "2\n\nEdited.\n")
    app, ran = build(book, "verdict")
    assert ran == []  # read again for its prose, its run taken back: its code is the same
    assert records(app.env)["second"].run.printed[0]["got"] == "2\n"
    site, ran = build(book, "html")
    assert ran == []
    assert "Edited." in (site.outdir / "second.html").read_text(encoding="utf-8")

    edit(book / "second.rst", '"b"]', '"b", "c"]')
    edit(book / "second.rst", "   2\n", "   3\n")
    app, ran = build(book, "verdict")
    assert ran == ["second"]  # its code changed: run again, and no other page
    assert records(app.env)["second"].run.printed[0]["got"] == "3\n"


def test_a_block_moved_by_prose_above_it_keeps_its_run_at_its_new_line(book, build, edit):
    """Prose added above a cell moves it and changes nothing it prints: the run is taken
    back, and what the page printed names the blocks' new lines (a failed run, whose report
    names its line, is never taken back)."""
    app, _ran = build(book, "html")
    lines = [block["line"] for block in records(app.env)["second"].run.printed]
    edit(book / "second.rst", "Second\n======\n", "Second\n======\n\nA new paragraph.\n")
    app, ran = build(book, "html")
    assert ran == []
    moved = [block["line"] for block in records(app.env)["second"].run.printed]
    assert moved == [line + 2 for line in lines]


def test_a_failure_fails_every_build_at_its_line_until_it_is_fixed(book, build, edit):
    edit(book / "first.rst", "   42\n", "   41\n")
    build(book, "html")
    for _ in range(2):
        app, ran = build(book, "html")
        assert ran == ["first"]  # run again, and reported again
        warnings = app.warning.getvalue()
        assert "first.rst:4: WARNING: doctest failed" in warnings
        assert "Expected:\n    41\nGot:\n    42" in warnings
        assert "[pagerun.run]" in warnings
    app, ran = build(book, "verdict")
    assert ran == ["first"]
    assert "doctest failed" not in app.warning.getvalue()  # the verdict reports it itself
    edit(book / "first.rst", "   41\n", "   42\n")
    build(book, "html")
    app, ran = build(book, "html")
    assert ran == []


def test_sphinx_build_b_doctest_reports_the_one_run_as_sphinxs_builder_would(book, build, edit):
    edit(book / "first.rst", "   42\n", "   41\n")
    _site, ran = build(book, "html")
    assert sorted(ran) == ["first", "second"]
    app, ran = build(book, "doctest")
    assert type(app.builder) is doctest_run.DoctestBuilder  # not sphinx.ext.doctest's
    assert ran == ["first"]  # the failing page, read again as by every build; no other
    warnings = app.warning.getvalue()
    assert warnings.count("WARNING: doctest failed") == 1, warnings
    assert "first.rst:4: WARNING: doctest failed" in warnings
    summary = (app.outdir / "output.txt").read_text(encoding="utf-8")
    assert "    2 tests\n    1 failure in tests\n    0 failures in setup code\n" in summary
    assert "first.rst:4: doctest failed" in summary
    assert "    1 failure in tests" in app.status.getvalue()
    assert app.statuscode == 1
    edit(book / "first.rst", "   41\n", "   42\n")
    app, ran = build(book, "doctest")
    assert ran == ["first"]
    assert not app.warning.getvalue()
    assert "    2 tests\n    0 failures in tests\n" in app.status.getvalue()
    assert app.statuscode == 0


def test_sphinx_build_b_doctest_names_a_failure_as_every_verdict_does(book, build, edit):
    """A warning a page did not expect, under a setup that makes warnings errors, is named
    by its category and message at its line, in the warning and in output.txt: the same
    headline as ``pagerun.verdict`` gives every other verdict on the run."""
    edit(book / "first.rst", "   print(6 * 7)\n", '   warnings.warn("planted", FutureWarning)\n')
    setup = 'import warnings\nwarnings.simplefilter("error")'
    app, ran = build(book, "doctest", confoverrides={"doctest_global_setup": setup})
    assert ran == ["first", "second"]
    assert "first.rst:4: WARNING: unexpected FutureWarning: planted" in app.warning.getvalue()
    summary = (app.outdir / "output.txt").read_text(encoding="utf-8")
    assert "first.rst:4: unexpected FutureWarning: planted\nException raised:" in summary
    assert "    1 failure in tests\n" in summary
    assert app.statuscode == 1


def test_builders_that_show_no_output_run_nothing(book, build):
    _app, ran = build(book, "gettext")
    assert ran == []


def test_html_after_another_builder_read_a_page_again_shows_the_new_translation(book, build, edit):
    site, _ran = build(book, "html")
    page = site.outdir / "index.html"
    assert "First paragraph." in page.read_text(encoding="utf-8")
    edit(book / "locale/en/LC_MESSAGES/index.po", "First paragraph.", "The first paragraph.")
    build(book, "verdict")  # reads the page again, with its new catalog
    build(book, "html")
    assert "The first paragraph." in page.read_text(encoding="utf-8")


def test_without_writing_again_the_page_would_keep_the_old_translation(
    book, build, edit, monkeypatch
):
    """The check above fails when pages read by another builder are not written again."""
    monkeypatch.setattr(doctest_run, "written_again", lambda app, env: [])
    site, _ran = build(book, "html")
    edit(book / "locale/en/LC_MESSAGES/index.po", "First paragraph.", "The first paragraph.")
    build(book, "verdict")
    build(book, "html")
    assert "First paragraph." in (site.outdir / "index.html").read_text(encoding="utf-8")


def test_an_environment_whose_runs_are_of_an_older_shape_is_read_again(book, build):
    """Sphinx discards a pickled environment whose runs domain is of another
    ``data_version`` (records of an older shape): every page is read, and run, again,
    instead of every builder rendering records the code can no longer read."""
    app, ran = build(book, "html")
    assert sorted(ran) == ["first", "second"]
    pickled = Path(app.doctreedir) / "environment.pickle"

    def repickle(version: int) -> None:
        with pickled.open("rb") as f:
            env = pickle.load(f)
        data = env.domaindata[doctest_run.RunsDomain.name]
        data["version"] = version
        if version != doctest_run.RunsDomain.data_version:
            data["records"] = {docname: {"got": "42\n"} for docname in data["records"]}
        with pickled.open("wb") as f:
            pickle.dump(env, f, pickle.HIGHEST_PROTOCOL)

    repickle(doctest_run.RunsDomain.data_version)
    app, ran = build(book, "html")
    assert ran == []  # the same shape, pickled again: the environment is taken back
    repickle(doctest_run.RunsDomain.data_version - 1)
    app, ran = build(book, "html")
    assert sorted(ran) == ["first", "second"]
    assert not app.warning.getvalue()
    assert {page: type(r) for page, r in records(app.env).items()} == {
        "first": PageRecord,
        "second": PageRecord,
    }


READ_SIDE_BY_SIDE = """
import json, sys
from sphinx.application import Sphinx
from pagerun.pages import records
book = sys.argv[1]
app = Sphinx(book, book, book + "/_out", book + "/_doctrees", "verdict", status=None,
             warning=sys.stderr, parallel=2)
app.build()
print(json.dumps({page: r.run.printed[0]["got"] for page, r in records(app.env).items()}))
"""


def test_pages_read_side_by_side_keep_their_runs(book):
    """``sphinx-build -j 2``: each page is read, and run, in a forked process, and its run
    merged into the environment. The process that forks has not started JAX."""
    result = subprocess.run(
        [sys.executable, "-c", READ_SIDE_BY_SIDE, str(book)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"first": "42\n", "second": "2\n"}
    assert "fork" not in result.stderr


def test_the_run_inputs_are_worked_out_once_per_build(book, build, monkeypatch):
    """Every page's key reads ``pagerun_run_inputs``; a callable default would list the
    packages and glob the devices again at each read. Sphinx itself evaluates the default
    when it checks the value's type and when it logs the config; no page asks again."""
    import traceback

    stacks: list[str] = []
    packages = doctest_run._packages  # noqa: SLF001 (counted where it is called)
    monkeypatch.setattr(
        doctest_run,
        "_packages",
        lambda: stacks.append("".join(traceback.format_stack())) or packages(),
    )
    _app, ran = build(book, "html")
    assert sorted(ran) == ["first", "second"]
    assert stacks
    assert not [stack for stack in stacks if "in code_key" in stack]
