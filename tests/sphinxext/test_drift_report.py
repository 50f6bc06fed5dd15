"""What the book shows of a chapter's drift data: the releases its note names, and the
examples the data has not seen yet. (The lab's report of it, in the guides, is tested with
the lab: ``packages/jaxbook-lab/tests/sphinxext/test_drift_report.py``.)

The root is a book of two chapters: chapter 1 has drift data beside it and a note that
names releases through ``:drift:``; chapter 2 has none yet.
"""

from __future__ import annotations

import json
import shutil

import polib
import pytest
from bs4 import BeautifulSoup
from sphinx.util.console import strip_escape_sequences


def soup(app, name: str) -> BeautifulSoup:
    return BeautifulSoup((app.outdir / name).read_text(encoding="utf-8"), "html.parser")


def text(element) -> str:
    """An element's text as read: its blocks apart, its inline parts as they run."""
    blocks = element.find_all(["p", "li", "th", "td", "summary", "pre"]) or [element]
    return " ".join(" ".join(block.get_text().split()) for block in blocks)


def warnings(app) -> list[str]:
    return strip_escape_sequences(app.warning.getvalue()).strip().splitlines()


def copy(rootdir, tmp_path):
    return shutil.copytree(rootdir / "test-drift-report", tmp_path / "book")


def edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.sphinx("html", testroot="drift-report")
def test_the_note_takes_each_release_it_names_from_the_data(built):
    assert built.warnings == ""
    note = text(soup(built.app, "ch1/note.html").select_one("section p"))
    # The book pins 0.12.0.1 (the root's pyproject.toml): "checked" is every other release.
    assert note == (
        "The examples also ran on JAX 0.4.38. All of them run from JAX 0.12.0.1 on; on JAX "
        "0.4.38, one cannot run, and JAX 0.4.38 prints an old device."
    )
    # Nothing the data has not seen: no word of it.
    assert soup(built.app, "ch1/note.html").select("p.jb-drift-unseen") == []


def test_the_releases_of_a_query(tmp_path):
    from jaxbook.sphinxext.drift_report import releases_where

    def release(*outcomes: tuple[str, str]) -> dict:
        runs = [{"language": "en", "outcome": o, "detail": d} for o, d in outcomes]
        return {"examples": [{"runs": runs}]}

    data = {
        "releases": {
            "0.4.38": release(("cannot-run", "AttributeError: no new_ref"), ("output", "-a\n+b")),
            "0.5.0": release(("output", "-a\n+b c")),
            "0.6.1": release(("assert", "assert x")),
            "0.11.2": release(("same", "")),
            "0.12.0.1": release(("same", "")),
        }
    }
    where = lambda query: releases_where(data, query, "0.12.0.1")  # noqa: E731
    assert where("checked") == ["0.4.38", "0.5.0", "0.6.1", "0.11.2"]
    assert where("runs") == ["0.5.0", "0.11.2", "0.12.0.1"]
    # The lowest release from which on every release runs: not 0.5.0, since 0.6.1 fails.
    assert where("lowest runs") == ["0.11.2"]
    assert where("cannot-run") == ["0.4.38"]
    assert where("cannot-run new_ref") == ["0.4.38"]
    assert where("cannot-run set_mesh") == []
    # What a release printed: its "+" lines, never the book's "-" lines.
    assert where("prints b") == ["0.4.38", "0.5.0"]
    assert where("prints b c") == ["0.5.0"]
    assert where("prints a") == []
    assert where("lowest prints b") == []  # 0.12.0.1 does not print it
    assert where("newest runs") is None
    assert where("checked 0.4") is None


def test_a_query_the_data_does_not_bear_out_is_a_warning_at_the_role(make_app, rootdir, tmp_path):
    srcdir = copy(rootdir, tmp_path)
    note = srcdir / "ch1" / "note.rst"
    edit(note, "an old device.", "an old device. :drift:`prints new device` :drift:`first`")
    app = make_app("html", srcdir=srcdir)
    app.build()
    assert warnings(app) == [
        f"{note}:4: WARNING: drift: 'prints new device' holds on no release of "
        "release-drift.json [jaxbook.drift_report]",
        f"{note}:4: WARNING: drift: unknown query 'first' [jaxbook.drift_report]",
    ]


