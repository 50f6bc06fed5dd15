"""A synthetic course of N chapters for ``make bench``: chapter 1 renamed, and a MyST chapter.

    python -m jaxbook_lab.bench.course DEST 16

A course of three chapters or more has, as its chapter 2, the MyST chapter that
an author adds by the guide (``tests/book/chapter2``, the new-chapter test's):
its own update notes, other-releases page and catalogs, and outputs left for
``jaxbook refresh`` to write (``scale`` runs it before any timing). Its links to
chapter 1's sections follow chapter 1's renamed labels.

Every other chapter ``chNN`` is a copy of ``docs/ch01`` and its English catalogs,
with the names that must be unique in a book renamed in the pages and the
catalogs alike: labels (``.. _check-x:`` or MyST's ``(check-x)=``, ``:ref:``,
``:book:sec:`` and their MyST forms, ``:verified-by:``)
become ``cNN-check-x``, update-note ids become ``cNN-<id>``, and each
snippet ``x.py`` becomes ``cNN_x.py`` (the file, the ``.. snippet::`` and the
code that runs it). Every chapter keeps its own update-notes table. The
course's ``conf.py`` silences the drift report's warnings: the renamed
snippets change the code of the cells that run them, so the book's drift
data no longer matches them. The course is written under DEST (a temporary
directory); it is never committed.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import polib

from jaxbook import project

CHAPTER = "ch01"
# The book's chapter directories, all left out of a course (whose chapters are its own).
CHAPTERS = "ch[0-9][0-9]"
# The MyST chapter an author adds by the guide, in the new-chapter test's files.
AUTHORED = Path("tests", "book", "chapter2")
AUTHORED_AT = 2  # its place in a course of at least AUTHORED_AT + 1 chapters
LABEL = re.compile(r"^\s*(?:\.\. _(?P<rst>[\w-]+):|\((?P<myst>[\w-]+)\)=)", re.MULTILINE)
SNIPPET = re.compile(r"^\s*(?:\.\. snippet::|```\{snippet\}) (\S+\.py)\s*$", re.MULTILINE)


def pages(chapter_dir: Path) -> list[Path]:
    return sorted(p for suffix in project.SOURCE_SUFFIX for p in chapter_dir.glob(f"*{suffix}"))


def _names(chapter_dir: Path) -> tuple[list[str], list[str]]:
    labels: set[str] = set()
    snippets: set[str] = set()
    for page in pages(chapter_dir):
        text = page.read_text(encoding="utf-8")
        labels.update(m["rst"] or m["myst"] for m in LABEL.finditer(text))
        snippets.update(SNIPPET.findall(text))
    # Longest first, so that no name is replaced inside a longer one.
    return sorted(labels, key=len, reverse=True), sorted(snippets, key=len, reverse=True)


def _any_of(labels: list[str]) -> str:
    # Longest first (as ``_names`` sorts them), so that no label matches inside a longer one.
    return "|".join(map(re.escape, labels)) or "(?!)"


# The roles that name a label: Sphinx's references, and the book's section references
# (``:book:sec:``, ``:book:secnum:``), in reST and in MyST.
REFERENCE_ROLES = r"(?::ref:|:book:secnum:|:book:sec:|\{ref\}|\{book:secnum\}|\{book:sec\})"


def renamed_refs(text: str, prefix: str, labels: list[str]) -> str:
    """``text`` with its references (``REFERENCE_ROLES``) to ``labels`` prefixed."""
    pattern = rf"({REFERENCE_ROLES}`(?:[^`<]*<)?)({_any_of(labels)})([>`])"
    return re.sub(pattern, rf"\g<1>{prefix}-\2\3", text)


def renamer(number: int, labels: list[str], snippets: list[str]):
    prefix = f"c{number:02d}"
    # One pattern per kind of name, each matching any label: a catalog has thousands of
    # messages, and a pattern per label would take seconds per chapter.
    names = _any_of(labels)
    anchor = re.compile(rf"(\.\. _)({names}):")
    myst_anchor = re.compile(rf"^(\s*\()({names})(\)=)", re.M)
    reference = re.compile(rf"({REFERENCE_ROLES}`(?:[^`<]*<)?)({names})([>`])")

    def rename(text: str) -> str:
        text = anchor.sub(rf"\g<1>{prefix}-\2:", text)
        text = myst_anchor.sub(rf"\g<1>{prefix}-\2\3", text)
        text = reference.sub(rf"\g<1>{prefix}-\2\3", text)
        text = re.sub(
            r"(:verified-by:)([^\n]*)",
            lambda m: (
                m[1]
                + ",".join(re.sub(r"([\w-]+)", rf"{prefix}-\1", part) for part in m[2].split(","))
            ),
            text,
        )
        text = re.sub(r"(:id:[ \t]+)([\w-]+)", rf"\g<1>{prefix}-\2", text)
        for snippet in snippets:
            text = text.replace(snippet, f"{prefix}_{snippet}")
        return text

    return rename


def write(dest: Path, chapters: int, root: Path | None = None) -> Path:
    """Write a course of ``chapters`` chapters to ``dest``; return ``dest``."""
    root = root or project.root()
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for name in project.CONFIG_FILES:
        shutil.copy2(root / name, dest / name)
    # The renamed snippets change the code of the cells that run them, so the book's drift
    # data no longer matches those cells: true, and beside the point of a timing. Each copy
    # of chapter 1 indexes its entries again, which the book's index check refuses.
    with (dest / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(
            "\n# A synthetic course (jaxbook_lab.bench.course): its cells are not the drift data's,"
            "\n# and its chapters, copies of one, index the same entries."
            "\n"
            "suppress_warnings = [*globals().get('suppress_warnings', []),"
            " 'jaxbook.drift_report', 'jaxbook.book_index']\n"
        )
    ignore = shutil.ignore_patterns("*.mo", "__pycache__", CHAPTERS)
    shutil.copytree(root / "docs", dest / "docs", ignore=ignore)
    shutil.copytree(root / "locale", dest / "locale", ignore=ignore)
    # conf.py reads the recorded outputs of other backends (records/<backend>/<lang>.json).
    if (root / "records").is_dir():
        shutil.copytree(root / "records", dest / "records")
    (dest / "snippets").mkdir()
    labels, snippets = _names(root / "docs" / CHAPTER)
    catalogs = sorted((root / "locale").glob(f"*/LC_MESSAGES/{CHAPTER}"))
    authored = chapters > AUTHORED_AT
    for number in range(1, chapters + 1):
        if authored and number == AUTHORED_AT:
            add_authored(root, dest, f"ch{number:02d}", labels)
            continue
        rename = renamer(number, labels, snippets)
        name = f"ch{number:02d}"
        for page in pages(root / "docs" / CHAPTER):
            target = dest / "docs" / name / page.name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(rename(page.read_text(encoding="utf-8")), encoding="utf-8")
        # The files beside the pages that they name (the exercises' self-checks).
        for extra in sorted((root / "docs" / CHAPTER).iterdir()):
            if extra.is_file() and extra not in pages(root / "docs" / CHAPTER):
                shutil.copy2(extra, dest / "docs" / name / extra.name)
        for catalog_dir in catalogs:
            target_dir = dest / catalog_dir.relative_to(root).parent / name
            target_dir.mkdir(parents=True, exist_ok=True)
            for catalog in catalog_dir.glob("*.po"):
                renamed_catalog(catalog, target_dir / catalog.name, rename)
        for snippet in snippets:
            source = (root / "snippets" / snippet).read_text(encoding="utf-8")
            (dest / "snippets" / f"c{number:02d}_{snippet}").write_text(
                rename(source), encoding="utf-8"
            )
    index = dest / "docs" / "index.rst"
    text = index.read_text(encoding="utf-8")
    entries = "".join(f"   ch{number:02d}/index\n" for number in range(1, chapters + 1))
    # The course's chapters in place of the book's, however many the book has.
    listed = re.compile(r"^   ch\d\d/index\n", re.M)
    first = listed.search(text)
    assert first, "docs/index.rst lists no chapter"
    assert first[0] == f"   {CHAPTER}/index\n", "docs/index.rst lists another chapter first"
    text = text[: first.start()] + entries + listed.sub("", text[first.start() :])
    index.write_text(text, encoding="utf-8")
    return dest


def add_authored(root: Path, dest: Path, name: str, chapter_one_labels: list[str]) -> None:
    """The authored MyST chapter as ``name``, with its catalogs; its references to chapter
    1's sections name chapter 1's renamed labels (chapter 1 is ``c01``)."""
    source = root / AUTHORED
    [chapter_dir] = (source / "docs").iterdir()
    for page in sorted(chapter_dir.iterdir()):
        target = dest / "docs" / name / page.name
        target.parent.mkdir(parents=True, exist_ok=True)
        text = renamed_refs(page.read_text(encoding="utf-8"), "c01", chapter_one_labels)
        target.write_text(text, encoding="utf-8")
    for catalog in sorted((source / "locale").glob(f"*/LC_MESSAGES/{chapter_dir.name}/*.po")):
        language = catalog.relative_to(source / "locale").parts[0]
        target = dest / "locale" / language / "LC_MESSAGES" / name / catalog.name
        target.parent.mkdir(parents=True, exist_ok=True)
        renamed_catalog(catalog, target, lambda text: renamed_refs(text, "c01", chapter_one_labels))


def renamed_catalog(source: Path, target: Path, rename) -> None:
    """``source``'s messages renamed as their page is: read as messages, since a label in a
    long one may be wrapped across two lines of the file."""
    catalog = polib.pofile(str(source))
    for entry in catalog:
        entry.msgid = rename(entry.msgid)
        entry.msgstr = rename(entry.msgstr)
        if entry.msgid_plural:
            entry.msgid_plural = rename(entry.msgid_plural)
            entry.msgstr_plural = {n: rename(text) for n, text in entry.msgstr_plural.items()}
        if entry.previous_msgid:
            entry.previous_msgid = rename(entry.previous_msgid)
    catalog.save(str(target))


def authored_pages(dest: Path, root: Path | None = None) -> list[str]:
    """The authored chapter's pages in a course written by ``write`` (none if it has none)."""
    [chapter_dir] = ((root or project.root()) / AUTHORED / "docs").iterdir()
    placed = dest / "docs" / f"ch{AUTHORED_AT:02d}"
    return sorted(
        str((placed / page.name).relative_to(dest))
        for page in chapter_dir.iterdir()
        if page.suffix in project.SOURCE_SUFFIX and (placed / page.name).is_file()
    )


if __name__ == "__main__":
    if len(sys.argv) != 3 or not sys.argv[2].isdigit():
        sys.exit("usage: python -m jaxbook_lab.bench.course DEST CHAPTERS")
    print(write(Path(sys.argv[1]), int(sys.argv[2])))
