"""Every page's notebook, in each language, holds its page's doctested code, and the notebooks
run top to bottom and pass their asserts.

The notebooks also carry the pages' outputs, pin the versions those outputs
came from, come as one zip per language and, given a repository, open in Colab.
"""

from __future__ import annotations

import importlib.metadata
import os
import pickle
import re
import shutil
import tomllib
import zipfile
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar

import nbformat
import pytest
from bs4 import BeautifulSoup
from docutils import nodes
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin
from nbclient import NotebookClient

from jaxbook.doctest.environment import doctest_environment
from jaxbook.sphinxext.notebooks import INSTALL_TAG, snippet_run_cell
from jaxbook.sphinxext.parallel_text import without_parallel_text
from jaxbook.sphinxext.selfcheck import selfcheck

ROOT = Path(__file__).resolve().parents[2]

PAGES = [
    "what-is-jax",
    "jax-vs-numpy",
    "transformations",
    "installation",
    "arrays",
    "devices",
    "exercises",
    "quiz",
    "answers",
    "index",
]


def code_cells(notebook: nbformat.NotebookNode) -> list[str]:
    """The notebook's code, without the install cell."""
    return [
        cell.source
        for cell in notebook.cells
        if cell.cell_type == "code" and INSTALL_TAG not in cell.metadata.get("tags", [])
    ]


def doctested_code(doctree: nodes.document) -> list[str]:
    """The page's code cells a reader runs, in page order, as ``make doctest`` runs them:
    each visible ``testcode`` block; each script a snippet shows (which a notebook writes to
    a file and runs); and each exercise's self-check, which the page does not show and runs
    only after a reference answer. Hidden blocks check the page; they are not the reader's."""
    found = []
    for node in doctree.findall(nodes.literal_block):
        if node.get("testnodetype") == "testcode" or isinstance(node.parent, selfcheck):
            found.append(node.astext())
        elif name := node.get("jaxbook_snippet"):
            found += [f"%%writefile {name}\n{node.astext()}", snippet_run_cell(name)]
    return found


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_a_notebooks_code_is_its_pages_doctested_code(built_site, built_doctrees, language, page):
    notebook = _notebook(built_site, language, page)
    assert notebook.metadata["jaxbook"]["language"] == language
    with (built_doctrees / language / "ch01" / f"{page}.doctree").open("rb") as file:
        doctree = pickle.load(file)
    expected = doctested_code(doctree)
    assert expected or page == "index"
    assert code_cells(notebook) == expected


