from __future__ import annotations

import re

import pytest


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
