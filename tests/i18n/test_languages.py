"""`jaxbook language add ja` on a small book, end to end: catalogs, build, check-po, doctest.

The book (``tests/roots/test-language-add``) has the book's settings that matter
here: a Chinese source, English catalogs, a list of languages, a glossary, a
doctested page, the book's texts and its language switcher.
"""

from __future__ import annotations

import hashlib
import io
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
import sphinx
from bs4 import BeautifulSoup
from sphinx.testing.util import _clean_up_global_state

from jaxbook import cli, project
from jaxbook.sphinxapp import application

SMALL_BOOK = Path(__file__).resolve().parents[1] / "roots" / "test-language-add"


def snapshot(book: Path) -> dict[str, str]:
    """Every file of the book but its build output, by its digest."""
    return {
        path.relative_to(book).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(book.rglob("*"))
        if path.is_file() and "_build" not in path.relative_to(book).parts
    }


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    """The small book, once `jaxbook language add ja` has run in it."""
    book = Path(shutil.copytree(SMALL_BOOK, tmp_path_factory.mktemp("book") / "book"))
    before = snapshot(book)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(book)
        assert cli.main(["language", "add", "ja"]) == 0
    after = snapshot(book)
    changed = sorted(name for name in after if before.get(name) != after[name])
    # The templates are brought up to date as make gettext does (this book commits none).
    assert [name for name in changed if not name.startswith(("locale/ja/", "locale/pot/"))] == [
        "locale/languages.csv",
    ]
    assert [name for name in before if name not in after] == []
    return book


def test_the_language_is_listed_as_a_draft_with_its_name_in_itself(book):
    listed = project.languages(book)
    assert list(listed) == ["zh_CN", "en", "ja"]
    assert listed["ja"] == project.Language("ja", "日本語", "draft")


def test_it_has_an_empty_word_list_for_its_spelling_check(book):
    assert (book / "locale" / "ja" / "words.txt").read_text(encoding="utf-8") == ""


def test_its_glossary_is_its_own_with_each_chinese_term_and_empty_cells(book):
    shared = (book / "locale/glossary.csv").read_text(encoding="utf-8")
    assert shared == (SMALL_BOOK / "locale/glossary.csv").read_text(encoding="utf-8")
    own = (book / "locale/ja/glossary.csv").read_text(encoding="utf-8")
    assert own == "zh_CN,ja,pattern_ja,definition_ja\n数组,,,\n"
    [term] = project.glossary(book / "locale/glossary.csv")
    assert "ja" not in term.names  # not translated yet: the source's term stands for it
    assert (term.name("ja"), term.name("en")) == ("数组", "array")


def test_its_catalogs_are_the_templates_untranslated_with_cldrs_plural_forms(book):
    created = sorted(p.relative_to(book).as_posix() for p in book.glob("locale/ja/**/*.po"))
    english = sorted(
        p.relative_to(book).as_posix().replace("/en/", "/ja/")
        for p in book.glob("locale/en/**/*.po")
    )
    # Every page, the book's own texts (book.po), and, as Japanese is not the interface's
    # English, the theme's and the extensions' labels.
    interface = ["locale/ja/LC_MESSAGES/jaxbook.po", "locale/ja/LC_MESSAGES/sphinx.po"]
    assert created == sorted(english + interface)
    counts = []
    for path in book.glob("locale/ja/**/*.po"):
        catalog = polib.pofile(str(path))
        assert catalog.metadata["Language"] == "ja"
        assert catalog.metadata["Plural-Forms"] == "nplurals=1; plural=0;"
        # The header msgmerge keeps, not that of the extractor that wrote the template.
        assert "Generated-By" not in catalog.metadata, path
        assert catalog.percent_translated() == 0
        # A count's message has one msgstr[n] per form of the language (Japanese has one).
        counts += [sorted(e.msgstr_plural) for e in catalog if e.msgid_plural]
        if path.stem in project.INTERFACE_DOMAINS:
            continue  # their messages come from the theme and the package
        # The pages are named as make update-po names them, from the book's root.
        for entry in catalog:
            for file, _line in entry.occurrences:
                assert file.startswith(("../../docs/", "../../conf.py")), file
    assert counts
    assert all(forms == [0] for forms in counts)


