"""What the book shows of a chapter's drift data: the releases its note names, the examples
the data has not seen yet, and the lab's report on the web.

The root is a book of two chapters: chapter 1 has drift data beside it and a note that
names releases through ``:drift:``; chapter 2 has none yet. ``lab.rst`` is the lab's
report of both.
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
                "jaxbook.sphinxext.parallel",
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


def test_a_report_of_a_path_that_is_no_chapters_data_is_a_warning_at_the_directive(
    make_app, rootdir, tmp_path
):
    """A chapter not run yet is said on the page; a path that cannot name a chapter's data
    would say the same, so it is a warning: relative to the chapter's page (its own data is
    ``release-drift.json``), to a directory that holds no page, or to another file."""
    srcdir = copy(rootdir, tmp_path)
    page, lab = srcdir / "ch2" / "page.rst", srcdir / "lab.rst"
    with page.open("a", encoding="utf-8") as written:
        written.write("\n.. drift-report:: ch2/release-drift.json\n")
    edit(lab, "ch2/release-drift.json", "ch3/release-drift.json")
    with lab.open("a", encoding="utf-8") as written:
        written.write(
            "\n.. drift-report:: ch1/drift.json\n\n.. drift-report:: release-drift.json\n"
        )
    app = make_app("html", srcdir=srcdir)
    app.build()
    relative = (
        "the path is relative to this page: release-drift.json on a chapter's own page, "
        "<chapter>/release-drift.json on a page above the chapters (guides/lab.rst) "
        "[jaxbook.drift_report]"
    )
    assert sorted(warnings(app)) == sorted([
        f"{page}:12: WARNING: drift-report: ch2/release-drift.json is in ch2/ch2/, which "
        f"holds no page; {relative}",
        f"{lab}:14: WARNING: drift-report: ch3/release-drift.json is in ch3/, which holds "
        f"no page; {relative}",
        f"{lab}:16: WARNING: drift-report: ch1/drift.json is not a chapter's "
        f"release-drift.json; {relative}",
        f"{lab}:18: WARNING: drift-report: release-drift.json is in no chapter's directory; "
        f"{relative}",
    ])  # fmt: skip


def test_a_chapters_page_shows_its_own_data_not_run_yet_by_its_file_name(
    make_app, rootdir, tmp_path
):
    srcdir = copy(rootdir, tmp_path)
    with (srcdir / "ch2" / "page.rst").open("a", encoding="utf-8") as page:
        page.write("\n.. drift-report:: release-drift.json\n")
    app = make_app("html", srcdir=srcdir)
    app.build()
    assert warnings(app) == []
    none = "No other JAX release has run this chapter's examples yet."
    assert none in text(soup(app, "ch2/page.html"))


@pytest.mark.sphinx("html", testroot="drift-report")
def test_the_lab_report_says_what_ran_where_and_when_then_folds_every_difference(built):
    assert built.warnings == ""
    page = soup(built.app, "lab.html")
    runs = [text(li) for li in page.select("ul.jb-drift-runs > li")]
    assert runs == [
        # Releases in version order; this chapter's three examples, not the book's four.
        "On JAX 0.4.38, of the 3 examples of this chapter, 1 prints something else, "
        "1 cannot run, and 1 varies between runs. Run on December 3, 2026 on the CPU, "
        "with Python 3.13, jaxlib 0.4.38, and NumPy 2.2.1.",
        "On JAX 0.12.0.1, of the 3 examples of this chapter, 3 print the same. "
        "Run on December 4, 2026 on the CPU, with Python 3.13.",
    ]
    # The table: one row an example that differs, in reading order.
    [table, *others] = page.select("table.jb-drift-summary")
    assert others == []  # chapter 2 has no data
    assert [text(th) for th in table.select("thead th")] == ["Example", "JAX 0.4.38"]
    rows = [[text(td) for td in tr.select("td")] for tr in table.select("tbody tr")]
    assert rows == [
        ["1.1 A page, example 1 of 2", "prints something else"],
        ["1.1 A page, example 2 of 2", "cannot run"],
        ["1.1 Checks: asserts", "varies between runs"],
    ]
    links = table.select("tbody tr td:first-child a")
    assert [a["href"] for a in links] == [
        "ch1/page.html#check-device",
        "ch1/page.html#a-page",
        "ch1/page.html#checks-asserts",
    ]
    # Each cell of a release links to the example's difference, below.
    for a in table.select("tbody tr td:nth-child(2) a"):
        assert page.find(id=a["href"].removeprefix("#")) is not None
    legend = text(page.select_one("p.jb-drift-legend"))
    assert "“-” is what the book shows, run on JAX 0.12.0.1" in legend
    # The differences, folded: one fold a release that differs.
    [fold] = page.select("details.jb-drift-fold")
    assert text(fold.summary) == "All differences on JAX 0.4.38"
    captions = [text(p) for p in fold.select("p.jb-drift-cell")]
    assert captions == [
        "1.1 A page, example 1 of 2 — prints something else",
        "1.1 A page, example 2 of 2 — cannot run",
        "1.1 Checks: asserts — varies between runs",
    ]
    body = text(fold)
    assert (
        "The result varies from run to run: prints what the book shows and an assert fails." in body
    )
    assert "(3 more lines left out)" in body
    blocks = [" ".join(pre.get_text().split()) for pre in fold.select("pre")]
    assert blocks == ["-device +old device", "AttributeError: no", 'assert x == 2, "x"']
    # Chapter 2 has no data yet, and says so.
    assert text(page.select_one("p.jb-drift-none")) == (
        "No other JAX release has run this chapter's examples yet."
    )


@pytest.mark.parametrize("builder", ["html", "singlehtml", "latex"])
def test_an_example_edited_since_the_run_is_named_where_the_data_is_shown_never_a_warning(
    make_app, rootdir, tmp_path, builder
):
    """The edited example is named on the note and in the report, with a link; the data's
    runs of its old form are left out; the build has no warning."""
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
    if builder == "html":
        page = soup(app, "lab.html")
        assert text(page.select_one("p.jb-drift-unseen")) == (
            "The data has not seen these examples yet: they have changed since the last make "
            "release-report, which runs them again: 1.1 A page, example 2 of 2."
        )
        rows = [text(tr.td) for tr in page.select("table.jb-drift-summary tbody tr")]
        assert rows == ["1.1 A page, example 1 of 2", "1.1 Checks: asserts"]
        assert "of the 2 examples of this chapter" in text(page.select_one("ul.jb-drift-runs"))


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
    rows = soup(app, "lab.html").select("table.jb-drift-summary tbody tr")
    assert len(rows) == 3


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


@pytest.mark.sphinx("html", testroot="drift-report", freshenv=True)
def test_the_pages_that_show_the_data_are_written_again_when_a_page_changes(built):
    app = built.app
    shown = {name: app.outdir / f"{name}.html" for name in ("lab", "ch1/note", "ch2/page")}
    before = {name: path.stat().st_mtime_ns for name, path in shown.items()}
    edit(
        app.srcdir / "ch1" / "page.rst",
        "1.1 A page\n==========",
        "1.1 A renamed page\n==================",
    )
    app.build()
    assert shown["lab"].stat().st_mtime_ns != before["lab"]
    assert shown["ch1/note"].stat().st_mtime_ns != before["ch1/note"]
    assert shown["ch2/page"].stat().st_mtime_ns == before["ch2/page"]
    assert "1.1 A renamed page, example 1 of 2" in text(soup(app, "lab.html"))

    # Chapter 2's first drift data: the report is read and written again.
    data = app.srcdir / "ch1" / "release-drift.json"
    (app.srcdir / "ch2" / "release-drift.json").write_text(
        data.read_text(encoding="utf-8").replace('"0.4.38": {', '"0.4.36": {'), encoding="utf-8"
    )
    app.build()
    assert "No other JAX release" not in text(soup(app, "lab.html"))


@pytest.mark.sphinx("html", testroot="drift-report", srcdir="drift-report-again", freshenv=True)
def test_new_drift_data_rewrites_the_note_and_the_report(app, make_app):
    """make release-report, then make html: the pages show the new runs."""
    app.build()
    path = app.srcdir / "ch1" / "release-drift.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["releases"]["0.4.38"]["environment"] = "Python 3.12, jax==0.4.38"
    data["releases"]["0.4.38"]["examples"][0]["runs"] = [{"language": "en", "outcome": "same"}]
    path.write_text(json.dumps(data), encoding="utf-8")
    again = make_app("html", srcdir=app.srcdir)
    again.build()
    assert "Run on December 3, 2026 on the CPU, with Python 3.12." in text(soup(again, "lab.html"))
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
    assert "JAX 0.4.38" not in text(soup(app, "lab.html"))


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
def test_the_chinese_report_lists_and_counts_as_chinese_does(built):
    page = soup(built.app, "lab.html")
    first = text(page.select_one("ul.jb-drift-runs > li"))
    assert first == (
        "在 JAX 0.4.38 上，本章的 3 个示例中，1 个输出不同、1 个无法运行和 1 个结果因运行而异。"
        "2026 年 12 月 3 日在 CPU 上运行，环境为 Python 3.13、jaxlib 0.4.38 和 NumPy 2.2.1。"
    )
    assert "结果因运行而异：输出与书中相同和断言不成立。" in text(page)
    note = text(soup(built.app, "ch1/note.html").select_one("section p"))
    assert "JAX 0.4.38. All of them run from JAX 0.12.0.1 on" in note
