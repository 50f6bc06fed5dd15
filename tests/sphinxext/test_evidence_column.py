"""Where each update note's behavior changed, from the evidence file: one short phrase a row
in the table's "Changed in" column, and the release that prose names with ``:changed-in:``;
a claim about an older release needs a probe the file has; a file that does not fit is one
warning at the file, and the table goes without the column. (The detail in sentences is the
lab's report's, in the guides: ``packages/jaxbook-lab/tests/sphinxext/test_evidence_report.py``.)"""

from __future__ import annotations

import json
import re

import pytest
from bs4 import BeautifulSoup
from sphinx.util.console import strip_escape_sequences


def table(html: str):
    return BeautifulSoup(html, "html.parser").select_one("table.jb-update-notes")


def _cells(html: str) -> dict[str, str]:
    """The "Changed in" cell of each row, by note id, as read."""
    return {
        row["id"].removeprefix("update-row-"): " ".join(row.select("td")[-1].get_text().split())
        for row in table(html).select("tbody tr")
    }


@pytest.mark.sphinx("html", testroot="evidence-column")
def test_each_cell_is_one_short_phrase(built):
    cells = _cells(built.page())
    assert cells == {
        "method": "since 0.4.31",
        # The course's old output, which no release gives: the note holds on every release,
        # from the first its probe was asked of.
        "value": "no change since 0.4.13",
        "steady": "no change since 0.4.13",
        "unbacked": "—",
        "unknown-probe": "—",
        "method-again": "since 0.4.31",
        "python": "since 0.11.0",
        # The note holds as a whole from its probes' latest change: another probe's
        # (python-floor, 0.11.0) after its first one's (0.4.31).
        "first-probe": "since 0.11.0",
    }


def test_a_notes_present_behavior_holds_since_its_probes_last_change():
    from jaxbook.sphinxext.evidence_column import changed_in

    def probe(*keys: str) -> dict:
        eras = [{"first": f"0.{i}.0", "last": f"0.{i}.9", "key": k} for i, k in enumerate(keys)]
        return {"eras": eras}

    evidence = {"probes": {"a": probe("x", "y"), "b": probe("p", "q", "r"), "c": probe("z")}}
    assert changed_in(evidence, ["a", "b", "c"]) == (["0.1.0", "0.2.0"], True)
    assert changed_in(evidence, ["c"]) == ([], True)
    assert changed_in(evidence, ["nothing"]) == ([], False)
    # An old output that a release gave: the present answer holds since the next era.
    assert changed_in(evidence, ["b"], {"b": "p"}) == (["0.1.0"], True)
    # One that no release gave: the note holds on every release, whatever else changed.
    assert changed_in(evidence, ["a", "b"], {"b": "old"}) == ([], True)


def test_a_note_that_never_changed_holds_from_where_all_its_probes_were_asked():
    from jaxbook.sphinxext.evidence_column import checked_since

    def probe(first: str) -> dict:
        return {"eras": [{"first": first, "last": "0.12.0.1", "key": "k"}]}

    evidence = {"probes": {"a": probe("0.4.13"), "b": probe("0.4.20"), "c": probe("0.4.9")}}
    assert checked_since(evidence, ["a"]) == "0.4.13"
    # Versions compare as releases, not as text ("0.4.9" < "0.4.13"); the latest first wins:
    # before it, one of the probes was never asked.
    assert checked_since(evidence, ["a", "b", "c"]) == "0.4.20"
    assert checked_since(evidence, ["c", "nothing"]) == "0.4.9"


@pytest.mark.sphinx(
    "html", testroot="evidence-column", freshenv=True, confoverrides={"language": "zh_CN"}
)
def test_the_chinese_column_speaks_chinese(built):
    page = table(built.page())
    assert page.select("thead th")[-1].get_text() == "版本变化"
    cells = _cells(built.page())
    assert cells["method"] == "自 0.4.31 起"
    assert cells["steady"] == "0.4.13 以来均如此"


@pytest.mark.sphinx("html", testroot="evidence-column", freshenv=True)
def test_prose_names_the_release_since_which_its_probes_answer_as_they_do(built):
    page = BeautifulSoup((built.app.outdir / "report.html").read_text("utf-8"), "html.parser")
    said = " ".join(page.select_one("section p").get_text().split())
    # Two probes that changed in different releases are no one release: a warning.
    assert said == (
        "The method became a property in JAX 0.4.31; the value changed in JAX a-value python-floor."
    )
    assert re.search(
        r"report\.rst:\d+: WARNING: changed-in: 'a-value python-floor' did not all change, in "
        r"one release, in the evidence file \[jaxbook.evidence_column\]",
        strip_escape_sequences(built.warnings),
    )


@pytest.mark.sphinx(
    "html", testroot="evidence-column", srcdir="evidence-column-new-probe", freshenv=True
)
def test_prose_that_names_a_probe_the_file_lacks_is_told_to_run_make_evidence(app):
    """A probe added to the lab, named by the prose before ``make evidence`` ran: the warning
    says what to run, not that the probe's answer never changed."""
    report = app.srcdir / "report.rst"
    text = report.read_text(encoding="utf-8")
    report.write_text(text + "\nNew in JAX :changed-in:`method-call new-probe`.\n", "utf-8")
    app.build()
    warnings = strip_escape_sequences(app.warning.getvalue())
    assert re.search(
        r"report\.rst:\d+: WARNING: changed-in: the evidence file has no probe 'new-probe'; "
        r"run 'make evidence' \[jaxbook.evidence_column\]",
        warnings,
    )
    assert "'method-call new-probe' did not all change" not in warnings


