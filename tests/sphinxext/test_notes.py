from __future__ import annotations

import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

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
    # The number links to the note's first place; "See" names each section whose code
    # shows it (here the page's own titled section) once, linked to its first example,
    # then another page the note stands on, by its number.
    assert '<a class="reference internal" href="first.html#update-note-one">1</a>' in one
    assert ">1.1 First section</a>" in one
    assert 'href="first.html#check-one-again"' not in one
    assert "另外" not in one
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
    assert "更新说明 1" in first


@pytest.mark.sphinx("html", testroot="notes")
def test_table_is_generated_from_the_notes(built):
    _check_table(built)

    warnings = built.warnings
    assert re.search(
        r"second\.rst:\d+: WARNING: update note 'three': no label 'no-such-label'", warnings
    )
    assert re.search(r"second\.rst:\d+: WARNING: update note 'pointless' has no point", warnings)
    assert re.search(r"second\.rst:\d+: WARNING: update note 'two' has a point in two", warnings)


class _Pages:
    def __init__(self, outdir: Path) -> None:
        self.outdir = outdir

    def page(self, name: str) -> str:
        return (self.outdir / f"{name}.html").read_text(encoding="utf-8")


def test_table_survives_a_parallel_read(rootdir, tmp_path):
    # Sphinx forks its parallel readers and writers. In a pytest worker where an earlier
    # test has started JAX, a fork warns of deadlock (and may deadlock), so the build gets
    # a process of its own, as it has under `make html`.
    source = shutil.copytree(rootdir / "test-notes", tmp_path / "notes")
    outdir = tmp_path / "html"
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-j", "2", "-q", source, outdir],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "update note 'pointless' has no point" in result.stderr
    _check_table(_Pages(outdir))


@pytest.mark.sphinx("html", testroot="notes", srcdir="notes-removed", freshenv=True)
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
        assert "更新说明 2" in page


@pytest.mark.sphinx("html", testroot="notes-chapters", srcdir="notes-chapters-edit", freshenv=True)
def test_an_edit_rewrites_its_chapters_table_only(built):
    app = built.app
    written = {n: (app.outdir / f"ch{n}/update-notes.html").stat().st_mtime_ns for n in (1, 2)}
    read_at = dict(app.env.all_docs)
    page = app.srcdir / "ch1" / "page.rst"
    page.write_text(
        page.read_text(encoding="utf-8").replace("Point of chapter 1", "Edited point", 1),
        encoding="utf-8",
    )
    app.build()
    assert "Edited point" in _text(_rows(built.page("ch1/update-notes"))[0])
    assert (app.outdir / "ch1/update-notes.html").stat().st_mtime_ns != written[1]
    assert (app.outdir / "ch2/update-notes.html").stat().st_mtime_ns == written[2]
    # Written again, not read: the table is made as it is written.
    assert app.env.all_docs["ch1/update-notes"] == read_at["ch1/update-notes"]


@pytest.mark.sphinx("html", testroot="notes-chapters", srcdir="notes-other-builder", freshenv=True)
def test_a_page_read_by_another_builder_rewrites_its_table_on_the_site(app, make_app):
    """make doctest (another builder of the doctree directory) reads the edited page; the
    next make html reads nothing, and writes the page's table again."""
    app.build()
    page = app.srcdir / "ch1" / "page.rst"
    page.write_text(
        page.read_text(encoding="utf-8").replace("Point of chapter 1", "Edited point", 1),
        encoding="utf-8",
    )
    make_app("dummy", srcdir=app.srcdir).build()
    make_app("html", srcdir=app.srcdir).build()
    table = (app.outdir / "ch1" / "update-notes.html").read_text(encoding="utf-8")
    assert "Edited point" in _text(_rows(table)[0])


@pytest.mark.sphinx("html", testroot="notes-order")
def test_notes_are_numbered_where_the_reader_first_meets_them(built):
    rows = [_text(row) for row in _rows(built.page("table"))]
    assert [row.split()[0] for row in rows] == ["1", "2"]
    assert "Met first" in rows[0]
    assert "Met second" in rows[1]
    assert "更新说明 1" in built.page("first")


@pytest.mark.sphinx("html", testroot="notes", freshenv=True)
def test_the_notes_warnings_are_of_their_own_kind(built):
    warnings = strip_escape_sequences(built.warnings).splitlines()
    lines = [line for line in warnings if "WARNING" in line]
    assert len(lines) == 3
    assert all(line.endswith("[jaxbook.notes]") for line in lines), lines


