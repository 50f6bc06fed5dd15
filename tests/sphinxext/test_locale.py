"""The extensions' labels, and the phrases of the probes' answers, all have a Chinese text."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import polib
import pytest

from jaxbook.formats import PROBE_PHRASES
from jaxbook.sphinxext import _locale, interface
from jaxbook.sphinxext.pairs import BROKEN, HALVES
from jaxbook.testing.catalogs import labels_in

PACKAGE = Path(_locale.__file__).parent


def msgids_in_code() -> set[str]:
    """Every label of the book's extensions, which translate through this catalog (the lab's
    report has a catalog of its own: packages/jaxbook-lab/tests/sphinxext/test_locale.py)."""
    found = {label for _symbol, label in HALVES.values()} | {BROKEN}  # looked up as _(label)
    # rglob: an extension may be a package of modules (editions).
    return found | labels_in(sorted(PACKAGE.rglob("*.py")), "jaxbook.sphinxext._locale")


def probe_sentences() -> set[str]:
    """The probes' phrases, read as the extensions' template reads them."""
    with interface.PHRASES.open("rb") as source:
        found = {text for _line, _m, text, _c in interface.extract_phrases(source, {}, (), {})}
    # The template finds every phrase the lab writes into the evidence file, and only those.
    assert found == {text for phrases in PROBE_PHRASES.values() for text in phrases.values()}
    return found


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
    shutil.copytree(rootdir / "test-evidence-column", tmp_path / "zh_CN")
    make_app("html", srcdir=tmp_path / "zh_CN", confoverrides={"language": "zh_CN"}).build()
    assert _locale._("Changed in") == "版本变化"  # the Chinese build loaded the Chinese labels

    shutil.copytree(rootdir / "test-evidence-column", tmp_path / "en")
    app = make_app("html", srcdir=tmp_path / "en", confoverrides={"language": "en"})
    app.build()
    page = (app.outdir / "index.html").read_text(encoding="utf-8")
    assert "Changed in" in page
    assert "版本变化" not in page


PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def test_every_translation_keeps_the_placeholders_of_its_message():
    """A sentence is filled after it is translated: a placeholder lost would lose its part."""
    po = polib.pofile(str(_locale.LOCALE_DIR / "zh_CN" / "LC_MESSAGES" / "jaxbook.po"))
    wrong = [
        entry.msgid
        for entry in po
        for msgstr in ([entry.msgstr] if entry.msgstr else entry.msgstr_plural.values())
        if sorted(PLACEHOLDER.findall(msgstr)) != sorted(PLACEHOLDER.findall(entry.msgid))
    ]
    assert wrong == []


def test_a_sentence_is_filled_with_nodes_wherever_its_translation_puts_them():
    from docutils import nodes

    link = nodes.reference("", "#2")
    # A verb-final language puts the notes first and the verb after them.
    filled = _locale.sentence("%(notes)s を検証します。", notes=[link])
    assert filled[0] is link
    assert [n.astext() for n in filled] == ["#2", " を検証します。"]
    parts = _locale.sentence("``x.device`` raises %(shown)s.", shown=nodes.literal("", "E"))
    assert [type(n).__name__ for n in parts] == ["literal", "Text", "literal", "Text"]


@pytest.mark.parametrize(
    ("language", "joined"),
    [
        ("en", "1.1, 1.3, and 1.5"),
        ("ja", "1.1、1.3、1.5"),  # CLDR's own
        ("zh_CN", "1.1、1.3 和 1.5"),  # the book's: 和 spaced from the digits, as its prose
        ("de", "1.1, 1.3 und 1.5"),
    ],
)
def test_lists_are_joined_as_the_language_joins_them(language, joined):
    from docutils import nodes

    assert _locale.join_list(["1.1", "1.3", "1.5"], language) == joined
    links = [nodes.reference("", n) for n in ("1.1", "1.3", "1.5")]
    listed = _locale.listed(links, language)
    assert "".join(n.astext() for n in listed) == joined
    assert [n for n in listed if isinstance(n, nodes.reference)] == links  # the nodes themselves


@pytest.mark.parametrize(
    ("items", "joined"),
    [
        (["0.4.38", "0.5.0"], "0.4.38 和 0.5.0"),
        (["相同 3 个", "输出不同 1 个", "跳过 2 个"], "相同 3 个、输出不同 1 个和跳过 2 个"),
        (["CPU", "缓存"], "CPU 和缓存"),
        (["0.4.38"], "0.4.38"),
        ([], ""),
    ],
)
def test_a_chinese_list_has_and_before_its_last_item_spaced_only_beside_latin(items, joined):
    """和 as the book's prose writes it: a space on a side where a Latin letter or digit is."""
    from docutils import nodes

    assert _locale.join_list(items, "zh_CN") == joined
    codes = [nodes.literal("", item) for item in items]
    assert "".join(n.astext() for n in _locale.listed(codes, "zh_CN")) == joined


