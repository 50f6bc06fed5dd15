"""Offer each page's code as a runnable Jupyter notebook, in the page's language.

For each HTML page with code, this extension writes ``_notebooks/<page>.ipynb`` from the
translated page (``doctree-resolved``) and links it under the page's title, with the
language's zip (``build-finished``) and Colab. It adds the role ``:notebook:`page``` (the
notebook's address, for printed books) and the tag ``jaxbook_site`` when the site's address
is known, for ``.. only:: (latex or epub) and jaxbook_site``.

Config values:

``jaxbook_notebook_requirements``
   The packages the install cell pins. Default ``[]``: the ``[project]`` dependencies of
   the ``pyproject.toml`` in ``jaxbook_repo_root``.
``jaxbook_notebook_gpu_extra``, ``jaxbook_notebook_tpu_extra``
   What replaces ``jax`` on an NVIDIA GPU, a Cloud TPU. Default ``""``: the first entry of
   that ``pyproject.toml``'s ``cuda``, ``tpu`` extra (with neither, the TPU note names none).
``jaxbook_repo_url``
   ``https://github.com/<owner>/<repo>``, for Colab links. Default ``""``: no Colab link.
   ``JAXBOOK_REPO_URL`` overrides it.
``jaxbook_notebooks_branch``
   The branch whose ``<language>/_notebooks/`` Colab opens. Default ``"notebooks"``.
"""

from __future__ import annotations

import os
import posixpath
import re
import tomllib
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

from docutils import nodes
from sphinx.locale import admonitionlabels
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import docname_join

from jaxbook.backends import backends_of
from jaxbook.sphinxext import PARALLEL_SAFE, _markdown, book_texts
from jaxbook.sphinxext._locale import _
from jaxbook.sphinxext._nodes import after_title, chrome
from jaxbook.sphinxext.html_translator import caption_number
from jaxbook.sphinxext.languages import site_url
from jaxbook.sphinxext.parallel_text import without_parallel_text
from jaxbook.sphinxext.selfcheck import selfcheck
from pagerun.pages import doctest_kind

# nbformat is imported where a notebook is made: every build of the book loads this
# extension, and most (doctest, gettext, refresh) make no notebook.
if TYPE_CHECKING:
    from collections.abc import Sequence

    import nbformat
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

NOTEBOOK_DIR = "_notebooks"
# Written by `jaxbook publish-notebooks` on each deploy (jaxbook.site.publish).
NOTEBOOKS_BRANCH = "notebooks"
INSTALL_TAG = "jaxbook-install"
# A figure's, table's or listing's number as the page shows it ("Figure 1-1"), or "".
Number = Callable[[nodes.Element], str]
GITHUB = re.compile(r"^https://github\.com/([^/]+)/([^/]+?)(?:\.git)?/?$")


def _code_cell(node: nodes.Element) -> str | None:
    # An exercise's self-check is a testcode only where the page runs it (the answers); a
    # hidden testcode (a comment node) checks the page, and the reader's notebook has none.
    shown = isinstance(node, nodes.literal_block)
    if (doctest_kind(node) == "testcode" and shown) or isinstance(node.parent, selfcheck):
        return node.astext()
    if isinstance(node, nodes.literal_block) and node.get("jaxbook_snippet"):
        return f"%%writefile {node['jaxbook_snippet']}\n{node.astext()}"
    return None


def snippet_run_cell(name: str) -> str:
    """The cell that runs a snippet's script as the doctest does: a new Python, on the CPU
    (the notebook's kernel may hold the accelerator)."""
    return f"import sys\n!JAX_PLATFORMS=cpu {{sys.executable}} {name}"


def _shown_output(node: nodes.Element) -> str | None:
    """The expected output a page shows for the notebook's backend (the CPU), or None."""
    if doctest_kind(node) != "testoutput":
        return None
    backends = backends_of(node.get("skipif"))
    if backends is not None and "cpu" not in backends:
        return None
    return node.astext()


