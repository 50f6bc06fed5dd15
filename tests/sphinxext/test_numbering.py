"""Figures, tables and code listings are numbered per chapter, and referred to by number, in
the same words on the website, in the EPUB and in the PDF: "图 1-2", "Listing 2-1"; a
chapter's sections "1.1", and the book's references name them by that number
(``jaxbook.sphinxext.numbering``)."""

from __future__ import annotations

import importlib
import shutil
from pathlib import Path

import pytest
import sphinx
from bs4 import BeautifulSoup
from sphinx.environment.collectors.toctree import TocTreeCollector

from jaxbook.sphinxext.numbering import ChapterNumbering, writes_numbers

ROOT = Path(__file__).parent.parent / "roots" / "test-numbering"
NAMES = {
    "zh_CN": {"figure": "图", "listing": "代码清单", "table": "表"},
    "en": {"figure": "Figure", "listing": "Listing", "table": "Table"},
}


@pytest.fixture
def book(make_app, tmp_path):
    def build(builder: str, language: str):
        from PIL import Image

        srcdir = shutil.copytree(ROOT, tmp_path / f"{builder}-{language}")
        Image.new("RGB", (40, 30), "white").save(srcdir / "plot.png")
        app = make_app(builder, srcdir=srcdir, confoverrides={"language": language})
        app.build()
        assert "WARNING" not in app.warning.getvalue(), app.warning.getvalue()
        return app

    return build


def page(app, name: str) -> BeautifulSoup:
    suffix = ".xhtml" if app.builder.name == "epub" else ".html"
    return BeautifulSoup((app.outdir / f"{name}{suffix}").read_text("utf-8"), "html.parser")


def captions(soup: BeautifulSoup) -> list[str]:
    """The numbers the page's captions carry, in page order."""
    return [" ".join(span.get_text().split()) for span in soup.select("span.caption-number")]


def references(soup: BeautifulSoup) -> list[tuple[str, str]]:
    """Each reference by number on the page: its text and where it leads."""
    return [
        (" ".join(a.get_text().split()), a["href"])
        for a in soup.select("a.reference")
        if a.select_one("span.std-numref")
    ]


def reported_pages(monkeypatch) -> dict[str, list[str]]:
    """What each numbering of the book's collector names to write again, as the build runs
    (filled by its two methods: ``assign_section_numbers``, ``assign_figure_numbers``)."""
    reported: dict[str, list[str]] = {}
    for method in ("assign_section_numbers", "assign_figure_numbers"):
        ours = getattr(ChapterNumbering, method)

        def spy(collector, env, method=method, ours=ours):
            reported[method] = ours(collector, env)
            return reported[method]

        monkeypatch.setattr(ChapterNumbering, method, spy)
    return reported


@pytest.mark.parametrize("builder", ["html", "epub"])
@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_website_and_the_epub_number_per_chapter(book, builder, language):
    app = book(builder, language)
    figure, listing, table = NAMES[language].values()
    suffix = ".xhtml" if builder == "epub" else ".html"
    one, section, two = (page(app, name) for name in ("one", "section", "two"))
    # The table without a caption has no number.
    assert captions(one) == [f"{figure} 1-1", f"{listing} 1-1", f"{table} 1-1"]
    # A page below the chapter's first goes on counting; the next chapter starts again.
    assert captions(section) == [f"{figure} 1-2"]
    assert captions(two) == [f"{figure} 2-1", f"{listing} 2-1"]
    assert references(one) == [
        (f"{figure} 2-1", f"two{suffix}#fig-two"),
        (f"{listing} 1-1", "#listing-one"),
    ]
    assert references(two) == [(f"{figure} 1-1", f"one{suffix}#fig-one")]


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_pdf_refers_by_number_in_the_same_words(book, language):
    """LaTeX numbers them per chapter (jaxbook.sty); a reference takes the same words."""
    app = book("latex", language)
    tex = next(app.outdir.glob("*.tex")).read_text("utf-8")
    figure, listing, _table = NAMES[language].values()
    assert rf"{{{figure} \ref{{\detokenize{{two:fig-two}}}}}}" in tex
    assert rf"{{{listing} \ref{{\detokenize{{one:listing-one}}}}}}" in tex
    # LaTeX numbers the section's page ("1.1"), not the chapter's page or the one after it.
    assert tex.count(r"\jbsectionnumbers{1}") == 1
    assert tex.index(r"\jbsectionnumbers{1}") < tex.index("一节") < tex.index("第 2 章")


