"""A book and the lab's report of it, built as `make html` then `make guides` build them: the
book's build keeps its places beside its doctrees, and the report, a project apart, reads
them there."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from sphinx.util.console import strip_escape_sequences

LAB_ROOTS = Path(__file__).resolve().parents[1] / "roots"
# Where the report links the book's pages: the book's site of the build's language.
SITE = "https://book.example/{language}"


@dataclass
class Report:
    """A copy of a book's test root (``book``) and of a lab root that reports on it (``lab``),
    and the helpers of the tests that read them."""

    book: Path
    lab: Path
    language: str
    make_app: Any

    @property
    def book_html(self) -> Path:
        return self.book / "_build" / "html"

    @property
    def places(self) -> Path:
        # Beside the book's doctrees, out of its site (jaxbook.sphinxext.places).
        return self.book / "_build" / "doctrees" / "book-places.json"

    def build_book(self, **overrides: Any):
        app = self.make_app(
            "html", srcdir=self.book, confoverrides={"language": self.language, **overrides}
        )
        app.build()
        app.cleanup()  # its nodes and catalogs, before the next application registers its own
        assert self.warnings(app) == [], "the book builds without a warning"
        return app

    def lab_app(self, builder: str = "html", **overrides: Any):
        settings = {
            "language": self.language,
            "jaxbook_book_srcdir": str(self.book),
            "jaxbook_book_html": str(self.book_html),
            "jaxbook_book_places": str(self.places),
            "jaxbook_book_site": SITE.format(language=self.language),
        }
        return self.make_app(builder, srcdir=self.lab, confoverrides={**settings, **overrides})

    def build_lab(self, builder: str = "html", **overrides: Any):
        app = self.lab_app(builder, **overrides)
        app.build()
        app.cleanup()
        return app

    @staticmethod
    def soup(app, name: str) -> BeautifulSoup:
        return BeautifulSoup((app.outdir / name).read_text(encoding="utf-8"), "html.parser")

    @staticmethod
    def text(element) -> str:
        """An element's text as read: its blocks apart, its inline parts as they run."""
        blocks = element.find_all(["p", "li", "th", "td", "summary", "pre"]) or [element]
        return " ".join(" ".join(block.get_text().split()) for block in blocks)

    @staticmethod
    def warnings(app) -> list[str]:
        return strip_escape_sequences(app.warning.getvalue()).strip().splitlines()

    @staticmethod
    def edit(path: Path, old: str, new: str) -> None:
        written = path.read_text(encoding="utf-8")
        assert old in written
        path.write_text(written.replace(old, new), encoding="utf-8")


@pytest.fixture
def report_of(make_app, rootdir, tmp_path):
    """``report_of(book root, lab root, language)``: the two copied, nothing built yet."""

    def copy(book: str, lab: str, language: str = "en") -> Report:
        return Report(
            book=shutil.copytree(rootdir / f"test-{book}", tmp_path / "book"),
            lab=shutil.copytree(LAB_ROOTS / f"test-{lab}", tmp_path / "lab"),
            language=language,
            make_app=make_app,
        )

    return copy
