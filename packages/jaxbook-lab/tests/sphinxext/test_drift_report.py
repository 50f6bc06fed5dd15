"""The lab's report of a chapter's drift data, a page of the guides: what ran where and when,
the examples the data has not seen yet, the table of those that differ and every difference,
each example named and linked on the book's site from the places the book's build published.

The book is ``tests/roots/test-drift-report`` (two chapters: the first has drift data, the
second none yet), built first; the report is the lab's root
``test-lab-drift``'s ``lab.rst``.
"""

from __future__ import annotations

import json

import pytest
from bs4 import BeautifulSoup
from sphinx.errors import ConfigError

from jaxbook_lab.sphinxext.book import BookPlacesError


@pytest.fixture
def report(report_of):
    return report_of("drift-report", "lab-drift")


def test_the_report_says_what_ran_where_and_when_then_folds_every_difference(report):
    report.build_book()
    app = report.build_lab()
    assert report.warnings(app) == []
    page = report.soup(app, "lab.html")
    text = report.text
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
    # Each example links its place on the book's site.
    links = table.select("tbody tr td:first-child a")
    assert [a["href"] for a in links] == [
        "https://book.example/en/ch1/page.html#check-device",
        "https://book.example/en/ch1/page.html#a-page",
        "https://book.example/en/ch1/page.html#checks-asserts",
    ]
    book_page = BeautifulSoup(
        (report.book_html / "ch1" / "page.html").read_text("utf-8"), "html.parser"
    )
    for a in links:
        assert book_page.find(id=a["href"].partition("#")[2]) is not None, a["href"]
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


def test_off_the_web_every_difference_is_under_a_heading(report):
    """A book in another format, or an EPUB, has no fold: its label is a heading, and what
    it held follows; the links to the book are made by the builder that writes the page."""
    report.build_book()
    app = report.build_lab("text")
    assert report.warnings(app) == []
    written = " ".join((app.outdir / "lab.txt").read_text(encoding="utf-8").split())
    assert "-[ All differences on JAX 0.4.38 ]-" in written  # the text builder's rubric
    assert "1.1 A page, example 2 of 2 — **cannot run**" in written
    assert "AttributeError: no" in written
    app = report.build_lab("epub")
    page = report.soup(app, "lab.xhtml")
    assert page.select("details") == []
    [rubric] = page.select("p.rubric")
    assert report.text(rubric) == "All differences on JAX 0.4.38"
    assert report.text(rubric.find_next("pre")) == "-device +old device"
    assert page.select_one("table.jb-drift-summary a")["href"] == (
        "https://book.example/en/ch1/page.xhtml#check-device"
    )


def test_an_example_edited_since_the_run_is_named_never_a_warning(report):
    """The edited example is named, with a link to the book; the data's runs of its old form
    are left out; the build has no warning."""
    report.edit(report.book / "ch1" / "page.rst", 'print("unlabelled")', 'print("unlabelled", 2)')
    report.build_book()
    app = report.build_lab()
    assert report.warnings(app) == []
    page = report.soup(app, "lab.html")
    [unseen] = page.select("p.jb-drift-unseen")
    assert report.text(unseen) == (
        "The data has not seen these examples yet: they have changed since the last make "
        "release-report, which runs them again: 1.1 A page, example 2 of 2."
    )
    assert unseen.a["href"] == "https://book.example/en/ch1/page.html#a-page"
    rows = [report.text(tr.td) for tr in page.select("table.jb-drift-summary tbody tr")]
    assert rows == ["1.1 A page, example 1 of 2", "1.1 Checks: asserts"]
    assert "of the 2 examples of this chapter" in report.text(page.select_one("ul.jb-drift-runs"))


def test_a_path_that_is_no_chapters_data_is_a_warning_at_the_directive(report):
    """A chapter not run yet is said on the page; a path that cannot name a chapter's data
    would say the same, so it is a warning: to a directory of the book that holds no page,
    to another file, or to no chapter's directory."""
    lab = report.lab / "lab.rst"
    report.edit(lab, "ch2/release-drift.json", "ch3/release-drift.json")
    with lab.open("a", encoding="utf-8") as written:
        written.write(
            "\n.. drift-report:: ch1/drift.json\n\n.. drift-report:: release-drift.json\n"
        )
    report.build_book()
    app = report.build_lab()
    relative = (
        "the path is relative to this page as if it stood among the book's pages: "
        "<chapter>/release-drift.json on a page at the top (guides/lab.rst) [jaxbook.drift_report]"
    )
    assert sorted(report.warnings(app)) == sorted([
        f"{lab}:14: WARNING: drift-report: ch3/release-drift.json is in ch3/, which holds "
        f"no page; {relative}",
        f"{lab}:16: WARNING: drift-report: ch1/drift.json is not a chapter's "
        f"release-drift.json; {relative}",
        f"{lab}:18: WARNING: drift-report: release-drift.json is in no chapter's directory; "
        f"{relative}",
    ])  # fmt: skip