def test_a_build_with_nothing_changed_writes_no_page_again(make_app, book):
    """The numbers per chapter are compared with the last build's, which the environment
    kept: not Sphinx's own through the book, which differ on every page that has one, and
    would have each such page written at every build."""
    app = book("html", "zh_CN")
    pages = [app.outdir / f"{name}.html" for name in ("index", "one", "section", "two")]
    written = [path.stat().st_mtime_ns for path in pages]
    again = make_app("html", srcdir=app.srcdir, confoverrides={"language": "zh_CN"})
    again.build()
    assert [path.stat().st_mtime_ns for path in pages] == written
    assert captions(page(again, "two")) == ["图 2-1", "代码清单 2-1"]


SECTION_REFERENCES = {
    "zh_CN": ["1.1 节“一节”", "1.1 节"],
    "en": ["“一节” in section 1.1", "section 1.1"],
}


@pytest.mark.parametrize("builder", ["html", "epub"])
@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_a_chapters_sections_are_numbered_with_its_number_and_referred_to_by_it(
    book, builder, language
):
    """The chapter's ``:numbered:`` toctree numbers its page "1" and the chapter's number
    goes first; a reference to the page, or to a subsection on it (which has no number of
    its own), names the page's number."""
    app = book(builder, language)
    section, two = page(app, "section"), page(app, "two")
    assert " ".join(section.find("h1").get_text().split()).rstrip("¶#").strip() == "1.1 一节"
    links = [" ".join(a.get_text().split()) for a in two.select("a.reference")]
    assert [link for link in links if "1.1" in link] == SECTION_REFERENCES[language]
    suffix = ".xhtml" if builder == "epub" else ".html"
    assert two.find("a", string="1.1 节" if language == "zh_CN" else "section 1.1")[
        "href"
    ].endswith(f"section{suffix}#deeper")


def test_a_reference_to_a_page_without_a_number_warns(make_app, tmp_path):
    srcdir = shutil.copytree(ROOT, tmp_path / "unnumbered")
    with (srcdir / "two.rst").open("a", encoding="utf-8") as two:
        two.write("\n见\\ :book:sec:`one`。\n")
    app = make_app("html", srcdir=srcdir, confoverrides={"suppress_warnings": ["image"]})
    app.build()
    assert "a section reference to 'one', on a page without a number (one)" in (
        app.warning.getvalue()
    )


def test_the_books_collector_numbers_in_place_of_sphinxs_and_afresh_at_every_build(
    make_app, book, monkeypatch
):
    """What numbering.py relies on in Sphinx: ``ChapterNumbering`` takes the place of the
    built-in toctree collector, whose numbering numbers sections and figures afresh at
    every build. With nothing changed it names no page, and the numbers per chapter are made
    once ("1.1", "1-1"), not prefixed again."""
    # The lock installs 9.1.1 on Python 3.12 and 9.2.0 on 3.13, whose toctree collectors
    # (sphinx/environment/collectors/toctree.py) are the same file.
    assert sphinx.version_info[:2] in {(9, 1), (9, 2)}, (
        f"numbering subclasses Sphinx 9.1/9.2's TocTreeCollector (assign_section_numbers "
        f"and assign_figure_numbers number afresh into env.toc_secnumbers/toc_fignumbers) "
        f"and disconnects the built-in one; this is Sphinx {sphinx.__version__}: check "
        f"numbering.py and _compat.disable_sphinx_toctree_collector when upgrading, then "
        f"this test"
    )
    first = book("html", "zh_CN")
    # One toctree collector listens to each of a collector's events: the book's.
    for event in ("doctree-read", "env-merge-info", "env-purge-doc", "env-get-updated"):
        owners = [
            getattr(listener.handler, "__self__", None)
            for listener in first.events.listeners[event]
        ]
        collectors = [owner for owner in owners if isinstance(owner, TocTreeCollector)]
        assert [type(collector) for collector in collectors] == [ChapterNumbering], event
    reported = reported_pages(monkeypatch)
    again = make_app("html", srcdir=first.srcdir, confoverrides={"language": "zh_CN"})
    again.build()
    assert reported == {"assign_section_numbers": [], "assign_figure_numbers": []}
    env = again.env
    assert env.toc_secnumbers["section"][""] == (1, 1)
    assert env.titles["section"]["secnumber"] == [1, 1]
    assert env.toc_fignumbers["one"]["figure"]["fig-one"] == ("1-1",)
    assert env.toc_fignumbers["section"]["figure"] == {
        next(iter(env.toc_fignumbers["section"]["figure"])): ("1-2",)
    }


