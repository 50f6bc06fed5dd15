"""The book's facts come from jaxbook.project: languages, source language, glossary."""

from __future__ import annotations

import inspect
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from sphinx.util.tags import Tags

from jaxbook import project

ROOT = Path(__file__).resolve().parent.parent


def test_the_source_comes_first_and_the_translations_are_the_rest():
    languages = project.languages(ROOT)
    assert next(iter(languages)) == project.SOURCE_LANGUAGE
    assert languages[project.SOURCE_LANGUAGE].status == "source"
    assert project.translations(ROOT) == [
        language for language in languages if language != project.SOURCE_LANGUAGE
    ]
    assert project.SOURCE_LANGUAGE not in project.translations(ROOT)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("languages", lambda: list(project.languages(ROOT))),
        ("pinned-jax", lambda: [project.pinned_release(ROOT)]),
    ],
)
def test_the_makefile_asks_the_module(question, answer):
    """What the Makefile asks with the system's Python, before .venv exists."""
    result = subprocess.run(
        [sys.executable, "src/jaxbook/project.py", question],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == answer()


LIST_HEADER = "code,name,status,translators\n"


@pytest.mark.parametrize(
    ("rows", "error"),
    [
        ("en,English,done\n", r"languages\.csv:2: the first row, and only it, is the source"),
        ("zh_CN,简体中文,source\nen,English,finished\n", r":3: status 'finished' is none of"),
        ("zh_CN,简体中文,source\nen,English,done\nen,English,draft\n", r":4: en is listed twice"),
        ("zh_CN,简体中文,source\nja,,draft\n", r":3: a language needs its code and its name"),
        ("zh_CN,简体中文,source,某组\n", r":2: the source has no translators"),
        ("", r"no languages listed"),
    ],
)
def test_a_faulty_list_of_languages_is_refused_at_its_line(tmp_path, rows, error):
    path = tmp_path / "languages.csv"
    path.write_text(LIST_HEADER + rows, encoding="utf-8")
    with pytest.raises(ValueError, match=error):
        project.read_languages(path)


def test_conf_py_takes_the_languages_and_keeps_no_text_per_language():
    conf = runpy.run_path(str(ROOT / "conf.py"), {"tags": Tags()})
    languages = project.languages(ROOT)
    assert conf["language"] == project.SOURCE_LANGUAGE
    assert conf["jaxbook_languages"] == {code: lang.name for code, lang in languages.items()}
    assert Path(ROOT / "docs", conf["jaxbook_glossary"]).resolve() == ROOT / project.GLOSSARY
    # Titles, authors and credits come from the catalogs (jaxbook.sphinxext.book_texts).
    for name in ("TITLES", "AUTHORS", "CREDITS"):
        assert name not in conf, name
    assert "jaxbook.sphinxext.book_texts" in conf["extensions"]


@pytest.mark.parametrize("book", [".", "tests/roots/test-editions"])
def test_the_book_and_its_test_book_of_the_editions_build_with_the_same_sphinx_settings(book):
    from jaxbook import sphinx_settings

    settings = {
        name: value for name, value in vars(sphinx_settings).items() if not name.startswith("_")
    }
    conf = runpy.run_path(str(ROOT / book / "conf.py"), {"tags": Tags()})
    assert {name: conf.get(name) for name in settings} == settings
    assert settings["latex_engine"] == "xelatex"  # the editions' preamble is xelatex's


def test_the_glossary_reads_every_column(tmp_path):
    terms = {term.source: term for term in project.glossary(ROOT / project.GLOSSARY)}
    assert terms["向量化"].name("en") == "vectorization"
    assert terms["向量化"].key == "vectorization"
    assert not terms["向量化"].exclusive
    assert terms["向量化"].definition("en").startswith("Turning a function")
    path = tmp_path / "glossary.csv"
    path.write_text(
        "zh_CN,en,pattern_en,ja,pattern_ja,exclusive,note,definition_zh_CN,definition_en,"
        "definition_ja\n"
        "量化,quantization,quantiz,量子化,量子化,yes,,"
        "降低精度。,Lowering precision.,精度を下げる。\n",
        encoding="utf-8",
    )
    [term] = project.glossary(path)
    assert term.exclusive
    assert term.patterns == {"en": "quantiz", "ja": "量子化"}
    assert (term.name("ja"), term.definition("ja")) == ("量子化", "精度を下げる。")
    # A language the glossary has no columns for gets the source's term and definition.
    assert (term.name("ko"), term.definition("ko")) == ("量化", "降低精度。")


def test_a_row_may_leave_a_languages_cells_empty_until_it_translates_the_term(tmp_path):
    path = tmp_path / "glossary.csv"
    path.write_text(
        HEADER.rstrip("\n") + ",es,pattern_es,definition_es\n"
        "量化,quantization,quantiz,yes,,降低精度。,Lowering precision.,,,\n"
        "向量化,vectorization,vectori[sz],,,批处理。,Batching.,vectorización,"
        "vectorizaci[oó]n,Procesar por lotes.\n",
        encoding="utf-8",
    )
    quantization, vectorization = project.glossary(path)
    assert (quantization.line, vectorization.line) == (2, 3)
    assert "es" not in quantization.names
    assert "es" not in quantization.patterns
    assert (quantization.name("es"), quantization.definition("es")) == ("量化", "降低精度。")
    assert vectorization.patterns["es"] == "vectorizaci[oó]n"
    assert project.glossary_columns(path) == ["zh_CN", "en", "es"]


def test_a_new_language_gets_its_own_glossary_once_and_the_shared_one_is_left_alone(tmp_path):
    path = tmp_path / "glossary.csv"
    rows = '量化,quantization,quantiz,yes,,降低精度。,"Lowering precision, as a rule."\n'
    rows += "向量化,vectorization,vectori[sz],,,批处理。,Batching.\n"
    path.write_text(HEADER + rows, encoding="utf-8")
    own = project.add_language_glossary(path, "es")
    assert own == tmp_path / "es" / "glossary.csv"
    assert own.read_text(encoding="utf-8") == (
        "zh_CN,es,pattern_es,definition_es\n量化,,,\n向量化,,,\n"
    )
    assert path.read_text(encoding="utf-8") == HEADER + rows
    assert project.glossary_columns(path) == ["zh_CN", "en", "es"]
    assert all("es" not in term.names for term in project.glossary(path))
    assert project.add_language_glossary(path, "es") is None
    assert project.add_language_glossary(path, "en") is None  # in the shared file
    assert not (tmp_path / "en").exists()


def test_a_languages_own_glossary_is_merged_by_the_chinese_term(tmp_path):
    path = tmp_path / "glossary.csv"
    path.write_text(
        HEADER + "量化,quantization,quantiz,yes,,降低精度。,Lowering precision.\n"
        "向量化,vectorization,vectori[sz],,,批处理。,Batching.\n",
        encoding="utf-8",
    )
    own = tmp_path / "es" / "glossary.csv"
    own.parent.mkdir()
    own.write_text(
        "zh_CN,es,pattern_es,definition_es\n"
        "向量化,vectorización,vectorizaci[oó]n,Procesar por lotes.\n",
        encoding="utf-8",
    )
    quantization, vectorization = project.glossary(path)
    assert "es" not in quantization.names  # no row: not translated yet
    assert vectorization.names == {
        "zh_CN": "向量化",
        "en": "vectorization",
        "es": "vectorización",
    }
    assert vectorization.patterns["es"] == "vectorizaci[oó]n"
    assert vectorization.definition("es") == "Procesar por lotes."
    assert vectorization.places == {"es": (own, 2)}
    assert project.glossary_files(path) == [path, own]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (
            "zh_CN,es,pattern_es,definition_es\n向量化,vectorización,vectorizaci[oó]n,\n",
            r"es/glossary.csv:2: no definition_es$",
        ),
        (
            "zh_CN,es,pattern_es,definition_es\n矢量化,vectorización,vectoriz,Lotes.\n",
            r"es/glossary.csv:2: '矢量化' is not a term of the shared glossary$",
        ),
        (
            "zh_CN,es,pattern_es,definition_es,definition_en\n向量化,,,,\n",
            r"es/glossary.csv:1: column definition_en is not es's: its columns are "
            r"zh_CN,es,pattern_es,definition_es$",
        ),
        (
            "zh_CN,es,definition_es\n向量化,,\n",
            r"es/glossary.csv:1: no column pattern_es$",
        ),
    ],
    ids=["half a row", "a term the shared glossary lacks", "another's column", "no pattern"],
)
def test_a_languages_own_glossary_is_refused_where_it_is_wrong(tmp_path, text, error):
    path = tmp_path / "glossary.csv"
    path.write_text(
        HEADER + "向量化,vectorization,vectori[sz],,,批处理。,Batching.\n", encoding="utf-8"
    )
    own = tmp_path / "es" / "glossary.csv"
    own.parent.mkdir()
    own.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=error) as refused:
        project.glossary(path)
    assert str(refused.value).count("\n") == 1  # one finding