def test_every_notebook_runs_top_to_bottom(built_site, tmp_path):
    """The English notebooks run one after the other in one kernel, each from an empty
    namespace (as each page runs in a fresh one under ``make doctest``). The Chinese ones
    hold the Chinese pages' doctested code (the test above), which ``make doctest`` runs;
    what a notebook adds to that code, its cells run top to bottom in one namespace and
    its scripts written to files, is the same in both languages."""
    cells = []
    for page in PAGES:
        path = built_site / "en" / "_notebooks" / "ch01" / f"{page}.ipynb"
        code = code_cells(nbformat.read(str(path), as_version=4))
        # The install cell (left out) would reach a package index; this environment already
        # holds the pins (test_install_cell_pins_the_locked_versions checks them).
        cells.append(nbformat.v4.new_code_cell(f"%reset -f\n# {path.name}"))
        cells += [nbformat.v4.new_code_cell(source) for source in code]
    combined = nbformat.v4.new_notebook(cells=cells)
    # Raises CellExecutionError, naming the cell, on any exception or failed assert. The
    # kernel has the English doctests' environment, and a copy of their compilation cache
    # (the English build's, _build/jax-cache/en), which spares it most compiles: it had a
    # cache of its own, empty on a fresh clone, and compiled every program again. A copy:
    # what only the notebooks compile is written there, not into the cache the builds read.
    built_cache = Path(doctest_environment(os.environ, ROOT, "en")["JAX_COMPILATION_CACHE_DIR"])
    cache = tmp_path / "jax-cache" / "en"
    if built_cache.is_dir():
        shutil.copytree(built_cache, cache)
    environment = doctest_environment({**os.environ, "JAX_COMPILATION_CACHE_DIR": str(cache)}, ROOT)
    NotebookClient(
        combined,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute(env=environment)
    errors = [o for cell in combined.cells for o in cell.outputs if o.output_type == "error"]
    assert not errors
    assert sum(1 for cell in combined.cells if cell.outputs) > 20


def test_notebook_links_on_pages(built_site):
    html = (built_site / "en" / "ch01" / "arrays.html").read_text(encoding="utf-8")
    assert 'href="../_notebooks/ch01/arrays.ipynb"' in html
    notebook = nbformat.read(str(built_site / "en" / "_notebooks/ch01/jax-vs-numpy.ipynb"), 4)
    sources = "\n".join(cell.source for cell in notebook.cells)
    assert "%%writefile x64_startup.py" in sources
    assert "不" not in "".join(c.source for c in notebook.cells if c.cell_type == "code")
    assert Path(built_site / "zh_CN" / "_notebooks/ch01/quiz.ipynb").exists()


def _notebook(site: Path, language: str, page: str) -> nbformat.NotebookNode:
    return nbformat.read(str(site / language / "_notebooks" / "ch01" / f"{page}.ipynb"), 4)


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_install_cell_pins_the_locked_versions(built_site, language):
    notebook = _notebook(built_site, language, "arrays")
    [install] = [c for c in notebook.cells if INSTALL_TAG in c.metadata.get("tags", [])]
    first_code = next(c for c in notebook.cells if c.cell_type == "code")
    assert install is first_code
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    # The book's dependencies but pagerun, a member of the workspace: the index has no such
    # package, and the chapter's code never imports it.
    assert "pagerun" in config["project"]["dependencies"]
    assert config["tool"]["uv"]["sources"]["pagerun"] == {"workspace": True}
    pins = [pin for pin in config["project"]["dependencies"] if pin != "pagerun"]
    assert install.source == "%pip install " + " ".join(pins)
    for pin in pins:
        name, version = pin.split("==")
        assert importlib.metadata.version(name) == version, pin
    note = notebook.cells[notebook.cells.index(install) - 1].source
    # What an NVIDIA GPU and a Cloud TPU install instead: the extras of pyproject.toml.
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"][
        "optional-dependencies"
    ]
    for extra in ("cuda", "tpu"):
        assert f"`{extras[extra][0]}`" in note, extra


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_cells_carry_the_outputs_the_page_shows(built_site, language):
    notebook = _notebook(built_site, language, "jax-vs-numpy")
    printed = [
        "".join(o.text for o in cell.outputs)
        for cell in notebook.cells
        if cell.cell_type == "code" and cell.outputs
    ]
    assert len(printed) > 5
    page = (built_site / language / "ch01" / "jax-vs-numpy.html").read_text("utf-8")
    # The first output of the page, as the page prints it (HTML-escaped there).
    first = printed[0].strip().splitlines()[0]
    assert first.replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;") in page
    # A cell with CPU and GPU outputs carries the CPU one only.
    devices = _notebook(built_site, language, "devices")
    texts = ["".join(o.text for o in c.outputs) for c in devices.cells if c.cell_type == "code"]
    assert any("CpuDevice" in t for t in texts)
    assert not any("CudaDevice" in t for t in texts)


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_cell_ids_are_their_places_not_random(built_site, language):
    """A page's notebook is written the same at every build: nbformat's ids are random."""
    for path in (built_site / language / "_notebooks").rglob("*.ipynb"):
        cells = nbformat.read(path, as_version=4).cells
        assert [cell.id for cell in cells] == [f"cell-{n}" for n in range(1, len(cells) + 1)]


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_one_zip_holds_every_notebook_of_a_language(built_site, language):
    folder = built_site / language / "_notebooks"
    [archive] = folder.glob(f"*-notebooks-{language}.zip")
    with zipfile.ZipFile(archive) as notebooks:
        names = sorted(notebooks.namelist())
    assert names == sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.ipynb"))
    html = (built_site / language / "ch01" / "arrays.html").read_text(encoding="utf-8")
    assert f'href="../_notebooks/{archive.name}"' in html


