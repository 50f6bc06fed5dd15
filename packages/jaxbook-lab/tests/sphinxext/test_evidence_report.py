"""The lab's report of the evidence behind a book's update notes, a page of the guides: each
note of a table that names probes, by its number and point (a link to its row on the book's
site), with what the evidence says in sentences.

The book is ``tests/roots/test-evidence-column`` (eight notes and their table, and the
evidence file), built first; the report is the lab's root ``test-lab-evidence``'s
``report.rst``.
"""

from __future__ import annotations

import pytest


@pytest.fixture
def report(report_of):
    return report_of("evidence-column", "lab-evidence")


def evidence(report) -> dict[str, str]:
    return {"jaxbook_release_evidence": str(report.book / "evidence.json")}


def said(report, app) -> dict[str, str]:
    [dl] = report.soup(app, "report.html").select("dl.jb-evidence-report")
    return {
        " ".join(dt.get_text().split()): " ".join(dd.get_text().split())
        for dt, dd in zip(dl.select("dt"), dl.select("dd"), strict=True)
    }


def test_the_report_gives_each_notes_evidence_in_sentences(report):
    report.build_book(suppress_warnings=["jaxbook.evidence_column"])  # its notes' own
    app = report.build_lab(**evidence(report))
    assert report.warnings(app) == []
    assert said(report, app) == {
        "Update note 1: x.device() is no longer a method": (
            "Since JAX 0.4.31, calling x.device raises TypeError. "
            "In JAX 0.4.13–0.4.30, x.device() is a method."
        ),
        "Update note 2: The course printed 10.8": (
            "No checked release (0.4.13–0.12.0.1) gives 10.8. "
            "Since JAX 0.5.0, it prints 9.7. In JAX 0.4.13–0.4.38, it prints 2.5."
        ),
        "Update note 3: Mixing devices raises": (
            "No change in any checked release (0.4.13–0.12.0.1)."
        ),
        "Update note 6: Calling x.device() raises a TypeError": (
            "Since JAX 0.4.31, calling x.device raises TypeError. "
            "In JAX 0.4.13–0.4.30, x.device() is a method."
        ),
        # Older states follow newest first, a sentence each; two are named, and the rest by
        # their releases.
        "Update note 7: The release needs a newer Python": (
            "Since JAX 0.11.0, it requires Python 3.12 or newer. "
            "In JAX 0.7.0–0.10.2, it requires Python 3.11 or newer. "
            "In JAX 0.4.31–0.6.2, it requires Python 3.10 or newer. "
            "Older releases (0.4.13–0.4.30) are not described here."
        ),
        # Every probe of a note, in its order: the first is the one its column names.
        "Update note 8: x.device() is no longer a method, and Python 3.12 is needed": (
            "Since JAX 0.4.31, calling x.device raises TypeError. "
            "In JAX 0.4.13–0.4.30, x.device() is a method. "
            "Since JAX 0.11.0, it requires Python 3.12 or newer. "
            "In JAX 0.7.0–0.10.2, it requires Python 3.11 or newer. "
            "In JAX 0.4.31–0.6.2, it requires Python 3.10 or newer. "
            "Older releases (0.4.13–0.4.30) are not described here."
        ),
    }
    page = report.soup(app, "report.html")
    first = page.select_one("dl.jb-evidence-report dt a")
    assert first["href"] == "https://book.example/en/index.html#update-row-method"
    for code in page.select("dl.jb-evidence-report code"):
        assert "…" not in code.get_text()


def test_a_point_keeps_its_code(report):
    report.edit(
        report.book / "index.rst",
        ".. update-note:: x.device() is no longer a method",
        ".. update-note:: ``x.device()`` is no longer a *method*",
    )
    report.build_book(suppress_warnings=["jaxbook.evidence_column"])
    app = report.build_lab(**evidence(report))
    [term] = report.soup(app, "report.html").select("dl.jb-evidence-report dt")[:1]
    assert [code.get_text() for code in term.select("code")] == ["x.device()"]
    assert [em.get_text() for em in term.select("em")] == ["method"]
    assert " ".join(term.get_text().split()) == "Update note 1: x.device() is no longer a method"


def test_new_evidence_or_new_notes_rewrite_the_report(report):
    """make evidence, or a note edited and make html, then make guides: the report follows."""
    report.build_book(suppress_warnings=["jaxbook.evidence_column"])
    report.build_lab(**evidence(report))
    path = report.book / "evidence.json"
    path.write_text(path.read_text(encoding="utf-8").replace("0.4.31", "0.4.32"), "utf-8")
    again = report.build_lab(**evidence(report))
    assert (
        "Since JAX 0.4.32" in said(report, again)["Update note 1: x.device() is no longer a method"]
    )

    report.edit(report.book / "index.rst", "Mixing devices raises", "Mixed devices raise")
    report.build_book(suppress_warnings=["jaxbook.evidence_column"])
    again = report.build_lab(**evidence(report))
    assert "Update note 3: Mixed devices raise" in said(report, again)


def test_without_an_evidence_file_configured_the_report_is_empty(report):
    report.build_book(suppress_warnings=["jaxbook.evidence_column"])
    app = report.build_lab()
    assert report.warnings(app) == []
    assert report.soup(app, "report.html").select("dl.jb-evidence-report") == []
