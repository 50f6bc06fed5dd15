"""The book's measured outputs: labelled with JAX's backend, device and release, and the
figures of the prose shown by the parallel text (pagerun's ``measured`` on the book's policy)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from bs4 import BeautifulSoup

# pagerun's own test roots, configured with the book's policy.
ROOTS = Path(__file__).resolve().parents[2] / "packages" / "pagerun" / "tests" / "roots"
BOOK_POLICY = {
    "pagerun_where": "jaxbook.doctest.runtime:where",
    "pagerun_measured_label": "jaxbook.sphinxext.backend_tabs:measured_label",
}


def test_the_label_says_the_backend_the_device_and_the_jax_release(make_app, tmp_path):
    srcdir = shutil.copytree(ROOTS / "test-measured", tmp_path / "book")
    with (srcdir / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write('\nextensions.append("jaxbook.sphinxext.backend_tabs")\n')
    app = make_app("html", srcdir=srcdir, confoverrides=BOOK_POLICY)
    app.build()
    html = (app.outdir / "index.html").read_text("utf-8")
    box = BeautifulSoup(html, "html.parser").select_one('div[class^="pagerun-measured"]')
    assert box is not None, html
    assert re.search(r"Measured on: CPU backend, .+, JAX \d", box.get_text())


def test_the_parallel_text_shows_the_figure_the_run_measured(make_app, tmp_path, monkeypatch):
    """The other language's sentence names the same variable: it shows the page's value, in
    its own format, not the role's text."""
    from bs4 import BeautifulSoup

    srcdir = shutil.copytree(ROOTS / "test-measured-figure", tmp_path / "book")
    messages = srcdir / "locale" / "ja" / "LC_MESSAGES"
    messages.mkdir(parents=True)
    (messages / "index.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Dispatch took :measured:`dispatch_ms:.3f` ms here, about :measured:`orders` '
        'orders of magnitude less than the whole run."\n'
        'msgstr "派发用了 :measured:`dispatch_ms:.1f` 毫秒。"\n',
        encoding="utf-8",
    )
    with (srcdir / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(
            '\nextensions.append("jaxbook.sphinxext.parallel_text")\n'
            'jaxbook_parallel_languages = ("en", "ja")\nlocale_dirs = ["locale"]\n'
        )
    monkeypatch.setenv("PLANTED_DISPATCH_MS", "0.25")
    app = make_app("html", srcdir=srcdir)
    app.build()
    page = BeautifulSoup((app.outdir / "index.html").read_text("utf-8"), "html.parser")
    [parallel] = page.select("span.jb-parallel")
    assert parallel.get_text() == "派发用了 0.2 毫秒。"