@pytest.mark.sphinx(
    "html", testroot="notes", freshenv=True, confoverrides={"suppress_warnings": ["jaxbook.notes"]}
)
def test_the_notes_warnings_can_be_silenced(built):
    assert built.warnings == ""
    _check_table(built)


@pytest.mark.parametrize("builder", ["singlehtml", "latex"])
def test_each_chapter_has_its_own_table_in_a_book_of_one_document(
    make_app, rootdir, tmp_path, builder
):
    """The PDF and single-page builds write the whole book as the document 'index': each
    table still lists its own chapter's notes, numbered from 1, and a note links to it."""
    srcdir = shutil.copytree(rootdir / "test-notes-chapters", tmp_path / "book")
    app = make_app(builder, srcdir=srcdir)
    app.build()
    assert app.warning.getvalue() == ""
    if builder == "latex":
        [tex] = app.outdir.glob("*.tex")
        written = tex.read_text(encoding="utf-8")
        tables = re.findall(r"\\begin\{longtable\}.*?\\end\{longtable\}", written, re.S)
        texts = [" ".join(table.split()) for table in tables]
    else:
        from bs4 import BeautifulSoup

        page = BeautifulSoup((app.outdir / "index.html").read_text("utf-8"), "html.parser")
        tables = page.select("table.jb-update-notes")
        texts = [" ".join(table.get_text(" ").split()) for table in tables]
        backlinks = [a["href"] for a in page.select("a.jb-note-backlink")]
        assert backlinks == [f"#update-row-ch{n}-{i}" for n in (1, 2) for i in ("note", "second")]
    assert len(texts) == 2
    for chapter, (own, other) in enumerate([(1, 2), (2, 1)]):
        assert f"Point of chapter {own}" in texts[chapter]
        assert f"chapter {other}" not in texts[chapter]


class _Kinds(HTMLParser):
    """Each update note of a page: its element, classes and text."""

    def __init__(self) -> None:
        super().__init__()
        self.notes: list[dict] = []
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = attributes.get("class", "").split()
        if "jb-update-note" in classes or "jb-note-pointer" in classes:
            self.notes.append({"tag": tag, "classes": classes, "text": ""})
            self.depth = 1
        elif self.depth and tag not in {"br", "img"}:
            self.depth += 1

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.notes[-1]["text"] += data


@pytest.mark.sphinx("html", testroot="note-kinds")
def test_a_warning_a_correction_and_a_repeat_each_look_their_part(built):
    kinds = _Kinds()
    kinds.feed(built.page("page"))
    hazard, correction, pointer = kinds.notes
    # The hazard is a warning box, titled as one, with its number.
    assert {"admonition", "warning"} <= set(hazard["classes"])
    assert hazard["text"].strip().startswith("注意（更新说明 1）")
    # The correction is text under its number: no warning box, no warning label.
    assert "warning" not in correction["classes"]
    assert "jb-update-note-plain" in correction["classes"]
    assert correction["text"].strip().startswith("更新说明 2")
    # The repeat is a one-line pointer to the note itself, not a second box.
    assert pointer["tag"] == "p"
    assert pointer["classes"] == ["jb-note-pointer"]
    assert pointer["text"] == "见更新说明 1。"
    assert 'href="#update-note-hazard">更新说明 1</a>' in built.page("page")
    assert built.warnings == ""
    # In the table, the warning's row says it is one; the correction's does not.
    rows = [" ".join(_text(row).split()) for row in _rows(built.page("table"))]
    assert rows[0].startswith("1 注意：Reusing a key gives the same numbers")
    assert rows[1].startswith("2 The documentation moved")


def test_a_see_cell_keeps_the_code_of_a_sections_title(make_app, tmp_path):
    """ "1.5 jax.random.key and ..." in the PDF's table was set in the text face: the cell names
    the section with its title's nodes, its code as code."""
    srcdir = tmp_path / "notes"
    shutil.copytree(Path(__file__).parents[1] / "roots" / "test-notes", srcdir)
    first = srcdir / "first.rst"
    first.write_text(
        first.read_text(encoding="utf-8").replace(
            "1.1 First section\n=================",
            "1.1 First ``jax.random.key`` section\n====================================",
        ),
        encoding="utf-8",
    )
    app = make_app("html", srcdir=srcdir)
    app.build()
    one = _rows((app.outdir / "table.html").read_text(encoding="utf-8"))[0]
    assert re.search(
        r'1\.1 First <code class="[^"]*literal[^"]*"><span class="pre">jax\.random\.key</span>'
        r"</code> section</a>",
        one,
    )
