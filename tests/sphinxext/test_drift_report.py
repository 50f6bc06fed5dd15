"""A chapter's "other releases" appendix, from its own drift data, in the build's language.

The root is a book of two chapters: chapter 1 has drift data beside it, chapter 2 none yet.
"""

from __future__ import annotations

import json

import pytest
from bs4 import BeautifulSoup
from sphinx.util.console import strip_escape_sequences

from jaxbook.formats import code_digest


def soup(app, name: str) -> BeautifulSoup:
    return BeautifulSoup((app.outdir / name).read_text(encoding="utf-8"), "html.parser")


def text(element) -> str:
    """An element's text as read: its blocks apart, its inline parts as they run."""
    blocks = element.find_all(["p", "li", "th", "td", "summary", "pre"]) or [element]
    return " ".join(" ".join(block.get_text().split()) for block in blocks)


def warnings(app) -> list[str]:
    return strip_escape_sequences(app.warning.getvalue()).strip().splitlines()


@pytest.mark.sphinx("html", testroot="drift-report")
def test_the_report_sums_up_then_folds_every_difference(built):
    assert built.warnings == ""
    page = soup(built.app, "ch1/report.html")
    tallies = [text(li) for li in page.select("ul.jb-drift-tallies > li")]
    assert tallies == [
        # Releases in version order; this chapter's three examples, not the book's four.
        "On JAX 0.4.38, of the 3 examples of this chapter, 1 prints something else, "
        "1 cannot run, and 1 varies between runs.",
        "On JAX 0.12.0.1, all 3 examples of this chapter print what the book shows.",
    ]
    # The summary: one row an example that differs, in reading order, with its note.
    table = page.select_one("table.jb-drift-summary")
    assert [text(th) for th in table.select("thead th")] == [
        "Example",
        "JAX 0.4.38",
        "Update note",
    ]
    rows = [[text(td) for td in tr.select("td")] for tr in table.select("tbody tr")]
    assert rows == [
        ["1.1 A page, example 1 of 2", "prints something else", "1"],
        ["1.1 A page: An example without a label", "cannot run", "—"],
        ["1.1 Checks: asserts", "varies between runs", "—"],
    ]
    links = table.select("tbody tr td:first-child a")
    assert [a["href"] for a in links] == [
        "page.html#check-device",
        "page.html#a-page",
        "page.html#checks-asserts",
    ]
    assert table.select_one("tbody tr td:last-child a")["href"] == (
        "notes.html#update-row-device-property"
    )
    # Each cell of a release links to the example's difference, below.
    for a in table.select("tbody tr td:nth-child(2) a"):
        assert page.find(id=a["href"].removeprefix("#")) is not None
    legend = text(page.select_one("p.jb-drift-legend"))
    assert "“-” is what the book shows, run on JAX 0.12.0.1" in legend
    # The differences, folded: one fold a release that differs.
    [fold] = page.select("details.jb-drift-fold")
    assert text(fold.summary) == "All differences on JAX 0.4.38"
    assert "Tested with Python 3.13 and JAX 0.4.38." in text(fold)
    captions = [text(p) for p in fold.select("p.jb-drift-cell")]
    assert captions == [
        "1.1 A page, example 1 of 2 — prints something else",
        "1.1 A page: An example without a label — cannot run",
        "1.1 Checks: asserts — varies between runs",
    ]
    assert len(set(captions)) == len(captions)  # no two share one
    body = text(fold)
    assert "Related update note: 1." in body
    assert (
        "The result varies from run to run: in some runs it printed what the book shows, in "
        "others an assert failed." in body
    )
    assert "(3 more lines left out)" in body
    blocks = [" ".join(pre.get_text().split()) for pre in fold.select("pre")]
    # Of the example's two asserts, the one its run names as failing.
    assert blocks == ["-device +old device", "AttributeError: no", 'assert x == 2, "x"']
    assert "The assert that fails:" in body


