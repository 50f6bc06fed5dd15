"""The book's places, ``book-places.json``: what the book's HTML build publishes of its pages
for the lab's report in the guides (each page, each example's place, each update note), in
the format its schema declares, the same bytes for the same book, and only from the book's
site.

The root is a chapter of two pages: three examples in two sections, and an update note that
stands in two places, listed by the chapter's table.
"""

from __future__ import annotations

import json
import shutil

import pytest
from sphinx.errors import ExtensionError

from jaxbook import formats
from jaxbook.formats import code_digest
from jaxbook.sphinxext import places


def published(app):
    return app.doctreedir / places.FILE


@pytest.mark.sphinx("html", testroot="places")
def test_the_books_build_publishes_its_places_in_their_declared_format(built):
    assert built.warnings == ""
    data = formats.load(published(built.app), *formats.KINDS["places"])  # or FormatError
    # A file for the guides' build, not a page for readers: the site holds none.
    assert not list(built.app.outdir.rglob(places.FILE))
    assert data["language"] == "en"
    assert [(p["docname"], p["title"], p["chapter"]) for p in data["pages"]] == [
        ("index", "Book", ""),
        ("ch1/index", "Chapter 1", "ch1"),
        ("ch1/page", "1.1 A page", "ch1"),
        ("ch1/update-notes", "Chapter 1 update notes", "ch1"),
    ]
    [page] = [p for p in data["pages"] if p["examples"]]
    assert page["examples"] == [
        {
            "line": 13,
            "code": code_digest('print("device")', "device"),
            "anchor": "check-device",  # the label before it
            "section": "1.1 A page",
            "nth": 1,
            "of": 1,
        },
        {
            "line": 24,
            "code": code_digest("print(1)"),
            "anchor": "another-section",  # its section's id
            "section": "Another section",
            "nth": 1,
            "of": 2,
        },
        {
            "line": 28,
            "code": code_digest("print(2)"),
            "anchor": "another-section",
            "section": "Another section",
            "nth": 2,
            "of": 2,
        },
    ]
    assert data["update notes"] == {
        "ch1/update-notes": [
            {
                "id": "device",
                "number": 1,
                "point": [
                    {"kind": "literal", "text": "x.device"},
                    {"kind": "text", "text": " is a "},
                    {"kind": "emphasis", "text": "property"},
                    {"kind": "text", "text": " now"},
                ],
                "anchor": "update-row-device",
                "notes": [
                    {"page": "ch1/page", "anchor": "update-note-device"},
                    {"page": "ch1/page", "anchor": "update-note-device-1"},
                ],
                "probes": ["device-method"],
                "old": {"device-method": "method"},
            }
        ]
    }
    # The anchors are the ones the pages have.
    table = (built.app.outdir / "ch1" / "update-notes.html").read_text(encoding="utf-8")
    assert 'id="update-row-device"' in table
    page_html = (built.app.outdir / "ch1" / "page.html").read_text(encoding="utf-8")
    for anchor in ("check-device", "another-section", "update-note-device", "update-note-device-1"):
        assert f'id="{anchor}"' in page_html, anchor


@pytest.mark.sphinx("html", testroot="places", srcdir="places-again")
def test_an_unchanged_book_writes_the_same_bytes_with_its_keys_sorted(app, make_app):
    app.build()
    path = published(app)
    text = path.read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(text), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    before = path.stat().st_mtime_ns
    again = make_app("html", srcdir=app.srcdir, freshenv=True)
    again.build()  # every page read again
    assert path.read_text(encoding="utf-8") == text
    assert path.stat().st_mtime_ns == before  # not written again: the guides read nothing again


@pytest.mark.parametrize("builder", ["latex", "singlehtml"])
def test_another_builder_publishes_nothing(make_app, rootdir, tmp_path, builder):
    srcdir = shutil.copytree(rootdir / "test-places", tmp_path / "book")
    app = make_app(builder, srcdir=srcdir)
    app.build()
    assert not published(app).exists()


@pytest.mark.sphinx("html", testroot="places", srcdir="places-unfit")
def test_places_their_schema_refuses_are_not_written(app, monkeypatch):
    """What the writer checks: a page without a title, say, fails the build, named."""
    book_places = places.book_places

    def untitled(env):
        data = book_places(env)
        del data["pages"][0]["title"]  # type: ignore[misc]
        return data

    monkeypatch.setattr(places, "book_places", untitled)
    with pytest.raises(ExtensionError, match=r'\["pages"\]\[0\] has no "title"'):
        app.build()
    assert not published(app).exists()
