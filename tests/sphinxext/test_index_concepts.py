"""A page's own index entries: concepts with subentries and "see" entries, in each language.

The pages name their concepts with Sphinx's ``index`` directive (MyST's ``{index}``);
``gettext_additional_targets`` holding "index" makes each part of an entry a message, so
the English index lists the English words, merged with the entries the extensions make
(a glossary term's, an API's first mention) under one headword.
"""

from __future__ import annotations

import re
import shutil

import pytest
from bs4 import BeautifulSoup
from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.utils import new_document
from sphinx import addnodes
from sphinx.writers.latex import LaTeXWriter

from jaxbook.chinese import HAN


def headings(html: str) -> list[str]:
    return re.findall(r'<h2 id="[^"]*">([^<]+)</h2>', html)


def concepts(language: str):
    return pytest.mark.sphinx(
        "html",
        testroot="index-concepts",
        srcdir=f"index-concepts-{language}",
        confoverrides={"language": language},
    )


@concepts("zh_CN")
def test_the_chinese_index_has_the_concepts_under_their_pinyin(built, index_entries):
    html = built.page("genindex")
    index = index_entries(html)
    # The glossary term's own entries (its definition, its first mention on each page) and
    # the page's concept entries are one headword: the pages first, then the subentries
    # in pinyin order (yǔ fù… before yǔ jit…); the glossary's definition is one of the pages.
    # Notes mentions 纯函数 where it indexes it under a subentry: the subentry names the
    # place, not a bare "Notes".
    assert index["纯函数"] == ["Page", "Glossary", "与副作用", "与 jit 的追踪"]
    assert index["精度"] == ["bfloat16", "TF32"]
    [see] = index["JIT"]
    assert see == "见 即时编译"  # "see", in Sphinx's Chinese
    assert index["副作用"] == ["另请参见 纯函数"]
    # 纯 (chún) under C, 副 (fù) under F, 精 (jīng) and JIT under J, in pinyin order.
    assert headings(html) == ["C", "F", "J"]
    # An API's entry is code, a concept's is text.
    soup = BeautifulSoup(html, "html.parser")
    assert [code.get_text() for code in soup.select("table.indextable code")] == ["jax.jit"]


@concepts("en")
def test_the_english_index_has_the_concepts_in_english(built, index_entries):
    html = built.page("genindex")
    index = index_entries(html)
    assert index["pure function"] == [
        "Page",
        "Glossary",
        "and side effects",
        "and tracing under jit",
    ]
    assert index["precision"] == ["bfloat16", "TF32"]
    [see] = index["JIT"]
    assert see == "see just-in-time compilation"
    assert index["side effect"] == ["see also pure function"]
    assert not chinese_in(index)


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_each_subentry_leads_to_one_place(make_app, rootdir, tmp_path, language):
    """The root's subentries each name one place: the web's index numbers none ("[1]")."""
    srcdir = shutil.copytree(rootdir / "test-index-concepts", tmp_path / language)
    app = make_app("html", srcdir=srcdir, confoverrides={"language": language})
    app.build()
    assert "give each place a subentry of its own" not in app.warning.getvalue()
    soup = BeautifulSoup((app.outdir / "genindex.html").read_text(encoding="utf-8"), "html.parser")
    links = [a.get_text() for a in soup.select("table.indextable a")]
    assert links
    assert not [text for text in links if re.fullmatch(r"\[\d+\]", text)]


def test_a_subentry_indexed_at_a_second_place_is_a_warning(make_app, rootdir, tmp_path):
    """精度; bfloat16 written on a second page would be "bfloat16 [1]" in the web's index,
    which names no page under a subentry: the build warns at the second place."""
    srcdir = shutil.copytree(rootdir / "test-index-concepts", tmp_path / "twice")
    notes = srcdir / "ch01" / "notes.md"
    notes.write_text(
        notes.read_text(encoding="utf-8")
        + "\n```{index} single: 精度; bfloat16\n```\n\n又一段。\n",
        encoding="utf-8",
    )
    app = make_app("html", srcdir=srcdir)
    app.build()
    [warning] = [
        line for line in app.warning.getvalue().splitlines() if "subentry of its own" in line
    ]
    assert "ch01/notes" in warning
    assert "'精度; bfloat16' is also indexed on ch01/page" in warning
    soup = BeautifulSoup((app.outdir / "genindex.html").read_text(encoding="utf-8"), "html.parser")
    assert "[1]" in [a.get_text() for a in soup.select("table.indextable a")]


