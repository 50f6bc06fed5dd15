"""The Chinese interface catalog compiles, and holds only strings the theme uses."""

from __future__ import annotations

import subprocess
from pathlib import Path

import furo
import polib
import sphinx
import sphinx_copybutton

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


def test_every_entry_is_a_string_the_theme_or_the_project_shows():
    templates = [*Path(furo.__file__).parent.joinpath("theme").rglob("*.html")]
    templates += [*(ROOT / "src" / "jaxbook" / "sphinxext" / "templates").rglob("*.html")]
    # The scripts whose strings the build translates: Sphinx's search and the copy button.
    templates += [Path(sphinx.__file__).parent / "themes" / "basic" / "static" / "searchtools.js"]
    templates += [Path(sphinx_copybutton.__file__).parent / "_static" / "copybutton.js_t"]
    # Sphinx's own labels that the book words otherwise (an admonition's title: "Tip").
    templates += [Path(sphinx.__file__).parent / "locale" / "__init__.py"]
    source = "\n".join(t.read_text(encoding="utf-8") for t in templates)
    literal_msgids = {msgid for _pattern, msgid in chrome.LITERALS}
    entries = [e for e in polib.pofile(str(CATALOG)) if not e.obsolete]
    assert len(entries) >= 20
    for entry in entries:
        assert entry.msgstr, entry.msgid
        assert entry.msgid in literal_msgids or entry.msgid.split("%(")[0] in source, entry.msgid


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