@pytest.mark.sphinx("html", testroot="drift-report")
def test_a_chapter_without_drift_data_says_so_on_its_page(built):
    page = soup(built.app, "ch2/report.html")
    assert text(page.select_one("p.jb-drift-none")) == (
        "No other JAX release has run this chapter's examples yet."
    )
    assert page.select("table") == []


@pytest.mark.parametrize("builder", ["singlehtml", "latex"])
def test_each_chapter_speaks_of_its_own_in_a_book_of_one_document(
    make_app, rootdir, tmp_path, builder
):
    """The PDF and single-page builds write the whole book as the document 'index'."""
    import shutil

    srcdir = shutil.copytree(rootdir / "test-drift-report", tmp_path / "book")
    app = make_app(builder, srcdir=srcdir)
    app.build()
    assert app.warning.getvalue() == ""
    if builder == "latex":
        [tex] = app.outdir.glob("*.tex")
        written = " ".join(tex.read_text(encoding="utf-8").split())
    else:
        written = text(soup(app, "index.html"))
    assert "of the 3 examples of this chapter" in written
    assert "No other JAX release has run this chapter" in written
    if builder == "latex":
        # The raw differences stay on the web; the summary's cells link nowhere.
        assert "All differences on JAX 0.4.38" not in written
        assert "The web edition of this page shows each of these differences in full" in written
        assert "drift-" not in written
    else:
        assert "All differences on JAX 0.4.38" in written
    assert "4 examples" not in written


@pytest.mark.parametrize("builder", ["html", "singlehtml"])
def test_drift_data_older_than_the_pages_is_a_warning_at_its_report(
    make_app, rootdir, tmp_path, builder
):
    """An example edited since the release ran it, or removed, is named with its line; the
    warning stands at the chapter's report, whatever document the builder writes."""
    import shutil

    srcdir = shutil.copytree(rootdir / "test-drift-report", tmp_path / "book")
    path = srcdir / "ch1" / "release-drift.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    examples = data["releases"]["0.4.38"]["examples"]
    examples[1]["code"]["en"] = "000000000000"  # ran in another form; no page has it now
    path.write_text(json.dumps(data), encoding="utf-8")
    # Chapter 2 gains data of its own, which is current: no warning of it.
    (srcdir / "ch2" / "release-drift.json").write_text(
        json.dumps(
            {
                "format": 3,
                "generated by": "jaxbook drift --save",
                "releases": {
                    "0.4.38": {
                        "environment": "Python 3.13, jax==0.4.38",
                        "examples": [
                            {
                                "page": "ch2/page",
                                "file": "ch2/page.rst",
                                "line": 4,
                                "code": {"en": code_digest('print("new chapter")', "new chapter")},
                                "runs": [{"language": "en", "outcome": "same"}],
                            }
                        ],
                    }
                },
            }
        ),
        encoding="utf-8",
    )
    app = make_app(builder, srcdir=srcdir)
    app.build()
    report = srcdir / "ch1" / "report.rst"
    assert warnings(app) == [
        f"{report}:4: WARNING: drift-report: the drift data of JAX 0.4.38 is older than the "
        f"pages: 1 example(s) {what} (ch1/page.rst:{line}); run 'make release-report' "
        "[jaxbook.drift_report]"
        for what, line in [("changed since it ran", 18), ("gone from the pages", 18)]
    ]


def test_a_hidden_example_the_releases_ran_is_on_the_page(make_app, rootdir, tmp_path):
    """A hidden testcode (a comment node) is run like any other: its data is current."""
    import shutil

    srcdir = shutil.copytree(rootdir / "test-drift-report", tmp_path / "book")
    page = srcdir / "ch1" / "page.rst"
    hidden = "assert x == 2"
    page.write_text(
        page.read_text(encoding="utf-8") + f"\n.. testcode::\n   :hide:\n\n   {hidden}\n",
        encoding="utf-8",
    )
    path = srcdir / "ch1" / "release-drift.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for release in data["releases"].values():
        release["examples"].append(
            {
                "page": "ch1/page",
                "file": "ch1/page.rst",
                "line": 37,
                "code": {"en": code_digest(hidden)},
                "runs": [{"language": "en", "outcome": "same"}],
            }
        )
    path.write_text(json.dumps(data), encoding="utf-8")
    app = make_app("html", srcdir=srcdir)
    app.build()
    assert warnings(app) == []


