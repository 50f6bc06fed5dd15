"""A line break inside Chinese prose leaves no space, on reST and MyST pages alike, nor in
the message ids of their catalogs."""

from __future__ import annotations

import re

import polib
import pytest
from bs4 import BeautifulSoup

from jaxbook.sphinxext.cjk import join_cjk_lines, join_cjk_source


def paragraphs(page: str) -> list:
    """The page's paragraphs of text (those the theme adds carry a class)."""
    return [p for p in BeautifulSoup(page, "html.parser").find_all("p") if not p.attrs]


@pytest.mark.sphinx("html", testroot="cjk")
@pytest.mark.parametrize("page", ["index", "page"])
def test_a_line_break_between_chinese_characters_is_dropped(built, page):
    shown = paragraphs(built.page(page))[0].decode_contents()
    assert shown == "它的长处是<strong>加速器</strong>这类硬件，上手\nJAX 很快。"


@pytest.mark.sphinx("html", testroot="cjk")
def test_a_line_break_beside_a_full_width_mark_is_dropped(built):
    text = paragraphs(built.page())[1].get_text()
    assert text == "jit、grad、vmap 都是变换。它会抛 OverflowError。JAX 不会（见下文）。"


@pytest.mark.sphinx("html", testroot="cjk")
def test_a_link_whose_title_has_latin_at_an_edge_is_spaced_from_the_chinese(built):
    text = paragraphs(built.page())[2].get_text()
    # The title begins with a digit and ends with Latin; the other link ends with Chinese.
    assert text == "详见 1.6 设备：CPU、GPU 里的说明，以 JAX 文档为准。"


@pytest.mark.sphinx("html", testroot="cjk")
def test_a_line_break_before_a_chinese_link_or_an_escaped_space_leaves_no_space(built):
    text = paragraphs(built.page())[3].get_text()
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
    assert (
        paragraphs(built.page("page"))[1].get_text() == "轴是\nAuto\n类型，又是\nExplicit\n类型。"
    )


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


@pytest.mark.sphinx("html", testroot="cjk")
@pytest.mark.parametrize(
    ("page", "paragraph", "shown"),
    [
        ("index", 4, "用本页笔记本里的自检代码检查，结果是粗体的文字。"),
        ("page", 2, "用本页笔记本里的自检代码检查，结果是粗体的文字，见中文标题。"),
    ],
)
def test_a_line_break_beside_inline_markup_is_dropped(built, page, paragraph, shown):
    assert paragraphs(built.page(page))[paragraph].get_text() == shown


@pytest.mark.sphinx("gettext", testroot="cjk", srcdir="cjk-gettext")
def test_a_message_id_has_no_space_where_a_line_break_beside_inline_markup_was(built):
    """Sphinx makes each line break of a paragraph's source a space in its message id: the
    translator's source text, and the text the parallel view shows beside a translation."""
    ids = {
        name: {entry.msgid for entry in polib.pofile(str(built.app.outdir / f"{name}.pot"))}
        for name in ("index", "page")
    }
    assert {
        "它的长处是\\ **加速器**\\ 这类硬件，上手 JAX 很快。",
        "先自己写，再看:ref:`中文标题 <section-two>`。和练习页上\\ **同一个**\\ 自检。",
        "用本页笔记本里的**自检**\\ 代码检查，结果是\\ **粗体**的文字。",
    } <= ids["index"]
    assert {
        "它的长处是**加速器**这类硬件，上手 JAX 很快。",
        # Beside Latin, a break is the space the book writes there.
        "轴是 `Auto` 类型，又是 `Explicit` 类型。",
        "用本页笔记本里的**自检**代码检查，结果是**粗体**的文字，见{ref}`中文标题 <section-two>`。",
    } <= ids["page"]


@pytest.mark.parametrize(
    ("source", "joined"),
    [
        ("的\n**自检**代码", "的**自检**代码"),  # before strong emphasis (reST, MyST)
        ("**自检**\n代码", "**自检**代码"),  # after it
        ("的\n*强调*", "的*强调*"),
        ("上\n\\ **同一个**\\ 自检", "上\\ **同一个**\\ 自检"),  # reST's escaped space
        ("看\n:ref:`标题 <x>`", "看:ref:`标题 <x>`"),  # a role, by its title
        (":ref:`标题 <x>`\n的", ":ref:`标题 <x>`的"),
        ("见\n{doc}`答案 <answers>`", "见{doc}`答案 <answers>`"),  # a MyST role
        ("见\n[文档](https://jax.dev)", "见[文档](https://jax.dev)"),  # a MyST link
        ("[文档](https://jax.dev)\n的", "[文档](https://jax.dev)的"),
        ("`文档 <https://jax.dev>`__\n的", "`文档 <https://jax.dev>`__的"),  # a reST link
        ("函数，\n**再**用", "函数，**再**用"),  # a full-width mark
        # After a full-width mark any break goes, whatever the code after it looks like.
        ("后端：\n``:skipif: not ON_TPU``", "后端：``:skipif: not ON_TPU``"),
        # What a reader sees beside the break is Latin: it stays a space.
        ("看\n``jit``", "看\n``jit``"),
        ("``jit``\n的", "``jit``\n的"),
        ("看\n:ref:`section-one`", "看\n:ref:`section-one`"),
        ("上手\n**JAX**", "上手\n**JAX**"),
        # MyST's underscore emphasis beside a Chinese character would be no emphasis.
        ("的\n_强调_", "的\n_强调_"),
    ],
)
def test_a_break_beside_markup_joins_what_the_reader_sees_as_chinese(source, joined):
    assert join_cjk_source(source) == joined