def test_without_sphinxs_collector_to_replace_the_book_says_so(make_app, tmp_path):
    """Both collectors connected, each would number the book and the last one's numbers
    would stand: where Sphinx's is not found (here, replaced already), the book stops."""
    from sphinx.errors import ExtensionError

    from jaxbook._compat import disable_sphinx_toctree_collector

    app = make_app("html", srcdir=shutil.copytree(ROOT, tmp_path / "book"))
    with pytest.raises(ExtensionError, match="found 0"):
        disable_sphinx_toctree_collector(app)


def test_a_page_moved_to_another_chapter_is_written_again_with_its_new_numbers(
    make_app, book, monkeypatch
):
    """The section's page moves from chapter 1's numbered toctree to chapter 2's: the
    chapters' pages are read again, not the section's, whose number in its toctree is still
    1 (Sphinx's own number); its numbers per chapter changed ("2.1", its figure "2-2"), and
    both numberings name it to write again."""
    app = book("html", "zh_CN")
    section = app.outdir / "section.html"
    written = section.stat().st_mtime_ns
    one, two = app.srcdir / "one.rst", app.srcdir / "two.rst"
    one.write_text(
        one.read_text(encoding="utf-8").replace(
            ".. toctree::\n   :numbered: 1\n\n   section\n", ""
        ),
        encoding="utf-8",
    )
    with two.open("a", encoding="utf-8") as text:
        text.write("\n.. toctree::\n   :numbered: 1\n\n   section\n")
    reported = reported_pages(monkeypatch)
    again = make_app("html", srcdir=app.srcdir, confoverrides={"language": "zh_CN"})
    again.build()
    assert again.env.toc_secnumbers["section"][""] == (2, 1)
    assert reported["assign_section_numbers"] == ["section"]
    assert "section" in reported["assign_figure_numbers"]
    assert section.stat().st_mtime_ns != written
    shown = page(again, "section")
    assert " ".join(shown.find("h1").get_text().split()).rstrip("¶#").strip() == "2.1 一节"
    assert captions(shown) == ["图 2-2"]
    assert captions(page(again, "one")) == ["图 1-1", "代码清单 1-1", "表 1-1"]


@pytest.mark.sphinx("html", testroot="numbering", confoverrides={"numfig": False})
def test_a_book_that_turns_numfig_off_is_told_that_nothing_is_numbered(app, warning):
    # The book's conf.py is kept (numbering sets no Sphinx setting of its own), and warned of.
    assert app.config.numfig is False
    assert "numfig is off" in warning.getvalue()
    assert "[jaxbook.numbering]" in warning.getvalue()