def test_an_expected_output_edited_since_the_run_makes_the_data_older_than_the_page(
    make_app, rootdir, tmp_path
):
    """The code is the same, but the page now expects another output: the run's “-” lines
    would quote text the reader cannot find on the page."""
    import shutil

    srcdir = shutil.copytree(rootdir / "test-drift-report", tmp_path / "book")
    page = srcdir / "ch1" / "page.rst"
    page.write_text(
        page.read_text(encoding="utf-8").replace("   unlabelled\n", "   unlabelled!\n"),
        encoding="utf-8",
    )
    app = make_app("html", srcdir=srcdir)
    app.build()
    assert [w.split(": ", 2)[2] for w in warnings(app)] == [
        f"drift-report: the drift data of JAX {release} is older than the pages: 1 "
        f"example(s) {what} (ch1/page.rst:18); run 'make release-report' "
        "[jaxbook.drift_report]"
        for release in ("0.4.38", "0.12.0.1")
        for what in ("changed since it ran", "gone from the pages")
    ]


@pytest.mark.sphinx("html", testroot="drift-report", freshenv=True)
def test_the_report_is_rewritten_when_a_page_of_its_chapter_changes(built):
    app = built.app
    reports = {n: app.outdir / f"ch{n}/report.html" for n in (1, 2)}
    before = {n: path.stat().st_mtime_ns for n, path in reports.items()}
    page = app.srcdir / "ch1" / "page.rst"
    page.write_text(
        page.read_text(encoding="utf-8").replace(
            "1.1 A page\n==========", "1.1 A renamed page\n=================="
        ),
        encoding="utf-8",
    )
    app.build()
    assert reports[1].stat().st_mtime_ns != before[1]
    assert reports[2].stat().st_mtime_ns == before[2]  # another chapter's

    # Chapter 2's first drift data: its page is read and written again.
    data = app.srcdir / "ch1" / "release-drift.json"
    (app.srcdir / "ch2" / "release-drift.json").write_text(
        data.read_text(encoding="utf-8").replace('"0.4.38": {', '"0.4.36": {'), encoding="utf-8"
    )
    app.build()
    assert "No other JAX release" not in text(soup(app, "ch2/report.html"))
    assert "1.1 A renamed page, example 1 of 2" in text(soup(app, "ch1/report.html"))