def install_cells(requirements: list[str], gpu: str, tpu: str = "") -> list[nbformat.NotebookNode]:
    """The note on the pins, with what an NVIDIA GPU and a Cloud TPU install instead of jax,
    and the install cell (tagged ``jaxbook-install``), which pins the versions the outputs
    came from."""
    from nbformat import v4

    gpu = f"`{gpu}`" if gpu else "the CUDA build of jax"
    if tpu:
        # Translators: A notebook's first cell, above the install cell; %(gpu)s and %(tpu)s
        # are requirements, as `jax[cuda13]==0.12.0.1` and `jax[tpu]==0.12.0.1`.
        note = _(
            "The outputs below were produced with these versions; other releases may print "
            "otherwise. On an NVIDIA GPU, install %(gpu)s instead of jax; on a Cloud TPU, "
            "install %(tpu)s."
        ) % {"gpu": gpu, "tpu": f"`{tpu}`"}
    else:
        note = (
            _(
                "The outputs below were produced with these versions; other releases may print "
                "otherwise. On an NVIDIA GPU, install %s instead of jax."
            )
            % gpu
        )
    install = v4.new_code_cell(
        "%pip install " + " ".join(requirements), metadata={"tags": [INSTALL_TAG]}
    )
    return [v4.new_markdown_cell(note), install]


class Cells:
    """The cells of one notebook, built by walking a page's doctree in reading order.

    Headings (with the number the page prints, "1.5 ") and paragraphs become Markdown cells,
    code becomes code cells. A ``.. snippet::`` script becomes a ``%%writefile`` cell and a
    cell that runs it (:func:`snippet_run_cell`); an exercise's self-check
    (:mod:`jaxbook.sphinxext.selfcheck`) is a code cell below the answer cell. A code cell's
    output is the expected output the page shows (the CPU one, where there is one per
    backend): a real run that ``make doctest`` checks, so GitHub and nbviewer show what the
    code prints. What a web page says of its own notebook (class ``jb-web-only``) stays out:
    the notebook's reader is in it.
    """

    def __init__(
        self,
        link: _markdown.Link,
        number: Number = lambda node: "",
        secnumber: Number = lambda section: "",
    ) -> None:
        self.cells: list[nbformat.NotebookNode] = []
        self.last_code: nbformat.NotebookNode | None = None
        self.link = link
        self.number = number
        self.secnumber = secnumber

    def markdown(self, text: str, quote: bool) -> None:
        from nbformat import v4

        if text.strip():
            self.cells.append(v4.new_markdown_cell(_markdown.quoted(text) if quote else text))

    def walk(self, node: nodes.Element, level: int, quote: bool = False) -> None:
        for child in node.children:
            if isinstance(child, nodes.Element):
                self.block(child, level, quote)

    def block(self, node: nodes.Element, level: int, quote: bool) -> None:
        from nbformat import v4

        code = _code_cell(node)
        output = _shown_output(node)
        if code is not None:
            self.last_code = v4.new_code_cell(code)
            self.cells.append(self.last_code)
            if name := node.get("jaxbook_snippet"):
                self.last_code = v4.new_code_cell(snippet_run_cell(name))
                self.cells.append(self.last_code)
            return
        if output is not None:
            if self.last_code is not None and not self.last_code.outputs:
                text = output if output.endswith("\n") else output + "\n"
                self.last_code.outputs.append(v4.new_output("stream", name="stdout", text=text))
            return
        if doctest_kind(node) or isinstance(node, SKIPPED) or WEB_ONLY in node.get("classes", ()):
            return  # setup, cleanup and the other backend's output; chrome; comments
        runs_code = any(doctest_kind(n) for n in node.findall(nodes.literal_block))
        if isinstance(node, nodes.section):
            self.walk(node, level + 1, quote)
        elif isinstance(node, nodes.title):
            # With the number the page prints before it ("1.5 "), where it has one.
            numbered = self.secnumber(node.parent) if isinstance(node.parent, nodes.section) else ""
            text = numbered + _markdown.inline(node, self.link)
            self.markdown(f"{'#' * max(level, 1)} {text}", quote)
        elif isinstance(node, nodes.paragraph):
            self.markdown(_markdown.inline(node, self.link), quote)
        elif isinstance(node, (nodes.bullet_list, nodes.enumerated_list)) and not runs_code:
            self.markdown(self.listed(node), quote)
        elif isinstance(node, nodes.table) and not runs_code:
            self.markdown(_markdown.table(node, self.link), quote)
        elif isinstance(node, nodes.literal_block):
            self.markdown(_markdown.fenced(node), quote)
        elif isinstance(node, nodes.math_block):
            # Before the TextElements below, which would make its LaTeX bold text.
            self.markdown(_markdown.display_math(node, quote), quote)
        elif isinstance(node, nodes.Admonition):
            title = node.next_node(nodes.title)
            if title is None:  # a note or a warning: its label, in the page's language
                label = admonitionlabels.get(node.tagname, node.tagname.capitalize())
                self.markdown(f"**{label}**", True)
            for child in node.children:
                if isinstance(child, nodes.title):
                    self.markdown(f"**{_markdown.inline(child, self.link)}**", True)
                elif isinstance(child, nodes.Element):
                    self.block(child, level, True)
        elif isinstance(node, nodes.TextElement) and not isinstance(node, nodes.literal_block):
            # A rubric, or a caption, with the number its figure, table or listing has on the
            # page ("Figure 1-1. ...", "图 1-1 ...").
            numbered = self.number(node.parent) if isinstance(node, nodes.caption) else ""
            text = _markdown.inline(node, self.link)
            self.markdown(f"**{numbered} {text}**" if numbered else f"**{text}**", quote)
        else:
            self.walk(node, level, quote)

    def listed(self, node: nodes.Element, depth: int = 0) -> str:
        lines = []
        start = node.get("start", 1)
        for number, item in enumerate(node.children, start=start):
            marker = "-" if isinstance(node, nodes.bullet_list) else _marker(node, number)
            parts = []
            for child in item.children:
                if isinstance(child, (nodes.bullet_list, nodes.enumerated_list)):
                    parts.append(self.listed(child, depth + 1))
                elif isinstance(child, nodes.literal_block):
                    parts.append(_markdown.fenced(child))
                elif isinstance(child, nodes.paragraph):
                    parts.append(_markdown.inline(child, self.link))
                elif isinstance(child, nodes.math_block):
                    # After a blank line: a paragraph's lines would run on into it.
                    parts.append("\n" + _markdown.display_math(child))
                elif isinstance(child, nodes.Element):
                    parts.append(child.astext())
            indent = "  " * depth
            first, *rest = parts or [""]
            lines.append(f"{indent}{marker} {first}")
            for part in rest:
                # The item's content column: after "1. ", or after "- " (a lettered item).
                pad = indent + " " * (2 if marker.startswith("- ") else len(marker) + 1)
                lines += [pad + line if line else "" for line in part.split("\n")]
        return "\n".join(lines)