def test_make_update_po_right_after_finds_nothing_to_change(book, tmp_path):
    """The catalogs are created in the form msgmerge leaves them: a Spanish trial's
    sphinx.po and jaxbook.po had their comments wrapped otherwise, and the next
    `make update-po` rewrote them (a test of the whole book then failed)."""
    copy = Path(shutil.copytree(book, tmp_path / "book"))
    before = snapshot(copy)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(copy)
        assert cli.main(["po", "update", "locale/pot", "locale/ja/LC_MESSAGES"]) == 0
    after = snapshot(copy)
    assert [name for name in after if before.get(name) != after[name]] == []


def check_po(book: Path, capsys) -> tuple[int, str, str]:
    """`jaxbook po check` over every translation, as `make check-po` runs it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(book)
        status = cli.main(["po", "check"])
    out = capsys.readouterr()
    return status, out.out, out.err


def interface_to_translate(book: Path) -> list[str]:
    """The interface's labels Japanese must translate: those Sphinx's Japanese catalog lacks."""
    sphinx_ja = Path(sphinx.__file__).parent / "locale" / "ja" / "LC_MESSAGES" / "sphinx.po"
    translated = {e.msgid for e in polib.pofile(str(sphinx_ja)) if e.msgstr}
    theme = [e.msgid for e in polib.pofile(str(book / "locale/ja/LC_MESSAGES/sphinx.po"))]
    labels = [e.msgid for e in polib.pofile(str(book / "locale/ja/LC_MESSAGES/jaxbook.po"))]
    return [msgid for msgid in theme if msgid not in translated] + labels


def test_check_po_passes_while_the_language_is_a_draft(book, capsys):
    status, out, err = check_po(book, capsys)
    assert (status, out) == (0, "")
    assert (
        "ja is a draft (locale/languages.csv): 7 untranslated and 0 fuzzy entries in the "
        f"pages' catalogs, {len(interface_to_translate(book))} of the interface's labels "
        "(sphinx.po, jaxbook.po) to translate, and 1 of the glossary's 1 terms to translate "
        "(locale/ja/glossary.csv, where its translator fills them), are not findings"
    ) in err
    assert "'jaxbook language done ja'" in err
    # Japanese has no hunspell dictionary: its spelling is said to be unchecked, never
    # checked with another language's.
    assert "ja: spelling unchecked: no hunspell dictionary for ja is installed" in err
    # Chinese, the source, is never spelled by hunspell: nothing is said of it. Each
    # language's summary names it.
    assert "zh_CN: spelling unchecked" not in err
    summaries = [line.split(":")[0] for line in err.splitlines() if "finding(s)" in line]
    assert summaries == ["zh_CN", "en", "ja"]


def test_a_finished_language_fails_on_what_it_has_not_translated(book, tmp_path, capsys):
    done = Path(shutil.copytree(book, tmp_path / "done"))
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(done)
        assert cli.main(["language", "done", "ja"]) == 0
    assert project.languages(done)["ja"].status == "done"
    status, out, _err = check_po(done, capsys)
    assert status == 1
    findings = out.splitlines()
    untranslated = [f for f in findings if f.endswith(": untranslated")]
    assert all(f.startswith("locale/ja/LC_MESSAGES/") for f in untranslated)
    pages = [f for f in untranslated if not f.startswith(INTERFACE)]
    assert len(pages) == 7
    assert len(untranslated) - len(pages) == len(interface_to_translate(done))
    # The glossary has no Japanese terms yet: a finished language needs them.
    assert [f for f in findings if "glossary.csv" in f] == [
        "locale/ja/glossary.csv:2: glossary: 数组 has no ja term: fill its ja, pattern_ja and "
        "definition_ja"
    ]


def fill_glossary(book: Path, cells: dict[str, str]) -> None:
    """Write the translator's cells into the row of the language's glossary."""
    path = book / "locale/ja/glossary.csv"
    header, row = path.read_text(encoding="utf-8").splitlines()
    values = dict(zip(header.split(","), row.split(","), strict=True))
    values.update(cells)
    path.write_text(f"{header}\n{','.join(values.values())}\n", encoding="utf-8")


def test_the_glossary_checks_the_new_language_once_its_translator_fills_its_cells(
    book, tmp_path, capsys
):
    filled = Path(shutil.copytree(book, tmp_path / "filled"))
    fill_glossary(filled, {"ja": "配列", "pattern_ja": "配列", "definition_ja": "データの入れ物。"})
    translate(filled / "locale/ja/LC_MESSAGES/arrays.po", {"数组": "アレイ"})
    status, out, err = check_po(filled, capsys)
    assert status == 1
    [finding] = out.splitlines()
    assert finding.startswith("locale/ja/LC_MESSAGES/arrays.po:")
    assert finding.endswith(": glossary: 数组 must be translated as '配列'")
    assert "0 of the glossary's 1 terms to translate" in err
    # Half a row is refused: its term and pattern without its definition.
    fill_glossary(filled, {"definition_ja": ""})
    with pytest.raises(ValueError, match=r"locale/ja/glossary.csv:2: no definition_ja$"):
        project.glossary(filled / "locale/glossary.csv")


INTERFACE = ("locale/ja/LC_MESSAGES/sphinx.po:", "locale/ja/LC_MESSAGES/jaxbook.po:")


def test_a_code_cldr_does_not_know_adds_nothing(book, tmp_path):
    copy = Path(shutil.copytree(book, tmp_path / "copy"))
    before = snapshot(copy)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(copy)
        with pytest.raises(SystemExit, match="'xx' is not a language code CLDR knows"):
            cli.main(["language", "add", "xx"])
        with pytest.raises(SystemExit, match="ja is already one of the book's languages"):
            cli.main(["language", "add", "ja"])
    assert snapshot(copy) == before


class Page(HTMLParser):
    """A page's ``lang``, its title and the languages its switcher links."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.lang = self.title = ""
        self.links: dict[str, str] = {}  # hreflang -> href
        self._in_title = False
        self.feed(html)

    def handle_data(self, data):
        if self._in_title:
            self.title += data

    def handle_endtag(self, tag):
        self._in_title = self._in_title and tag != "title"

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self._in_title = tag == "title" and not self.title
        if tag == "html":
            self.lang = attributes.get("lang", "")
        classes = (attributes.get("class") or "").split()
        if tag == "a" and "jb-language-link" in classes:
            self.links[attributes["hreflang"]] = attributes["href"]