@pytest.mark.parametrize(
    ("language", "releases"),
    [("en", "0.4.36, 0.4.38, and 0.5.0"), ("zh_CN", "0.4.36、0.4.38 和 0.5.0")],
)
@pytest.mark.parametrize("builder", ["html", "latex"])
def test_the_releases_a_role_names_are_a_list_of_the_editions_language(
    make_app, rootdir, tmp_path, builder, language, releases
):
    """English: commas and a serial "and"; Chinese: 、 and 和, spaced from the digits as the
    book's prose is; on the web and in print alike."""
    srcdir = copy(rootdir, tmp_path)
    path = srcdir / "ch1" / "release-drift.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for release in ("0.5.0", "0.4.36"):
        data["releases"][release] = data["releases"]["0.4.38"]
    path.write_text(json.dumps(data), encoding="utf-8")
    app = make_app(builder, srcdir=srcdir, confoverrides={"language": language})
    app.build()
    if builder == "latex":
        [tex] = app.outdir.glob("*.tex")
        said = f"The examples also ran on JAX \\DUrole{{jb-drift-releases}}{{{releases}}}."
        assert said in tex.read_text(encoding="utf-8")
    else:
        note = text(soup(app, "ch1/note.html").select_one("section p"))
        assert note.startswith(f"The examples also ran on JAX {releases}.")


def test_the_parallel_text_lists_the_releases_as_its_own_language_does(make_app, rootdir, tmp_path):
    """A Chinese page with the English beside it: each text joins the releases its own way."""
    srcdir = copy(rootdir, tmp_path)
    path = srcdir / "ch1" / "release-drift.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["releases"]["0.5.0"] = data["releases"]["0.4.38"]
    path.write_text(json.dumps(data), encoding="utf-8")
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    said = "The examples also ran on JAX :drift:`checked`."
    catalog.append(polib.POEntry(msgid=said, msgstr="They ran on JAX :drift:`checked` too."))
    (srcdir / "locale" / "en" / "LC_MESSAGES" / "ch1").mkdir(parents=True)
    catalog.save(str(srcdir / "locale" / "en" / "LC_MESSAGES" / "ch1" / "note.po"))
    edit(srcdir / "ch1" / "note.rst", "The examples also", f"{said}\n\nThe examples also")
    app = make_app(
        "html",
        srcdir=srcdir,
        confoverrides={
            "language": "zh_CN",
            "extensions": [
                "sphinx.ext.doctest",
                "jaxbook.sphinxext.drift_report",
                "jaxbook.sphinxext.parallel_text",
            ],
            "locale_dirs": ["locale/"],
            "gettext_compact": False,
            "jaxbook_parallel_languages": ("zh_CN", "en"),
        },
    )
    app.build()
    first = soup(app, "ch1/note.html").select_one("p:has(> .jb-parallel-source)")
    [beside] = first.select(".jb-parallel")
    assert " ".join(beside.get_text().split()) == "They ran on JAX 0.4.38 and 0.5.0 too."
    beside.extract()
    assert " ".join(first.get_text().split()) == "The examples also ran on JAX 0.4.38 和 0.5.0."


@pytest.mark.parametrize("builder", ["html", "singlehtml", "latex"])
def test_an_example_edited_since_the_run_is_named_on_the_note_never_a_warning(
    make_app, rootdir, tmp_path, builder
):
    """The edited example is named on the note, with a link; the build has no warning."""
    srcdir = copy(rootdir, tmp_path)
    edit(srcdir / "ch1" / "page.rst", 'print("unlabelled")', 'print("unlabelled", 2)')
    app = make_app(builder, srcdir=srcdir)
    app.build()
    assert app.warning.getvalue() == ""
    said = (
        "These examples have changed since the chapter last ran on other releases, and what "
        "this page says has not been checked against them yet: 1.1 A page, example 2 of 2."
    )
    if builder == "latex":
        [tex] = app.outdir.glob("*.tex")
        written = " ".join(tex.read_text(encoding="utf-8").split())
        assert said.split(": ")[0] + ": {\\hyperref[\\detokenize{ch1/page:a-page}]" in written
        assert "{\\sphinxcrossref{1.1 A page, example 2 of 2}}}." in written
        return
    note = soup(app, "index.html" if builder == "singlehtml" else "ch1/note.html")
    [unseen] = note.select("p.jb-drift-unseen")
    assert text(unseen) == said
    assert unseen.a["href"].endswith("#a-page")


