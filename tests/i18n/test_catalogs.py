"""`make update-po` never loses a translator's work when the Chinese source changes."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from potodo import potodo

from jaxbook import cli
from jaxbook.i18n import catalogs
from jaxbook.i18n.check import check_catalog
from jaxbook.i18n.glossary import load_glossary
from jaxbook.i18n.pofile import plural_forms, save_wrapped

CHANGED = "JAX 不会强迫你写纯函数，但如果函数不纯，变换后的行为可能出乎"
SMALL_BOOK = Path(__file__).resolve().parents[1] / "roots" / "test-i18n-book"
GLOSSARY = SMALL_BOOK / "locale" / "glossary.csv"


@pytest.fixture
def small_book(tmp_path) -> Path:
    """A copy of the small book of three pages and their catalogs, to change."""
    return Path(shutil.copytree(SMALL_BOOK, tmp_path / "book"))


def update_po(project):
    """What `make update-po` (and `jaxbook-lab record`) does: extract the templates, merge them."""
    assert catalogs.update_translations(project, project / "_build/gettext", quiet=True) == 0


def entry(catalog, start, obsolete=False):
    hits = [e for e in catalog if e.obsolete == obsolete and e.msgid.startswith(start)]
    assert len(hits) == 1, [e.msgid[:40] for e in hits]
    return hits[0]


def test_changed_and_removed_paragraphs_keep_their_english(small_book):
    page = small_book / "docs/ch01/what-is-jax.md"
    po_path = small_book / "locale/en/LC_MESSAGES/ch01/what-is-jax.po"
    before = polib.pofile(str(po_path))
    changed_translation = entry(before, "JAX 的变换最适合用在").msgstr
    text = page.read_text(encoding="utf-8")
    assert CHANGED in text
    page.write_text(text.replace(CHANGED, CHANGED.replace("强迫", "要求")), encoding="utf-8")

    index_page = small_book / "docs/index.rst"
    index_po = small_book / "locale/en/LC_MESSAGES/index.po"
    removed = "- “🔍 补充”是延伸内容，标有“必读”或“选读”。\n"
    index_text = index_page.read_text(encoding="utf-8")
    assert removed in index_text
    index_page.write_text(index_text.replace(removed, ""), encoding="utf-8")
    removed_translation = entry(polib.pofile(str(index_po)), "“🔍 补充”是延伸内容").msgstr

    update_po(small_book)

    after = polib.pofile(str(po_path))
    changed = entry(after, "JAX 的变换最适合用在")
    assert changed.fuzzy
    assert changed.msgstr == changed_translation
    assert "强迫" in changed.previous_msgid
    assert "要求" in changed.msgid
    assert "#| msgid" in po_path.read_text(encoding="utf-8")

    obsolete = entry(polib.pofile(str(index_po)), "“🔍 补充”是延伸内容", obsolete=True)
    assert obsolete.msgstr == removed_translation
    assert "#~ msgid" in index_po.read_text(encoding="utf-8")

    # Not one English string of the page was dropped.
    assert {e.msgstr for e in before if e.msgstr} <= {e.msgstr for e in after}


def test_a_merge_into_the_existing_catalogs_creates_none_and_names_those_it_left(
    small_book, monkeypatch, capsys
):
    """`make zh-lint-fix` merges its corrections into the catalogs that exist only: a page
    without a catalog in a language gets none behind its translator's back, and the merge
    says which it left (make update-po creates them)."""
    missing = small_book / "locale/en/LC_MESSAGES/ch01/devices.po"
    missing.unlink()
    page = small_book / "docs/ch01/what-is-jax.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace(CHANGED, CHANGED.replace("强迫", "要求")), encoding="utf-8")
    assert catalogs.extract(small_book, small_book / "_build/gettext", "-q") == 0
    capsys.readouterr()
    monkeypatch.chdir(small_book)
    merge = ["po", "update", "--existing", "locale/pot", "locale/en/LC_MESSAGES"]
    assert cli.main(merge) == 0
    out = capsys.readouterr().out
    assert not missing.exists()
    assert "locale/en/LC_MESSAGES/ch01/what-is-jax.po: merged" in out.splitlines()
    assert (
        "locale/en/LC_MESSAGES: 1 catalog(s) not created, as asked (only the catalogs that "
        "exist were merged): locale/en/LC_MESSAGES/ch01/devices.po; 'make update-po' "
        "creates them"
    ) in out.splitlines()
    # make update-po itself creates it, and says so.
    assert cli.main(merge[:2] + merge[3:]) == 0
    assert "locale/en/LC_MESSAGES/ch01/devices.po: created" in capsys.readouterr().out
    assert missing.is_file()


def test_a_translation_made_obsolete_while_its_page_still_shows_it_is_reported(small_book):
    po_path = small_book / "locale/en/LC_MESSAGES/ch01/devices.po"
    catalog = polib.pofile(str(po_path))
    # An output: the kind of message the templates once lost.
    lost = entry(catalog, "数组 x 位于：cpu:0")
    lost.obsolete = True
    save_wrapped(catalog, po_path)
    terms = load_glossary(GLOSSARY, "en")
    findings = [f for f in check_catalog(po_path, "en", terms) if "obsolete, but" in f.message]
    assert len(findings) == 1, findings
    text = po_path.read_text(encoding="utf-8").splitlines()
    assert text[findings[0].line - 1] == '#~ msgid "数组 x 位于：cpu:0"', findings[0]
    assert "devices.rst still shows this text" in findings[0].message


HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: en\\n"\n'
DONE = HEADER + '\nmsgid "一"\nmsgstr "one"\n'
# One translated entry of three, one fuzzy, one untranslated.
TODO = DONE + '\n#, fuzzy\nmsgid "二"\nmsgstr "two"\n\nmsgid "三"\nmsgstr ""\n'


def make_command(target: str, language_dir: Path) -> list[str]:
    """The command ``make TARGET`` runs (its last), for one language's directory (the
    ``locale/<lang>`` that holds its catalogs)."""
    result = subprocess.run(
        ["make", "--no-print-directory", "-n", target, f"LANGUAGE_DIRS={language_dir}"],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return shlex.split(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("target", "pages"),
    [("po-stats", ["done.po", "todo.po"]), ("fuzzy", ["todo.po"])],
)
def test_po_stats_and_fuzzy_are_potodo_on_every_catalog(
    tmp_path, monkeypatch, capsys, target, pages
):
    catalogs = tmp_path / "en" / "LC_MESSAGES"
    catalogs.mkdir(parents=True)
    (catalogs / "todo.po").write_text(TODO, encoding="utf-8")
    (catalogs / "done.po").write_text(DONE, encoding="utf-8")
    command = make_command(target, catalogs.parent)
    assert Path(command[0]).name == "potodo"
    monkeypatch.setattr(sys, "argv", command)
    potodo.main()
    listed = {
        line.split()[1]: line for line in capsys.readouterr().out.splitlines() if ".po" in line
    }
    assert sorted(listed) == pages
    # Fuzzy entries are counted apart from the translated ones (1 of 3, 1 fuzzy).
    assert "1/3,  1 fuzzy" in listed["todo.po"]


@pytest.mark.parametrize(
    ("language", "plural_forms"),
    [
        ("en", "nplurals=2; plural=(n != 1);"),
        ("ja", "nplurals=1; plural=0;"),
        (
            "pt_BR",
            "nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;",
        ),
    ],
)
def test_a_new_catalog_has_its_languages_plural_forms_from_cldr(tmp_path, language, plural_forms):
    pot_dir, po_dir = tmp_path / "gettext", tmp_path / language / "LC_MESSAGES"
    pot_dir.mkdir()
    (pot_dir / "page.pot").write_text(
        'msgid ""\nmsgstr ""\n"POT-Creation-Date: 2026-12-01 10:00+0000\\n"\n'
        '"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "一"\nmsgstr ""\n',
        encoding="utf-8",
    )
    assert catalogs.update(pot_dir, po_dir, language) == 0
    catalog = polib.pofile(str(po_dir / "page.po"))
    assert catalog.metadata["Language"] == language
    assert catalog.metadata["Plural-Forms"] == plural_forms
    # check-po holds the header to the same forms: the one finding is the empty entry.
    assert [f.message for f in check_catalog(po_dir / "page.po", language, [])] == ["untranslated"]


def test_a_language_cldr_does_not_know_is_refused():
    with pytest.raises(ValueError, match="'xx' is not a language code CLDR knows"):
        plural_forms("xx")
