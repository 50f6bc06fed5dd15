"""`make update-po` never loses a translator's work when the Chinese source changes."""

from __future__ import annotations

import subprocess
import sys

import polib

from jaxbook.i18n import catalogs
from jaxbook.i18n.pofile import save_wrapped

CHANGED = "JAX 不会强迫你写纯函数，但如果函数不纯，变换后的行为可能出乎"


def update_po(project):
    """What `make update-po` (and `jaxbook record`) does: extract the templates, merge them."""
    assert catalogs.update_translations(project, project / "_build/gettext", quiet=True) == 0


def entry(catalog, start, obsolete=False):
    hits = [e for e in catalog if e.obsolete == obsolete and e.msgid.startswith(start)]
    assert len(hits) == 1, [e.msgid[:40] for e in hits]
    return hits[0]


def test_changed_and_removed_paragraphs_keep_their_english(project_copy):
    page = project_copy / "docs/ch01/what-is-jax.md"
    po_path = project_copy / "locale/en/LC_MESSAGES/ch01/what-is-jax.po"
    before = polib.pofile(str(po_path))
    changed_translation = entry(before, "JAX 的变换最适合用在").msgstr
    text = page.read_text(encoding="utf-8")
    assert CHANGED in text
    page.write_text(text.replace(CHANGED, CHANGED.replace("强迫", "要求")), encoding="utf-8")

    index_page = project_copy / "docs/ch01/index.rst"
    index_po = project_copy / "locale/en/LC_MESSAGES/ch01/index.po"
    removed = "- “🔍 补充”是延伸内容，标有“必读”或“选读”。\n"
    index_text = index_page.read_text(encoding="utf-8")
    assert removed in index_text
    index_page.write_text(index_text.replace(removed, ""), encoding="utf-8")
    removed_translation = entry(polib.pofile(str(index_po)), "“🔍 补充”是延伸内容").msgstr

    update_po(project_copy)

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


def catalog_bytes(project):
    return {p.relative_to(project): p.read_bytes() for p in (project / "locale").rglob("*.po")}


def test_update_po_on_an_unchanged_source_changes_no_catalog(project_copy):
    before = catalog_bytes(project_copy)
    update_po(project_copy)
    after = catalog_bytes(project_copy)
    assert sorted(after) == sorted(before)
    assert [path for path in before if after[path] != before[path]] == []


def test_a_translation_made_obsolete_while_its_page_still_shows_it_is_reported(project_copy):
    po_path = project_copy / "locale/en/LC_MESSAGES/ch01/devices.po"
    catalog = polib.pofile(str(po_path))
    # An output under the CPU tab: the kind of message the templates once lost.
    lost = entry(catalog, "数组 x 位于：cpu:0")
    lost.obsolete = True
    save_wrapped(catalog, po_path)
    result = subprocess.run(
        [sys.executable, "-m", "jaxbook", "po", "check", "locale/en/LC_MESSAGES"],
        cwd=project_copy,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 1
    findings = [line for line in result.stdout.splitlines() if "obsolete, but" in line]
    assert len(findings) == 1, result.stdout
    line = int(findings[0].split(":")[1])
    text = po_path.read_text(encoding="utf-8").splitlines()
    assert findings[0].startswith("locale/en/LC_MESSAGES/ch01/devices.po:")
    assert text[line - 1] == '#~ msgid "数组 x 位于：cpu:0"', text[line - 1]
    assert "devices.rst still shows this text" in findings[0]
