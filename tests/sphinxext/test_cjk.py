"""A line break inside Chinese prose leaves no space, on reST and MyST pages alike."""

from __future__ import annotations

import re

import pytest

from jaxbook.sphinxext.cjk import join_cjk_lines


@pytest.mark.sphinx("html", testroot="cjk")
@pytest.mark.parametrize("page", ["index", "page"])
def test_a_line_break_between_chinese_characters_is_dropped(built, page):
    paragraph = re.search(r"<p>(.*?)</p>", built.page(page), re.DOTALL)[1]
    assert paragraph == "它的长处是<strong>加速器</strong>这类硬件，上手\nJAX 很快。"


@pytest.mark.sphinx("html", testroot="cjk")
def test_a_line_break_beside_a_full_width_mark_is_dropped(built):
    paragraphs = re.findall(r"<p>(.*?)</p>", built.page(), re.DOTALL)
    text = re.sub(r"<[^>]+>", "", paragraphs[1])
    assert text == "jit、grad、vmap 都是变换。它会抛 OverflowError。JAX 不会（见下文）。"


@pytest.mark.sphinx("html", testroot="cjk")
def test_a_link_whose_title_has_latin_at_an_edge_is_spaced_from_the_chinese(built):
    text = re.sub(r"<[^>]+>", "", re.findall(r"<p>(.*?)</p>", built.page(), re.DOTALL)[2])
    # The title begins with a digit and ends with Latin; the other link ends with Chinese.
    assert text == "详见 1.6 设备：CPU、GPU 里的说明，以 JAX 文档为准。"


@pytest.mark.sphinx("html", testroot="cjk")
def test_a_line_break_before_a_chinese_link_or_an_escaped_space_leaves_no_space(built):
    text = re.sub(r"<[^>]+>", "", re.findall(r"<p>(.*?)</p>", built.page(), re.DOTALL)[3])
    assert text == "先自己写，再看中文标题。和练习页上同一个自检。"


@pytest.mark.sphinx("latex", testroot="cjk")
def test_in_latex_the_space_beside_a_link_is_a_skip_of_its_own(built):
    """xeCJK drops a space after a Chinese character, and a link's macro keeps it from
    seeing the Chinese and the digit touch: the PDF would print 详见1.6 设备."""
    [tex] = built.app.outdir.glob("*.tex")
    source = " ".join(tex.read_text(encoding="utf-8").split())
    assert re.search(r"详见\\hspace\{0\.25em\}\{\\hyperref", source), source


@pytest.mark.sphinx("html", testroot="cjk")
def test_each_line_break_beside_code_keeps_its_space(built):
    """MyST makes each line break a Text node of its own, all equal ("\\n"), and docutils
    finds a Text node by equality: a later break's run was joined in place of the first."""
    paragraph = re.findall(r"<p>(.*?)</p>", built.page("page"), re.DOTALL)[1]
    assert re.sub(r"<[^>]+>", "", paragraph) == "轴是\nAuto\n类型，又是\nExplicit\n类型。"


@pytest.mark.parametrize(
    ("text", "joined"),
    [
        ("中\n文", "中文"),  # unified ideographs
        # Extension A and a compatibility ideograph: Han to jaxbook.chinese too.
        ("\u3400\n\uf900", "\u3400\uf900"),
        ("“对\n”", "“对”"),  # curly quotes beside Chinese
        ("好……\n——对", "好……——对"),  # the ellipsis and the dash beside Chinese
        ("good …\nok", "good … ok"),  # the same marks beside Latin: the break is a space
    ],
)
def test_a_break_joins_what_jaxbook_chinese_calls_chinese(text, joined):
    assert join_cjk_lines(text).replace("\n", " ") == joined