def chinese_in(index: dict[str, list[str]]) -> list[str]:
    return [name for entry, subs in index.items() for name in [entry, *subs] if HAN.search(name)]


def test_an_untranslated_entry_shows_in_the_english_index(
    make_app, rootdir, tmp_path, index_entries
):
    """What the English test guards: without its translation, a part stays Chinese."""
    srcdir = shutil.copytree(rootdir / "test-index-concepts", tmp_path / "untranslated")
    po = srcdir / "locale" / "en" / "LC_MESSAGES" / "ch01" / "page.po"
    po.write_text(
        po.read_text(encoding="utf-8").replace('msgstr "and side effects"', 'msgstr ""'),
        encoding="utf-8",
    )
    app = make_app("html", srcdir=srcdir, confoverrides={"language": "en"})
    app.build()
    index = index_entries((app.outdir / "genindex.html").read_text(encoding="utf-8"))
    assert chinese_in(index) == ["与副作用"]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "zh_CN",
            [
                r"\index{chun han shu@\spxentry{\textrm{纯函数}}!yu fu zuo yong@"
                r"\spxentry{\textrm{与副作用}}}",
                r"\index{JIT@\spxentry{\textrm{JIT}}|see{即时编译}}",
                r"\index{fu zuo yong@\spxentry{\textrm{副作用}}|seealso{纯函数}}",
                r"\index{jing du@\spxentry{\textrm{精度}}!bfloat16@\spxentry{\textrm{bfloat16}}}",
            ],
        ),
        (
            "en",
            [
                r"\index{pure function@\spxentry{\textrm{pure function}}!and side effects@"
                r"\spxentry{\textrm{and side effects}}}",
                r"\index{JIT@\spxentry{\textrm{JIT}}|see{just-in-time compilation}}",
                r"\index{side effect@\spxentry{\textrm{side effect}}|seealso{pure function}}",
                r"\index{precision@\spxentry{\textrm{precision}}!bfloat16@"
                r"\spxentry{\textrm{bfloat16}}}",
            ],
        ),
    ],
)
def test_the_pdf_index_has_the_concepts(make_app, rootdir, tmp_path, language, expected):
    """Each level of a Chinese entry sorts by its pinyin; an API stays in code type."""
    srcdir = shutil.copytree(rootdir / "test-index-concepts", tmp_path / language)
    app = make_app("latex", srcdir=srcdir, confoverrides={"language": language})
    app.build()
    tex = next(app.outdir.glob("*.tex")).read_text(encoding="utf-8")
    for entry in expected:
        assert entry in tex
    assert r"\index{jax.jit@\spxentry{jax.jit}" in tex


@pytest.mark.parametrize(
    ("language", "entry", "written"),
    [
        (
            "zh_CN",
            "重复下标; .at[] 的累加",
            r"\index{chong fu xia biao@\spxentry{\textrm{重复下标}}!.at{[}{]} de lei jia@"
            r"\spxentry{\textrm{\texttt{.at{[}{]}} 的累加}}}",
        ),
        (
            "en",
            "duplicate indices; accumulation with .at[]",
            r"\index{duplicate indices@\spxentry{\textrm{duplicate indices}}!accumulation with "
            r".at{[}{]}@\spxentry{\textrm{accumulation with \texttt{.at{[}{]}}}}}",
        ),
    ],
)
def test_an_entry_that_latex_escapes_with_braces_is_keyed_and_set_as_any_other(
    make_app, rootdir, tmp_path, language, entry, written
):
    """LaTeX escapes a bracket with braces ("{[}"): such an entry still sorts by its pinyin
    and is set in the text's type, its name of code (.at[]) in code type."""
    srcdir = shutil.copytree(rootdir / "test-index-concepts", tmp_path / language)
    app = make_app("latex", srcdir=srcdir, confoverrides={"language": language})
    app.builder.init_document_data()
    document = new_document("", get_default_settings(LaTeXWriter))
    document["docclass"] = "manual"
    # The translator the build registers: pinyin_index's mixin in the book's LaTeX translator.
    writer = app.builder.create_translator(document, app.builder, app.builder.themes.get("manual"))
    with pytest.raises(nodes.SkipNode):
        writer.visit_index(addnodes.index(entries=[("single", entry, "id1", "", None)]))
    assert writer.body[-1] == written