@pytest.mark.sphinx("html", testroot="evidence-column", freshenv=True)
def test_a_claim_about_an_older_release_needs_evidence(built):
    warnings = built.warnings
    assert re.search(
        r"index\.rst:\d+: WARNING: update note 'unbacked' speaks of an older release but "
        r"names no :evidence: probe",
        warnings,
    )
    assert re.search(
        r"index\.rst:\d+: WARNING: update note 'unknown-probe': the evidence file has no "
        r"probe 'no-such-probe'",
        warnings,
    )
    assert re.search(
        r"index\.rst:\d+: WARNING: update note 'steady': the evidence has no sentence for "
        r"probe 'steady' answering 'ValueError'",
        warnings,
    )
    assert warnings.count("WARNING") == 4  # and the report's role, below
    lines = [line for line in strip_escape_sequences(warnings).splitlines() if "WARNING" in line]
    assert all(line.endswith("[jaxbook.evidence_column]") for line in lines), lines


WRONG_EVIDENCE = {
    "of another format": ({"probes": {}}, "it has no format number"),
    "of another shape": (
        {
            "format": 1,
            "generated by": "jaxbook-lab evidence",
            "method": "by hand",
            "range": ["0.4.13", "0.12.0.1"],
            "releases": {"0.4.13": {"environment": "Python 3.11", "answers": {"dot": "1.0"}}},
            "probes": {},
        },
        '["releases"]["0.4.13"]["answers"]["dot"] is a string, not an object',
    ),
}


@pytest.mark.parametrize("wrong", WRONG_EVIDENCE)
@pytest.mark.sphinx(
    "html", testroot="evidence-column", srcdir="evidence-column-wrong", freshenv=True
)
def test_an_evidence_file_of_another_format_or_shape_is_one_warning_at_the_file(app, wrong):
    data, problem = WRONG_EVIDENCE[wrong]
    path = app.srcdir / "evidence.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    app.build()
    warnings = strip_escape_sequences(app.warning.getvalue()).strip().splitlines()
    assert warnings == [
        f"{path}:1: WARNING: not an evidence file of format 1 ({problem}); write it again with "
        "make evidence [jaxbook.evidence_column]"
    ]
    # Without evidence the table has no "Changed in" column, and no warning follows from it.
    assert "Changed in" not in (app.outdir / "index.html").read_text(encoding="utf-8")


@pytest.mark.sphinx(
    "html",
    testroot="evidence-column",
    freshenv=True,
    confoverrides={"suppress_warnings": ["jaxbook.evidence_column"]},
)
def test_the_evidence_warnings_are_of_their_own_kind(built):
    assert built.warnings == ""
    assert _cells(built.page())["unbacked"] == "—"


@pytest.mark.sphinx(
    "html",
    testroot="evidence-column",
    srcdir="evidence-column-without",
    freshenv=True,
    confoverrides={"extensions": ["jaxbook.sphinxext.notes"], "exclude_patterns": ["report.rst"]},
)
def test_the_notes_alone_keep_the_evidence_options_and_show_no_column(built):
    # The notes' options are read and kept; nothing checks them against the file.
    assert built.warnings == ""
    page = table(built.page())
    assert "Changed in" not in page.get_text()
    assert len(page.select("tbody tr")) == 8


@pytest.mark.sphinx(
    "html", testroot="evidence-column", srcdir="evidence-column-again", freshenv=True
)
def test_a_new_evidence_file_rewrites_the_table(app, make_app):
    """make evidence, then make html: the column shows the new eras."""
    app.build()
    path = app.srcdir / "evidence.json"
    path.write_text(path.read_text(encoding="utf-8").replace("0.4.31", "0.4.32"), encoding="utf-8")
    again = make_app("html", srcdir=app.srcdir)
    again.build()
    assert "since 0.4.32" in (again.outdir / "index.html").read_text(encoding="utf-8")
    report = BeautifulSoup((again.outdir / "report.html").read_text("utf-8"), "html.parser")
    assert "property in JAX 0.4.32;" in report.get_text()


def test_past_two_older_states_the_rest_are_named_by_their_releases():
    from docutils import nodes

    from jaxbook.sphinxext import _eras

    floors = ["3.7", "3.8", "3.9", "3.10", "3.11", "3.12"]
    eras = [
        {
            "first": f"0.{i}.0",
            "last": f"0.{i}.9",
            "key": f">={floor}",
            "shown": [{"text": f">={floor}"}],
        }
        for i, floor in enumerate(floors, start=1)
    ]
    entry = {"eras": eras, "sentences": {"*": "it requires Python %(minimum)s or newer"}}
    said = _eras.changed("python", entry, "en", lambda *_: None)
    assert [nodes.paragraph("", "", *s).astext() for s in said] == [
        "Since JAX 0.6.0, it requires Python 3.12 or newer.",
        "In JAX 0.5.0–0.5.9, it requires Python 3.11 or newer.",
        "In JAX 0.4.0–0.4.9, it requires Python 3.10 or newer.",
        "Older releases (0.1.0–0.3.9) are not described here.",
    ]
