"""A page's math and raised or lowered text in its notebook's Markdown, as Jupyter renders it:
display math a ``$$`` block, in a quote too, and ``:sup:``/``:sub:`` as ``<sup>``/``<sub>``."""

from __future__ import annotations

from bs4 import BeautifulSoup
from docutils import nodes
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from jaxbook.sphinxext import _markdown
from jaxbook.sphinxext.notebooks import notebook_for


def rendered(markdown: str) -> BeautifulSoup:
    """Markdown as Jupyter reads it: CommonMark, with ``$`` and ``$$`` math taken out first."""
    md = MarkdownIt("commonmark").use(dollarmath_plugin)
    return BeautifulSoup(md.render(markdown), "html.parser")


def displayed(markdown: str) -> list[str]:
    return [" ".join(div.get_text().split()) for div in rendered(markdown).select("div.math")]


def test_display_math_is_one_block_of_its_latex():
    block = nodes.math_block("", "\\hat{y} = X\\,w + b,\\qquad\n  L = \\frac{1}{N}")
    markdown = _markdown.display_math(block)
    assert markdown == "$$\n\\hat{y} = X\\,w + b,\\qquad\nL = \\frac{1}{N}\n$$"
    assert displayed(markdown) == ["\\hat{y} = X\\,w + b,\\qquad L = \\frac{1}{N}"]


def test_several_equations_are_aligned_and_a_broken_one_split_as_on_the_page():
    """No blank line stays between the ``$$``: it would end the Markdown block."""
    several = _markdown.display_math(nodes.math_block("", "a = b\n\nc = d \\\\ e"))
    assert "\n\n" not in several
    assert displayed(several) == [
        "\\begin{aligned} a = b \\\\ \\begin{split}c = d \\\\ e\\end{split} \\end{aligned}"
    ]
    kept = _markdown.display_math(nodes.math_block("", "a\n\nb", nowrap=True))
    assert kept == "$$\na\nb\n$$"


def page(*body: nodes.Element) -> nodes.document:
    document = nodes.document(None, None)
    code = nodes.literal_block("", "x = 1", testnodetype="testcode")
    document += nodes.section("", nodes.title("", "Page"), *body, code, ids=["page"])
    return document


def markdown_of(document: nodes.document) -> str:
    notebook = notebook_for(document, "en")
    assert notebook is not None
    return "\n\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")


def test_display_math_in_a_note_is_math_without_the_quotes_marks():
    note = nodes.note("", nodes.math_block("", "a = b\n+ c"))
    markdown = markdown_of(page(note))
    assert "> $$ a = b + c $$" in markdown.splitlines()
    [quote] = rendered(markdown).find_all("blockquote")[1:]
    assert [div.get_text().strip() for div in quote.select("div.math")] == ["a = b + c"]


def test_display_math_in_a_list_item_is_math():
    item = nodes.list_item("", nodes.paragraph("", "Where"), nodes.math_block("", "x^2"))
    markdown = markdown_of(page(nodes.bullet_list("", item)))
    assert displayed(markdown) == ["x^2"]


def test_superscripts_and_subscripts_stay_raised_and_lowered():
    paragraph = nodes.paragraph(
        "",
        "",
        nodes.Text("10"),
        nodes.superscript("", "6"),
        nodes.Text(" H"),
        nodes.subscript("", "2"),
        nodes.Text("O, "),
        nodes.math("", "x^2"),
    )
    markdown = _markdown.inline(paragraph, lambda uri: uri)
    assert markdown == "10<sup>6</sup> H<sub>2</sub>O, $x^2$"
    html = rendered(markdown)
    assert [html.sup.get_text(), html.sub.get_text()] == ["6", "2"]
    assert [span.get_text() for span in html.select("span.math")] == ["x^2"]


def test_what_a_web_page_says_of_its_notebook_stays_out_of_the_notebook():
    """The en editor found the exercises' notebook telling its reader to download the
    notebook they were reading: that paragraph is the web page's alone."""
    web = nodes.paragraph(
        "", "Download this page's notebook from the link.", classes=["jb-web-only"]
    )
    both = nodes.paragraph("", "Run the self-check cell under each answer.")
    markdown = markdown_of(page(web, both))
    assert "Run the self-check cell under each answer." in markdown
    assert "Download" not in markdown