class PageProse(HTMLParser):
    """The article's blocks of prose (paragraphs, list items, cells, headings), not its code."""

    BLOCKS: ClassVar = {"p", "li", "td", "th", "h1", "h2", "h3", "h4", "dt"}
    # Math is MathML on the page and LaTeX in the notebook: both sides leave it out.
    SKIP: ClassVar = {"pre", "script", "style", "button", "label", "input", "math"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.blocks: list[str] = []
        self.current: list[list[str]] = []
        self.article = False

    def skipping(self) -> bool:
        return any(skip for _tag, skip in self.stack)

    def handle_starttag(self, tag, attrs):
        classes = set((dict(attrs).get("class") or "").split())
        if tag == "article":
            self.article = True
        # Chrome a notebook has no place for (the downloads line, the heading links, the
        # backends' tab labels), what the page says of its own notebook, and the parallel
        # view's other-language text, which a notebook in one language leaves out.
        skip = tag in self.SKIP or bool(
            classes & {"jb-notebook", "headerlink", "jb-tab-label", "jb-web-only", "jb-parallel"}
        )
        if tag not in {"br", "img", "hr", "meta", "link", "input", "col"}:
            self.stack.append((tag, skip))
        if tag in self.BLOCKS and self.article and not self.skipping():
            self.current.append([])

    def handle_endtag(self, tag):
        if tag in self.BLOCKS and self.current and self.article:
            text = " ".join("".join(self.current.pop()).split())
            if text:
                self.blocks.append(text)
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break
        if tag == "article":
            self.article = False

    def handle_data(self, data):
        if self.current and not self.skipping():
            self.current[-1].append(data)


def folded(text: str) -> str:
    """Text with Markdown's marks, links' targets, math, ``<sup>``/``<sub>`` tags and all
    spacing taken out."""
    text = re.sub(r"\]\([^)]*\)", "]", text)
    text = re.sub(r"\$\$.+?\$\$", "", text, flags=re.DOTALL)
    text = re.sub(r"\$[^$]+\$", "", text)
    text = re.sub(r"</?su[bp]>", "", text)
    return re.sub(r"[\s*`#>|\[\]\\-]", "", text)


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_notebook_keeps_all_of_the_pages_prose(built_site, language, page):
    html = (built_site / language / "ch01" / f"{page}.html").read_text(encoding="utf-8")
    parser = PageProse()
    parser.feed(html)
    notebook = nbformat.read(
        str(built_site / language / "_notebooks" / "ch01" / f"{page}.ipynb"), as_version=4
    )
    markdown = folded(
        "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    )
    missing = [block for block in parser.blocks if folded(block) not in markdown]
    assert parser.blocks
    assert missing == []


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_quiz_keeps_its_lettered_options_and_no_markup_of_the_site(built_site, language):
    """Markdown numbers lists in arabic numerals only: the quiz's options A-D, which the
    answers name by letter, keep their letters; a dropdown's icon (raw HTML) stays out."""
    notebook = _notebook(built_site, language, "quiz")
    markdown = "\n\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")
    rendered = BeautifulSoup(MarkdownIt("commonmark").render(markdown), "html.parser")
    assert "<svg" not in markdown
    assert rendered.find("svg") is None
    options = [
        [item.strong.get_text() for item in listed.find_all("li", recursive=False)]
        for listed in rendered.find_all("ul")
        if listed.li is not None and listed.li.strong is not None
    ]
    assert options.count(["A.", "B.", "C.", "D."]) == 8  # the chapter's eight questions


def test_the_prose_check_sees_a_dropped_table_cell():
    parser = PageProse()
    parser.feed(
        "<article><p>Kept <code>x</code>.</p><table><tr><td>Dropped</td></tr></table></article>"
    )
    markdown = folded("Kept `x`.")
    assert [block for block in parser.blocks if folded(block) not in markdown] == ["Dropped"]


def rendered_cells(notebook: nbformat.NotebookNode) -> list[BeautifulSoup]:
    """Each Markdown cell as Jupyter renders it: CommonMark, its raw HTML kept, and ``$...$``
    and ``$$...$$`` taken out as math before the Markdown is read."""
    md = MarkdownIt("commonmark").use(dollarmath_plugin)
    return [
        BeautifulSoup(md.render(cell.source), "html.parser")
        for cell in notebook.cells
        if cell.cell_type == "markdown"
    ]


def _spaced(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_notebook_keeps_the_pages_math_and_superscripts(
    built_site, built_doctrees, language, page
):
    """A page's ``.. math::`` is display math in its notebook (not its LaTeX as bold text),
    its ``:math:`` inline math, and a ``:sup:``/``:sub:`` stays raised or lowered: "10<sup>6
    </sup>", not "106"."""
    with (built_doctrees / language / "ch01" / f"{page}.doctree").open("rb") as file:
        # The page as its language has it: the doctree holds the other language's words too.
        doctree = without_parallel_text(pickle.load(file))
    cells = rendered_cells(_notebook(built_site, language, page))
    shown = [_spaced(div.get_text()) for cell in cells for div in cell.select("div.math.block")]
    assert shown == [_spaced(node.astext()) for node in doctree.findall(nodes.math_block)]
    inline = [span.get_text() for cell in cells for span in cell.select("span.math.inline")]
    assert inline == [node.astext() for node in doctree.findall(nodes.math)]
    for kind, tag in ((nodes.superscript, "sup"), (nodes.subscript, "sub")):
        marked = [mark.get_text() for cell in cells for mark in cell.find_all(tag)]
        assert marked == [node.astext() for node in doctree.findall(kind)]


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_no_notebook_shows_latex_or_rest_markup_as_text(built_site, language):
    """Outside its math and code, a notebook's rendered text has no backslash (LaTeX left
    as text, a Markdown escape gone wrong) and no reST role (``:sup:`6```)."""
    leftovers = []
    for path in sorted((built_site / language / "_notebooks").rglob("*.ipynb")):
        for cell in rendered_cells(nbformat.read(path, as_version=4)):
            for element in cell.select(".math, code, pre"):
                element.decompose()
            text = cell.get_text()
            if "\\" in text or re.search(r":[a-z:]+:`", text):
                leftovers.append(f"{path.name}: {text.strip()[:80]}")
    assert leftovers == []
