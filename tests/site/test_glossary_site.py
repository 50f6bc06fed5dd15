"""The readers' glossary: every CSV term in both languages, linked from the chapter."""

from __future__ import annotations

import csv
import html as html_lib
import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from jaxbook.chinese import HAN
from jaxbook.project import find_root
from jaxbook.sphinxext.pinyin_index import sort_key

ROOT = find_root(Path(__file__).parent)
TERM = re.compile(r'<dt id="term-[^"]+">(.*?)<a class="headerlink"', re.DOTALL)
LINK = re.compile(
    r'<a class="jb-term-link reference internal" href="([^"]+)">'
    r'<span class="jb-term">([^<]+)</span></a>'
)


def rows() -> list[dict[str, str]]:
    with (ROOT / "locale" / "glossary.csv").open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


# The glossary's order in each language: pinyin in Chinese, the alphabet in English.
ORDER = {"zh_CN": sort_key, "en": str.casefold}


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_glossary_has_every_term_in_the_pages_language(built_site, language):
    html = (built_site / language / "glossary.html").read_text(encoding="utf-8")
    terms = [html_lib.unescape(term) for term in TERM.findall(html)]
    assert terms == sorted((row[language] for row in rows()), key=ORDER[language])
    index = (built_site / language / "genindex.html").read_text(encoding="utf-8")
    assert 'href="glossary.html#term-vectorization"' in index


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_chapter_pages_link_first_uses_to_the_glossary(built_site, language):
    chapter = built_site / language / "ch01"
    pages = ["what-is-jax", "jax-vs-numpy", "transformations", "arrays", "devices", "summary"]
    for name in pages:
        links = LINK.findall((chapter / f"{name}.html").read_text(encoding="utf-8"))
        assert len(links) >= 2, name
        targets = [href for href, _text in links]
        assert all(href.startswith("../glossary.html#term-") for href in targets), name
        assert len(targets) == len(set(targets)), f"{name}: a term linked twice"


def test_a_typed_key_is_never_linked_as_a_key(built_site):
    """The longer term wins: 类型化密钥 holds 密钥, and is never linked as it."""
    linked = 0
    for page in (built_site / "zh_CN").glob("ch*/*.html"):
        html = page.read_text(encoding="utf-8")
        before = re.findall(
            r'(..)<a class="jb-term-link reference internal" href="[^"]+">'
            r'<span class="jb-term">密钥</span>',
            html,
        )
        assert "型化" not in before, page.name  # 类型化 right before a linked 密钥
        linked += len(before)
    assert linked >= 1  # 密钥 itself is linked where a page says it


def test_chinese_search_index_files_the_term_under_the_glossary(built_site):
    script = (built_site / "zh_CN" / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(script[script.index("(") + 1 : script.rindex(")")])
    glossary = index["docnames"].index("glossary")
    assert glossary in index["terms"]["向量化"]
    assert [glossary, "term-vectorization", True] in index["indexentries"]["向量化"]


@pytest.mark.parametrize("page", ["ch01/index", "ch01/jax-vs-numpy"])
def test_key_as_an_adjective_is_not_linked_as_the_prng_key(built_site, page):
    html = (built_site / "en" / f"{page}.html").read_text(encoding="utf-8")
    assert re.search(r"\bkey (points|places)\b", html), page  # the page still says it
    linked = re.findall(r'href="[^"]*#term-key"><span class="jb-term">keys?</span></a> (\w+)', html)
    assert not {"points", "places"} & set(linked), (page, linked)


@pytest.mark.parametrize(
    ("page", "said"),
    [("ch01/summary", "lower by default"), ("ch01/transformations", "cannot lower it further")],
)
def test_lower_as_in_less_is_not_linked_as_lowering(built_site, page, said):
    """ "Lower" as "less" (a precision, a loss) is not the compiler's lowering; "lowers",
    "lowered" and "lowering" are."""
    soup = BeautifulSoup((built_site / "en" / f"{page}.html").read_text("utf-8"), "html.parser")
    assert said in " ".join(soup.get_text().split()), page  # the page still says it
    linked = [a.get_text() for a in soup.select('a[href$="#term-lowering"]')]
    assert "lower" not in linked, (page, linked)


@pytest.mark.parametrize(("language", "label"), [("zh_CN", "索引"), ("en", "Index")])
def test_every_page_links_the_index_from_its_sidebar(built_site, language, label):
    pages = [p for p in (built_site / language).rglob("*.html") if "_static" not in p.parts]
    for page in pages:
        sidebar = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").select_one(
            ".sidebar-drawer .jb-index-link a"
        )
        assert sidebar is not None, page
        assert sidebar.get_text() == label, page
        if page.name == "404.html":  # served at any path: its links are from the site's root
            assert sidebar["href"].endswith(f"/{language}/genindex.html"), page
            continue
        if page == built_site / language / "genindex.html":
            assert sidebar["href"] == "#"  # the index itself
            continue
        target = (page.parent / sidebar["href"]).resolve()
        assert target == (built_site / language / "genindex.html").resolve(), page


