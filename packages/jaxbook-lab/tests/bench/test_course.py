"""The bench's synthetic course holds what authors write: chapter 1's renamed copies and,
from three chapters on, the MyST chapter the author's guide adds."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from jaxbook.project import find_root
from jaxbook_lab.bench import course

# The book's root, whose authored chapters the course copies.
ROOT = find_root(Path(__file__).parent)


@pytest.fixture(scope="module")
def three_chapters(tmp_path_factory):
    """A course of three chapters, written once: the tests below only read it."""
    return course.write(tmp_path_factory.mktemp("course") / "course", 3)


def test_a_course_of_three_chapters_has_the_authored_myst_chapter_second(three_chapters):
    root = three_chapters
    index = (root / "docs" / "index.rst").read_text(encoding="utf-8")
    assert re.findall(r"^   (ch\d\d)/index$", index, re.M) == ["ch01", "ch02", "ch03"]
    pages = ["answers", "basics", "exercises", "index", "other-releases", "update-notes"]
    assert sorted(p.name for p in (root / "docs" / "ch02").iterdir()) == [
        "_selfcheck_e1.py",
        *(f"{name}.md" for name in pages),
    ]
    # Its pages, not the exercise's self-check beside them.
    assert course.authored_pages(root) == [f"docs/ch02/{name}.md" for name in pages]
    # Its link to a section of chapter 1 names the label chapter 1 has in the course.
    basics = (root / "docs" / "ch02" / "basics.md").read_text(encoding="utf-8")
    assert "{ref}`c01-ch01-tracing`" in basics
    labels = "".join(p.read_text(encoding="utf-8") for p in (root / "docs" / "ch01").iterdir())
    assert ".. _c01-ch01-tracing:" in labels
    catalog = root / "locale" / "en" / "LC_MESSAGES" / "ch02" / "basics.po"
    assert "{ref}`c01-ch01-tracing`" in catalog.read_text(encoding="utf-8")
    assert (root / "docs" / "ch03" / "quiz.rst").is_file()


def test_a_course_of_one_or_two_chapters_is_chapter_1_renamed(tmp_path):
    root = course.write(tmp_path / "course", 2)
    assert course.authored_pages(root) == []
    assert (root / "docs" / "ch02" / "quiz.rst").is_file()


def test_every_reference_in_a_copied_catalog_follows_its_renamed_label(three_chapters):
    """A long message wraps a label across two lines of the file; read as messages, every
    reference of every copy names its own chapter's label, as its page does."""
    import polib

    root = three_chapters
    chapter = root / "docs" / "ch03"  # a reference may name a page of it, not a label
    for catalog in (root / "locale" / "en" / "LC_MESSAGES" / "ch03").glob("*.po"):
        for entry in polib.pofile(str(catalog)):
            for text in (entry.msgid, entry.msgstr):
                targets = re.findall(REFERENCE, text)
                labels = [t for t in targets if not list(chapter.glob(f"{t}.*"))]
                assert all(t.startswith("c03-") for t in labels), (catalog.name, labels)


# A reference to a label: Sphinx's, and the book's to a section, in reST and in MyST.
ROLES = r"(?::ref:|:book:secnum:|:book:sec:|\{ref\}|\{book:secnum\}|\{book:sec\})"
REFERENCE = ROLES + r"`(?:[^`<]*<)?([\w-]+)>?`"


def test_every_reference_in_a_copied_page_names_a_label_of_its_chapter(three_chapters):
    """The section references (``:book:sec:``) too: a copy that kept chapter 1's labels
    would warn "undefined label" in every build of the course."""
    chapter = three_chapters / "docs" / "ch03"
    pages = sorted(chapter.glob("*.rst"))
    targets = [t for page in pages for t in re.findall(REFERENCE, page.read_text("utf-8"))]
    assert any(":book:sec" in page.read_text("utf-8") for page in pages)
    # A section reference names a label, or a page of the chapter (its title).
    labels = [t for t in targets if not list(chapter.glob(f"{t}.*"))]
    assert labels
    assert [t for t in labels if not t.startswith("c03-")] == []


def test_a_book_of_more_chapters_gives_a_course_of_its_own_chapters(project_copy, tmp_path):
    """A book with another chapter of its own: the course still holds chapter 1's copies and
    the authored chapter, each listed once, and none of the book's other chapters."""
    book = project_copy
    shutil.copytree(ROOT / course.AUTHORED, book / course.AUTHORED)
    # The book's next chapter, at a number it does not use yet.
    numbers = [int(p.name[2:]) for p in (book / "docs").glob("ch[0-9][0-9]")]
    name = f"ch{max(numbers) + 1:02d}"
    shutil.copytree(ROOT / course.AUTHORED / "docs" / "ch02", book / "docs" / name)
    (book / "docs" / name / "own-page.md").write_text("# 只有书里才有的一页\n", "utf-8")
    index = book / "docs" / "index.rst"
    text = index.read_text(encoding="utf-8")
    *_, last = re.finditer(r"^   ch\d\d/index\n", text, re.M)
    index.write_text(text[: last.end()] + f"   {name}/index\n" + text[last.end() :], "utf-8")
    root = course.write(tmp_path / "course", 3, root=book)
    listed = (root / "docs" / "index.rst").read_text(encoding="utf-8")
    assert re.findall(r"^   (ch\d\d)/index$", listed, re.M) == ["ch01", "ch02", "ch03"]
    assert not list(root.glob("docs/*/own-page.md"))
    assert (root / "docs" / "ch03" / "quiz.rst").is_file()
