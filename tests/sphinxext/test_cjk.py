"""A line break inside Chinese prose leaves no space, on reST and MyST pages alike."""

from __future__ import annotations

import re

import pytest


@pytest.mark.sphinx("html", testroot="cjk")
@pytest.mark.parametrize("page", ["index", "page"])
def test_a_line_break_between_chinese_characters_is_dropped(built, page):
    paragraph = re.search(r"<p>(.*?)</p>", built.page(page), re.DOTALL)[1]
    assert paragraph == "它的长处是<strong>加速器</strong>这类硬件，上手\nJAX 很快。"
