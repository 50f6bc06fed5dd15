from __future__ import annotations

import re
import zlib
from html.parser import HTMLParser

import pytest
from bs4 import BeautifulSoup, Tag


class Pairs(HTMLParser):
    """Each inserted element (class ``jb-parallel``): its tag, attributes and text."""

    def __init__(self) -> None:
        super().__init__()
        self.inserted: list[dict] = []
        self.open: list[tuple[str, dict | None]] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = attributes.get("class", "").split()
        record = None
        if "jb-parallel" in classes:
            record = {"tag": tag, "attrs": attributes, "text": ""}
            self.inserted.append(record)
        self.open.append((tag, record))

    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data):
        for _tag, record in self.open:
            if record is not None:
                record["text"] += data

    def texts(self) -> dict[str, str]:
        return {r["text"]: r["attrs"].get("lang") for r in self.inserted}


def both_languages(builder: str):
    """The test once for the Chinese build and once for the English one."""
    return pytest.mark.parametrize(
        "language",
        [
            pytest.param(
                language,
                marks=pytest.mark.sphinx(
                    builder,
                    testroot="parallel-text",
                    freshenv=True,
                    confoverrides={"language": language, "epub_copyright": "x", "version": "1"},
                ),
            )
            for language in ["zh_CN", "en"]
        ],
    )


def inserted(html: str, lang: str) -> list[Tag]:
    """The inserted elements in ``lang``: each passage's text in the other language."""
    return BeautifulSoup(html, "html.parser").select(f'.jb-parallel[lang="{lang}"]')


def marked(html: str, ending: str) -> list[tuple[str | None, str]]:
    """For each span whose markup ends with ``ending`` (a passage shown in its source
    language), the span right after it: its language and its text."""
    found = []
    for span in BeautifulSoup(html, "html.parser").find_all("span"):
        if span.decode_contents().endswith(ending):
            after = span.find_next_sibling()
            if after is not None and after.name == "span":
                found.append((after.get("lang"), after.get_text()))
    return found


def heading_and_its_translation(html: str) -> tuple[str, Tag]:
    """The page's heading's own text (its permalink's left out), and the element after it."""
    heading = BeautifulSoup(html, "html.parser").h1
    assert heading is not None
    assert heading.find(lang=True) is None, "a translation inside the heading"
    text = "".join(str(s) for s in heading.find_all(string=True, recursive=False))
    following = heading.find_next_sibling()
    assert following is not None
    return text, following


def pairs(html: str) -> Pairs:
    parser = Pairs()
    parser.feed(html)
    return parser


@pytest.mark.sphinx("html", testroot="parallel-text", freshenv=True)
def test_a_chinese_page_holds_the_english_text_of_each_passage(built):
    html = built.page()
    found = pairs(html).texts()
    for english in [
        "1. Arrays",
        "Section",
        "First item: accelerators",
        "Second item",
        "A paragraph in a note.",
        "Header",
        "Cell",
    ]:
        assert found.get(english) == "en", english
    english = inserted(html, "en")
    # Inline markup kept; roles as their text, links not repeated.
    start = "JAX arrays are <em>immutable</em>, made with <code"
    assert any(e.decode_contents().startswith(start) for e in english), english
    assert not any(e.find("a") for e in english)
    # A :ref: without a title of its own shows its target's English title, not its label.
    assert any(e.get_text().endswith("; see 1. Arrays and the other page.") for e in english)
    assert any(str(e.find("strong")) == "<strong>accelerators</strong>" for e in english)
    # A heading's translation follows the heading, never inside it.
    heading, translation = heading_and_its_translation(html)
    assert heading == "1. 数组"
    assert (translation.name, translation["lang"], translation.get_text()) == (
        "p",
        "en",
        "1. Arrays",
    )
    title = BeautifulSoup(html, "html.parser").title
    assert title is not None
    assert title.get_text().startswith("1. 数组")
    assert built.warnings == ""


