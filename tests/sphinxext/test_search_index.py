"""A rebuild that writes only some pages keeps every page's index entries in the search index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jaxbook.sphinxext.search_index import kept_entries


def frozen_index(outdir: Path) -> dict:
    script = (outdir / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(script[script.index("(") + 1 : script.rindex(")")])


@pytest.mark.sphinx("html", testroot="search-index", srcdir="search-index-rebuild")
def test_a_rebuild_keeps_the_entries_of_the_pages_it_does_not_write(app, make_app):
    app.build()
    fresh = frozen_index(app.outdir)["indexentries"]
    assert {"vectorization", "compilation"} <= set(fresh), fresh
    glossary_page = app.outdir / "glossary.html"
    written = glossary_page.stat().st_mtime_ns

    other = Path(app.srcdir, "other.rst")
    other.write_text(other.read_text(encoding="utf-8") + "\nEdited.\n", encoding="utf-8")
    again = make_app("html", srcdir=app.srcdir, freshenv=False)
    again.build()

    assert "Edited." in (again.outdir / "other.html").read_text(encoding="utf-8")
    assert glossary_page.stat().st_mtime_ns == written  # not written again
    assert frozen_index(again.outdir)["indexentries"] == fresh


@pytest.mark.sphinx("html", testroot="search-index", srcdir="search-index-removed")
def test_a_page_removed_between_two_builds_of_one_application_takes_its_entries(app):
    """As `make livehtml` builds: one application, its environment kept in memory."""
    app.build()
    assert {"vectorization", "rebuild"} <= set(frozen_index(app.outdir)["indexentries"])
    Path(app.srcdir, "other.rst").unlink()
    index = Path(app.srcdir, "index.rst")
    index.write_text(index.read_text(encoding="utf-8").replace("   other\n", ""), "utf-8")
    app.build()
    entries = frozen_index(app.outdir)["indexentries"]
    assert "rebuild" not in entries
    assert {"vectorization", "compilation"} <= set(entries)


@pytest.mark.sphinx("html", testroot="search-index", srcdir="search-index-unreadable")
def test_an_index_it_cannot_read_is_said_and_indexed_anew(app, make_app):
    app.build()
    frozen = frozen_index(app.outdir)
    fresh = frozen["indexentries"]
    # An index of this Sphinx's version that Sphinx's own loader reads, in a shape the
    # entries cannot be taken back from.
    frozen["indexentries"] = {entry: len(hits) for entry, hits in fresh.items()}
    script = f"Search.setIndex({json.dumps(frozen)})"
    (app.outdir / "searchindex.js").write_text(script, encoding="utf-8")
    other = Path(app.srcdir, "other.rst")
    other.write_text(other.read_text(encoding="utf-8") + "\nEdited.\n", encoding="utf-8")
    again = make_app("html", srcdir=app.srcdir, freshenv=False)
    again.build()

    assert "search index entries not restored" in again.status.getvalue()
    # The page written again is indexed anew; the others' entries are lost, as Sphinx's are.
    assert set(frozen_index(again.outdir)["indexentries"]) < set(fresh)


def test_the_entries_of_the_kept_pages_are_read_back_as_the_builder_keeps_them():
    frozen = {
        "docnames": ["glossary", "other"],
        "indexentries": {
            "vectorization": [[0, "term-vectorization", True]],
            "compilation": [[0, "index-0", False], [1, "index-1", False]],
        },
    }
    kept = [("compilation", "index-0", ""), ("vectorization", "term-vectorization", "main")]
    assert kept_entries(frozen, {"glossary"}) == {"glossary": kept}
    assert kept_entries(frozen, set()) == {}
