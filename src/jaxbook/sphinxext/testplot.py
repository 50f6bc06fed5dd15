"""A doctested code cell whose figure is drawn from that same code when the page is written.

``.. testplot::`` is a ``testcode`` block (so ``make doctest`` runs it, and a
following ``testoutput`` checks what it prints) followed by a figure. When an
HTML page (or the PDF) that holds one is written, the page's code runs once as
``make doctest`` runs it, with the one engine (:mod:`jaxbook.doctest.engine`);
right after each ``testplot`` cell, the pyplot
figures it opened are saved as PNG images and shown in its figure. Nothing is
committed as an image, and the figure comes from the code on the page, in the
page's namespace, run the way its doctest runs it. If the code fails or draws
nothing, the build warns at the cell.

Where ``jaxbook_measurements`` names a directory (as ``make html``, ``pdf`` and
``epub`` do), the images are kept there with the page's measurements, under the
same terms (:mod:`jaxbook.sphinxext.measured`): every later build of any format
shows them for as long as the page's code, the JAX and matplotlib releases and
the machine are the same, so the site, the PDF and the EPUB show one drawing.

On a MyST Markdown page it is written ```` ```{testplot} ````. Options are
those of ``testcode`` (``:skipif:``, ``:hide:``...) plus ``:alt:`` (the
image's text, translated with the page) and ``:caption:`` for the figure.

Config values: none. The images are PNG at ``DPI`` dots per inch.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
import shutil
import sys
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.ext.doctest import TestcodeDirective
from sphinx.util import logging

from jaxbook.doctest.pages import run_part
from jaxbook.sphinxext.measured import pages_of, record_key, write_whole

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

DPI = 144


class testplot_figure(nodes.General, nodes.Element):
    """Where the figure of the ``testplot`` cell before it goes, until the page is written.

    Its paragraph is the image's text and its caption the figure's, so that the page's
    catalog translates both.
    """


def caption_of(node: nodes.Node) -> str:
    caption = node.next_node(nodes.caption) if isinstance(node, nodes.Element) else None
    return caption.astext() if caption is not None else ""


def skip(self: Any, node: Any) -> None:
    raise nodes.SkipNode


def depart_nothing(self: Any, node: Any) -> None:
    """Never called: the visit skips the node."""


class TestplotDirective(TestcodeDirective):
    option_spec: ClassVar[dict[str, Any]] = {
        **TestcodeDirective.option_spec,
        "alt": directives.unchanged,
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        alt = self.options.pop("alt", "")
        caption = self.options.pop("caption", "")
        # The doctest builder knows the block by its directive name.
        self.name = "testcode"
        code_nodes = super().run()
        for node in code_nodes:
            if isinstance(node, nodes.literal_block):
                node["jaxbook_plot"] = True
        figure = testplot_figure()
        figure += nodes.paragraph(alt, alt)
        if caption:
            # Inline markup, as a figure's caption has (``code`` in it is code).
            text, messages = self.state.inline_text(caption, self.lineno)
            figure += nodes.caption(caption, "", *text)
            code_nodes.extend(messages)
        for node in figure.findall(nodes.Element):
            self.set_source_info(node)
        # An id, as a figure has one: numfig numbers it ("图 1"), and the figure drawn in
        # its place keeps it.
        self.state.document.set_id(figure)
        return [*code_nodes, figure]


def image_name(docname: str, number: int) -> str:
    return f"testplot-{re.sub(r'[^A-Za-z0-9]+', '-', docname)}-{number}.png"


def draw_figures(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if app.builder.format not in ("html", "latex"):
        return
    if not any(n.get("jaxbook_plot") for n in doctree.findall(nodes.literal_block)):
        return
    for page_name, page in pages_of(doctree, app.config, docname).items():
        if any(node.get("jaxbook_plot") for node in page):
            draw_page(app, page_name, page)


@dataclass
class Drawing:
    """What one run of a page's code drew: the images of each ``testplot`` cell."""

    images: dict[int, list[str]] = field(default_factory=dict)  # block index -> file names
    skipped: list[int] = field(default_factory=list)  # cells that their :skipif: left out
    reports: list[str] = field(default_factory=list)  # how the page's code failed, if it did


def drawing_key(app: Sphinx, docname: str, page: list[nodes.Element]) -> str:
    """What a kept drawing depends on: what a measurement does, and matplotlib's release."""
    measured = record_key(app, docname, page, set())
    return hashlib.sha256(json.dumps([measured, version("matplotlib"), DPI]).encode()).hexdigest()