@pytest.mark.sphinx(
    "html", testroot="parallel-text", freshenv=True, confoverrides={"language": "en"}
)
def test_an_english_page_holds_the_chinese_source_of_each_passage(built):
    html = built.page()
    found = pairs(html).texts()
    for chinese in [
        "1. 数组",
        "小节",
        "第一项：加速器",
        "第二项",
        "注释里的一段。",
        "表头",
        "单元格",
    ]:
        assert found.get(chinese) == "zh-CN", chinese
    chinese = inserted(html, "zh-CN")
    start = "JAX 的数组是 <em>不可变</em> 的，用 <code"
    assert any(e.decode_contents().startswith(start) for e in chinese), chinese
    texts = [e.get_text() for e in chinese]
    assert any(text.endswith("见 1. 数组 与 另一页。") for text in texts), texts
    # A link that hugs the Chinese keeps the space a link's title in Latin gets there.
    assert any(text.endswith("紧贴中文的链接：详见 1. 数组。") for text in texts), texts
    heading, translation = heading_and_its_translation(html)
    assert heading == "1. Arrays"
    assert (translation.name, translation["lang"], translation.get_text()) == (
        "p",
        "zh-CN",
        "1. 数组",
    )
    # A link title that ends in a full-width mark at a line end: its message joins the
    # lines with no space, and the link still reads as its title, not as reST.
    assert any(text.endswith("见《标准》。") for text in texts), texts
    # A formula is a formula in the other language too, as the page's math renderer sets it.
    [mse] = [e for e in chinese if e.get_text().startswith("均方误差是")]
    math = mse.find("span", class_="math")
    assert math is not None
    assert math.get_text() == r"\(\frac{1}{N}\sum_i e_i^2\)"
    assert mse.get_text() == f"均方误差是 {math.get_text()}。"
    assert built.warnings == ""


@both_languages("html")
def test_every_inserted_element_is_marked_hidden_and_left_out_of_search(built, language):
    html = built.page()
    inserted = pairs(html).inserted
    assert len(inserted) == 14
    for element in inserted:
        assert element["attrs"]["lang"] in {"zh-CN", "en"}
        assert "hidden" in element["attrs"]
    assert html.count('<button type="button" class="jb-parallel-toggle"') == 1
    # The stylesheet is in the output before the page is written: its link carries the
    # checksum of the file served (Sphinx's ?v=), which a browser's cache is keyed by.
    served = (built.app.outdir / "_static" / "jaxbook-parallel.css").read_bytes()
    assert f'href="_static/jaxbook-parallel.css?v={zlib.crc32(served):08x}"' in html
    index = (built.app.outdir / "searchindex.js").read_text(encoding="utf-8")
    other = {"zh_CN": ["immutable", "accelerators"], "en": ["不可变", "加速器"]}[language]
    assert not [word for word in other if word in index]


@both_languages("html")
def test_code_appears_once(built, language):
    html = built.page()
    assert html.count("代码只出现一次") == 1
    assert html.count("<pre>") == 1


MARKERS = {
    "zh_CN": ("zh-CN", "尚未翻译", "译文待校对（fuzzy）"),
    "en": ("en", "not yet translated", "translation awaiting review (fuzzy)"),
}


@both_languages("html")
def test_untranslated_and_fuzzy_passages_say_so(built, language):
    html = built.page()
    lang, untranslated, fuzzy = MARKERS[language]
    for source, marker in [("还没有译文的一段。", untranslated), ("译文待校对的一段。", fuzzy)]:
        assert (lang, marker) in marked(html, source), source
    assert "A guessed paragraph." not in html
    # A passage whose translation is itself ("42", "JAX") shows nothing beside it.
    page = BeautifulSoup(html, "html.parser")
    assert [p for p in page.find_all("p") if p.decode_contents() == "JAX"]
    assert not [span for span in page.find_all("span") if span.get_text().endswith("42")]


@both_languages("epub")
def test_the_epub_has_no_parallel_text(built, language):
    written = [p for p in built.app.outdir.rglob("*") if p.is_file() and p.suffix != ".epub"]
    assert any(p.name == "index.xhtml" for p in written)
    assert not [p.name for p in written if "parallel" in p.name]
    offenders = [
        p.name
        for p in written
        if p.suffix in {".xhtml", ".css", ".html", ".opf"}
        and re.search("jb-parallel|jaxbook-parallel", p.read_text(encoding="utf-8"))
    ]
    assert offenders == []


@pytest.mark.sphinx("latex", testroot="parallel-text", freshenv=True)
def test_the_pdf_source_has_no_parallel_text(built):
    tex = next(built.app.outdir.glob("*.tex")).read_text(encoding="utf-8")
    assert "第一项" in tex
    assert "First item" not in tex


def test_a_changed_catalog_is_shown_on_the_next_build_of_the_source(make_app, rootdir, tmp_path):
    import shutil

    srcdir = tmp_path / "parallel"
    shutil.copytree(rootdir / "test-parallel-text", srcdir)
    make_app("html", srcdir=srcdir).build()
    catalog = srcdir / "locale/en/LC_MESSAGES/other.po"
    text = catalog.read_text(encoding="utf-8")
    catalog.write_text(text.replace("A paragraph of", "One paragraph of"), encoding="utf-8")
    app = make_app("html", srcdir=srcdir)
    app.build()
    html = (app.outdir / "other.html").read_text(encoding="utf-8")
    assert "One paragraph of the other page." in html


