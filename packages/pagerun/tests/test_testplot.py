from __future__ import annotations

from html.parser import HTMLParser

import pytest
from bs4 import BeautifulSoup


class Images(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.images: list[dict[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.images.append(dict(attrs))


@pytest.mark.sphinx("html", testroot="testplot")
def test_the_figure_is_drawn_by_the_pages_code_in_the_pages_namespace(built):
    parser = Images()
    parser.feed(built.page())
    [image] = parser.images
    assert image["alt"] == "a straight line"
    png = built.app.outdir / image["src"]
    assert png.read_bytes().startswith(b"\x89PNG")
    assert png.stat().st_size > 1000
    # The cell draws with `slope`, which an earlier cell of the page defines.
    assert not built.warnings


@pytest.mark.sphinx("html", testroot="testplot")
def test_the_caption_is_inline_markup(built):
    """``code`` in a caption is code, as in a figure's caption, not two backquotes."""
    page = BeautifulSoup(built.page(), "html.parser")
    caption = page.select_one("figcaption")
    assert caption.get_text(" ", strip=True).startswith("A line of slope slope")
    assert caption.select_one("code").get_text() == "slope"


@pytest.mark.sphinx("html", testroot="testplot", srcdir="testplot-fails")
def test_a_cell_that_fails_warns_at_the_cell(app):
    index = app.srcdir / "index.rst"
    index.write_text(index.read_text().replace("slope = 2", "pass"), encoding="utf-8")
    app.build()
    assert "index.rst:8: WARNING: testplot: the cell drew no figure" in app.warning.getvalue()
    assert "NameError: name 'slope' is not defined" in app.warning.getvalue()


# The doctest builder reports the run kept while the page was read: the figure's code is a
# doctest of that run.
@pytest.mark.sphinx("doctest", testroot="testplot")
def test_figure_code_is_a_doctest(built):
    assert built.doctest_counts() == (2, 0)


def test_the_site_the_pdf_and_the_epub_show_the_one_drawing(make_app, rootdir, tmp_path):
    """Drawn once, while the page was read; the builders of one doctree directory copy it."""
    import shutil

    from sphinx.util.docutils import docutils_namespace

    srcdir = shutil.copytree(rootdir / "test-testplot", tmp_path / "book")
    with (srcdir / "conf.py").open("a") as conf:
        conf.write('version = copyright = "1"  # what an EPUB must name\n')
    index = srcdir / "index.rst"
    runs = tmp_path / "runs"
    # Each run of the page's code adds a line to `runs`.
    index.write_text(
        index.read_text().replace(
            '   print("drawing")\n',
            f"   print(\"drawing\")\n   with open({str(runs)!r}, 'a') as log:\n"
            "       log.write('ran\\n')\n",
        )
    )
    drawn = {}
    for builder in ("html", "latex", "epub"):
        with docutils_namespace():
            app = make_app(builder, srcdir=srcdir)
            app.build()
        assert not app.warning.getvalue(), builder
        [image] = [p for p in app.outdir.rglob("figure-*.png")]
        drawn[builder] = image.read_bytes()
    assert runs.read_text() == "ran\n"
    assert drawn["html"] == drawn["latex"] == drawn["epub"]
    assert drawn["html"].startswith(b"\x89PNG")


@pytest.mark.sphinx("html", testroot="testplot", srcdir="testplot-again", freshenv=True)
def test_a_page_read_again_is_drawn_again(app):
    app.build()
    [image] = BeautifulSoup(built_page(app), "html.parser").select("figure img")
    drawn = (app.outdir / image["src"]).read_bytes()
    index = app.srcdir / "index.rst"
    index.write_text(index.read_text().replace("[0, slope]", "[slope, 0]"))  # the code changed
    app.build()
    assert (app.outdir / image["src"]).read_bytes() != drawn
    assert not app.warning.getvalue()


def png_width(path) -> int:
    """A PNG's width in pixels, from its header."""
    return int.from_bytes(path.read_bytes()[16:20], "big")


@pytest.mark.sphinx("html", testroot="testplot", srcdir="testplot-dpi", freshenv=True)
def test_the_figures_resolution_is_a_setting_and_a_change_draws_again(app, make_app):
    app.build()
    [image] = BeautifulSoup(built_page(app), "html.parser").select("figure img")
    width = png_width(app.outdir / image["src"])  # matplotlib's own: the figure's dpi
    again = make_app(
        "html", srcdir=app.srcdir, freshenv=False, confoverrides={"pagerun_figure_dpi": 250}
    )
    again.build()
    [image] = BeautifulSoup(built_page(again), "html.parser").select("figure img")
    assert png_width(again.outdir / image["src"]) == round(width * 2.5)


def built_page(app) -> str:
    return (app.outdir / "index.html").read_text(encoding="utf-8")


@pytest.mark.sphinx(
    "html", testroot="testplot", confoverrides={"pagerun_run": False}, freshenv=True
)
def test_a_page_the_build_does_not_run_shows_no_figure_and_says_nothing(built):
    assert not BeautifulSoup(built.page(), "html.parser").select("figure img")
    assert not built.warnings
