"""Translated code blocks on MyST pages stay code blocks (MyST-Parser #444).

The root ``test-myst`` is a MyST page holding every construct of the book's
reST pages, a reST page beside it, and their English catalogs.
"""

from __future__ import annotations

import html
import importlib.util
import re
import runpy
import shutil
import subprocess
import tomllib
from pathlib import Path

import myst_parser.parsers.sphinx_ as released_parser
import polib
import pytest
from docutils import nodes
from sphinx.util.tags import Tags

from jaxbook.i18n.check import check_catalog
from jaxbook.i18n.glossary import load_glossary
from jaxbook.i18n.parity import check_code
from jaxbook.sphinxext import myst_i18n

PROJECT = Path(__file__).resolve().parents[2]
ROOT = PROJECT / "tests" / "roots" / "test-myst"
CATALOGS = ROOT / "locale" / "en" / "LC_MESSAGES"
PATCH = PROJECT / "src" / "jaxbook" / "sphinxext" / "myst_i18n.patch"

EXTENSIONS = runpy.run_path(str(ROOT / "conf.py"), {"tags": Tags()})["extensions"]
ENGLISH = {"language": "en"}
WITHOUT_FIX = {
    "language": "en",
    "extensions": [name for name in EXTENSIONS if name != "jaxbook.sphinxext.myst_i18n"],
}
# index.md: 9 testcode cells (the figure cell one of them) and 2 doctest blocks; rest.rst: 1.
TESTS = 12
# index.md's literal blocks: code and outputs, the shown-only fence, the snippet.
BLOCKS = 22
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
LITERALS = (nodes.literal_block, nodes.doctest_block)


def code_blocks(page: str) -> list[str]:
    """The text of every ``<pre>`` on an HTML page."""
    return [
        html.unescape(re.sub(r"<[^>]+>", "", block))
        for block in re.findall(r"<pre>(.*?)</pre>", page, re.DOTALL)
    ]


def literal_texts(app, docname: str) -> list[str]:
    doctree = app.env.get_doctree(docname)
    return [node.astext() for node in doctree.findall(lambda n: isinstance(n, LITERALS))]


def translations(name: str) -> set[str]:
    return {entry.msgstr.rstrip("\n") for entry in polib.pofile(str(CATALOGS / f"{name}.po"))}


@pytest.mark.sphinx("doctest", testroot="myst", srcdir="myst-doctest-zh")
def test_every_cell_passes_in_chinese(built):
    assert built.doctest_counts() == (TESTS, 0)


@pytest.mark.sphinx("doctest", testroot="myst", srcdir="myst-doctest-en", confoverrides=ENGLISH)
def test_every_cell_passes_in_english(built):
    assert built.doctest_counts() == (TESTS, 0)


@pytest.mark.sphinx("html", testroot="myst", srcdir="myst-html-en", confoverrides=ENGLISH)
def test_english_page_shows_the_translated_code(built):
    blocks = code_blocks(built.page())
    text = "\n".join(blocks)
    for english in [
        "# Sum of the array's elements",
        'print("sum:", int(x.sum()))',
        ">>> # Length of the list",
        '>>> print("product:", 2 * 3)\nproduct: 6',
        'greeting = "hello"',
        'print("error:", e)',
        'print("an attribute, not a method")',
        'print(f"took: {t_ms:.3f} ms")',
        '# Runs in a fresh interpreter\nprint("hello from a fresh interpreter")',
        'print("backend:", BACKEND)',
        'print("drawing")',
        'print("answer:", int(jnp.arange(4).sum()))',
    ]:
        assert english in text
    assert not [block for block in blocks if CJK.search(block)]
    assert "::" not in [block.strip() for block in blocks]
    assert not re.search(r"<p>\s*::\s*</p>", built.page())
    assert "# Code on a reST page" in "\n".join(code_blocks(built.page("rest")))


@pytest.mark.sphinx("html", testroot="myst", srcdir="myst-adopted-en", confoverrides=ENGLISH)
def test_the_translated_page_keeps_no_node_of_another_document(built):
    """Each translated message is parsed as a document of its own: its nodes are moved into
    the page, and none keeps its message's document (which holds the application and the
    build environment, and would be pickled with the page's doctree)."""
    doctree = built.app.env.get_doctree("index")
    strays = [n for n in doctree.findall(nodes.Node) if n.document is not doctree]
    assert doctree.get("translation_progress", {}).get("translated")
    assert strays == []


