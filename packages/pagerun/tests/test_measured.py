"""A measured output shows what its code printed in the page's one run, labeled."""

from __future__ import annotations

import re

import pytest


@pytest.mark.sphinx("html", testroot="measured")
def test_page_shows_the_real_figure_with_where_it_was_measured(built):
    html = built.page()
    box = re.search(r'<div class="pagerun-measured[^"]*">(.*?)</div>', html, re.DOTALL)
    assert box, html
    text = re.sub(r"<[^>]+>", "", box[1])
    # pagerun_where's default: the processor and Python's release.
    assert re.search(r"Measured on: .+, Python 3\.\d+", text)
    assert re.search(r"took \d+ ms\s+stable line", text)
    assert "took ... ms" not in html
    assert not built.warnings


# The doctest builder reports the run kept while the page was read: the measured output is a
# testoutput of that run, compared as doctest compares it.
@pytest.mark.sphinx("doctest", testroot="measured")
def test_it_is_a_testoutput_for_doctest(built):
    assert built.doctest_counts() == (1, 0)


@pytest.mark.parametrize(
    ("old", "new", "shown"),
    [
        # The output no longer matches: the warning shows what the page expects.
        ("stable line\n", "other line\n", "    other line\nGot:"),
        # A cell that does not compile is a warning at the cell, not a crash of the build.
        ('print("stable line")', 'print("stable line"', "SyntaxError"),
    ],
)
@pytest.mark.sphinx("html", testroot="measured", srcdir="measured-differs", freshenv=True)
def test_a_cell_whose_run_differs_is_a_warning_at_the_cell_and_shows_no_figure(
    app, old, new, shown
):
    index = app.srcdir / "index.rst"
    index.write_text(index.read_text().replace(old, new, 1))
    app.build()
    warnings = app.warning.getvalue()
    assert "index.rst:4: WARNING: doctest failed" in warnings
    assert shown in warnings
    # The page keeps its expected output, wildcards and all: no figure of a failed run.
    assert "took ... ms" in (app.outdir / "index.html").read_text()


@pytest.mark.sphinx("html", testroot="measured", srcdir="measured-changed", freshenv=True)
def test_a_page_whose_code_changed_is_measured_again(app):
    """A prose edit reads the page again and takes its run back, measurement and all; an edit
    of its code runs it, and measures, again."""

    def took() -> str:
        found = re.search(r"took (\d+) ms", (app.outdir / "index.html").read_text())
        assert found
        return found[1]

    app.build()
    first = took()
    index = app.srcdir / "index.rst"
    index.write_text(index.read_text() + "\nEdited.\n")
    app.build()
    assert took() == first
    index.write_text(index.read_text().replace("# different on every run", "# new each run"))
    app.build()
    assert took() != first


def prose(app) -> str:
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    return " ".join(re.sub(r"<[^>]+>", "", html).split())


@pytest.mark.sphinx("html", testroot="measured-figure", freshenv=True)
@pytest.mark.parametrize(
    ("planted", "shown"), [("0.25", "0.250 ms here, about 3"), ("5", "5.000 ms here, about 1")]
)
def test_a_figure_in_the_prose_follows_the_measurement(app, monkeypatch, planted, shown):
    monkeypatch.setenv("PLANTED_DISPATCH_MS", planted)
    app.build()
    text = prose(app)
    assert f"Dispatch took {shown} orders" in text
    assert f"dispatch: {shown.split(' here')[0]}" in text
    assert not app.warning.getvalue()


@pytest.mark.sphinx(
    "html", testroot="measured-figure", srcdir="measured-figure-undefined", freshenv=True
)
def test_a_name_the_run_does_not_define_is_a_warning_at_the_role(app, monkeypatch):
    monkeypatch.setenv("PLANTED_DISPATCH_MS", "1")
    index = app.srcdir / "index.rst"
    index.write_text(index.read_text().replace("`orders`", "`order`"))
    app.build()
    warnings = app.warning.getvalue()
    assert "index.rst:4: WARNING: measured: the page's code does not define 'order'" in warnings