def _marker(node: nodes.Element, number: int) -> str:
    """An enumerated item's marker. Markdown numbers a list only in arabic numerals, so a
    list lettered on the page (a quiz's options A-D) keeps its letters as bold text."""
    kind = node.get("enumtype", "arabic")
    if kind in ("upperalpha", "loweralpha"):
        letter = chr(ord("A" if kind == "upperalpha" else "a") + number - 1)
        return f"- **{letter}{node.get('suffix', '.')}**"
    return f"{number}."


# The class of what a web page says of its notebook: not the notebook's.
WEB_ONLY = "jb-web-only"
SKIPPED = (
    chrome,
    nodes.comment,
    nodes.target,
    nodes.substitution_definition,
    nodes.raw,
    nodes.system_message,
    nodes.Invisible,
)


def notebook_for(
    doctree: nodes.document,
    language: str,
    requirements: list[str] | None = None,
    gpu: str = "",
    link: _markdown.Link = lambda uri: uri,
    number: Number = lambda node: "",
    secnumber: Number = lambda section: "",
    tpu: str = "",
) -> nbformat.NotebookNode | None:
    walker = Cells(link, number, secnumber)
    walker.walk(doctree, 0)
    cells = walker.cells
    has_code = any(cell.cell_type == "code" for cell in cells)
    if not has_code:
        return None
    if requirements:
        # Right under the page title, before anything else.
        at = 1 if cells[0].cell_type == "markdown" and cells[0].source.startswith("# ") else 0
        cells[at:at] = install_cells(requirements, gpu, tpu)
    for count, cell in enumerate((c for c in cells if c.cell_type == "code"), start=1):
        if cell.outputs:
            cell.execution_count = count
    # Not nbformat's random ids: a page's notebook is written the same each time.
    for place, cell in enumerate(cells, start=1):
        cell.id = f"cell-{place}"
    from nbformat import v4

    notebook = v4.new_notebook(cells=cells)
    notebook.metadata.update(
        {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
            "jaxbook": {"language": language},
        }
    )
    return notebook


def project_pins(root: str | os.PathLike[str]) -> tuple[list[str], str, str]:
    """The ``[project]`` dependencies of ``root``'s pyproject.toml that a reader installs from
    the package index, and the first entries of its ``cuda`` and ``tpu`` extras ("" where it
    has none)."""
    path = Path(root, "pyproject.toml")
    if not path.exists():
        return [], "", ""
    config = tomllib.loads(path.read_text(encoding="utf-8"))
    project = config.get("project", {})
    extras = project.get("optional-dependencies", {})
    cuda, tpu = extras.get("cuda", []), extras.get("tpu", [])
    # A member of the workspace (pagerun, which the book's package imports) is no package of
    # the index, and the chapter's code, all a notebook runs, never imports it.
    sources = config.get("tool", {}).get("uv", {}).get("sources", {})
    members = {name for name, source in sources.items() if source.get("workspace")}
    pins = [pin for pin in project.get("dependencies", []) if requirement_name(pin) not in members]
    return pins, cuda[0] if cuda else "", tpu[0] if tpu else ""