# Sphinx 9.2's builders, and the book's and pagerun's: whether each writes figure numbers,
# by its output format (the one signal Sphinx gives of a builder that writes no document).
BUILDERS = {
    "sphinx.builders.html:StandaloneHTMLBuilder": True,
    "sphinx.builders.dirhtml:DirectoryHTMLBuilder": True,
    "sphinx.builders.singlehtml:SingleFileHTMLBuilder": True,
    "sphinx.builders.epub3:Epub3Builder": True,
    "jaxbook.sphinxext.editions.epub:BookEpubBuilder": True,
    "sphinx.builders.latex:LaTeXBuilder": True,
    "sphinx.builders.text:TextBuilder": True,
    "sphinx.builders.manpage:ManualPageBuilder": True,
    "sphinx.builders.texinfo:TexinfoBuilder": True,
    "sphinx.builders.xml:XMLBuilder": True,
    "sphinx.builders.dummy:DummyBuilder": False,
    "sphinx.ext.doctest:DocTestBuilder": False,
    "pagerun.sphinxext.run:VerdictBuilder": False,
    "pagerun.sphinxext.run:DoctestBuilder": False,
    "sphinx.builders.gettext:MessageCatalogBuilder": False,
    "sphinx.builders.linkcheck:CheckExternalLinksBuilder": False,
}


@pytest.mark.parametrize("builder", BUILDERS)
def test_the_builders_that_write_documents_write_numbers(builder):
    module, name = builder.split(":")
    assert writes_numbers(getattr(importlib.import_module(module), name)) is BUILDERS[builder]


@pytest.mark.parametrize("checker", ["verdict", "doctest"])
def test_the_verdict_builder_unpickles_no_doctree_and_the_next_build_numbers_afresh(
    make_app, tmp_path, monkeypatch, checker
):
    """``make doctest``'s verdict builder (and ``-b doctest``, pagerun's) writes no page:
    Sphinx's figure numbering, which unpickles every page's doctree after any page is read
    (dev/performance.md, the one-page edit), does not run for it. The numbers stay those the
    pages were written with, so the next HTML build compares with them and writes again a
    page whose numbers changed meanwhile, though the verdict, not it, read the page that
    changed them, and not a page whose numbers did not."""
    from PIL import Image
    from sphinx.environment import BuildEnvironment

    srcdir = shutil.copytree(ROOT, tmp_path / "book")
    Image.new("RGB", (40, 30), "white").save(srcdir / "plot.png")
    with (srcdir / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write('extensions.append("pagerun.sphinxext.run")\n')

    def build(builder: str):
        app = make_app(builder, srcdir=srcdir, confoverrides={"language": "zh_CN"})
        # Set up again in this process, the extensions warn that their directives are
        # registered already; the build itself warns of nothing.
        setup = len(app.warning.getvalue())
        app.build()
        assert "WARNING" not in app.warning.getvalue()[setup:], app.warning.getvalue()[setup:]
        return app

    site = build("html")
    assert captions(page(site, "section")) == ["图 1-2"]
    two = site.outdir / "two.html"
    written = two.stat().st_mtime_ns
    # A figure first in chapter 1: the section page's becomes 1-3, its own page unread.
    one = srcdir / "one.rst"
    text = one.read_text(encoding="utf-8")
    figure = ".. figure:: plot.png"
    one.write_text(text.replace(figure, f"{figure}\n\n   新的图\n\n{figure}", 1), encoding="utf-8")
    unpickled: list[str] = []
    get_doctree = BuildEnvironment.get_doctree

    def counted(env, docname):
        unpickled.append(docname)
        return get_doctree(env, docname)

    monkeypatch.setattr(BuildEnvironment, "get_doctree", counted)
    verdict = build(checker)
    assert verdict.env.all_docs.keys() == {"index", "one", "section", "two"}
    # Sphinx's section numbering reads the pages that hold a numbered toctree, the
    # chapters' own; its figure numbering, which reads every page, did not run.
    assert unpickled == ["one"]
    monkeypatch.undo()

    site = build("html")
    assert captions(page(site, "one")) == ["图 1-1", "图 1-2", "代码清单 1-1", "表 1-1"]
    assert captions(page(site, "section")) == ["图 1-3"]
    assert two.stat().st_mtime_ns == written
    assert captions(page(site, "two")) == ["图 2-1", "代码清单 2-1"]
