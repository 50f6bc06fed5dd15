"""The PDF's LaTeX: what xeCJK and Sphinx's defaults would set apart from the web edition."""

from __future__ import annotations

import shutil
from pathlib import Path

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
