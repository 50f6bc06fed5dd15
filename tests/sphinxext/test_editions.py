"""The PDF's LaTeX and the EPUB's package: what xeCJK and Sphinx's defaults would set apart
from the web edition."""

from __future__ import annotations

import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest

ROOT = Path(__file__).parent.parent / "roots" / "test-editions"


def latex(make_app, tmp_path: Path, language: str) -> str:
    srcdir = shutil.copytree(ROOT, tmp_path / language)
    app = make_app("latex", srcdir=srcdir, confoverrides={"language": language})
    app.build()
    return (app.outdir / f"jaxbook-{language}.tex").read_text(encoding="utf-8")


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_a_badge_is_boxed_apart_from_the_sentence_it_opens(make_app, tmp_path, language):
    tex = latex(make_app, tmp_path, language)
    assert r"\jbbadge{选读} 适合" in tex  # sphinx-design writes "选读 适合": one run of text
    assert r"\xeCJKsetup{CJKspace=true}" in tex  # the space between two Chinese words stays


def test_an_english_edition_sets_the_middle_dot_in_its_latin_font(make_app, tmp_path):
    assert '"2018 -> "201D, "00B7}' in latex(make_app, tmp_path, "en")


def test_a_chinese_edition_marks_a_continued_code_block_in_full_width_parentheses(
    make_app, tmp_path
):
    assert r"\renewcommand*\sphinxstylecodecontinued[1]{{\footnotesize（#1）}}" in latex(
        make_app, tmp_path, "zh_CN"
    )


def test_on_paper_a_quizs_answers_follow_the_quiz(make_app, tmp_path):
    """Under its question, an answer is read before the reader has answered."""
    tex = latex(make_app, tmp_path, "zh_CN")
    order = [tex.index(text) for text in ("哪一项对？", "这一题之后才是答案。", "测验答案与解析")]
    assert order == sorted(order)
    assert "第 1 题：答案与解析" in tex
    assert tex.index("第一项。") > tex.index("测验答案与解析")


@pytest.mark.parametrize(("language", "index"), [("zh_CN", "索引"), ("en", "Index")])
def test_an_epub_lists_its_index_and_opens_its_contents(make_app, tmp_path, language, index):
    srcdir = shutil.copytree(ROOT, tmp_path / language)
    app = make_app("epub", srcdir=srcdir, confoverrides={"language": language})
    app.build()
    xhtml, ncx, opf = (
        "{http://www.w3.org/1999/xhtml}",
        "{http://www.daisy.org/z3986/2005/ncx/}",
        "{http://www.idpf.org/2007/opf}",
    )
    nav = ElementTree.parse(app.outdir / "nav.xhtml").getroot()
    last = nav.findall(f".//{xhtml}nav/{xhtml}ol/{xhtml}li")[-1].find(f"{xhtml}a")
    assert (last.get("href"), last.text) == ("genindex.xhtml", index)
    toc = ElementTree.parse(app.outdir / "toc.ncx").getroot()
    points = toc.findall(f"{ncx}navMap/{ncx}navPoint")
    assert points[-1].find(f"{ncx}content").get("src") == "genindex.xhtml"
    orders = [p.get("playOrder") for p in toc.iter(f"{ncx}navPoint")]
    assert len(set(orders)) == len(orders)
    package = ElementTree.parse(app.outdir / "content.opf").getroot()
    [guide] = [r for r in package.iter(f"{opf}reference") if r.get("type") == "toc"]
    assert guide.get("href") == "nav.xhtml"
    rights = package.find(".//{http://purl.org/dc/elements/1.1/}rights").text
    assert "CC BY 4.0" in rights
