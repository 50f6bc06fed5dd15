"""The accessibility repairs: every region that can scroll sideways takes the keyboard's focus."""

from __future__ import annotations

import pytest

from jaxbook.sphinxext.a11y import repair


@pytest.mark.parametrize(
    ("html", "repaired"),
    [
        ("<pre>x = 1</pre>", '<pre tabindex="0">x = 1</pre>'),
        (
            '<div class="table-wrapper colwidths-given docutils container">',
            '<div class="table-wrapper colwidths-given docutils container" tabindex="0">',
        ),
        (
            '<div class="math-wrapper docutils container">',
            '<div class="math-wrapper docutils container" tabindex="0">',
        ),
        ('<p class="caption" role="heading">', '<p class="caption" role="heading" aria-level="2">'),
    ],
)
def test_each_repair(html, repaired):
    assert repair(html) == repaired
    assert repair(repaired) == repaired  # a second pass adds nothing


def test_other_elements_are_left_alone():
    html = '<div class="table-wrapperish"><div class="highlight"><p>text</p></div></div>'
    assert repair(html) == html