@pytest.mark.parametrize("old", ['print("unlabelled")', "   unlabelled\n"])
def test_a_translation_of_the_code_or_its_output_leaves_the_data_as_current(
    make_app, rootdir, tmp_path, old
):
    """The data knows each example by its source code: a translated string in the code,
    or in the output it expects, does not make the data older than the pages."""
    srcdir = copy(rootdir, tmp_path)
    page = (srcdir / "ch1" / "page.rst").read_text(encoding="utf-8")
    block = 'print("unlabelled")' if old.startswith("print") else "unlabelled"
    msgid = '# An example without a label\nprint("unlabelled")' if block != "unlabelled" else block
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    catalog.append(polib.POEntry(msgid=msgid, msgstr=msgid.replace("unlabelled", "sans étiquette")))
    (srcdir / "locale" / "fr" / "LC_MESSAGES" / "ch1").mkdir(parents=True)
    catalog.save(str(srcdir / "locale" / "fr" / "LC_MESSAGES" / "ch1" / "page.po"))
    assert old in page
    overrides = {
        "language": "fr",
        "locale_dirs": ["locale"],
        "gettext_compact": False,
        "gettext_additional_targets": ["literal-block"],
    }
    app = make_app("html", srcdir=srcdir, confoverrides=overrides)
    app.build()
    assert app.warning.getvalue() == ""
    assert "sans étiquette" in (app.outdir / "ch1" / "page.html").read_text(encoding="utf-8")
    assert soup(app, "ch1/note.html").select("p.jb-drift-unseen") == []


def test_a_hidden_block_is_one_of_the_pages_examples(make_app, rootdir, tmp_path):
    """A check that runs hidden (``:hide:``) is a comment node, not a literal block; the
    doctest builder runs it, so a release's run records it: a new one is an example the
    data has not seen yet."""
    srcdir = shutil.copytree(rootdir / "test-drift-report", tmp_path / "book")
    app = make_app("html", srcdir=srcdir)
    app.build()
    assert soup(app, "ch1/note.html").select("p.jb-drift-unseen") == []
    page = srcdir / "ch1" / "page.rst"
    page.write_text(
        page.read_text(encoding="utf-8") + "\n.. testcode::\n   :hide:\n\n   assert 1 + 1 == 2\n",
        encoding="utf-8",
    )
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    [unseen] = soup(app, "ch1/note.html").select("p.jb-drift-unseen")
    assert text(unseen).endswith("1.1 Checks: asserts, example 2 of 2.")


@pytest.mark.sphinx("html", testroot="drift-report", srcdir="drift-report-edit", freshenv=True)
def test_the_pages_that_show_the_data_are_written_again_when_a_page_changes(built):
    app = built.app
    shown = {name: app.outdir / f"{name}.html" for name in ("ch1/note", "ch2/page")}
    before = {name: path.stat().st_mtime_ns for name, path in shown.items()}
    read_at = dict(app.env.all_docs)
    edit(
        app.srcdir / "ch1" / "page.rst",
        "1.1 A page\n==========",
        "1.1 A renamed page\n==================",
    )
    app.build()
    assert shown["ch1/note"].stat().st_mtime_ns != before["ch1/note"]
    # Written again, not read: its list of unseen examples is made as it is written.
    assert app.env.all_docs["ch1/note"] == read_at["ch1/note"]
    assert app.env.all_docs["ch1/page"] != read_at["ch1/page"]
    assert shown["ch2/page"].stat().st_mtime_ns == before["ch2/page"]
    # Another chapter's edit reads, and writes, the chapter's note again no more.
    before = shown["ch1/note"].stat().st_mtime_ns
    edit(app.srcdir / "ch2" / "page.rst", "=\n", "=\n\nAn edit.\n")
    app.build()
    assert shown["ch1/note"].stat().st_mtime_ns == before


@pytest.mark.sphinx("html", testroot="drift-report", srcdir="drift-report-other", freshenv=True)
def test_a_page_read_by_another_builder_rewrites_the_note_on_the_site(app, make_app):
    """make doctest (another builder of the doctree directory) reads the edited page; the
    next make html reads nothing, and writes the note, whose list it changes, again."""
    app.build()
    note = app.outdir / "ch1" / "note.html"
    before = note.stat().st_mtime_ns
    edit(app.srcdir / "ch1" / "page.rst", "1.1 A page\n==========", "1.1 Paged\n=========")
    make_app("dummy", srcdir=app.srcdir).build()
    make_app("html", srcdir=app.srcdir).build()
    assert note.stat().st_mtime_ns != before