@pytest.mark.sphinx("html", testroot="myst", srcdir="myst-doctree-en", confoverrides=ENGLISH)
def test_each_block_holds_exactly_its_translation(built):
    for docname, count in (("index", BLOCKS), ("rest", 2)):
        texts = literal_texts(built.app, docname)
        assert len(texts) == count
        assert set(texts) <= translations(docname)


LABELS = {
    "zh_CN": {
        "pair": ["❌ 错误写法", "✅ 推荐写法", "求和的两种写法"],
        "note": ["调用 <code", "它不再是方法"],
        "measured": ["运行环境："],
        "figure": ['alt="一条直线"'],
        "dropdown": ["答案与解析"],
        "outputs": [
            "总和： 6",
            "长度： 3",
            "乘积： 6",
            "来自新解释器的问候",
            "后端： cpu",
            "答案： 6",
        ],
    },
    "en": {
        "pair": ["❌ Broken", "✅ Recommended", "Two ways to sum"],
        "note": ["Calling <code", "it is no longer a method"],
        "measured": ["Measured on: "],
        "figure": ['alt="a straight line"'],
        "dropdown": ["Answer and explanation"],
        "outputs": [
            "sum: 6",
            "length: 3",
            "product: 6",
            "hello from a fresh interpreter",
            "backend: cpu",
            "answer: 6",
        ],
    },
}


@pytest.mark.parametrize(
    "language",
    [
        pytest.param("zh_CN", marks=pytest.mark.sphinx("html", testroot="myst", srcdir="myst-zh")),
        pytest.param(
            "en",
            marks=pytest.mark.sphinx(
                "html", testroot="myst", srcdir="myst-en", confoverrides=ENGLISH
            ),
        ),
    ],
)
def test_every_construct_renders_in_both_languages(built, language):
    page = built.page()
    for texts in LABELS[language].values():
        for text in texts:
            assert text in page
    assert page.count('class="jb-pair"') == 1
    # A correction of the course, not a warning: text under its number, no warning box.
    assert 'class="jb-update-note jb-update-note-plain"' in page
    # The update-notes table: the note's row, its verifying cell and the evidence column.
    assert '<table class="jb-update-notes' in page
    assert 'href="#check-device"' in page
    assert "0.4.31" in page
    # The {measured} role and the measured output show this run's figure, not "...".
    assert re.search(r'<span class="pagerun-measured-value">\d+\.\d{3}</span>', page)
    assert re.search(r"(took: |耗时：)\d+\.\d{3} (ms|毫秒)", page)
    assert re.findall(r'<label class="jb-tab-label" for="[^"]+"[^>]*>(\w+)</label>', page) == [
        "CPU",
        "GPU",
    ]
    assert re.search(r'<img alt="[^"]+" src="_images/figure-index-1\.png"', page)
    assert (built.app.outdir / "_images" / "figure-index-1.png").is_file()
    assert 'caption-text">hello.py</span>' in page
    assert '<a class="reference internal" href="#term-vectorization">' in page
    assert '<section class="jb-question"' in page
    assert "sd-dropdown" in page
    assert not built.warnings


@pytest.mark.sphinx("doctest", testroot="myst", srcdir="myst-no-fix", confoverrides=WITHOUT_FIX)
def test_without_the_fix_every_translated_block_reads_colons(built):
    texts = literal_texts(built.app, "index")
    assert texts == ["::"] * BLOCKS
    # Every MyST cell fails (the snippet's runs a script reading "::"); the two doctest
    # blocks hold no example any more; the reST page's cell passes.
    assert built.doctest_counts() == (TESTS - 2, TESTS - 3)
    assert "SyntaxError: invalid syntax" in built.doctest_output
    # The reST page is translated all the same.
    assert '# Code on a reST page\nprint("from a reST page")' in literal_texts(built.app, "rest")


@pytest.mark.sphinx("dummy", testroot="myst", srcdir="myst-rest-with", confoverrides=ENGLISH)
def test_rest_pages_are_read_exactly_as_without_the_fix(app, make_app, sphinx_test_tempdir):
    app.build()
    srcdir = sphinx_test_tempdir / "myst-rest-without"
    shutil.copytree(ROOT, srcdir, dirs_exist_ok=True)
    without = make_app("dummy", srcdir=srcdir, confoverrides=WITHOUT_FIX)
    without.build()
    trees = [
        each.env.get_doctree("rest").pformat().replace(str(each.srcdir), "<srcdir>")
        for each in (app, without)
    ]
    assert trees[0] == trees[1]


