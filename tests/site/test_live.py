"""The live preview's long-lived builder shows a saved msgstr at the next build, and rebuilds
only what changed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sphinx.util.docutils import docutils_namespace

from jaxbook.site import live


@pytest.fixture
def book(tmp_path: Path, rootdir: Path) -> Path:
    root = tmp_path / "book"
    shutil.copytree(rootdir / "test-live", root)
    return root


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_saved_msgstr_shows_at_the_next_build(book, tmp_path):
    out = tmp_path / "html"
    with docutils_namespace():
        builder = live.LiveBuilder(book, "en", out, tmp_path / "doctrees")
        assert builder.build() == ""
        assert "First paragraph." in (out / "index.html").read_text(encoding="utf-8")
        other = (out / "other.html").stat().st_mtime_ns

        edit(book / "locale/en/LC_MESSAGES/index.po", "First paragraph.", "Edited paragraph.")
        assert builder.build() == ""
        page = (out / "index.html").read_text(encoding="utf-8")
        assert "Edited paragraph." in page
        assert "First paragraph." not in page
        # Only the page whose catalog changed was written again.
        assert (out / "other.html").stat().st_mtime_ns == other


def test_without_dropping_the_catalogs_the_old_text_would_stay(book, tmp_path, monkeypatch):
    """The check above fails when the catalog caches are not dropped (the mechanism it guards)."""
    live.forget_page_catalogs()  # what other tests in this process loaded
    monkeypatch.setattr(live, "forget_page_catalogs", lambda: None)
    out = tmp_path / "html"
    with docutils_namespace():
        builder = live.LiveBuilder(book, "en", out, tmp_path / "doctrees")
        builder.build()
        edit(book / "locale/en/LC_MESSAGES/index.po", "First paragraph.", "Edited paragraph.")
        builder.build()
    assert "Edited paragraph." not in (out / "index.html").read_text(encoding="utf-8")
