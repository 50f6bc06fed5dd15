"""The committed templates (locale/pot) are what `make gettext` makes of the book now.

Weblate and Poedit read them, so a page, a label or a theme string that changed
without `make gettext` after it is a finding here, named by file.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import polib
import pytest

from jaxbook import project
from jaxbook.i18n import catalogs

ROOT = project.find_root(Path(__file__).parent)
assert ROOT is not None
TEMPLATES = ROOT / project.TEMPLATES


def template_texts(pot_dir: Path) -> dict[str, list[str]]:
    """Each template's lines, by name, without the date it was made."""
    return {
        pot.relative_to(pot_dir).as_posix(): [
            line
            for line in pot.read_text(encoding="utf-8").splitlines()
            if not line.startswith('"POT-Creation-Date:')
        ]
        for pot in sorted(pot_dir.rglob("*.pot"))
    }


@pytest.fixture(scope="module")
def made(tmp_path_factory, book_copier) -> Path:
    """The templates `make gettext` makes of a copy of the book, from scratch."""
    book = book_copier(tmp_path_factory.mktemp("templates"))
    fresh = book / "fresh"
    assert catalogs.extract(book, fresh, "-q") == 0
    return fresh


def test_the_committed_templates_are_current(made):
    committed, fresh = template_texts(TEMPLATES), template_texts(made)
    assert sorted(committed) == sorted(fresh), "run 'make gettext' and commit locale/pot"
    stale = [name for name in fresh if committed[name] != fresh[name]]
    assert stale == [], f"run 'make gettext' and commit locale/pot: {stale} changed"


def test_every_catalog_has_its_template_and_the_interfaces_are_flagged(made):
    pages = {
        pot.relative_to(made).with_suffix("").as_posix()
        for pot in made.rglob("*.pot")
        if pot.stem not in project.interface_domains()
    }
    english = {
        po.relative_to(project.catalog_dir(ROOT, "en")).with_suffix("").as_posix()
        for po in project.catalog_dir(ROOT, "en").rglob("*.po")
    }
    assert pages == english  # each page, and the book's own texts
    labels = polib.pofile(str(made / "jaxbook.pot"))
    flagged = {e.msgid for e in labels if "python-format" in e.flags}
    assert "Output on %s:" in flagged
    assert "Outdated" in {e.msgid for e in labels}  # a label kept in data (gettext_noop)
    # The lab's report: its labels in a template of its own, which the guides' build makes.
    lab = polib.pofile(str(made / "jaxbook_lab.pot"))
    assert "All differences on JAX %(release)s" in {
        e.msgid for e in lab if "python-format" in e.flags
    }
    assert {e.msgid for e in lab} & {e.msgid for e in labels} <= {"Update note %s"}
    assert any(e.msgid_plural for e in lab)  # a count's singular and plural


def test_a_stale_template_is_found(made, tmp_path):
    """The comparison sees a change: a message the book no longer has."""
    stale = tmp_path / "pot"
    for pot in made.rglob("*.pot"):
        target = stale / pot.relative_to(made)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(pot.read_text(encoding="utf-8"), encoding="utf-8")
    index = stale / "index.pot"
    index.write_text(index.read_text(encoding="utf-8") + '\nmsgid "旧的一段"\nmsgstr ""\n', "utf-8")
    assert template_texts(stale) != template_texts(made)


def test_a_label_with_several_placeholders_names_them(made):
    """Word order is the translation's: where a label has more than one placeholder, each is
    named (%(name)s), so that a translation can put them in any order."""
    labels = polib.pofile(str(made / "jaxbook.pot"))
    positional = re.compile(r"%[sdr]|\{\}")
    crowded = [
        e.msgid
        for e in labels
        for text in (e.msgid, e.msgid_plural)
        if text and len(positional.findall(text)) > 1
    ]
    assert crowded == []
    assert [m for m in ("%s of %s", "%(a)s of %(b)s") if len(positional.findall(m)) > 1] == [
        "%s of %s"
    ]


# A placeholder or a code span: no word a translator reads a label's sense from.
NOT_WORDS = re.compile(r"%\(\w+\)[sd]|%[sd]|``.+?``")


def test_each_short_label_of_the_extensions_says_where_it_appears():
    """A label of fewer than four words ("English", "See", "%(first)s–%(last)s") is
    ambiguous out of its place (a menu's label, or a word of a sentence?): its template
    entry carries the translator comment (#.) that its source gives it."""
    bare = [
        entry.msgid
        for entry in polib.pofile(str(TEMPLATES / f"{project.EXTENSION_DOMAIN}.pot"))
        if len(re.findall(r"[^\W\d_]+", NOT_WORDS.sub(" ", entry.msgid))) < 4 and not entry.comment
    ]
    assert bare == []


def test_update_po_on_the_unchanged_book_changes_no_catalog(made, book_copier, tmp_path):
    """`make update-po` (and zh-lint-fix's merge) on every page of the book itself: its
    gettext build is the module's (``made``, the templates compared above, made once), its
    merge into a copy's catalogs changes none of them."""
    book = book_copier(tmp_path)
    po = {p.relative_to(book): p.read_bytes() for p in (book / "locale").rglob("*.po")}
    po_dirs = [project.catalog_dir(book, language) for language in project.languages(book)]
    with contextlib.redirect_stdout(io.StringIO()):
        assert catalogs.update_all(made, po_dirs) == 0
    after = {p.relative_to(book): p.read_bytes() for p in (book / "locale").rglob("*.po")}
    assert sorted(after) == sorted(po)
    assert [path for path in po if after[path] != po[path]] == []