def other_release(monkeypatch, package: str, other: str) -> None:
    """Make the extension see ``other`` as the installed release of ``package``."""
    installed = myst_i18n.version
    monkeypatch.setattr(
        myst_i18n, "version", lambda name: other if name == package else installed(name)
    )


@pytest.mark.sphinx("dummy", testroot="myst", srcdir="myst-pin")
@pytest.mark.parametrize(("package", "other"), [("sphinx", "9.3.0"), ("myst-parser", "5.3.0")])
def test_another_release_warns_with_one_sentence_and_keeps_the_fix(
    app_params, make_app, monkeypatch, package, other
):
    other_release(monkeypatch, package, other)
    args, kwargs = app_params
    app = make_app(*args, **kwargs)
    assert app.warning.getvalue().count("WARNING: ") == 1
    assert (
        "WARNING: jaxbook.sphinxext.myst_i18n was written for sphinx 9.1.1 or 9.2.0 and "
        f"myst-parser 5.2.0, but {package} {other} is installed: run "
        "tests/sphinxext/test_myst_i18n.py to check that translated MyST code blocks still "
        "work, then update WRITTEN_FOR [jaxbook.myst_i18n]"
    ) in app.warning.getvalue()
    # The build goes on, with the fix in place.
    assert app.registry.source_parsers["markdown"] is myst_i18n.TranslatableMystParser


@pytest.mark.sphinx(
    "dummy",
    testroot="myst",
    srcdir="myst-pin-suppressed",
    confoverrides={"suppress_warnings": ["jaxbook.myst_i18n"]},
)
def test_suppress_warnings_silences_the_release_warning(app_params, make_app, monkeypatch):
    other_release(monkeypatch, "sphinx", "9.3.0")
    args, kwargs = app_params
    app = make_app(*args, **kwargs)
    assert "myst_i18n" not in app.warning.getvalue()
    assert app.registry.source_parsers["markdown"] is myst_i18n.TranslatableMystParser


@pytest.mark.sphinx("dummy", testroot="myst", srcdir="myst-pin-locked")
def test_the_locked_releases_build_without_a_warning(app):
    assert not myst_i18n.other_versions()
    assert app.warning.getvalue() == ""
    assert app.registry.source_parsers["markdown"] is myst_i18n.TranslatableMystParser


def test_the_releases_written_for_are_the_versions_in_uv_lock():
    packages = tomllib.loads((PROJECT / "uv.lock").read_text(encoding="utf-8"))["package"]
    locked = {
        name: {package["version"] for package in packages if package["name"] == name}
        for name in myst_i18n.WRITTEN_FOR
    }
    assert locked == myst_i18n.WRITTEN_FOR


@pytest.fixture
def upstream_patch(app, tmp_path):
    """The released MystParser with myst_i18n.patch applied, as the root's parser."""
    copy = tmp_path / "myst_parser" / "parsers" / "sphinx_.py"
    copy.parent.mkdir(parents=True)
    shutil.copy(released_parser.__file__, copy)
    result = subprocess.run(
        ["patch", "-p1", "--forward", "--input", str(PATCH)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    spec = importlib.util.spec_from_file_location("patched_myst_parser_sphinx_", copy)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    app.add_source_parser(module.MystParser, override=True)


@pytest.mark.sphinx(
    "doctest",
    testroot="myst",
    srcdir="myst-upstream-patch",
    confoverrides=WITHOUT_FIX,
)
def test_the_patch_for_myst_parser_is_the_same_fix(upstream_patch, built):
    assert built.doctest_counts() == (TESTS, 0)
    assert "::" not in literal_texts(built.app, "index")


def test_the_catalogs_pass_the_books_translation_checks():
    terms = load_glossary(ROOT / "glossary.csv", "en")
    for catalog in sorted(CATALOGS.glob("*.po")):
        assert check_catalog(catalog, "en", terms) == [], catalog
    # check-po reads a doctest block as text; its code lines keep their tokens too.
    for entry in polib.pofile(str(CATALOGS / "index.po")):
        if entry.msgid.startswith(">>> "):
            source, translation = (
                "\n".join(re.findall(r"^>>> (.*)$", text, re.MULTILINE))
                for text in (entry.msgid, entry.msgstr)
            )
            assert check_code(source, translation) is None, entry.msgid