@pytest.mark.sphinx(
    "html", testroot="measured-figure", srcdir="measured-figure-expression", freshenv=True
)
def test_the_role_reads_a_variable_and_never_evaluates_an_expression(app, monkeypatch):
    monkeypatch.setenv("PLANTED_DISPATCH_MS", "1")
    index = app.srcdir / "index.rst"
    index.write_text(index.read_text().replace("`orders`", "`__import__('os').getpid()`"))
    app.build()
    assert "is not a variable name with an optional format spec" in app.warning.getvalue()
    assert str(__import__("os").getpid()) not in prose(app)


def test_the_site_and_the_pdf_of_one_doctree_directory_show_one_run(make_app, rootdir, tmp_path):
    """The LaTeX builder, sharing the site's doctrees, reads nothing and runs nothing: it
    shows the figure the site's run measured."""
    import shutil

    from sphinx.util.docutils import docutils_namespace

    srcdir = shutil.copytree(rootdir / "test-measured", tmp_path / "book")
    with docutils_namespace():
        site = make_app("html", srcdir=srcdir)
        site.build()
    shown = re.search(r"took (\d+) ms", (site.outdir / "index.html").read_text())
    with docutils_namespace():
        book = make_app("latex", srcdir=srcdir)  # the same doctree directory
        book.build()
    assert shown
    [tex] = book.outdir.glob("*.tex")
    assert f"took {shown[1]} ms" in tex.read_text()
    assert not site.warning.getvalue()
    assert not book.warning.getvalue()


def test_in_the_pdf_each_page_runs_in_its_own_namespace(make_app, rootdir, tmp_path):
    """The LaTeX builder's one tree for the book still shows page by page what each page's
    own run printed: the second page does not see the first page's names."""
    import shutil

    srcdir = shutil.copytree(rootdir / "test-measured", tmp_path / "book")
    index = srcdir / "index.rst"
    index.write_text(index.read_text() + "\n.. toctree::\n\n   second\n")
    (srcdir / "second.rst").write_text(
        "Second\n======\n\n.. testcode::\n\n   print('value' in globals())\n\n"
        ".. measured-output::\n\n   False\n"
    )
    app = make_app("latex", srcdir=srcdir, freshenv=True)
    app.build()
    assert not app.warning.getvalue()
    [tex] = app.outdir.glob("*.tex")
    assert tex.read_text().count("Measured on:") == 2


@pytest.mark.sphinx(
    "html", testroot="measured-figure", confoverrides={"pagerun_run": False}, freshenv=True
)
def test_a_page_the_build_does_not_run_keeps_its_expected_output(built):
    """A build told to run no page (pagerun_run) shows the wildcards and the roles' text, and
    says nothing."""
    assert "dispatch: ... ms" in built.page()
    assert not built.warnings


@pytest.mark.sphinx("html", testroot="measured", srcdir="measured-gone", freshenv=True)
def test_the_run_of_a_page_that_is_gone_is_not_kept(app):
    """A page read again takes its earlier run back (kept_records); a removed page's run is
    dropped, not kept in the environment for ever."""
    from pagerun.pages import kept_records

    other = app.srcdir / "other.rst"
    other.write_text(
        ":orphan:\n\nOther\n=====\n\n.. testcode::\n\n   print(1)\n\n.. testoutput::\n\n   1\n"
    )
    app.build()
    other.unlink()
    app.build()
    assert "other" not in app.env.found_docs
    assert "other" not in kept_records(app.env)
    # Nor is the run of a page that has no code any more.
    other.write_text(
        ":orphan:\n\nOther\n=====\n\n.. testcode::\n\n   print(1)\n\n.. testoutput::\n\n   1\n"
    )
    app.build()
    other.write_text(":orphan:\n\nOther\n=====\n\nNo code now.\n")
    app.build()
    assert "other" not in kept_records(app.env)