def requirement_name(requirement: str) -> str:
    """The distribution a requirement names (``jax`` of ``jax[tpu]==0.12.0.1``)."""
    return re.split(r"[\s\[<>=!~;@]", requirement, maxsplit=1)[0].strip()


def zip_name(app: Sphinx) -> str:
    return f"{app.config.jaxbook_basename}-notebooks-{app.config.language}.zip"


def colab_url(app: Sphinx, docname: str) -> str | None:
    repo = os.environ.get("JAXBOOK_REPO_URL") or app.config.jaxbook_repo_url
    match = GITHUB.match(repo.strip())
    if not match:
        return None
    owner, name = match.groups()
    branch = app.config.jaxbook_notebooks_branch
    return (
        f"https://colab.research.google.com/github/{owner}/{name}/blob/{branch}/"
        f"{app.config.language}/{NOTEBOOK_DIR}/{docname}.ipynb"
    )


def book_link(uri: str, docname: str, root: str) -> str:
    """A link of page ``docname`` as its notebook has it: absolute, from ``root`` (the
    address of the language's pages, "https://example.org/book/en/"), or ``""`` (the words
    alone) where ``root`` is ``""``. A notebook is read in Colab or after a download, away
    from the pages: a relative link (a glossary term's "../glossary.html#term-...") would
    lead nowhere. A link out of the book stays as it is."""
    if not uri or "://" in uri or uri.startswith("mailto:"):
        return uri
    if not root:
        return ""
    if uri.startswith("/"):
        return urljoin(root, uri)  # from the site's host
    here = posixpath.dirname(docname)
    if uri.startswith("#"):
        return root + posixpath.join(here, docname.rsplit("/", 1)[-1] + ".html") + uri
    # A page's link is relative to the page.
    return root + posixpath.normpath(posixpath.join(here, uri))


