"""A new chapter and a new language, added as the author's and the translator's guides say,
on a copy of the book, through what ``make test`` checks that they could break: the
chapter's outputs, catalogs and translation, the catalog checks (``make check-po``, nothing
lost since the copy's first commit), the doctests of every language, the sites of every
language, the PDF's LaTeX and the EPUB, with warnings as errors; and chapter 1's generated
pages say the same with the chapter as without it, on the site and in the PDF's LaTeX.

The chapter (``tests/book/chapter2/``) is written as chapter 2, in MyST, with what an author
writes: a float, an array and an exception, a ❌/✅ pair, an update note, an exercise with
its self-check and its reference answer, a term that the test adds to the glossary, a link
to a section of chapter 1, and the chapter's own update-notes and other-releases pages. It
goes in as the first chapter the book does not have (``docs/ch02`` while the book has one
chapter; its labels, titles and catalogs follow the number it gets), and the language is one
the book does not have either, added by ``make add-language``'s command, one page of it
translated.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest

from jaxbook import project
from jaxbook.doctest.environment import doctest_environment
from jaxbook.site.editions import sphinx_command

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
CHAPTER = HERE / "chapter2"
WRITTEN_AS = 2  # the chapter's number in its files (docs/ch02, 第 2 章, Chapter 2)
PAGES = ["index", "basics", "exercises", "answers", "update-notes", "other-releases"]
# The book's languages: chapter 1's pages in the copy are compared with the book's own.
BOOK_LANGUAGES = list(project.languages(ROOT))
# The glossary's row for the term the exercise uses (its columns: locale/glossary.csv's).
TERM = (
    "相反数,opposite,\\bopposites?\\b,,,与一个数相加得 0 的数：3 的相反数是 -3，-3 的相反数是 3。,"
    '"The number that adds to a given number to make 0: the opposite of 3 is -3, and that of '
    '-3 is 3."\n'
)
# The words of other languages that the translation keeps, for its spelling check.
KEPT_WORDS = "ApX\nGetting\nJAX\nLearning\nMachine\nStarted\njit\nwith\n"
# The added language's translation of the chapter's first page, by its message.
TRANSLATED_PAGE = "index"
TRANSLATIONS = {
    "es": {
        "第 2 章 jit 入门": "Capítulo 2: Primeros pasos con jit",
        "本章对应 ApX Machine Learning 的课程《JAX 入门》的{course}`第 2 章 <chapter-2-jit>`。"
        "这是按作者指南试写的一章，用几个小例子看即时编译的结果。": (
            "Este capítulo corresponde al {course}`capítulo 2 <chapter-2-jit>` del curso "
            "*Getting Started with JAX* de ApX Machine Learning. Es un capítulo de prueba, "
            "escrito según la guía del autor, que muestra en unos pocos ejemplos qué calculan "
            "las funciones compiladas con jit."
        ),
    },
    "fr": {
        "第 2 章 jit 入门": "Chapitre 2 : premiers pas avec jit",
        "本章对应 ApX Machine Learning 的课程《JAX 入门》的{course}`第 2 章 <chapter-2-jit>`。"
        "这是按作者指南试写的一章，用几个小例子看即时编译的结果。": (
            "Ce chapitre correspond au {course}`chapitre 2 <chapter-2-jit>` du cours "
            "*Getting Started with JAX* d'ApX Machine Learning. C'est un chapitre d'essai, "
            "écrit en suivant le guide de l'auteur, qui montre sur quelques exemples ce que "
            "calculent les fonctions compilées avec jit."
        ),
    },
}


def unused_chapter(book: Path) -> int:
    """The number of the first chapter after the book's last (``docs/chNN``)."""
    numbers = [
        int(match[1])
        for path in (book / "docs").iterdir()
        if (match := re.fullmatch(r"ch(\d\d)", path.name))
    ]
    return max(numbers, default=0) + 1


def unused_language(book: Path) -> str:
    """A language the test has a translation in that the book does not have."""
    listed = project.languages(book)
    return next(code for code in TRANSLATIONS if code not in listed)