WRONG_DRIFT = {
    "of another format": (
        {"format": 2, "generated by": "jaxbook drift --save", "releases": {}},
        "it is of format 2",
    ),
    "of another shape": (
        {
            "format": 3,
            "generated by": "jaxbook drift --save",
            "releases": {
                "0.4.38": {
                    "environment": "Python 3.13, jax==0.4.38",
                    "examples": [
                        {
                            "page": "ch1/page",
                            "file": "ch1/page.rst",
                            "line": 10,
                            "code": {"en": "5ad7ea687e20"},
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
    assert warnings(app) == [
        f"{path}:1: WARNING: not a drift file of format 3 ({problem}); write it again with "
        "make release-report [jaxbook.drift_report]"
    ]
    assert "JAX 0.4.38" not in text(soup(app, "ch1/report.html"))


@pytest.mark.sphinx("html", testroot="drift-report", srcdir="drift-report-again", freshenv=True)
def test_new_drift_data_rewrites_the_page(app, make_app):
    """make release-report, then make html: the page shows the new runs."""
    app.build()
    path = app.srcdir / "ch1" / "release-drift.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["releases"]["0.4.38"]["environment"] = "Python 3.12, jax==0.4.38"
    path.write_text(json.dumps(data), encoding="utf-8")
    again = make_app("html", srcdir=app.srcdir)
    again.build()
    assert "Tested with Python 3.12 and JAX 0.4.38." in text(soup(again, "ch1/report.html"))


@pytest.mark.sphinx("gettext", testroot="drift-report", srcdir="drift-report-gettext")
def test_the_catalogs_do_not_wait_on_the_drift_data(app):
    """Extracting messages neither reads the drift file nor warns that it is old."""
    (app.srcdir / "ch1" / "release-drift.json").write_text('{"format": 0}', encoding="utf-8")
    app.build()
    assert app.warning.getvalue() == ""
    templates = sorted(app.outdir.rglob("*.pot"))
    assert templates
    assert not [t for t in templates if "JAX 0.4.38" in t.read_text(encoding="utf-8")]


@pytest.mark.sphinx(
    "html", testroot="drift-report", srcdir="drift-report-zh", confoverrides={"language": "zh_CN"}
)
def test_the_chinese_report_lists_and_counts_as_chinese_does(built):
    page = soup(built.app, "ch1/report.html")
    tally = text(page.select_one("ul.jb-drift-tallies > li"))
    assert tally == (
        "在 JAX 0.4.38 上，本章的 3 个示例中，1 个输出不同、1 个无法运行、1 个结果因运行而异。"
    )
    assert "结果因运行而异：有的运行中输出与书中相同，有的运行中断言不成立。" in text(page)


@pytest.mark.sphinx(
    "html", testroot="drift-report", srcdir="drift-report-ja", confoverrides={"language": "ja"}
)
def test_a_language_the_data_has_no_runs_in_reads_the_sources(built):
    """A language just added: its untranslated pages show the source's code, whose runs
    the report shows, and the data is not "older than the pages"."""
    assert built.warnings == ""
    table = soup(built.app, "ch1/report.html").select_one("table.jb-drift-summary")
    assert len(table.select("tbody tr")) == 3


def test_a_deploys_pdf_gives_the_address_of_the_differences(
    make_app, rootdir, tmp_path, monkeypatch
):
    import shutil

    monkeypatch.setenv("JAXBOOK_SITE_URL", "https://book.example.org/")
    srcdir = shutil.copytree(rootdir / "test-drift-report", tmp_path / "book")
    app = make_app("latex", srcdir=srcdir)
    app.build()
    [tex] = app.outdir.glob("*.tex")
    written = " ".join(tex.read_text(encoding="utf-8").split())
    assert "https://book.example.org/en/ch1/report.html" in written


def test_a_line_that_differs_only_by_the_releases_name_is_no_difference():
    from jaxbook.sphinxext.drift_report import without_release_names

    def example(*details: str) -> dict:
        runs = [{"language": "en", "outcome": "output", "detail": d} for d in details]
        return {"page": "ch1/page", "file": "page.rst", "line": 1, "code": {}, "runs": runs}

    only_the_name = "-JAX version: 0.12.0.1\n+JAX version: 0.11.2"
    [run] = without_release_names(example(only_the_name), "0.11.2", "0.12.0.1")["runs"]
    assert run == {"language": "en", "outcome": "same"}
    more = only_the_name + "\n-numpy>=2.2\n+numpy>=2.1"
    [run] = without_release_names(example(more), "0.11.2", "0.12.0.1")["runs"]
    assert run["outcome"] == "output"
    assert run["detail"] == "-numpy>=2.2\n+numpy>=2.1"
    # A value that is no release's name still differs.
    other = "-result: 0.12\n+result: 0.13"
    [run] = without_release_names(example(other), "0.11.2", "0.12.0.1")["runs"]
    assert run["detail"] == other


def test_a_name_an_earlier_example_defines_is_that_examples_failure():
    """On the pinned release every example of a page passes in order: a NameError on
    another release means that an earlier example failed there, not that the release
    lacks what this one uses."""
    from jaxbook.sphinxext.drift_report import AFTER_FAILURE, shown_outcome

    stopped = {
        "language": "en",
        "outcome": "cannot-run",
        "detail": "NameError: name 'f' is not defined",
    }
    missing = {"language": "en", "outcome": "cannot-run", "detail": "AttributeError: no shard_map"}
    assert shown_outcome(stopped) == AFTER_FAILURE
    assert shown_outcome(missing) == "cannot-run"
