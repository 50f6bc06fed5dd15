"""First uses of glossary terms: a longer term that contains a shorter one wins."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from jaxbook.project import Term
from jaxbook.sphinxext.glossary import rules_for, rules_for_chinese, uses


def term(zh: str, en: str) -> Term:
    return Term({"zh_CN": zh, "en": en}, {"en": en}, {"zh_CN": ""}, exclusive=False, note="")


def test_vectorization_is_not_a_use_of_quantization():
    rules = rules_for_chinese([term("量化", "quantization"), term("向量化", "vectorization")])
    text = "向量化不是量化，向量化用 vmap"
    assert uses(text, rules) == [
        (0, 3, "vectorization"),
        (5, 7, "quantization"),
        (8, 11, "vectorization"),
    ]


def test_a_term_in_latin_letters_is_a_whole_word_in_chinese_text():
    rules = rules_for_chinese([term("XLA", "XLA"), term("jaxpr", "jaxpr")])
    text = "由 XLA 编译，设 XLA_FLAGS；jax.make_jaxpr 显示 jaxpr。"
    assert [text[start:end] for start, end, _key in uses(text, rules)] == ["XLA", "jaxpr"]


def test_a_longer_english_term_wins_over_a_shorter_one_inside_it():
    terms = [term("密钥", "key"), term("分片", "sharding"), term("类型化密钥", "typed key"),
             term("显式分片", "explicit sharding")]  # fmt: skip
    text = "Typed keys, explicit sharding, a key and its sharding"
    found = [(text[start:end], key) for start, end, key in uses(text, rules_for(terms, "en"))]
    assert found == [
        ("Typed keys", "typed key"),
        ("explicit sharding", "explicit sharding"),
        ("key", "key"),
        ("sharding", "sharding"),
    ]


def test_english_patterns_match_at_a_word_start():
    rules = [(re.compile(r"\b(?:fus(e|es|ed|ion|ing))[\w-]*", re.IGNORECASE), "fusion")]
    assert uses("a confused reader; XLA fuses ops", rules) == [(23, 28, "fusion")]


class Glossary(HTMLParser):
    """A page's glossary entries (term, id, definition text) and its term links."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.entries: list[dict[str, str]] = []
        self.links: list[tuple[str, str]] = []  # (text, href)
        self._in: str | None = None
        self._href = ""
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "dt":
            self.entries.append({"term": "", "id": attributes.get("id", ""), "definition": ""})
            self._in = "term"
        elif tag == "dd" and self.entries:
            self._in = "definition"
        elif tag == "a":
            self._href = attributes.get("href", "")
        elif tag == "span" and "jb-term" in (attributes.get("class") or "").split():
            self.links.append(("", self._href))
            self._in = "link"

    def handle_endtag(self, tag):
        if tag in {"dt", "dd"} or (tag == "span" and self._in == "link"):
            self._in = None

    def handle_data(self, data):
        if self._in == "term":
            self.entries[-1]["term"] += data
        elif self._in == "definition":
            self.entries[-1]["definition"] += data
        elif self._in == "link":
            text, href = self.links[-1]
            self.links[-1] = (text + data, href)


def glossary_build(language: str):
    return pytest.mark.sphinx(
        "html",
        testroot="glossary",
        srcdir=f"glossary-{language}",
        confoverrides={"language": language},
    )


ENTRIES = {
    # The source: pinyin order (liàng, xiàng), the glossary's first translation beside.
    "zh_CN": [
        ("量化", "降低数值精度。（英文：quantization）"),
        ("向量化", "把函数变成批处理的函数。（英文：vectorization）"),
        ("XLA", "编译器。"),  # a term named alike in both: no "（英文：XLA）", no duplicate
    ],
    "en": [
        ("quantization", "Lowering numeric precision. (Chinese: 量化)"),
        ("vectorization", "Turning a function into a batched one. (Chinese: 向量化)"),
        ("XLA", "The compiler."),
    ],
    # Japanese: its own column, the source beside it, named as CLDR names Chinese in Japanese.
    "ja": [
        ("XLA", "コンパイラ。"),
        ("ベクトル化", "関数をバッチ処理の関数にすること。 (中国語: 向量化)"),
        ("量子化", "数値の精度を下げること。 (中国語: 量化)"),
    ],
    # Spanish, a draft, has translated one term: the others are the source's, as untranslated
    # text is, and nothing stands beside them (the source's own term would). Its terms are
    # in its own glossary (es/glossary.csv), merged in by the Chinese term.
    "es": [
        ("vectorización", "Convertir una función en una que procesa lotes. (chino: 向量化)"),
        ("XLA", "编译器。"),
        ("量化", "降低数值精度。"),
    ],
    # Korean has no columns yet: the source's entries, as an untranslated page shows its source.
    "ko": [
        ("量化", "降低数值精度。 (영어: quantization)"),
        ("向量化", "把函数变成批处理的函数。 (영어: vectorization)"),
        ("XLA", "编译器。"),
    ],
}