def placed(text: str, number: int) -> str:
    """The chapter's text (page, message) as chapter ``number``: its directory and labels
    (``ch02``, ``check-ch02-where``) and its titles."""
    if number == WRITTEN_AS:
        return text
    text = text.replace(f"ch{WRITTEN_AS:02d}", f"ch{number:02d}")
    text = text.replace(f"第 {WRITTEN_AS} 章", f"第 {number} 章")
    # The sections' numbers are the toctree's, and their references write them.
    return re.sub(rf"\b([Cc]hapter) {WRITTEN_AS}\b", rf"\g<1> {number}", text)


def step(project: Path, *command: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", *command], cwd=project, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, f"{' '.join(command)}:\n{result.stdout}\n{result.stderr}"
    return result.stdout + result.stderr


class Article(HTMLParser):
    """The text of a page's article, without the parallel text or the page's navigation;
    a word that may break (``jnp<wbr />.where``) stays one word."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.hidden = 0
        self.text: list[str] = []
        self.joined = False

    def handle_starttag(self, tag, attrs):
        if tag == "wbr":
            self.joined = True
            return
        if tag in {"br", "img", "hr", "input", "meta", "link", "col"}:
            return
        if tag == "article":
            self.depth = 1
        elif self.depth:
            self.depth += 1
            if self.hidden or "jb-parallel" in (dict(attrs).get("class") or "").split():
                self.hidden += 1

    def handle_endtag(self, tag):
        if self.depth and tag not in {"br", "img", "hr", "input", "meta", "link", "col", "wbr"}:
            self.depth -= 1
            self.hidden = max(0, self.hidden - 1) if self.hidden else 0

    def handle_data(self, data):
        if self.depth and not self.hidden:
            if self.joined and self.text:
                self.text[-1] += data
            else:
                self.text.append(data)
        self.joined = False


def article(page: Path) -> str:
    parser = Article()
    parser.feed(page.read_text(encoding="utf-8"))
    return " ".join(" ".join(parser.text).split())


def messages(catalog: bytes) -> list[tuple[str, str, bool]]:
    entries = polib.pofile(catalog.decode("utf-8"))
    return [(e.msgid, e.msgstr, e.obsolete) for e in entries]


def translate(created: Path, translated: Path, number: int) -> None:
    """Fill a new catalog as the translator did (``tests/book/chapter2/locale``): prose and
    code translated, outputs left empty for ``refresh`` to fill."""
    catalog = polib.pofile(str(created))
    translation = {
        placed(entry.msgid, number): placed(entry.msgstr, number)
        for entry in polib.pofile(str(translated))
    }
    assert {entry.msgid for entry in catalog} == set(translation), created.name
    for entry in catalog:
        entry.msgstr = translation[entry.msgid]
    catalog.save(str(created))


def run_self_check(answer: dict[str, object]) -> None:
    """The chapter's self-check, run on an answer as a reader's notebook runs it."""
    import jax
    import jax.numpy as jnp

    check = (CHAPTER / "docs" / f"ch{WRITTEN_AS:02d}" / "_selfcheck_e1.py").read_text("utf-8")
    exec(check, {"jax": jax, "jnp": jnp, **answer})


def test_the_chapters_self_check_says_what_to_do_and_rejects_wrong_answers(capsys):
    """As tests/book/test_ch01_exercises.py holds chapter 1's: before an answer it says what to
    do; each of its messages is met by a wrong answer; the reference answer passes silently
    (``make doctest`` runs it on the answers page, below)."""
    import jax
    import jax.numpy as jnp

    run_self_check({})
    assert capsys.readouterr().out == "请先在上方的作答区定义 abs_jit(x) 并运行，再运行本单元。\n"
    with pytest.raises(AssertionError, match=r"jax\.jit 编译过的函数"):
        run_self_check({"abs_jit": lambda x: jnp.where(x >= 0, x, -x)})
    with pytest.raises(AssertionError, match="每个元素的绝对值"):
        run_self_check({"abs_jit": jax.jit(lambda x: x)})
    run_self_check({"abs_jit": jax.jit(lambda x: jnp.where(x >= 0, x, -x))})
    assert capsys.readouterr().out == ""


@dataclass(frozen=True)
class Added:
    """The copy of the book, its new chapter's directory (``chNN``) and number, and the
    language added to it."""

    book: Path
    name: str
    number: int
    language: str

    @property
    def languages(self) -> list[str]:
        return list(project.languages(self.book))


def committed(book: Path) -> None:
    """The copy as a checkout whose HEAD is the book as it was, for `make check-po`'s
    "nothing lost since HEAD"."""
    git = ["git", "-c", "user.name=test", "-c", "user.email=test@example.org"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "the book"]):
        subprocess.run([*git, *command], cwd=book, check=True, capture_output=True)


@pytest.fixture(scope="module")
def added(book_copier, tmp_path_factory) -> Added:
    """A copy of the book with the chapter added as the author's guide says, then a
    language as the translator's guide says."""
    book = book_copier(tmp_path_factory.mktemp("book"))
    committed(book)
    number = unused_chapter(book)
    name = f"ch{number:02d}"
    # 1–3. The chapter's pages, and its place in the book's contents, after the last chapter.
    for page in (CHAPTER / "docs" / f"ch{WRITTEN_AS:02d}").iterdir():
        target = book / "docs" / name / page.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(placed(page.read_text(encoding="utf-8"), number), encoding="utf-8")
    index = book / "docs" / "index.rst"
    text = index.read_text(encoding="utf-8")
    *_, last = re.finditer(r"^   ch\d\d/index\n", text, re.MULTILINE)
    index.write_text(text[: last.end()] + f"   {name}/index\n" + text[last.end() :], "utf-8")
    # 6. The term the exercise uses, in the glossary.
    with (book / project.GLOSSARY).open("a", encoding="utf-8") as glossary:
        glossary.write(TERM)
    # The copy's builds run the chapter's code, which is what the chapter adds; the book's
    # own chapters run in make test's build (pagerun.sphinxext.run).
    with (book / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(f"pagerun_run = {[f'{name}/{page}' for page in PAGES]!r}\n")
    # 4. Outputs from real runs, through the guide's pattern, in every language (as make
    # refresh-outputs does); no translation has a catalog of the chapter yet.
    languages = list(project.languages(book))
    refresh = [arg for language in languages for arg in ("--language", language)]
    refreshed = step(book, "jaxbook", "refresh", *refresh, f"docs/{name}/*")
    assert f"docs/{name}/basics.md: 4 output(s) rewritten" in refreshed, refreshed
    assert f"docs/{name}/answers.md: 1 output(s) rewritten" in refreshed, refreshed
    assert f"docs/{name}/basics.md: no en catalog yet, left out" in refreshed, refreshed
    assert "TODO" not in (book / f"docs/{name}/basics.md").read_text(encoding="utf-8")
    # 8. make update-po: the catalogs, created for the new pages only; the translation;
    # the English outputs.
    before = {p: p.read_bytes() for p in (book / "locale").rglob("*.po")}
    step(book, "jaxbook", "po", "gettext", str(project.TEMPLATES))
    # The translations' catalogs: the source's holds the interface's, which may be the
    # installed package's own (jaxbook.project.interface_catalog), outside the copy.
    catalogs = [str(project.catalog_dir(Path(), language)) for language in languages[1:]]
    merged = step(book, "jaxbook", "po", "update", str(project.TEMPLATES), *catalogs)
    for page in PAGES:
        assert f"locale/en/LC_MESSAGES/{name}/{page}.po: created" in merged, merged
        translate(
            book / f"locale/en/LC_MESSAGES/{name}/{page}.po",
            CHAPTER / f"locale/en/LC_MESSAGES/ch{WRITTEN_AS:02d}/{page}.po",
            number,
        )
    # Another page's catalog keeps its messages and their translations (docs/index.rst's
    # own may name new lines: its contents list grew by a line).
    for path, old in before.items():
        if path.read_bytes() != old:
            assert messages(path.read_bytes()) == messages(old), path
    step(book, "jaxbook", "po", "wrap", *catalogs)
    refreshed = step(book, "jaxbook", "refresh", "--language", "en", f"docs/{name}/*")
    assert f"docs/{name}/basics.md [en]: 4 output(s) rewritten in the catalog" in refreshed
    assert f"docs/{name}/answers.md [en]: 1 output(s) rewritten in the catalog" in refreshed
    # The translator's guide: make add-language LANGUAGE=xx, then a page translated.
    language = unused_language(book)
    said = step(book, "jaxbook", "language", "add", language)
    assert f"{language} (" in said, said
    assert project.languages(book)[language].draft
    page = project.catalog_dir(book, language) / name / f"{TRANSLATED_PAGE}.po"
    catalog = polib.pofile(str(page))
    translation = {placed(k, number): placed(v, number) for k, v in TRANSLATIONS[language].items()}
    assert {entry.msgid for entry in catalog} == set(translation)
    for entry in catalog:
        entry.msgstr = translation[entry.msgid]
    catalog.save()
    # Its word list: the names the translation keeps (the course's, jit).
    (book / project.LOCALE / language / "words.txt").write_text(KEPT_WORDS, encoding="utf-8")
    step(book, "jaxbook", "po", "wrap", str(project.catalog_dir(Path(), language)))
    return Added(book, name, number, language)


def test_the_catalogs_pass_make_check_po(added):
    """`make check-po`'s three checks, on every language's catalogs."""
    catalogs = [str(project.catalog_dir(Path(), language)) for language in added.languages]
    step(added.book, "jaxbook", "po", "check", *catalogs)
    step(added.book, "jaxbook", "po", "lost", *catalogs)
    step(added.book, "jaxbook", "zh-lint", "docs", "snippets")


def test_the_doctests_of_every_language_pass(added):
    pages = [f"docs/{added.name}/{page}.md" for page in ("basics", "answers")]
    only = [arg for page in pages for arg in ("--only", page)]
    verdict = step(added.book, "jaxbook", "doctest", *only, *added.languages)
    # basics: 5 examples, answers: 3 (the imports, the answer, its self-check), per language.
    assert verdict.strip().splitlines()[-1] == f"{8 * len(added.languages)} passed, 0 failed"


@pytest.fixture(scope="module")
def sites(added, html_builder) -> Path:
    """Every language's site, side by side as make html builds them, into the doctrees the
    doctests read: the chapter's pages are read, and run, already."""
    out = added.book / "_build"
    languages = added.languages
    with ThreadPoolExecutor(len(languages)) as pool:
        list(
            pool.map(html_builder, [added.book] * len(languages), languages, [out] * len(languages))
        )
    return out


@pytest.mark.parametrize("language", BOOK_LANGUAGES)
def test_chapter_1s_generated_pages_say_the_same_with_a_second_chapter(sites, built_site, language):
    for page in ("update-notes", "other-releases"):
        with_two = article(sites / language / "ch01" / f"{page}.html")
        with_one = article(built_site / language / "ch01" / f"{page}.html")
        assert with_two == with_one, page


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_chapters_own_pages_speak_of_it(added, sites, language):
    site = sites / language / added.name
    notes = article(site / "update-notes.html")
    assert re.search(r"jnp\.where", notes)
    report = article(site / "other-releases.html")
    no_data = {"zh_CN": "还没有", "en": "has not run on other JAX releases yet"}[language]
    assert no_data in report, report[:300]
    title = {"zh_CN": "第 {} 章 jit 入门", "en": "Chapter {}: Getting started with jit"}[language]
    assert title.format(added.number) in (site / "index.html").read_text(encoding="utf-8")
    # Its sections are numbered by its toctree, after the chapter's number, and a reference
    # to one writes that number.
    section = {"zh_CN": "{}.1 jit 的基本用法", "en": "{}.1 The basics of jit"}[language]
    assert section.format(added.number) in article(site / "basics.html")
    exercise = {"zh_CN": "{}.2 节“练习 E1”", "en": "“Exercise E1” in section {}.2"}[language]
    assert exercise.format(added.number) in article(site / "answers.html")
    # The glossary's new term: linked where the exercise first uses it, and in the glossary.
    exercise = (site / "exercises.html").read_text(encoding="utf-8")
    assert re.search(r'href="\.\./glossary\.html#term-opposite"', exercise), language
    glossary = (sites / language / "glossary.html").read_text(encoding="utf-8")
    assert 'id="term-opposite"' in glossary


def test_the_new_language_has_its_translated_page_and_every_page(added, sites):
    language = added.language
    site = sites / language
    translated = placed(TRANSLATIONS[language]["第 2 章 jit 入门"], added.number)
    assert translated in (site / added.name / "index.html").read_text(encoding="utf-8")
    # Every edition's switcher links the new one, on every page.
    for other in added.languages:
        page = (sites / other / "ch01" / "arrays.html").read_text(encoding="utf-8")
        assert f'href="../../{language}/ch01/arrays.html"' in page, other
    assert {p.relative_to(site) for p in site.rglob("*.html")} == {
        p.relative_to(sites / "zh_CN") for p in (sites / "zh_CN").rglob("*.html")
    }


@pytest.fixture(scope="module")
def books(added, sites) -> Path:
    """The EPUB of the book with the chapter as `make epub` builds it, and the LaTeX that
    `make pdf` writes (warnings are errors in both: the single document is where a chapter's
    pages could speak of another's), beside the sites, as `make` builds them: from the
    doctrees the sites read, so they read and run nothing again. TeX itself sets the chapter
    as it sets chapter 1, whose PDF `make test` builds; that run is left to it (40 s)."""
    doctrees = sites / "doctrees"
    step(added.book, "jaxbook", "editions", "--format", "epub", "--builddir", str(sites), "zh_CN")
    latex = sphinx_command(
        added.book, "latex", "zh_CN", sites / "latex" / "zh_CN",
        doctrees / "zh_CN", "-q", "--fail-on-warning",
    )  # fmt: skip
    environment = doctest_environment(os.environ, added.book, "zh_CN")
    result = subprocess.run(
        latex, cwd=added.book, capture_output=True, text=True, timeout=900, env=environment
    )
    assert result.returncode == 0, result.stderr[-5000:]
    return sites


def test_the_epub_builds_with_the_second_chapter(added, books):
    [book] = (books / "epub").glob("*-zh_CN.epub")
    with zipfile.ZipFile(book) as epub:
        pages = {name for name in epub.namelist() if name.endswith(".xhtml")}
    assert {f"{added.name}/index.xhtml", "ch01/index.xhtml"} <= pages


def latex_of(builddir: Path) -> str:
    """The one LaTeX document `make pdf` wrote into ``builddir`` for the Chinese book."""
    [tex] = (builddir / "latex" / "zh_CN").glob("*.tex")
    return tex.read_text(encoding="utf-8")


def page_in(tex: str, docname: str) -> str:
    """A page's part of the one LaTeX document: from its label to the next page's, or to the
    next chapter's heading (which comes before that chapter's label)."""
    start = tex.index(rf"\label{{\detokenize{{{docname}::doc}}}}")
    following = re.compile(r"\\label\{\\detokenize\{[^}:]+::doc\}\}|\\chapter\{")
    end = following.search(tex, start + 1)
    return " ".join(tex[start : end.start() if end else len(tex)].split())


def test_in_the_pdf_chapter_1s_generated_pages_say_the_same(added, books, built_editions):
    with_one, with_two = latex_of(built_editions), latex_of(books)
    for page in ("ch01/update-notes", "ch01/other-releases"):
        assert page_in(with_two, page) == page_in(with_one, page), page
    assert "jnp.where" in page_in(with_two, f"{added.name}/update-notes")
