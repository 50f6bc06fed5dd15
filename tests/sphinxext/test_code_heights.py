"""Each highlighted block carries its number of lines, for the placeholder's height."""

from __future__ import annotations

from jaxbook.sphinxext.code_heights import mark_lines


def test_a_block_carries_its_number_of_lines():
    html = (
        '<div class="highlight"><pre><span></span>x = 1\n</pre></div>\n'
        '<div class="highlight"><pre><span></span>a\nb\n\nc\n</pre></div>'
    )
    assert mark_lines(html) == (
        '<div class="highlight"><pre style="--jb-lines: 1"><span></span>x = 1\n</pre></div>\n'
        '<div class="highlight"><pre style="--jb-lines: 4"><span></span>a\nb\n\nc\n</pre></div>'
    )


def test_a_pre_outside_a_highlighted_block_is_left_alone():
    html = '<pre class="literal-block">a\nb\n</pre>'
    assert mark_lines(html) == html