def write_notebook(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    # The website only: an e-book has no place for a download.
    if app.builder.name != "html":
        return
    pins, gpu, tpu = project_pins(app.config.jaxbook_repo_root)
    requirements = app.config.jaxbook_notebook_requirements or pins
    gpu = app.config.jaxbook_notebook_gpu_extra or gpu
    tpu = app.config.jaxbook_notebook_tpu_extra or tpu
    site = site_url(app.config)
    root = f"{site}/{app.config.language}/" if site else ""

    def link(uri: str) -> str:
        return book_link(uri, docname, root)

    numbers = app.env.toc_fignumbers.get(docname, {})

    def number(node: nodes.Element) -> str:
        node_ids: list[str] = node.get("ids", [])
        for kind, ids in numbers.items():
            for node_id in node_ids:
                if node_id in ids and kind in app.config.numfig_format:
                    numbered = app.config.numfig_format[kind] % ".".join(map(str, ids[node_id]))
                    return caption_number(numbered, app.config.language or "en")
        return ""

    secnumbers = app.env.toc_secnumbers.get(docname, {})

    def secnumber(section: nodes.Element) -> str:
        # As Sphinx's HTML writer finds a title's number: by the section's anchor, or for the
        # page's title (which has no anchor in the contents) under "".
        ids: list[str] = section.get("ids", [])
        anchor = "#" + ids[0] if ids else ""
        found = secnumbers.get(anchor if anchor in secnumbers else "")
        return ".".join(map(str, found)) + app.config.html_secnumber_suffix if found else ""

    # The page as its language has it, without the other language's text beside it.
    page = without_parallel_text(doctree)
    notebook = notebook_for(
        page, app.config.language, requirements, gpu, link, number, secnumber, tpu
    )
    if notebook is None:
        return
    path = Path(app.outdir, NOTEBOOK_DIR, f"{docname}.ipynb")
    path.parent.mkdir(parents=True, exist_ok=True)
    import nbformat

    nbformat.write(notebook, str(path))
    up = "../" * docname.count("/")
    download = nodes.reference(
        "",
        _("Download this page as a notebook (.ipynb)"),
        refuri=f"{up}{NOTEBOOK_DIR}/{docname}.ipynb",
        classes=["jb-notebook-link"],
    )
    paragraph = chrome("", "", download, classes=["jb-notebook"])
    paragraph += nodes.Text(" · ")
    paragraph += nodes.reference(
        "",
        # Translators: A link after "Download this page as a notebook" to one file of every page's
        # notebook.
        _("all notebooks (.zip)"),
        refuri=f"{up}{NOTEBOOK_DIR}/{zip_name(app)}",
        classes=["jb-notebook-zip"],
    )
    colab = colab_url(app, docname)
    if colab:
        paragraph += nodes.Text(" · ")
        paragraph += nodes.reference(
            "",
            # Translators: A link after "Download this page as a notebook" that opens the
            # page's notebook in Google Colab.
            _("open in Colab"),
            refuri=colab,
            classes=["jb-colab-link"],
        )
    sections = list(doctree.findall(nodes.section))
    if sections:
        sections[0].insert(after_title(sections[0]), paragraph)


class notebook_address(nodes.Inline, nodes.TextElement):
    """The address of a page's notebook (``:notebook:`page```, relative as ``:doc:``'s),
    written when the page is: a deploy build knows the site's address only then."""


def notebook_role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Any,
    options: dict[str, Any] | None = None,
    content: Sequence[str] = (),
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    env = inliner.document.settings.env
    docname = docname_join(env.docname, text.strip())
    return [notebook_address(rawtext, f"{docname}.ipynb", docname=docname)], []


class NotebookAddresses(SphinxPostTransform):
    """Each ``:notebook:`` as the notebook's absolute address where the site is known (its
    text too, so that paper prints it), and as its file otherwise (a link on the website).
    Before the PDF's layout reads the links (jaxbook.sphinxext.editions)."""

    default_priority = 100
    builders = ("html",)  # the site, which holds the notebooks beside its pages

    def apply(self, **kwargs: Any) -> None:
        config, docname, on_site = (
            self.config,
            self.env.current_document.docname,
            self.is_supported(),
        )
        site = site_url(config)
        for node in list(self.document.findall(notebook_address)):
            page = node["docname"]
            if site:
                address = f"{site}/{config.language}/{NOTEBOOK_DIR}/{page}.ipynb"
                node.replace_self(nodes.reference(address, address, refuri=address))
            elif on_site:
                up = "../" * docname.count("/")
                target = f"{up}{NOTEBOOK_DIR}/{page}.ipynb"
                node.replace_self(nodes.reference("", f"{page}.ipynb", refuri=target))
            else:
                node.replace_self(nodes.literal("", f"{page}.ipynb"))


def tag_site(app: Sphinx) -> None:
    """``jaxbook_site``: the build knows the site's address (``JAXBOOK_SITE_URL`` or
    ``jaxbook_site_url``), for ``.. only::``."""
    if site_url(app.config):
        app.tags.add(SITE_TAG)


SITE_TAG = "jaxbook_site"


def zip_notebooks(app: Sphinx, exception: Exception | None) -> None:
    """All of a language's notebooks in one download."""
    if exception is not None or app.builder.name != "html":
        return
    folder = Path(app.outdir, NOTEBOOK_DIR)
    notebooks = sorted(folder.rglob("*.ipynb"))
    if not notebooks:
        return
    with zipfile.ZipFile(folder / zip_name(app), "w", zipfile.ZIP_DEFLATED) as archive:
        for path in notebooks:
            archive.write(path, path.relative_to(folder).as_posix())


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_config_value("jaxbook_notebook_requirements", [], "html", types=frozenset({list}))
    app.add_config_value("jaxbook_notebook_gpu_extra", "", "html", types=frozenset({str}))
    app.add_config_value("jaxbook_notebook_tpu_extra", "", "html", types=frozenset({str}))
    app.add_config_value("jaxbook_repo_url", "", "html", types=frozenset({str}))
    app.add_config_value(
        "jaxbook_notebooks_branch", NOTEBOOKS_BRANCH, "html", types=frozenset({str})
    )
    # The zip's name stem, the PDF's and EPUB's too: from the book's texts, not from the
    # editions, whose PDF and EPUB machinery a site's notebooks do not need.
    app.setup_extension(book_texts.__name__)
    app.add_role("notebook", notebook_role)
    app.add_node(notebook_address)
    app.connect("builder-inited", tag_site)
    app.add_post_transform(NotebookAddresses)
    # Last: the notebook takes the page as written, note numbers and measured figures included.
    app.connect("doctree-resolved", write_notebook, priority=900)
    app.connect("build-finished", zip_notebooks)
    return {"version": "1.0", **PARALLEL_SAFE}