def latex_of(make_app, rootdir, tmp_path, language: str):
    srcdir = shutil.copytree(rootdir / "test-index-concepts", tmp_path / language)
    app = make_app("latex", srcdir=srcdir, confoverrides={"language": language})
    app.build()
    return app, next(app.outdir.glob("*.tex")).read_text(encoding="utf-8")


# An index command as Sphinx writes it (one level of braces inside).
INDEX = re.compile(r"\\index\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}")


@pytest.mark.parametrize(("language", "term"), [("zh_CN", "纯函数"), ("en", "pure function")])
def test_a_pages_main_entry_stands_for_its_mention(make_app, rootdir, tmp_path, language, term):
    """The page indexes 纯函数 as a main entry and mentions it: one place on the page, the
    main entry's, so that the PDF does not give its page twice ("27, **27**")."""
    app, tex = latex_of(make_app, rootdir, tmp_path, language)
    values = [
        (value, main)
        for _kind, value, _id, main, _key in app.env.domains.index_domain.entries["ch01/page"]
    ]
    assert (term, "main") in values
    assert f"{term}; Page" not in [value for value, _main in values]  # no mention of it
    assert ("jax.jit; Page", "") in values  # a mention of what the page does not index
    headwords = [
        e for e in INDEX.findall(tex) if "!" not in e and f"@\\spxentry{{\\textrm{{{term}}}}}" in e
    ]
    # The page's main entry and the glossary's definition: both main, no plain locator.
    assert len(headwords) == 2
    assert all(entry.endswith("|spxpagem") for entry in headwords)


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_in_the_pdf_see_entries_follow_every_page(make_app, rootdir, tmp_path, language):
    """makeindex lists an entry's locators by page: a "see" or "see also" entry is written
    where the index begins, past every page of the text, so that it follows the page
    numbers ("side effect, 3, see also pure function"), not precedes them."""
    _app, tex = latex_of(make_app, rootdir, tmp_path, language)
    found = [(m.start(), "|see" in m[1]) for m in INDEX.finditer(tex)]
    sees = [at for at, see in found if see]
    others = [at for at, see in found if not see]
    assert len(sees) == 2  # JIT's "see" and 副作用's "see also"
    # On a page of its own after the text, before the index opens.
    cleared = tex.rindex("\\clearpage", 0, min(sees))
    assert max(others) < cleared < min(sees)
    assert max(sees) < tex.index("\\printindex")
    assert tex[cleared : min(sees)].strip() == "\\clearpage"


def test_the_catalogs_get_the_pages_entries_not_the_extensions(make_app, rootdir, tmp_path):
    """The gettext build makes a message of each part of a page's own entry; the entries
    the extensions make (an API's first mention, under the page's title) are no messages."""
    srcdir = shutil.copytree(rootdir / "test-index-concepts", tmp_path / "gettext")
    app = make_app("gettext", srcdir=srcdir)
    app.build()
    pot = (app.outdir / "ch01" / "page.pot").read_text(encoding="utf-8")
    messages = set(re.findall(r'^msgid "(.+)"$', pot, re.MULTILINE))
    assert {"纯函数", "与副作用", "JIT", "即时编译", "精度", "bfloat16", "TF32"} <= messages
    assert "jax.jit" not in messages
    notes = (app.outdir / "ch01" / "notes.pot").read_text(encoding="utf-8")
    assert 'msgid "与 jit 的追踪"' in notes