JA = {
    "These examples have changed since the chapter last ran on other releases, and what this "
    "page says has not been checked against them yet: %(examples)s.": (
        "%(examples)s は他のリリースで前回実行した後に変更されました。"
    ),
    "%(page)s %(section)s": "%(page)s「%(section)s」",
}


def test_a_third_language_needs_a_catalog_not_code(make_app, rootdir, tmp_path):
    """A Japanese build of a chapter's note: sentences whose placeholder is not last keep what
    follows it, and lists are Japanese lists."""
    from babel.messages import Catalog
    from babel.messages.mofile import write_mo
    from bs4 import BeautifulSoup

    srcdir = shutil.copytree(rootdir / "test-drift-report", tmp_path / "ja")
    # Two examples changed since the run: the note names them in one sentence.
    page = srcdir / "ch1" / "page.rst"
    changed = page.read_text("utf-8").replace("device", "devices").replace("x = 2", "x = 3")
    page.write_text(changed, encoding="utf-8")
    catalog = Catalog(locale="ja", domain="jaxbook")
    for msgid, msgstr in JA.items():
        catalog.add(msgid, msgstr)
    messages = srcdir / "locales" / "ja" / "LC_MESSAGES"
    messages.mkdir(parents=True)
    with (messages / "jaxbook.mo").open("wb") as mo:
        write_mo(mo, catalog)
    with (srcdir / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(
            "\nimport os\n\ndef setup(app):\n"
            "    app.add_message_catalog('jaxbook', os.path.join(app.confdir, 'locales'))\n"
        )
    app = make_app("html", srcdir=srcdir, confoverrides={"language": "ja"})
    app.build()
    page = BeautifulSoup((app.outdir / "ch1" / "note.html").read_text("utf-8"), "html.parser")
    said = [" ".join(p.get_text().split()) for p in page.select("p")]
    assert (
        "1.1 A page, example 1 of 2、1.1「Checks: asserts」 は他のリリースで前回実行した後に"
        "変更されました。" in said
    )


def test_catalogs_merge_as_sphinx_reads_them_the_first_locale_dir_winning(tmp_path):
    """A message two ``locale_dirs`` translate takes the first one's text (Sphinx makes the
    later ones fallbacks), one that only the later one has is kept, and a directory with no
    catalog for the language, or an obsolete entry, adds nothing."""
    for directory, entries in [
        ("first", [("Hello", "Hallo", False), ("Gone", "Weg", True)]),
        ("second", [("Hello", "Servus", False), ("Bye", "Tschüss", False)]),
    ]:
        po = polib.POFile()
        for msgid, msgstr, obsolete in entries:
            po.append(polib.POEntry(msgid=msgid, msgstr=msgstr, obsolete=obsolete))
        path = tmp_path / directory / "de" / "LC_MESSAGES" / "ch01" / "page.po"
        path.parent.mkdir(parents=True)
        po.save(str(path))
    (tmp_path / "empty").mkdir()

    config = SimpleNamespace(
        locale_dirs=["first", "empty", "second"], language="de", gettext_compact=False
    )
    domain = _locale.page_domain(config, "ch01/page")
    assert domain == "ch01/page"
    paths = _locale.catalog_paths(tmp_path, config, domain)
    assert [p.relative_to(tmp_path).parts[0] for p in paths] == ["first", "second"]
    merged = _locale.catalog_entries(tmp_path, config, domain)
    assert {msgid: e.msgstr for msgid, e in merged.items()} == {"Hello": "Hallo", "Bye": "Tschüss"}
    assert _locale.catalog_entries(tmp_path, config, domain, "fr") == {}


THEME_PO = """\
msgid ""
msgstr ""
"Language: en\\n"
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "Search"
msgstr "{label}"
"""


def test_an_old_mo_newer_than_its_po_is_compiled_again_and_said(make_app, rootdir, tmp_path):
    """A catalog directory copied with ``cp -r`` can leave a ``.mo`` of older translations
    newer than its ``.po``: Sphinx compares only their times, the build compares what the
    ``.mo`` holds (the pages', and the theme's, which Sphinx loads before any extension)."""
    from jaxbook.sphinxapp import forget_catalogs

    srcdir = Path(shutil.copytree(rootdir / "test-translation-status", tmp_path / "book"))
    messages = srcdir / "locale" / "en" / "LC_MESSAGES"
    (messages / "sphinx.po").write_text(THEME_PO.format(label="Look up"), encoding="utf-8")
    forget_catalogs()
    make_app("html", srcdir=srcdir, confoverrides={"language": "en"}).build()
    old = {po: po.with_suffix(".mo").read_bytes() for po in messages.glob("*.po")}
    # The translator's new translations, then the .mo files of the old ones copied over.
    page = messages / "index.po"
    page.write_text(page.read_text("utf-8").replace("two pages", "2 pages"), "utf-8")
    (messages / "sphinx.po").write_text(THEME_PO.format(label="Find"), encoding="utf-8")
    for po, mo in old.items():
        po.with_suffix(".mo").write_bytes(mo)
        os.utime(po, (1_000_000_000, 1_000_000_000))
    forget_catalogs()  # as a new process starts
    app = make_app("html", srcdir=srcdir, confoverrides={"language": "en"}, freshenv=True)
    app.build()
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    assert "This book has 2 pages." in html
    assert app.translator.gettext("Search") == "Find"
    said = app.status.getvalue()
    for name in ("index", "sphinx"):
        assert f"{messages / name}.mo: not compiled from {name}.po as it is now" in said
    assert "partial.mo: not compiled" not in said


def test_a_build_compiles_the_packages_labels_outside_the_package(
    make_app, rootdir, tmp_path, monkeypatch
):
    """The package's ``jaxbook.po`` is compiled into the build's doctree directory: a build
    never writes into the package, which may be installed read-only."""
    package = tmp_path / "package" / "locales"
    shutil.copytree(_locale.LOCALE_DIR, package, ignore=shutil.ignore_patterns("*.mo"))
    before = sorted(path.relative_to(package) for path in package.rglob("*"))
    monkeypatch.setattr(_locale, "LOCALE_DIR", package)
    srcdir = shutil.copytree(rootdir / "test-glossary", tmp_path / "book")
    app = make_app("html", srcdir=srcdir)
    app.build()
    # The label after a definition is the package's Chinese: its catalog was read.
    assert "（英文：" in (app.outdir / "glossary.html").read_text(encoding="utf-8")
    assert sorted(path.relative_to(package) for path in package.rglob("*")) == before
    assert (app.doctreedir / "jaxbook-locales" / "zh_CN" / "LC_MESSAGES" / "jaxbook.mo").is_file()


def test_a_catalog_is_the_same_whenever_it_was_compiled():
    """A ``.po`` without ``POT-Creation-Date`` compiles to a header with the minute it was
    compiled in: two compiles of it differ in bytes, and hold the same translations."""
    import datetime
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    # With a message that has plurals, as the translations' own catalogs have.
    plurals = (
        '\nmsgid "%d page"\nmsgid_plural "%d pages"\nmsgstr[0] "%d Seite"\nmsgstr[1] "%d Seiten"\n'
    )
    po = THEME_PO.format(label="Find") + plurals

    def compiled_at(minute: int, text: str = po) -> bytes:
        catalog = read_po(io.StringIO(text), "en")
        catalog.creation_date = datetime.datetime(2026, 12, 7, 3, minute, tzinfo=datetime.UTC)
        out = io.BytesIO()
        write_mo(out, catalog)
        return out.getvalue()

    assert compiled_at(35) != compiled_at(36)
    assert _locale.translations_in(compiled_at(35)) == _locale.translations_in(compiled_at(36))
    changed = THEME_PO.format(label="Look up") + plurals
    assert _locale.translations_in(compiled_at(35)) != _locale.translations_in(
        compiled_at(35, changed)
    )
