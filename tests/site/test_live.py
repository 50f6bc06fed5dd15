"""The live preview's long-lived builder shows a saved msgstr at the next build, and rebuilds
only what changed."""

from __future__ import annotations

import shutil
from collections import defaultdict
from gettext import NullTranslations
from pathlib import Path

import pytest
import sphinx.locale
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
    # A registry of its own: none of the catalogs that other tests in this process loaded.
    monkeypatch.setattr(sphinx.locale, "translators", defaultdict(NullTranslations))
    monkeypatch.setattr(live, "forget_page_catalogs", lambda app: None)
    out = tmp_path / "html"
    with docutils_namespace():
        builder = live.LiveBuilder(book, "en", out, tmp_path / "doctrees")
        builder.build()
        edit(book / "locale/en/LC_MESSAGES/index.po", "First paragraph.", "Edited paragraph.")
        builder.build()
    assert "Edited paragraph." not in (out / "index.html").read_text(encoding="utf-8")


def test_the_extensions_labels_stay_translated_after_a_rebuild(rootdir, tmp_path):
    book = tmp_path / "book"
    shutil.copytree(rootdir / "test-live-labels", book)
    out = tmp_path / "html"
    with docutils_namespace():
        builder = live.LiveBuilder(book, "zh_CN", out, tmp_path / "doctrees")
        assert builder.build() == ""
        assert "更新说明 1" in (out / "first.html").read_text(encoding="utf-8")
        edit(book / "docs/first.rst", "Body of note one.", "Body of note one, edited.")
        assert builder.build() == ""
    page = (out / "first.html").read_text(encoding="utf-8")
    assert "Body of note one, edited." in page
    assert "更新说明 1" in page


def test_a_rebuild_prints_the_verdict_of_the_pages_it_read_again(rootdir, tmp_path, capsys):
    book = tmp_path / "book"
    shutil.copytree(rootdir / "test-book", book)
    out = tmp_path / "html"
    with docutils_namespace():
        builder = live.LiveBuilder(book, "zh_CN", out, tmp_path / "doctrees", doctests=True)
        assert builder.build() == ""
        assert "doctest:" not in capsys.readouterr().out  # the first build runs none
        edit(book / "docs/fence.md", "print(base + 2)", "print(base + 3)")
        assert builder.build() == ""
    printed = capsys.readouterr().out.splitlines()
    assert "docs/fence.md:7: doctest failed [zh_CN]" in printed
    assert "Expected:" in printed
    [verdict] = [line for line in printed if line.startswith("doctest: ")]
    # Only the page that was read again ran: the other page with code did not.
    assert verdict.startswith("doctest: fence [zh_CN]: 0 passed, 1 failed (")
