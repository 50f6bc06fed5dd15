from __future__ import annotations

import html as html_module
import json
import re

import pytest
from sphinx.util.console import strip_escape_sequences


def _rows(html: str) -> list[str]:
    body = html[html.index("<tbody") : html.index("</tbody>")]
    return re.findall(r"<tr.*?</tr>", body, re.DOTALL)


def _text(fragment: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment)).strip()


def _check_table(built) -> None:
    html = built.page("table")
    rows = _rows(html)
    assert [_text(row).split()[0] for row in rows] == ["1", "2", "3", "4"]

    one = rows[0]
    assert "1.1 / 1.2" in _text(one)
    assert "Point <em>one</em>" in one
    assert 'href="first.html#update-note-one"' in one
    assert 'href="second.html#update-note-one"' in one
    assert 'href="first.html#check-one"' in one

    assert "Point two" in _text(rows[1])
    assert 'href="first.html#update-note-two"' in rows[1]
    assert "Point three" in _text(rows[2])
    assert "pointless" not in _text(rows[3])

    first = built.page("first")
    assert 'href="table.html#update-row-one"' in first
    assert "更新说明 #1" in first


@pytest.mark.sphinx("html", testroot="notes")
def test_table_is_generated_from_the_notes(built):
    _check_table(built)

    warnings = built.warnings
    assert re.search(
        r"second\.rst:\d+: WARNING: update note 'three': no label 'no-such-label'", warnings
    )
    assert re.search(r"second\.rst:\d+: WARNING: update note 'pointless' has no point", warnings)
    assert re.search(r"second\.rst:\d+: WARNING: update note 'two' has a point in two", warnings)


@pytest.mark.sphinx("html", testroot="notes", parallel=2)
def test_table_survives_a_parallel_read(built):
    _check_table(built)


@pytest.mark.sphinx("html", testroot="notes", freshenv=True)
def test_removing_a_note_removes_its_row(built):
    app = built.app
    second = app.srcdir / "second.rst"
    text = second.read_text(encoding="utf-8")
    start = text.index(".. update-note:: Point three")
    end = text.index(".. update-note::\n   :id: pointless")
    second.write_text(text[:start] + text[end:], encoding="utf-8")
    app.build()
    html = built.page("table")
    assert "Point three" not in html
    assert len(_rows(html)) == 3


def _cells(html: str) -> dict[str, str]:
    """The "Changed in" cell of each row, by note id."""
    return {
        re.search(r'id="update-row-([\w-]+)"', row)[1]: html_module.unescape(
            re.sub(r"\s+([;.])", r"\1", _text(row.rsplit("<td", 1)[1].split(">", 1)[1]))
        )
        for row in _rows(html)
    }


@pytest.mark.sphinx("html", testroot="notes-evidence")
def test_changed_in_column_says_what_held_on_every_release_of_each_era(built):
    cells = _cells(built.page())
    assert cells["method"] == (
        "Changed in JAX 0.4.31 (the newest release with the old behavior is 0.4.30): "
        "in 0.4.13–0.4.30, x.device() is a method; in 0.4.31–0.12.0.1, calling x.device "
        "raises TypeError: 'xla_extension.Device' object is not callable (0.4.31–0.6.0), "
        "TypeError: '_jax.Device' object is not callable (0.6.1–0.12.0.1)."
    )
    assert cells["value"] == (
        "10.8: not reproducible on any release that installs here (0.4.13–0.12.0.1): "
        "in 0.4.13–0.4.38, it prints 2.5; in 0.5.0–0.12.0.1, it prints 9.7."
    )
    assert cells["unbacked"] == "—"


@pytest.mark.sphinx("html", testroot="notes-evidence", freshenv=True)
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
    assert warnings.count("WARNING") == 3


@pytest.mark.sphinx("html", testroot="notes-chapters")
def test_each_chapter_has_its_own_table(built):
    assert built.warnings == ""
    for chapter, other in [(1, 2), (2, 1)]:
        rows = _rows(built.page(f"ch{chapter}/update-notes"))
        assert [_text(row).split()[0] for row in rows] == ["1", "2"]
        assert f"Point of chapter {chapter}" in _text(rows[0])
        assert f"chapter {other}" not in " ".join(_text(row) for row in rows)
        page = built.page(f"ch{chapter}/page")
        assert f'href="update-notes.html#update-row-ch{chapter}-second"' in page
        assert "更新说明 #2" in page


@pytest.mark.sphinx("html", testroot="notes-chapters", freshenv=True)
def test_an_edit_rewrites_its_chapters_table_only(built):
    app = built.app
    written = {n: (app.outdir / f"ch{n}/update-notes.html").stat().st_mtime_ns for n in (1, 2)}
    page = app.srcdir / "ch1" / "page.rst"
    page.write_text(
        page.read_text(encoding="utf-8").replace("Point of chapter 1", "Edited point", 1),
        encoding="utf-8",
    )
    app.build()
    assert "Edited point" in _text(_rows(built.page("ch1/update-notes"))[0])
    assert (app.outdir / "ch1/update-notes.html").stat().st_mtime_ns != written[1]
    assert (app.outdir / "ch2/update-notes.html").stat().st_mtime_ns == written[2]


@pytest.mark.sphinx("html", testroot="notes-order")
def test_notes_are_numbered_where_the_reader_first_meets_them(built):
    rows = [_text(row) for row in _rows(built.page("table"))]
    assert [row.split()[0] for row in rows] == ["1", "2"]
    assert "Met first" in rows[0]
    assert "Met second" in rows[1]
    assert "更新说明 #1" in built.page("first")


WRONG_EVIDENCE = {
    "of another format": ({"probes": {}}, "it has no format number"),
    "of another shape": (
        {
            "format": 1,
            "generated by": "jaxbook evidence",
            "method": "by hand",
            "range": ["0.4.13", "0.12.0.1"],
            "releases": {"0.4.13": {"environment": "Python 3.11", "answers": {"dot": "1.0"}}},
            "probes": {},
        },
        '["releases"]["0.4.13"]["answers"]["dot"] is a string, not an object',
    ),
}


@pytest.mark.parametrize("wrong", WRONG_EVIDENCE)
@pytest.mark.sphinx("html", testroot="notes-evidence", srcdir="notes-evidence-wrong", freshenv=True)
def test_an_evidence_file_of_another_format_or_shape_is_one_warning_at_the_file(app, wrong):
    data, problem = WRONG_EVIDENCE[wrong]
    path = app.srcdir / "evidence.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    app.build()
    warnings = strip_escape_sequences(app.warning.getvalue()).strip().splitlines()
    assert warnings == [
        f"{path}:1: WARNING: not an evidence file of format 1 ({problem}); write it again with "
        "make evidence [jaxbook.format]"
    ]
    # Without evidence the table has no "Changed in" column, and no warning follows from it.
    assert "Changed in" not in (app.outdir / "index.html").read_text(encoding="utf-8")
