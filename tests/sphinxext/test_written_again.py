"""A page the doctest builder read again, with a new translation, is written again."""

from __future__ import annotations

import pytest

from jaxbook.sphinxapp import forget_page_catalogs

WITHOUT = {"extensions": ["sphinx.ext.doctest"]}


def edit_translation_then_doctest_then_html(app, make_app, overrides) -> str:
    app.build()
    page = app.outdir / "index.html"
    assert "First paragraph." in page.read_text(encoding="utf-8")
    catalog = app.srcdir / "locale/en/LC_MESSAGES/index.po"
    catalog.write_text(
        catalog.read_text(encoding="utf-8").replace("First paragraph.", "The first paragraph."),
        encoding="utf-8",
    )
    # The doctest builder reads the pages into the same doctrees, as make doctest does;
    # each build here forgets the loaded catalogs, as a new process would.
    for builder in ("doctest", "html"):
        forget_page_catalogs(app)
        make_app(builder, srcdir=app.srcdir, confoverrides=overrides).build()
    return page.read_text(encoding="utf-8")


@pytest.mark.sphinx("html", testroot="written-again", srcdir="written-again-with", freshenv=True)
def test_html_after_doctest_shows_the_new_translation(app, make_app):
    assert "The first paragraph." in edit_translation_then_doctest_then_html(app, make_app, {})


@pytest.mark.sphinx(
    "html", testroot="written-again", srcdir="written-again-without", confoverrides=WITHOUT
)
def test_without_it_the_page_keeps_the_old_translation(app, make_app):
    shown = edit_translation_then_doctest_then_html(app, make_app, WITHOUT)
    assert "The first paragraph." not in shown
    assert "First paragraph." in shown
