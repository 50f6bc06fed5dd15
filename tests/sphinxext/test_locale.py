"""The extensions' labels, and the sentences the probes declare, all have a Chinese text."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import polib

from jaxbook.doctest.sentences import SENTENCES
from jaxbook.sphinxext import _locale
from jaxbook.sphinxext.pairs import BROKEN, HALVES

PACKAGE = Path(_locale.__file__).parent


def msgids_in_code() -> set[str]:
    """Every ``_("...")`` of the modules that translate through this catalog."""
    found = {label for _symbol, label in HALVES.values()} | {BROKEN}  # looked up as _(label)
    for module in PACKAGE.glob("*.py"):
        source = module.read_text(encoding="utf-8")
        if "from jaxbook.sphinxext._locale import" not in source:
            continue
        for node in ast.walk(ast.parse(source)):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("_", "ngettext", "N_")
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add(node.args[0].value)
    return found


def probe_sentences() -> set[str]:
    return {text for table in SENTENCES.values() for text in table.values()}


def catalog() -> dict[str, str]:
    po = polib.pofile(str(_locale.LOCALE_DIR / "zh_CN" / "LC_MESSAGES" / "jaxbook.po"))
    return {
        entry.msgid: entry.msgstr or "".join(entry.msgstr_plural.values())
        for entry in po
        if not entry.obsolete
    }


def test_every_label_and_sentence_is_translated():
    translated = {msgid for msgid, msgstr in catalog().items() if msgstr}
    assert sorted((msgids_in_code() | probe_sentences()) - translated) == []


def test_the_catalog_keeps_no_label_that_nothing_uses():
    assert sorted(set(catalog()) - msgids_in_code() - probe_sentences() - {""}) == []


def test_the_labels_follow_each_builds_language_in_one_process(make_app, rootdir, tmp_path):
    """A Chinese build before an English one in the same process (the doctest server's
    readers, a test worker) leaves Sphinx's catalog registry holding the Chinese labels;
    the English build must not pick them up."""
    shutil.copytree(rootdir / "test-drift-report", tmp_path / "zh_CN")
    make_app("html", srcdir=tmp_path / "zh_CN", confoverrides={"language": "zh_CN"}).build()
    assert _locale._("same") == "相同"  # the Chinese build loaded the Chinese labels

    shutil.copytree(rootdir / "test-drift-report", tmp_path / "en")
    app = make_app("html", srcdir=tmp_path / "en", confoverrides={"language": "en"})
    app.build()
    page = (app.outdir / "report.html").read_text(encoding="utf-8")
    assert "All 2 examples of this chapter print what the pages show." in page