@pytest.mark.sphinx("html", testroot="drift-report", srcdir="drift-report-again", freshenv=True)
def test_new_drift_data_rewrites_the_note(app, make_app):
    """make release-report, then make html: the note shows the new runs."""
    app.build()
    path = app.srcdir / "ch1" / "release-drift.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["releases"]["0.4.38"]["examples"][0]["runs"] = [{"language": "en", "outcome": "same"}]
    path.write_text(json.dumps(data), encoding="utf-8")
    again = make_app("html", srcdir=app.srcdir)
    again.build()
    assert "JAX 0.4.38 prints an old device" not in text(soup(again, "ch1/note.html"))


WRONG_DRIFT = {
    "of another format": (
        {"format": 3, "generated by": "jaxbook-lab drift --save", "releases": {}},
        "it is of format 3",
    ),
    "of another shape": (
        {
            "format": 4,
            "generated by": "jaxbook-lab drift --save",
            "releases": {
                "0.4.38": {
                    "environment": "Python 3.13, jax==0.4.38",
                    "device": "cpu",
                    "date": "2026-12-03",
                    "examples": [
                        {
                            "page": "ch1/page",
                            "file": "ch1/page.rst",
                            "line": 10,
                            "code": "5ad7ea687e20",
                            "runs": [{"language": "en", "outcome": "drifted"}],
                        }
                    ],
                }
            },
        },
        '["releases"]["0.4.38"]["examples"][0]["runs"][0]["outcome"] is "drifted", not '
        '"same" or "output" or "warns" or "exception" or "assert" or "cannot-run" or "skipped"',
    ),
}


@pytest.mark.parametrize("wrong", WRONG_DRIFT)
@pytest.mark.sphinx("html", testroot="drift-report", srcdir="drift-report-wrong", freshenv=True)
def test_a_drift_file_of_another_format_or_shape_is_one_warning_at_the_file(app, wrong):
    data, problem = WRONG_DRIFT[wrong]
    path = app.srcdir / "ch1" / "release-drift.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    app.build()
    said = (
        f"{path}:1: WARNING: not a drift file of format 4 ({problem}); write it again with "
        "make release-report [jaxbook.drift_report]"
    )
    assert warnings(app) == [said]  # once, at the file: not at each role that reads it
    assert "JAX 0.4.38" not in text(soup(app, "ch1/note.html"))


@pytest.mark.sphinx("gettext", testroot="drift-report", srcdir="drift-report-gettext")
def test_the_catalogs_do_not_wait_on_the_drift_data(app):
    """Extracting messages from pages whose examples the data has not seen is quiet, and
    the templates hold the roles, never the releases they give."""
    edit(app.srcdir / "ch1" / "page.rst", 'print("unlabelled")', 'print("unlabelled", 2)')
    app.build()
    assert app.warning.getvalue() == ""
    messages = [
        entry.msgid for pot in app.outdir.rglob("*.pot") for entry in polib.pofile(str(pot))
    ]
    assert any(":drift:`lowest runs`" in msgid for msgid in messages)
    assert not any("0.4.38" in msgid for msgid in messages)


@pytest.mark.sphinx(
    "html", testroot="drift-report", srcdir="drift-report-zh", confoverrides={"language": "zh_CN"}
)
def test_the_chinese_note_lists_the_releases_as_chinese_does(built):
    note = text(soup(built.app, "ch1/note.html").select_one("section p"))
    assert "JAX 0.4.38. All of them run from JAX 0.12.0.1 on" in note


def test_the_book_has_no_report_of_the_lab(make_app, rootdir, tmp_path):
    """The report is the lab's, in the guides: on a page of the book it is no directive."""
    srcdir = copy(rootdir, tmp_path)
    with (srcdir / "ch2" / "page.rst").open("a", encoding="utf-8") as page:
        page.write("\n.. drift-report:: release-drift.json\n")
    app = make_app("html", srcdir=srcdir)
    app.build()
    assert 'Unknown directive type "drift-report"' in app.warning.getvalue()
