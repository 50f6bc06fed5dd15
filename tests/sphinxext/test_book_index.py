"""The general index names where the prose first discusses each API, option and term."""

from __future__ import annotations

import subprocess
import sys

import pytest
from docutils import nodes

from jaxbook.sphinxext.book_index import api_names


def test_a_literal_names_what_the_index_lists():
    assert api_names("jax.jit(f)") == ["jax.jit"]
    assert api_names("XLA_PYTHON_CLIENT_PREALLOCATE=false") == ["XLA_PYTHON_CLIENT_PREALLOCATE"]
    assert api_names('jax.config.update("jax_enable_x64", True)') == [
        "jax.config.update",
        "jax_enable_x64",
    ]
    assert api_names("x.at[0].set(1)") == ["jax.Array.at"]
    assert api_names("random_array.devices()") == ["jax.Array.devices"]
    assert api_names(".block_until_ready()") == ["jax.Array.block_until_ready"]
    assert api_names("random.normal(key, (3,))") == ["jax.random.normal"]  # from jax import random
    assert api_names("random.no_such_function") == []
    assert api_names("np.zeros(3)") == []  # NumPy's, not JAX's
    assert api_names("np.dot") == []  # not an array's method either
    assert api_names("np_arr.copy()") == []  # the pages' name for a NumPy array
    assert api_names("jax_no_such_option") == []
    # An option's context manager is the option: one entry, under the option's own name.
    assert api_names("jax.threefry_partitionable(False)") == ["jax_threefry_partitionable"]
    assert api_names("jax.enable_x64(True)") == ["jax_enable_x64"]
    assert api_names("jax.config.update") == ["jax.config.update"]


@pytest.mark.sphinx("html", testroot="book-index")
def test_each_page_indexes_its_first_mentions_where_they_stand(built):
    index = built.app.env.domains.index_domain.entries
    # Each entry under the page's title, which names the place in the web's index.
    keys = [entry[1].split("; ") for entry in index["ch01/page"]]
    assert {under for _key, under in keys} == {"Page"}
    page = {entry[1].split("; ")[0]: entry[2] for entry in index["ch01/page"]}
    # The first mention only, at the block that makes it.
    assert [key for key, _under in keys].count("jax.jit") == 1
    assert set(page) == {
        "jax.jit",
        "类型化密钥",
        "jax.Array.at",
        "XLA_PYTHON_CLIENT_PREALLOCATE",
        "jax.config.update",
        "jax_enable_x64",
        "密钥",
        "jax.random.key",
        "jnp.zeros",
        "预热",
        "jax.vmap",  # a question's explanation, but not its options (np.dot, x.platform)
    }
    # A title points to its section; a paragraph to itself.
    assert page["jax.random.key"] == "about-jax-random-key"
    doctree = built.app.env.get_doctree("ch01/page")
    [first] = [node for node in doctree.findall(nodes.Element) if page["jax.jit"] in node["ids"]]
    assert first.astext().startswith("第一段")
    # The home page is no chapter page; a name shown as old is not indexed.
    assert "index" not in index or not index["index"]
    assert "jax.tree_map" not in page


@pytest.mark.sphinx("html", testroot="book-index")
def test_a_contents_table_lists_and_is_not_indexed(built):
    """A table whose rows open with a page's reference lists what the pages discuss: its
    "密钥" and ``jax.grad`` are no places; the same words in another table are."""
    index = built.app.env.domains.index_domain.entries
    later = {entry[1].split("; ")[0]: entry[2] for entry in index["ch01/later"]}
    assert set(later) == {"jax.jit", "jax.vmap", "密钥"}
    doctree = built.app.env.get_doctree("ch01/later")
    [mention] = [node for node in doctree.findall(nodes.Element) if later["密钥"] in node["ids"]]
    assert mention.astext() == "jax.vmap 与密钥"


@pytest.mark.sphinx("html", testroot="book-index")
def test_the_glossary_entry_stays_the_terms_definition(built):
    index = built.app.env.domains.index_domain.entries
    [entry] = [e for e in index["glossary"] if e[1] == "密钥"]
    assert entry[3] == "main"
    html = built.page("genindex")
    assert "ch01/page.html#index-" in html


@pytest.mark.sphinx("html", testroot="book-index")
def test_the_web_index_lists_an_entrys_pages_in_reading_order(built):
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(built.page("genindex"), "html.parser")
    items = soup.select("table.indextable li")
    [jit] = [item for item in items if item.find(string=str.strip).strip() == "jax.jit"]
    # "Another page" comes after "Page" in the contents, though before it in the alphabet.
    assert [a.get_text() for a in jit.select("ul a")] == ["Page", "Another page"]
    # An API is set as code, as in the PDF; a term is not.
    assert jit.find("code").get_text() == "jax.jit"
    [key] = [item for item in items if item.find(string=str.strip).strip() == "密钥"]
    assert key.find("code") is None


@pytest.mark.parametrize(
    ("language", "term"),
    [
        ("zh_CN", "yu re@\\spxentry{\\textrm{预热}}"),
        ("en", "warm-up@\\spxentry{\\textrm{warm-up}}"),
    ],
)
def test_in_the_pdf_a_term_is_one_entry_in_the_texts_type(
    make_app, rootdir, tmp_path, language, term
):
    """A term indexed by the glossary and by the text is one entry, whatever LaTeX makes of
    a hyphen in a glossary term's label; a term is set in roman, an API in code type."""
    import re
    import shutil

    srcdir = shutil.copytree(rootdir / "test-book-index", tmp_path / language)
    app = make_app("latex", srcdir=srcdir, confoverrides={"language": language})
    app.build()
    tex = next(app.outdir.glob("*.tex")).read_text(encoding="utf-8")
    entries = re.findall(r"\\index\{((?:[^{}|]|\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\})*)", tex)
    # The text's mention (under its page) and the glossary's definition: one headword.
    terms = [e.split("!")[0] for e in entries if "warm" in e or "yu re" in e]
    assert terms == [term, term]
    # On paper a page number names the place: no page title under an entry.
    assert term in entries
    assert "jax.jit@\\spxentry{jax.jit}" in entries
    assert not [e for e in entries if "!" in e]
    assert not [e for e in entries if "sphinxhyphen" in e]
    # Inside a glossary label's argument TeX would write the entry differently from the
    # text's (a space after each control word): the label holds none.
    labels = [argument(tex, at.end()) for at in re.finditer(r"\\sphinxlineitem\{", tex)]
    assert labels
    assert not [label for label in labels if "\\index" in label]
    # makeindex's style: Chinese page numbers follow full-width commas.
    style = (app.outdir / "python.ist").read_text(encoding="utf-8")
    assert ('delim_0 "，"' in style) == (language == "zh_CN")


def argument(tex: str, start: int) -> str:
    """The text of a braced argument that opens just before ``start``."""
    depth = 1
    for i in range(start, len(tex)):
        depth += {"{": 1, "}": -1}.get(tex[i], 0)
        if depth == 0:
            return tex[start:i]
    raise AssertionError("unbalanced braces")


def test_asking_what_arrays_have_starts_no_backend():
    """The index asks JAX's array class, not an array: making one starts a backend (a TPU,
    which one process holds at a time) in a build that may run no code. The build's kernel
    answers it with ``jax_names``, as this process does."""
    code = (
        "import sys\n"
        "from jaxbook.doctest import jax_names\n"
        "print(jax_names.array_attribute('sharding'), jax_names.array_attribute('nope'),\n"
        "      bool(sys.modules['jax._src.xla_bridge']._backends))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "False", "False"]