@pytest.mark.parametrize(
    "language",
    [pytest.param(language, marks=glossary_build(language)) for language in ENTRIES],
)
def test_each_language_shows_its_own_terms(built, language):
    entries = Glossary(built.page("glossary")).entries
    shown = [(e["term"].rstrip("¶"), e["definition"].strip()) for e in entries]
    assert shown == ENTRIES[language]
    # An entry's anchor is the same in every language, so the switcher keeps it.
    assert sorted(e["id"] for e in entries) == [
        "term-XLA",
        "term-quantization",
        "term-vectorization",
    ]
    assert built.warnings == ""
    # The page is read again when the shared glossary or a language's own one changes.
    srcdir = Path(built.app.srcdir)
    assert {str(srcdir / "glossary.csv"), str(srcdir / "es" / "glossary.csv")} <= {
        str(path) for path in built.app.env.dependencies["glossary"]
    }


LINKS = {
    "zh_CN": ["向量化", "量化"],
    "en": ["Vectorization", "quantization"],
    "ja": ["ベクトル化", "量子化"],
}


@pytest.mark.parametrize(
    "language",
    [pytest.param(language, marks=glossary_build(language)) for language in LINKS],
)
def test_first_uses_are_linked_in_each_language(built, language):
    links = Glossary(built.page("ch1/page")).links
    assert links == [
        (LINKS[language][0], "../glossary.html#term-vectorization"),
        (LINKS[language][1], "../glossary.html#term-quantization"),
    ]


@pytest.mark.parametrize(
    ("builder", "language"), [("html", "en"), ("text", "en"), ("latex", "zh_CN")]
)
def test_a_first_use_is_a_term_reference_that_every_builder_resolves(
    make_app, rootdir, tmp_path, builder, language
):
    """The page as read holds the ``:term:`` references (not links a writer adds), and
    each builder resolves them as it resolves the role's."""
    from sphinx import addnodes

    srcdir = shutil.copytree(rootdir / "test-glossary", tmp_path / builder)
    app = make_app(builder, srcdir=srcdir, confoverrides={"language": language})
    app.build()
    assert app.warning.getvalue() == ""
    read = app.env.get_doctree("ch1/page")
    assert [
        (xref["refdomain"], xref["reftype"], xref["reftarget"], xref.astext())
        for xref in read.findall(addnodes.pending_xref)
    ] == [
        ("std", "term", "向量化", LINKS.get(language, LINKS["en"])[0]),
        ("std", "term", "量化", LINKS.get(language, LINKS["en"])[1]),
    ]
    if builder == "latex":
        tex = next(app.outdir.glob("*.tex")).read_text(encoding="utf-8")
        assert r"\hyperref[\detokenize{glossary:term-vectorization}]" in tex
        assert r"\hyperref[\detokenize{glossary:term-quantization}]" in tex
    if builder == "text":
        page = (app.outdir / "ch1" / "page.txt").read_text(encoding="utf-8")
        assert "Vectorization is not quantization." in page


WHOLE_USES = {
    # "多设备" holds 设备 as Chinese holds it, and is its use; a break inside 类型化密钥 (MyST
    # gives it a Text node of its own) leaves it one term, not 密钥 after 类型化.
    "zh_CN": {
        "ch1/rst": [("设备", "device"), ("类型化密钥", "typed-key"), ("密钥", "key")],
        "ch1/myst": [("类型化\n密钥", "typed-key"), ("密钥", "key")],
    },
    # "multi-device" is another word than "device"; "typed\nkey" is one term over a line.
    "en": {
        "ch1/rst": [("typed\nkey", "typed-key"), ("key", "key"), ("device", "device")],
        "ch1/myst": [("typed\nkey", "typed-key"), ("key", "key")],
    },
}


@pytest.mark.parametrize(
    "language",
    [
        pytest.param(
            language,
            marks=pytest.mark.sphinx(
                "html",
                testroot="glossary-words",
                srcdir=f"glossary-words-{language}",
                confoverrides={"language": language},
            ),
        )
        for language in WHOLE_USES
    ],
)
def test_only_whole_uses_of_a_term_are_linked(built, language):
    from sphinx import addnodes

    assert built.warnings == ""
    for page, expected in WHOLE_USES[language].items():
        read = built.app.env.get_doctree(page)
        found = [(xref.astext(), xref["reftarget"]) for xref in read.findall(addnodes.pending_xref)]
        keys = {"密钥": "key", "类型化密钥": "typed-key", "设备": "device"}
        assert [(text, keys[target]) for text, target in found] == expected, page