def build(book: Path, builder: str, language: str) -> Path:
    """One language of the book built in this process, as the tools start Sphinx."""
    warnings = io.StringIO()
    out = book / "_build" / builder / language
    # Docutils keeps the nodes and roles an application registers per process; clean
    # them as sphinx.testing's own applications do, before and after.
    _clean_up_global_state()
    try:
        app = application(
            book / "docs",
            book,
            out,
            book / "_build" / "doctrees" / f"{builder}-{language}",
            builder,
            language,
            status=None,
            warning=warnings,
        )
        app.build()
    finally:
        _clean_up_global_state()
    assert warnings.getvalue() == ""
    return out


@pytest.fixture(scope="module")
def sites(book, tmp_path_factory) -> dict[str, Path]:
    """Every edition of the book once its Japanese translator has translated the page's
    title, in arrays.po, and one of the extensions' labels, in the book's jaxbook.po."""
    translated = Path(shutil.copytree(book, tmp_path_factory.mktemp("translated") / "book"))
    translate(translated / "locale/ja/LC_MESSAGES/arrays.po", {"数组": "配列"})
    translate(
        translated / "locale/ja/LC_MESSAGES/jaxbook.po", {"Translation in progress": "翻訳中"}
    )
    return {language: build(translated, "html", language) for language in project.languages(book)}


def translate(po: Path, table: dict[str, str]) -> None:
    catalog = polib.pofile(str(po))
    for entry in catalog:
        entry.msgstr = table.get(entry.msgid, entry.msgstr)
    assert {e.msgid for e in catalog if e.msgstr} >= set(table)
    catalog.save()