HEADER = "zh_CN,en,pattern_en,exclusive,note,definition_zh_CN,definition_en\n"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (
            HEADER + "向量化,vectorization,vectori[sz],,,把函数变成批处理的函数,\n",
            r"csv:2: no definition_en",
        ),
        (
            HEADER.replace(",pattern_en", "") + "向量化,vectorization,,,甲,乙\n",
            r"csv:1: no column pattern_en",
        ),
        (HEADER.replace("zh_CN,", "zh,"), r"csv:1: no column zh_CN, the source's terms"),
    ],
    ids=["a row without a definition", "a translation without its pattern", "no source column"],
)
def test_a_glossary_without_a_column_or_a_cell_is_refused(tmp_path, text, error):
    path = tmp_path / "glossary.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=error):
        project.glossary(path)


@pytest.mark.parametrize(
    ("path", "place"),
    [
        ("book/locale/en/LC_MESSAGES/ch01/arrays.po", ("book/locale", "en", "ch01/arrays")),
        ("book/locale/zh_CN/LC_MESSAGES/jaxbook.po", ("book/locale", "zh_CN", "jaxbook")),
        ("book/locale/en/words.txt", None),
        ("book/docs/ch01/arrays.md", None),
    ],
)
def test_a_catalog_file_tells_its_locale_directory_language_and_domain(tmp_path, path, place):
    found = project.catalog_place(tmp_path / path)
    if place is None:
        assert found is None
    else:
        locale, language, domain = place
        assert found == ((tmp_path / locale).resolve(), language, domain)


