"""A book read and written by two processes (``sphinx-build -j 2``) is the book one process
builds: every extension that keeps what it read on the environment (the update notes'
domain, each page's run, the index and the glossary's entries) merges what the parallel
readers kept, and each page is written the same.

The project is made here: ten pages, each with an update note verified by the code it
runs, index entries (by hand, by the API names and the glossary's terms), and a cell that
prints, so that Sphinx reads them in parallel (in the chunks of
``sphinx.util.parallel.make_chunks``) and writes them in parallel. The two builds run in
processes of their own, as ``make html`` runs them: Sphinx forks its readers, and a pytest
worker may have started JAX already.
"""

from __future__ import annotations

import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

PAGES = 10

CONF = """\
extensions = [
    "sphinx.ext.doctest",
    "jaxbook.sphinxext.doctest",
    "jaxbook.sphinxext.notes",
    "jaxbook.sphinxext.api_names",
    "jaxbook.sphinxext.book_index",
    "jaxbook.sphinxext.pinyin_index",
]
language = "zh_CN"
jaxbook_glossary = "glossary.csv"
jaxbook_glossary_pages = ["ch*/*"]
"""

GLOSSARY = """\
zh_CN,en,pattern_en,exclusive,note,definition_zh_CN,definition_en
密钥,key,\\bkeys?\\b,,,随机数的状态。,The state of the generator.
预热,warm-up,\\bwarm-?ups?\\b,,,第一次调用（含编译）。,The first call (with compilation).
"""

PAGE = """\
第 {n} 页
========

第 {n} 页用 ``jax.jit`` 和 ``jax.random.key``，说到密钥，第一次调用要预热。

.. index::
   single: 第 {n} 页的话题; 第 {n} 页

.. update-note:: 第 {n} 页的第 {n} 条说明
   :id: note-{n}
   :verified-by: check-{n}

   第 {n} 条说明的正文。

.. _check-{n}:

.. testcode::

   print("第", {n}, "页")

.. testoutput::

   第 {n} 页
"""


def make_book(root: Path) -> Path:
    (root / "ch01").mkdir(parents=True)
    (root / "conf.py").write_text(CONF, encoding="utf-8")
    (root / "glossary.csv").write_text(GLOSSARY, encoding="utf-8")
    (root / "glossary.rst").write_text("术语表\n======\n\n.. book-glossary::\n", "utf-8")
    (root / "notes.rst").write_text("更新说明\n========\n\n.. update-notes-table::\n", "utf-8")
    pages = [f"ch01/page{n:02d}" for n in range(1, PAGES + 1)]
    for n, page in enumerate(pages, start=1):
        (root / f"{page}.rst").write_text(PAGE.format(n=n), encoding="utf-8")
    toctree = "\n".join(f"   {page}" for page in [*pages, "notes", "glossary"])
    (root / "index.rst").write_text(f"书\n==\n\n.. toctree::\n\n{toctree}\n", "utf-8")
    return root


class Body(HTMLParser):
    """A page's text and the addresses it links, in order: what a reader meets."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "div" and ("role", "main") in attrs:
            self.inside = 1
        elif self.inside and tag not in {"br", "img", "hr", "input", "meta", "link"}:
            self.inside += 1
        if self.inside and (href := dict(attrs).get("href")):
            self.parts.append(f"<{href}>")

    def handle_endtag(self, tag):
        if self.inside and tag not in {"br", "img", "hr", "input", "meta", "link"}:
            self.inside -= 1

    def handle_data(self, data):
        if self.inside and data.strip():
            self.parts.append(data.strip())


def pages(outdir: Path) -> dict[str, list[str]]:
    read = {}
    for page in sorted(outdir.rglob("*.html")):
        body = Body()
        body.feed(page.read_text(encoding="utf-8"))
        read[page.relative_to(outdir).as_posix()] = body.parts
    return read


def build(source: Path, outdir: Path, *options: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-q", *options, source, outdir],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    # Sphinx's warnings (jieba, which the pinyin index loads, reports its own timing).
    return "\n".join(line for line in result.stderr.splitlines() if "WARNING" in line)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[dict[str, list[str]], dict[str, list[str]], str]:
    source = make_book(tmp_path_factory.mktemp("book"))
    out = tmp_path_factory.mktemp("out")
    serial_warnings = build(source, out / "serial", "-d", str(out / "serial.doctrees"))
    parallel_warnings = build(source, out / "parallel", "-j", "2", "-d", str(out / "j2.doctrees"))
    assert parallel_warnings == serial_warnings
    return pages(out / "serial"), pages(out / "parallel"), parallel_warnings


def test_two_processes_write_every_page_as_one_does(built):
    serial, parallel, _warnings = built
    assert serial.keys() == parallel.keys()
    for page in serial:
        assert parallel[page] == serial[page], page


def test_runs_kept_for_pages_read_again_in_parallel_are_spent(tmp_path):
    """A page read again gets its run kept in the main process (the runs domain's clear_doc),
    which the reader that reads it takes back or replaces: none is left in the environment
    after the readers' data is merged."""
    import pickle

    from jaxbook.doctest.pages import kept_records

    source = make_book(tmp_path / "book")
    doctrees = tmp_path / "doctrees"
    build(source, tmp_path / "html", "-j", "2", "-d", str(doctrees))
    for page in (source / "ch01").glob("*.rst"):
        page.write_text(page.read_text(encoding="utf-8") + "\n.. edited\n", encoding="utf-8")
    build(source, tmp_path / "html", "-j", "2", "-d", str(doctrees))
    with (doctrees / "environment.pickle").open("rb") as f:
        env = pickle.load(f)
    assert kept_records(env) == {}


def test_what_the_readers_kept_is_merged(built):
    """Not a vacuous comparison: the merged tables and index hold every page's entries."""
    _serial, parallel, _warnings = built
    notes = " ".join(parallel["notes.html"])
    assert all(f"第 {n} 页的第 {n} 条说明" in notes for n in range(1, PAGES + 1)), notes
    index = " ".join(parallel["genindex.html"])
    assert all(f"第 {n} 页的话题" in index for n in range(1, PAGES + 1)), index
    assert "jax.jit()" in index or "jax.jit" in index
    # The glossary's term, indexed on every page that says it.
    assert index.count("<ch01/page") >= 3 * PAGES, index
