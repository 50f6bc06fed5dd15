"""The Chinese interface catalog compiles, and holds only strings the theme uses."""

from __future__ import annotations

import subprocess
from pathlib import Path

import polib

from jaxbook.project import find_root
from jaxbook.sphinxext import chrome

ROOT = find_root(Path(__file__).parent)
CATALOG = ROOT / "locale" / "zh_CN" / "LC_MESSAGES" / "sphinx.po"


def test_catalog_compiles_without_warnings(tmp_path):
    result = subprocess.run(
        ["msgfmt", "--check", "-o", str(tmp_path / "sphinx.mo"), str(CATALOG)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_every_entry_is_a_message_of_the_themes_template():
    """The catalog translates the theme's template (make gettext writes it from furo's and
    the project's templates, Sphinx's search script and admonition titles, and the labels
    chrome translates), and nothing else."""
    template = {e.msgid for e in polib.pofile(str(ROOT / "locale" / "pot" / "sphinx.pot"))}
    literal_msgids = {msgid for _pattern, msgid in chrome.LITERALS}
    assert literal_msgids | set(chrome.SCRIPT_MESSAGES) <= template
    entries = [e for e in polib.pofile(str(CATALOG)) if not e.obsolete]
    assert len(entries) >= 20
    assert {entry.msgid for entry in entries} == template


def test_literals_become_their_translation_and_stay_escaped(monkeypatch):
    table = {"Toggle navigation of %(title)s": "展开或折叠“%(title)s”的导航", "Menu": "菜单"}
    monkeypatch.setattr(chrome, "_", lambda msgid: table.get(msgid, msgid))
    page = (
        '<input aria-label="Toggle navigation of 1.1 A &amp; B"><svg><title>Menu</title></svg>'
        '<input aria-label="Toggle site navigation sidebar">'
    )
    assert chrome.translate_literals(page) == (
        '<input aria-label="展开或折叠“1.1 A &amp; B”的导航"><svg><title>菜单</title></svg>'
        '<input aria-label="Toggle site navigation sidebar">'
    )
