"""The book's checkout (``jaxbook_repo_root``, :mod:`jaxbook.sphinxext.facts`) is ``conf.py``'s
directory, or, for a project whose ``conf.py`` sits below it and reads the book's (the
guides', in ``guides/``), the directory that ``conf.py`` names: the facts, the pinned release
and the origin of the book's texts in ``book.pot`` come from the checkout's files."""

from __future__ import annotations

import shutil
from pathlib import Path

import polib

from jaxbook.sphinxext.book_texts import TEXTS

ROOT = Path(__file__).resolve().parents[1] / "roots" / "test-book-texts"
# A project below the book's checkout, as the guides' conf.py is: the book's settings, its own
# sources, and the checkout above it.
BELOW = """\
import runpy
from pathlib import Path

_book = runpy.run_path(str(Path(__file__).resolve().parent.parent / "conf.py"))
globals().update({name: value for name, value in _book.items() if not name.startswith("_")})
jaxbook_repo_root = ".."
"""


def checkout(tmp_path: Path) -> Path:
    """The small book of texts with facts and the drift data's release loaded, its pin and
    its Python beside its conf.py, and a project below it (``below/``) whose page names them."""
    root = Path(shutil.copytree(ROOT, tmp_path / "checkout"))
    with (root / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write('extensions += ["jaxbook.sphinxext.facts", "jaxbook.sphinxext.drift_report"]\n')
    (root / "pyproject.toml").write_text(
        '[project]\nname = "b"\ndependencies = ["jax==9.8.7"]\n', encoding="utf-8"
    )
    (root / ".python-version").write_text("3.99\n", encoding="utf-8")
    below = root / "below"
    below.mkdir()
    (below / "conf.py").write_text(BELOW, encoding="utf-8")
    (below / "index.rst").write_text(
        "指南\n====\n\nJAX :fact:`jax`，Python :fact:`python`。\n", encoding="utf-8"
    )
    return root


def test_a_conf_py_below_the_checkout_reads_the_checkouts_files(make_app, tmp_path):
    root = checkout(tmp_path)
    app = make_app("html", srcdir=root / "below")
    app.build()
    # Resolved where the application is, for the roles and post-transforms that read it.
    assert app.config.jaxbook_repo_root == str(root.resolve())
    assert app.config.jaxbook_pinned_release == "9.8.7"
    page = (app.outdir / "index.html").read_text(encoding="utf-8")
    assert "9.8.7" in page
    assert "3.99" in page
    # The checkout's own conf.py: its directory, by default.
    assert make_app("html", srcdir=root).config.jaxbook_repo_root == str(root.resolve())


def test_the_texts_a_project_takes_from_the_books_conf_py_come_from_there(make_app, tmp_path):
    """``book.pot`` names the line of the checkout's conf.py that sets each text, not the first
    line of the conf.py below that sets none."""
    root = checkout(tmp_path)
    app = make_app("gettext", srcdir=root / "below")
    app.build()
    lines = (root / "conf.py").read_text(encoding="utf-8").splitlines()
    settings = tuple(f"{name} =" for name in TEXTS)
    occurrences = [
        occurrence
        for entry in polib.pofile(str(app.outdir / "book.pot"))
        for occurrence in entry.occurrences
    ]
    assert occurrences
    for path, line in occurrences:
        assert (app.outdir / path).resolve() == (root / "conf.py").resolve()
        assert lines[int(line) - 1].startswith(settings)