def test_sphinx_build_builds_the_pages_or_the_guides_each_with_its_conf(tmp_path):
    pages = project.sphinx_build(tmp_path, "gettext", tmp_path / "out", "-q")
    guides = project.sphinx_build(tmp_path, "html", tmp_path / "out", "-q", sources=project.GUIDES)
    assert pages[:5] == [sys.executable, "-m", "sphinx", "-b", "gettext"]
    assert pages[pages.index("-c") + 1] == str(tmp_path)
    assert pages[-2:] == [str(tmp_path / "docs"), str(tmp_path / "out")]
    # The guides' conf.py is theirs (it reads the book's), and no tag tells it what it builds.
    assert guides[guides.index("-c") + 1] == str(tmp_path / "guides")
    assert guides[-2:] == [str(tmp_path / "guides"), str(tmp_path / "out")]
    assert "-t" not in pages + guides
    assert "-q" in pages
    assert "-q" in guides


# What the guides' conf.py sets of its own; every other setting is the book's conf.py's.
GUIDES_OWN = {
    "root_doc",
    "extensions",
    "html_sidebars",
    "jaxbook_book_srcdir",
    "jaxbook_release_evidence",
    "jaxbook_repo_root",
    # The paths Sphinx reads relative to the configuration directory (guides/ for them).
    "templates_path",
    "html_static_path",
    "html_favicon",
}