def kept_drawing(store: Path, key: str, directory: Path) -> Drawing | None:
    """The drawing kept in ``store`` under ``key``, its images copied into ``directory``."""
    try:
        data = json.loads((store / "drawing.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if data.get("key") != key:
        return None
    drawing = Drawing({int(i): names for i, names in data["images"].items()}, data["skipped"])
    directory.mkdir(parents=True, exist_ok=True)
    try:
        for names in drawing.images.values():
            for name in names:
                shutil.copyfile(store / name, directory / name)
    except OSError:
        return None
    return drawing


def keep_drawing(store: Path, key: str, drawing: Drawing, directory: Path) -> None:
    for names in drawing.images.values():
        for name in names:
            write_whole(store / name, (directory / name).read_bytes())
    record = {"key": key, "images": drawing.images, "skipped": drawing.skipped}
    write_whole(store / "drawing.json", json.dumps(record, indent=1).encode())


def draw(app: Sphinx, docname: str, page: list[nodes.Element], directory: Path) -> Drawing:
    """Run the page, saving what each ``testplot`` cell drew right after it ran."""
    plots = [i for i, node in enumerate(page) if node.get("jaxbook_plot")]
    drawing = Drawing()
    shown: set[int] = set()
    # Another page's figures are not this page's (the book's global cleanup closes them).
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        pyplot.close("all")

    def save(block: int, namespace: dict) -> None:
        """After a testplot cell: every figure open and not shown by an earlier one."""
        if block not in plots:
            return
        from matplotlib import pyplot

        drawing.images[block] = []
        for number in pyplot.get_fignums():
            if number in shown:
                continue
            shown.add(number)
            name = image_name(docname, len(shown))
            directory.mkdir(parents=True, exist_ok=True)
            pyplot.figure(number).savefig(directory / name, dpi=DPI)
            drawing.images[block].append(name)

    result, _nodes = run_part(app, docname, page, after=save)
    drawing.skipped = [block for block in plots if block in result.skipped]
    drawing.reports = list(result.reports)
    return drawing


def draw_page(app: Sphinx, docname: str, page: list[nodes.Element]) -> None:
    plots = [i for i, node in enumerate(page) if node.get("jaxbook_plot")]
    directory = Path(app.outdir) / ("_images" if app.builder.format == "html" else "")
    measurements = app.config.jaxbook_measurements
    store = Path(measurements) / f"{docname}.figures" if measurements else None
    key = drawing_key(app, docname, page) if store else ""
    drawing = kept_drawing(store, key, directory) if store else None
    if drawing is None:
        drawing = draw(app, docname, page, directory)
        complete = all(drawing.images.get(b) or b in drawing.skipped for b in plots)
        if store and complete:
            keep_drawing(store, key, drawing, directory)
    for block in plots:
        node = page[block]
        placeholder = node.next_node(testplot_figure, siblings=True, descend=False)
        assert placeholder is not None, "TestplotDirective puts a figure after its code"
        if block in drawing.skipped:
            placeholder.parent.remove(placeholder)  # its :skipif: says why it does not run here
            continue
        if not drawing.images.get(block):
            failed = "".join(f"\n{report}" for report in drawing.reports)
            logger.warning(
                "testplot: the cell drew no figure%s",
                f"; the page's code failed:{failed}" if failed else "",
                location=node,
                type="jaxbook",
                subtype="testplot",
            )
            placeholder.parent.remove(placeholder)
            continue
        figure = nodes.figure(classes=["jb-testplot"], ids=placeholder["ids"])
        alt_text = placeholder.next_node(nodes.paragraph)
        assert alt_text is not None, "TestplotDirective gives the figure its alt text paragraph"
        alt = alt_text.astext()
        for name in drawing.images[block]:
            if app.builder.format == "html":
                here = posixpath.dirname(docname) or "."
                uri = posixpath.relpath(f"_images/{name}", here)
            else:
                uri = name
            figure += nodes.image(uri=uri, alt=alt, candidates={"?": uri})
        figure += [child for child in placeholder.children if isinstance(child, nodes.caption)]
        placeholder.replace_self(figure)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("sphinx.ext.doctest")
    app.setup_extension("jaxbook.sphinxext.measured")
    app.add_directive("testplot", TestplotDirective, override=True)
    # A figure of the book, numbered with the others; builders that do not draw (text,
    # gettext's readers) leave it out.
    app.add_enumerable_node(
        testplot_figure,
        "figure",
        caption_of,
        html=(skip, depart_nothing),
        latex=(skip, depart_nothing),
        text=(skip, depart_nothing),
        man=(skip, depart_nothing),
        texinfo=(skip, depart_nothing),
    )
    # After the measured outputs (which replace nodes of the page), before the notebooks.
    app.connect("doctree-resolved", draw_figures, priority=450)
    return {
        "version": "2.0",
        "env_version": 1,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