# A concept's subentries, a "see" and a "see also" entry, as the chapter's index directives
# give them (the first-mention pages of a term come before its subentries).
CONCEPTS = {
    "zh_CN": {
        "纯函数": ["与副作用", "与 jit 的追踪"],
        "设备": ["放置", "提交"],
        "精度": ["矩阵乘法的默认精度"],
        "JIT": ["见 即时编译"],
        "惰性求值": ["另请参见 异步派发"],
    },
    "en": {
        "pure function": ["and side effects", "and tracing under jit"],
        "device": ["committing", "placement"],
        "precision": ["default for matrix multiplication"],
        "JIT": ["see just-in-time compilation"],
        "lazy evaluation": ["see also asynchronous dispatch"],
    },
}


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_index_has_the_chapters_concepts_in_the_pages_language(
    built_site, index_entries, language
):
    index = index_entries((built_site / language / "genindex.html").read_text(encoding="utf-8"))
    for headword, subentries in CONCEPTS[language].items():
        found = index[headword]
        assert [name for name in found if name in subentries] == subentries, headword
    # A term's pages first, then its subentries: 纯函数's main discussion (1.3) and the
    # glossary's definition; its other places are subentries that say what they say.
    first, second, *_subentries = index[next(iter(CONCEPTS[language]))]
    assert first in ("核心设计理念：函数变换", "Core design idea: Function transformations")
    assert second in ("术语表", "Glossary")
    assert len(index) > 150
    if language == "en":
        chinese = [name for k, v in index.items() for name in [k, *v] if HAN.search(name)]
        assert chinese == []


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_every_glossary_term_is_linked_from_the_text(built_site, language):
    """A term earns its place: some page of the text links its entry (主机, "host", too)."""
    glossary = BeautifulSoup(
        (built_site / language / "glossary.html").read_text(encoding="utf-8"), "html.parser"
    )
    terms = {dt["id"] for dt in glossary.select("dl.glossary > dt[id]")}
    linked = {
        href.partition("#")[2]
        for path in (built_site / language / "ch01").glob("*.html")
        for href, _text in LINK.findall(path.read_text(encoding="utf-8"))
    }
    assert "term-host" in terms
    assert terms - linked == set()


def bold_selectors(css: str) -> list[str]:
    """The selectors of a style sheet's rules that set their text bold."""
    return [
        selector.strip()
        for selectors, body in re.findall(
            r"([^{}]+)\{([^{}]*)\}", re.sub(r"/\*.*?\*/", "", css, flags=re.S)
        )
        if re.search(r"font-weight:\s*(bold|[7-9]00)\b", body)
        for selector in selectors.split(",")
    ]


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_glossarys_headwords_are_bold_on_the_web_and_in_the_epub(
    built_site, built_editions, language, tmp_path
):
    """Each glossary entry's headword is set bold by a style sheet the glossary page loads:
    the website's page and the EPUB's, which carries the same style sheet."""
    import zipfile

    [epub] = (built_editions / "epub").glob(f"*-{language}.epub")
    with zipfile.ZipFile(epub) as book:
        book.extractall(tmp_path)
    for page in (built_site / language / "glossary.html", tmp_path / "glossary.xhtml"):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        headwords = soup.select("dl.glossary > dt")
        assert len(headwords) == len(rows()), page
        # The book's own style sheets ("_static/jaxbook.css?v=…" on the web).
        sheets = [
            (page.parent / href).read_text(encoding="utf-8")
            for link in soup.select('link[rel~="stylesheet"]')
            if "jaxbook" in (href := link["href"].partition("?")[0])
        ]
        selectors = [s for css in sheets for s in bold_selectors(css)]
        bold = {id(dt) for selector in selectors for dt in soup.select(selector)}
        assert all(id(dt) in bold for dt in headwords), (page, selectors)
