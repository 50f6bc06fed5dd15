"""The ``course`` role (``jaxbook.sphinxext.facts``): a link to the course in the page's
language, its title in italics where the text is not Chinese, which sets no text in italics."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup


@pytest.mark.sphinx("html", testroot="course-role")
def test_a_chinese_title_or_part_is_upright_and_a_latin_title_italic(built):
    assert not built.warnings
    links = {
        link.get_text(): (link["href"], link.find("em") is not None)
        for link in BeautifulSoup(built.page(), "html.parser").select("a.reference.external")
    }
    assert links == {
        "《课程》": ("https://example.org/zh/course", False),
        "第 1 章": ("https://example.org/zh/course/chapter-1", False),
        "The Course": ("https://example.org/zh/course/chapter-1", True),
    }