def test_the_report_is_written_again_when_the_books_places_or_its_data_change(report):
    report.build_book()
    app = report.build_lab()
    shown = app.outdir / "lab.html"
    before = shown.stat().st_mtime_ns

    # The book built again, unchanged: the same places, the report left as it is.
    report.build_book()
    report.build_lab()
    assert shown.stat().st_mtime_ns == before

    # A page of the book renamed: its places change, and the report names it anew.
    report.edit(
        report.book / "ch1" / "page.rst",
        "1.1 A page\n==========",
        "1.1 A renamed page\n==================",
    )
    report.build_book()
    again = report.build_lab()
    assert shown.stat().st_mtime_ns != before
    assert "1.1 A renamed page, example 1 of 2" in report.text(report.soup(again, "lab.html"))

    # Chapter 2's first drift data: the report is read and written again.
    data = report.book / "ch1" / "release-drift.json"
    (report.book / "ch2" / "release-drift.json").write_text(
        data.read_text(encoding="utf-8").replace('"0.4.38": {', '"0.4.36": {'), encoding="utf-8"
    )
    again = report.build_lab()
    assert "No other JAX release" not in report.text(report.soup(again, "lab.html"))


def test_new_drift_data_rewrites_the_report(report):
    """make release-report, then make guides: the report shows the new runs."""
    report.build_book()
    report.build_lab()
    path = report.book / "ch1" / "release-drift.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["releases"]["0.4.38"]["environment"] = "Python 3.12, jax==0.4.38"
    path.write_text(json.dumps(data), encoding="utf-8")
    again = report.build_lab()
    said = "Run on December 3, 2026 on the CPU, with Python 3.12."
    assert said in report.text(report.soup(again, "lab.html"))


def test_a_drift_file_of_another_format_is_one_warning_at_the_file(report):
    report.build_book()
    path = report.book / "ch1" / "release-drift.json"
    path.write_text(json.dumps({"format": 3, "releases": {}}), encoding="utf-8")
    app = report.build_lab()
    assert report.warnings(app) == [
        f"{path}:1: WARNING: not a drift file of format 4 (it is of format 3); write it again "
        "with make release-report [jaxbook.drift_report]"
    ]
    assert "JAX 0.4.38" not in report.text(report.soup(app, "lab.html"))


def test_the_chinese_report_lists_and_counts_as_chinese_does(report_of):
    report = report_of("drift-report", "lab-drift", "zh_CN")
    report.build_book()
    app = report.build_lab()
    page = report.soup(app, "lab.html")
    first = report.text(page.select_one("ul.jb-drift-runs > li"))
    assert first == (
        "在 JAX 0.4.38 上，本章的 3 个示例中，1 个输出不同、1 个无法运行和 1 个结果因运行而异。"
        "2026 年 12 月 3 日在 CPU 上运行，环境为 Python 3.13、jaxlib 0.4.38 和 NumPy 2.2.1。"
    )
    assert "结果因运行而异：输出与书中相同和断言不成立。" in report.text(page)
    assert page.select_one("table.jb-drift-summary a")["href"].startswith(
        "https://book.example/zh_CN/ch1/page.html#"
    )


def test_a_report_before_the_book_is_built_says_what_to_build(report):
    with pytest.raises(ConfigError, match=r"the guides link the book, which is not built in en"):
        report.lab_app()
    # A site without the places (built before the book published them): they are asked for.
    report.book_html.mkdir(parents=True)
    with pytest.raises(BookPlacesError) as refused:
        report.lab_app()
    assert str(refused.value) == (
        f"{report.places}: the lab's report shows the book's places, which the book's build "
        "writes; it is not built in en (make html, then make guides)"
    )


def test_places_that_do_not_fit_their_format_are_one_clear_error(report):
    """The file is the book's build's; one of another shape names itself and what is wrong."""
    report.build_book()
    data = json.loads(report.places.read_text(encoding="utf-8"))
    data["pages"][2]["examples"][0]["line"] = "ten"
    report.places.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BookPlacesError) as refused:
        report.lab_app()
    assert str(refused.value) == (
        f"{report.places}: not the book's places of format 1 "
        '(["pages"][2]["examples"][0]["line"] is a string, not an integer or null); '
        "build the book again with make html"
    )


def test_the_catalogs_need_no_book(report):
    """The guides' templates are extracted before any build of the book (make gettext)."""
    app = report.build_lab("gettext")
    assert report.warnings(app) == []
