"""A notebook's links to the book lead to the site where its address is known, and are words
alone where it is not: a notebook is read in Colab or after a download, where a relative
link (a glossary term's) would lead nowhere."""

from __future__ import annotations

from docutils import nodes

from jaxbook.sphinxext import _markdown
from jaxbook.sphinxext.notebooks import book_link

ROOT = "https://example.org/book/en/"


def test_a_link_to_the_book_is_absolute_where_the_site_is_known():
    assert book_link("../glossary.html#term-jit", "ch01/arrays", ROOT) == (
        "https://example.org/book/en/glossary.html#term-jit"
    )
    assert book_link("devices.html#mesh", "ch01/arrays", ROOT) == (
        "https://example.org/book/en/ch01/devices.html#mesh"
    )
    assert book_link("#views", "ch01/arrays", ROOT) == (
        "https://example.org/book/en/ch01/arrays.html#views"
    )
    assert book_link("/other/", "ch01/arrays", ROOT) == "https://example.org/other/"


def test_a_link_to_the_book_is_dropped_where_the_site_is_unknown():
    for uri in ("../glossary.html#term-jit", "devices.html", "#views", "/other/"):
        assert book_link(uri, "ch01/arrays", "") == ""


def test_a_link_out_of_the_book_stays():
    for root in (ROOT, ""):
        assert book_link("https://docs.jax.dev/", "ch01/arrays", root) == "https://docs.jax.dev/"
        assert book_link("mailto:a@example.org", "ch01/arrays", root) == "mailto:a@example.org"


def term_paragraph() -> nodes.paragraph:
    paragraph = nodes.paragraph("", "用 ")
    paragraph += nodes.reference("", "即时编译", refuri="../glossary.html#term-jit")
    paragraph += nodes.Text(" 编译，见 ")
    paragraph += nodes.reference("", "JAX 文档", refuri="https://docs.jax.dev/")
    return paragraph


def test_a_dropped_link_leaves_its_words_in_the_markdown():
    dropped = _markdown.inline(term_paragraph(), lambda uri: book_link(uri, "ch01/arrays", ""))
    assert dropped == "用 即时编译 编译，见 [JAX 文档](https://docs.jax.dev/)"
    kept = _markdown.inline(term_paragraph(), lambda uri: book_link(uri, "ch01/arrays", ROOT))
    assert kept == (
        "用 [即时编译](https://example.org/book/en/glossary.html#term-jit) 编译，见 "
        "[JAX 文档](https://docs.jax.dev/)"
    )
