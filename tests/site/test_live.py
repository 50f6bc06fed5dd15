"""The live preview's long-lived builder shows a saved msgstr at the next build, and rebuilds
only what changed."""

from __future__ import annotations

import os
import queue
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections import defaultdict
from gettext import NullTranslations
from pathlib import Path

import pytest
import sphinx.locale
from sphinx.util.docutils import docutils_namespace

from jaxbook import sphinxapp
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
    monkeypatch.setattr(sphinxapp, "forget_page_catalogs", lambda app: None)
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
        assert "doctest:" not in capsys.readouterr().out  # the first build prints none
        edit(book / "docs/fence.md", "print(base + 2)", "print(base + 3)")
        warnings = builder.build()
    # The failure is the build's warning, at its line, with what was expected and printed.
    assert "docs/fence.md:7: WARNING: doctest failed\nExpected:\n    42\nGot:\n    43" in warnings
    printed = capsys.readouterr().out.splitlines()
    [verdict] = [line for line in printed if line.startswith("doctest: ")]
    # Only the page that was read again ran: the other page with code did not.
    assert verdict.startswith("doctest: fence [zh_CN]: 0 passed, 1 failed (")


HANGS = "\n.. testcode::\n\n   import time\n\n   time.sleep(60)\n"


def test_a_page_that_hangs_in_a_build_outside_the_main_thread_fails_at_its_time_limit(
    rootdir, tmp_path, monkeypatch
):
    """The page time limit is the kernel's (pagerun.kernel), measured by the build in
    whichever thread it runs: it once was a signal, which only a main thread receives."""
    book = tmp_path / "book"
    shutil.copytree(rootdir / "test-book", book)
    page = book / "docs/printing.rst"
    line = page.read_text(encoding="utf-8").count("\n") + 2
    page.write_text(page.read_text(encoding="utf-8") + HANGS, encoding="utf-8")
    monkeypatch.setenv("PAGERUN_PAGE_TIMEOUT", "2")
    warnings: list[str] = []
    with docutils_namespace():
        builder = live.LiveBuilder(book, "zh_CN", tmp_path / "html", tmp_path / "doctrees")
        thread = threading.Thread(target=lambda: warnings.append(builder.build()))
        thread.start()
        thread.join(timeout=40)  # well before the cell's minute is up
    assert not thread.is_alive()
    [built] = warnings
    said = "the page's code did not finish within 2 s"
    assert f"docs/printing.rst:{line}: WARNING: {said}" in built


def free_port() -> int:
    """A port no process listens on, for a preview of its own."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return free.getsockname()[1]


def test_a_page_that_hangs_in_the_preview_fails_at_its_time_limit(rootdir, tmp_path):
    book = tmp_path / "book"
    shutil.copytree(rootdir / "test-book", book)
    preview = subprocess.Popen(
        [sys.executable, "-m", "jaxbook", "livehtml", "--port", str(free_port())],
        cwd=book,
        env={**os.environ, "PAGERUN_PAGE_TIMEOUT": "3"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert preview.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(
        target=lambda: [lines.put(line) for line in preview.stdout], daemon=True
    ).start()
    seen: list[str] = []

    def wait_for(text: str, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                seen.append(lines.get(timeout=1))
            except queue.Empty:
                continue
            if text in seen[-1]:
                return True
        return False

    try:
        assert wait_for("serving http", 240), "".join(seen)[-3000:]
        time.sleep(2)  # the watcher starts with the server
        page = book / "docs/printing.rst"
        page.write_text(page.read_text(encoding="utf-8") + HANGS, encoding="utf-8")
        # Well before the cell's minute is up.
        stopped = wait_for("did not finish within 3 s", 40)
    finally:
        preview.kill()
        preview.wait(timeout=60)
        preview.stdout.close()
    assert stopped, "".join(seen)[-3000:]


def test_a_preview_stopped_by_a_signal_leaves_no_process_holding_its_output(rootdir, tmp_path):
    """A process manager stops the preview with SIGTERM: it stops as on Ctrl+C, and the
    processes its build started exit with it. sphinx-sitemap, which the book loads, starts a
    queue manager through multiprocessing's fork server; killed outright, the preview left
    both running, holding its output open, so a reader of it (make bench) waited forever."""
    book = tmp_path / "book"
    shutil.copytree(rootdir / "test-book", book)
    with (book / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write('\nextensions.append("sphinx_sitemap")\n')
    preview = subprocess.Popen(
        [sys.executable, "-m", "jaxbook", "livehtml", "--port", str(free_port())],
        cwd=book,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert preview.stdout is not None
    said: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        for line in preview.stdout:
            said.put(line)
        said.put(None)  # the end of its output: no process holds it any more

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    seen: list[str] = []
    try:
        while not any("serving http" in line for line in seen):
            line = said.get(timeout=240)
            assert line is not None, "".join(seen)[-3000:]
            seen.append(line)
        preview.terminate()
        assert preview.wait(timeout=60) == 0
        deadline = time.monotonic() + 30
        while (line := said.get(timeout=max(0.1, deadline - time.monotonic()))) is not None:
            seen.append(line)
    finally:
        preview.kill()
        preview.wait(timeout=60)
    # Its output ended: the reader has finished with it (closing it under a reader would wait).
    reader.join(timeout=5)
    preview.stdout.close()