def settings(conf: dict) -> dict:
    """A conf.py's namespace as Sphinx takes its settings: no module, nor the tags it was given."""
    return {
        name: value
        for name, value in conf.items()
        if not name.startswith("_") and name != "tags" and not inspect.ismodule(value)
    }


def test_the_guides_conf_py_is_the_books_but_for_what_it_names():
    book = settings(runpy.run_path(str(ROOT / "conf.py"), {"tags": Tags()}))
    guides = settings(runpy.run_path(str(ROOT / project.GUIDES / "conf.py"), {"tags": Tags()}))
    missing = object()
    changed = {
        name
        for name in book.keys() | guides.keys()
        if book.get(name, missing) != guides.get(name, missing)
    }
    assert changed == GUIDES_OWN
    # The book's extensions, in their order, but for those that make what only the book has
    # (its PDF and EPUB, the places of its examples), then the guides' own.
    only_the_books = {"jaxbook.sphinxext.editions", "jaxbook.sphinxext.places"}
    inherited = [name for name in book["extensions"] if name not in only_the_books]
    assert guides["extensions"][: len(inherited)] == inherited
    assert not only_the_books & set(guides["extensions"])


def test_the_guides_conf_py_names_the_books_files():
    """Paths relative to the configuration directory (templates, static files, the checkout)
    name the same files from guides/ as the book's from the root; those relative to the
    sources, the book's evidence from guides/ as from docs/. Sphinx reads the parser's
    settings (docutils.conf) from the configuration directory: the guides' is the book's."""
    book = runpy.run_path(str(ROOT / "conf.py"), {"tags": Tags()})
    guides_dir = ROOT / project.GUIDES
    guides = runpy.run_path(str(guides_dir / "conf.py"), {"tags": Tags()})
    for name in ("templates_path", "html_static_path"):
        assert [(guides_dir / path).resolve() for path in guides[name]] == [
            (ROOT / path).resolve() for path in book[name]
        ], name
        assert all((ROOT / path).is_dir() for path in book[name]), name
    assert (guides_dir / guides["html_favicon"]).resolve() == ROOT / book["html_favicon"]
    assert (guides_dir / guides["jaxbook_repo_root"]).resolve() == ROOT
    assert (guides_dir / guides["jaxbook_book_srcdir"]).resolve() == ROOT / project.BOOK_SOURCES
    evidence = ROOT / project.BOOK_SOURCES / book["jaxbook_release_evidence"]
    assert (guides_dir / guides["jaxbook_release_evidence"]).resolve() == evidence
    assert (guides_dir / "docutils.conf").resolve() == ROOT / "docutils.conf"


@pytest.mark.parametrize("command", ["html", "editions", "doctest"])
def test_the_commands_that_build_take_the_languages_builddir_and_sphinx_options_alike(command):
    from jaxbook import cli

    def parsed(*arguments: str):
        return cli.parser_for([command]).parse_args([command, *arguments])

    given = parsed("--builddir", "out", "--sphinxopts", "-D a='b c' -t x", "en", "zh_CN")
    assert given.languages == ["en", "zh_CN"]
    assert given.builddir == Path("out")
    # Split as the shell splits SPHINXOPTS, once, for every command: a quoted value stays one.
    assert given.sphinxopts == ["-D", "a=b c", "-t", "x"]
    assert parsed("en").sphinxopts == []  # the default, split too
    assert parsed("en").builddir == Path("_build")


def test_make_gettext_passes_its_sphinx_options_split():
    from jaxbook import cli

    args = cli.parser_for(["po"]).parse_args(["po", "gettext", "--sphinxopts", "-q -t x"])
    assert args.sphinxopts == ["-q", "-t", "x"]