class Passages(HTMLParser):
    """The ``lang`` of each heading and paragraph of a page, and of each block that has one."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[list[str]] = []  # [lang, text]
        self._open: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        if tag in {"h1", "p"} or (tag == "div" and "lang" in dict(attrs)):
            self.found.append([dict(attrs).get("lang") or "", ""])
            self._open.append(tag)

    def handle_endtag(self, tag):
        if self._open and self._open[-1] == tag:
            self._open.pop()

    def handle_data(self, data):
        if self._open:
            self.found[-1][1] += data


def test_every_edition_links_the_new_one_and_it_builds(sites):
    for language, site in sites.items():
        page = Page((site / "arrays.html").read_text(encoding="utf-8"))
        assert page.lang == language.replace("_", "-")
        others = {code.replace("_", "-") for code in sites if code != language}
        assert set(page.links) == others
        if language != "ja":
            assert page.links["ja"] == "../ja/arrays.html"


def test_the_new_edition_shows_the_source_until_it_is_translated(sites):
    html = (sites["ja"] / "arrays.html").read_text(encoding="utf-8")
    assert "JAX 的数组和 NumPy 的数组用法相近。" in html
    assert Page(html).title == "配列 — 入门小书"


def test_the_source_text_left_on_a_translated_page_carries_its_language(sites):
    passages = Passages((sites["ja"] / "arrays.html").read_text(encoding="utf-8")).found
    by_text = {" ".join(text.split()).rstrip("¶# "): lang for lang, text in passages}
    assert by_text["配列"] == ""  # translated: the page's own language
    assert by_text["JAX 的数组和 NumPy 的数组用法相近。"] == "zh-CN"
    # The code block's Chinese strings are left too: the block is marked, not its spans.
    assert next(lang for lang, text in passages if "总和" in text) == "zh-CN"
    # On the source's own pages nothing is marked: the page is Chinese.
    source = Passages((sites["zh_CN"] / "arrays.html").read_text(encoding="utf-8")).found
    assert {lang for lang, _text in source} == {""}


def notice_titles(html: str) -> list[str]:
    soup = BeautifulSoup(html, "html.parser")
    return [
        notice.select_one(".admonition-title").get_text(strip=True)
        for notice in soup.select(".jb-draft-notice, .jb-translation-notice")
    ]


def test_a_draft_edition_says_so_on_every_page_and_takes_its_translated_labels(sites):
    for page in ("index.html", "arrays.html"):
        titles = notice_titles((sites["ja"] / page).read_text(encoding="utf-8"))
        # The label its translator wrote in the book's locale/ja/LC_MESSAGES/jaxbook.po.
        assert titles == ["Draft edition", "翻訳中"], page
    # A finished translation says neither (the small English book is translated whole).
    assert notice_titles((sites["en"] / "arrays.html").read_text(encoding="utf-8")) == []


def test_make_doctest_runs_as_many_examples_in_the_new_language_as_in_the_others(book, capsys):
    """`make doctest LANGUAGES=...`: the runner, one verdict over every language."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(book)
        status = cli.main(["doctest", "--builddir", "_build", "zh_CN", "en", "ja"])
    out = capsys.readouterr().out
    assert status == 0, out
    counts = dict(re.findall(r"^(zh_CN|en|ja): (\d+ passed, \d+ failed)$", out, re.MULTILINE))
    assert counts == {language: "1 passed, 0 failed" for language in ("zh_CN", "en", "ja")}


TESTS = Path(__file__).resolve().parents[1]
GUIDE = TESTS.parent / "guides" / "translating.rst"
HERE = "i18n/test_languages.py"
MAKEFILE = ("test_makefile.py", "test_the_language_targets_hand_the_language_to_jaxbook")
# Each command the guide's section on adding a language names, and the test that runs it.
GUIDE_COMMANDS = {
    "make add-language LANGUAGE=ja": MAKEFILE,
    "jaxbook language add ja": (HERE, "book"),
    "make update-po": (
        "i18n/test_catalogs.py",
        "test_changed_and_removed_paragraphs_keep_their_english",
    ),
    "make html": (HERE, "test_every_edition_links_the_new_one_and_it_builds"),
    "make check-po": (HERE, "test_check_po_passes_while_the_language_is_a_draft"),
    "make language-done LANGUAGE=ja": MAKEFILE,
    "jaxbook language done ja": (
        HERE,
        "test_a_finished_language_fails_on_what_it_has_not_translated",
    ),
    "make doctest LANGUAGES=ja": (
        HERE,
        "test_make_doctest_runs_as_many_examples_in_the_new_language_as_in_the_others",
    ),
    "make pdf": (
        "test_preflight.py",
        "test_a_languages_missing_hyphenation_patterns_are_named_with_their_packages",
    ),
}
COMMAND = re.compile(r"make [a-z-]+(?: [A-Z]+=\w+)*|jaxbook language \w+ \w+")


def test_the_guide_names_only_commands_these_tests_run():
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index("\n添加一种语言\n")
    section = text[start : text.index("\n检查项与修复方法\n", start)]
    assert set(COMMAND.findall(section)) == set(GUIDE_COMMANDS)
    for module, test in GUIDE_COMMANDS.values():
        assert f"def {test}(" in (TESTS / module).read_text(encoding="utf-8"), test