@pytest.mark.sphinx("html", testroot="parallel-text", freshenv=True)
def test_a_rebuild_replaces_an_older_stylesheet(app, make_app):
    """An author edits the extension's stylesheet and builds again into the same output."""
    from jaxbook.sphinxext.parallel_text import STATIC, STYLESHEET

    app.build()
    copy = app.outdir / "_static" / STYLESHEET
    copy.write_text("/* the stylesheet of an earlier build */\n", encoding="utf-8")
    again = make_app("html", srcdir=app.srcdir)
    again.build()
    assert copy.read_text(encoding="utf-8") == (STATIC / STYLESHEET).read_text(encoding="utf-8")
    # Sphinx warned "Aborted attempted copy ... (the destination path has existing data)".
    assert STYLESHEET not in again.warning.getvalue()


@pytest.mark.sphinx(
    "html", testroot="parallel-text", freshenv=True, confoverrides={"language": "ja"}
)
def test_a_page_in_a_third_language_pairs_with_the_source_not_the_first_translation(built):
    """A Japanese page holds the Chinese it was translated from, never the English."""
    html = built.page()
    found = pairs(html).texts()
    assert found.get("1. 数组") == "zh-CN"
    assert found.get("第二项") == "zh-CN"
    # The untranslated passages show the source on the page and say so beside it.
    assert found.get("not yet translated") == "ja"
    assert [lang for lang, _ in marked(html, "第一项：<strong>加速器</strong>")] == ["ja"]
    assert not [text for text in found if re.search("Arrays|Second item|accelerators", text)]
    assert "二つ目の項目" in html
    assert built.warnings == ""


def test_the_parallel_text_needs_no_order_of_the_extensions(make_app, rootdir, tmp_path):
    """parallel before cjk in conf.py: the messages it keeps are still cjk's joined lines, so
    each passage shows what it shows in the root's order (a Chinese paragraph of several
    lines its English, not "尚未翻译")."""
    import shutil

    shown = []
    for order in (1, -1):
        srcdir = shutil.copytree(rootdir / "test-parallel-text", tmp_path / f"parallel{order}")
        extensions = [
            "jaxbook.sphinxext.cjk",
            "jaxbook.sphinxext.terms",
            "jaxbook.sphinxext.parallel_text",
        ]
        app = make_app("html", srcdir=srcdir, confoverrides={"extensions": extensions[::order]})
        app.build()
        shown.append(pairs((app.outdir / "index.html").read_text(encoding="utf-8")).texts())
    assert shown[0] == shown[1]
    assert sum(lang == "en" for lang in shown[0].values()) >= 3


def test_a_changed_pair_of_languages_reads_the_pages_again(make_app, rootdir, tmp_path):
    """The pair is read as the pages are: a build that adds the other language shows it."""
    import shutil

    srcdir = shutil.copytree(rootdir / "test-parallel-text", tmp_path / "parallel")
    make_app(
        "html", srcdir=srcdir, confoverrides={"jaxbook_parallel_languages": ("zh_CN", "")}
    ).build()
    app = make_app("html", srcdir=srcdir)
    app.build()
    texts = pairs((app.outdir / "index.html").read_text(encoding="utf-8")).texts()
    assert any(lang == "en" for lang in texts.values())


def test_the_other_language_is_parsed_as_the_page_is_read_and_every_build_reuses_it(
    make_app, rootdir, tmp_path, monkeypatch
):
    """The pages' doctrees hold the other language's text: a build that writes the pages
    again, and a build of another format from the same doctrees, parse nothing."""
    import shutil

    from jaxbook.sphinxext import parallel_text

    srcdir = shutil.copytree(rootdir / "test-parallel-text", tmp_path / "parallel")
    built = tmp_path / "built"  # the doctrees, and each format's output
    make_app("html", srcdir=srcdir, builddir=built).build()

    def parse(*args, **kwargs):
        raise AssertionError("parsed again while the pages were written")

    monkeypatch.setattr(parallel_text, "parse", parse)
    again = make_app("html", srcdir=srcdir, builddir=built)
    again.build(force_all=True)
    assert pairs((again.outdir / "index.html").read_text("utf-8")).texts().get("1. Arrays")
    latex = make_app("latex", srcdir=srcdir, builddir=built)
    latex.build(force_all=True)
    assert "First item" not in next(latex.outdir.glob("*.tex")).read_text("utf-8")
    assert "parsed again" not in again.warning.getvalue() + latex.warning.getvalue()
