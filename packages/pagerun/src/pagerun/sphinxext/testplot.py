"""A doctested code cell whose figure is drawn from that same code when the page is written.

``.. testplot::`` (```` ```{testplot} ```` in MyST) is a ``testcode`` block, run by
``make doctest``, followed by a figure; it takes ``testcode``'s options plus ``:alt:`` (the
image's text, translated with the page) and ``:caption:``. The page's code runs once, while
the page is read (:mod:`pagerun.sphinxext.run`); a post-transform then shows the pyplot
figures the cell opened in every builder's figure. This extension only renders: it runs
nothing. The figure's class is ``pagerun-figure`` (see pagerun's README).

Config values:

``pagerun_printed_nodes``
   Default ``[]``. Node classes (``"module:Class"``) that, besides a ``testoutput``, hold
   what a cell printed: its figure goes after them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.ext.doctest import TestcodeDirective
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from pagerun._compat import doctest_kind, run_as_doctest_directive
from pagerun.kernel import called
from pagerun.pages import TreeRuns
from pagerun.sphinxext import PARALLEL_SAFE, run

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["setup", "testplot_figure"]

logger = logging.getLogger(__name__)


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
        run_as_doctest_directive(self, "testcode")
        code_nodes = super().run()
        for node in code_nodes:
            if isinstance(node, nodes.literal_block):
                node["pagerun_plot"] = True
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


class ShowFigures(SphinxPostTransform):
    """Each ``testplot`` cell's figure, from the images its page's run saved.

    Right after the cell, the run saved the pyplot figures it opened as PNG images: nothing
    is committed as an image, and the figure comes from the code on the page, run the way
    its doctest runs it. A cell that fails or draws nothing gets a warning instead.
    """

    # After the measured outputs (pagerun.sphinxext.measured, 900), before every reader of
    # the resolved tree.
    default_priority = 910
    formats = ("html", "latex")

    def run(self, **kwargs: Any) -> None:
        plots = [n for n in self.document.findall(nodes.literal_block) if n.get("pagerun_plot")]
        if not plots:
            return
        runs = TreeRuns(self.env, self.document)
        # Each "module:Class" of pagerun_printed_nodes, a node class.
        printed_nodes = tuple(cast(type, called(n)) for n in self.config.pagerun_printed_nodes)
        for node in plots:
            placeholder = node.next_node(testplot_figure, siblings=True, descend=False)
            assert placeholder is not None, "TestplotDirective puts a figure after its code"
            ran = runs.cell(node)
            # Not run by this build (pagerun_run), or its :skipif: says why it does not run here.
            if ran is None or ran[1] in ran[0].run.skipped:
                placeholder.parent.remove(placeholder)
                continue
            record, block = ran
            images = record.figures.get(block, [])
            if not images:
                failed = "; the page's code failed" if record.failed else ""
                logger.warning(
                    "testplot: the cell drew no figure%s",
                    failed,
                    location=node,
                    type="pagerun",
                    subtype="testplot",
                )
                placeholder.parent.remove(placeholder)
                continue
            figure = nodes.figure(classes=["pagerun-figure"], ids=placeholder["ids"])
            alt_text = placeholder.next_node(nodes.paragraph)
            assert alt_text is not None, "TestplotDirective gives the figure its alt text paragraph"
            for path in images:
                # The run registered each file as the page's image: each builder copies it.
                figure += nodes.image(uri=path, alt=alt_text.astext(), candidates={"*": path})
            figure += [child for child in placeholder.children if isinstance(child, nodes.caption)]
            placeholder.replace_self(figure)
            _after_the_output(figure, printed_nodes)


def _after_the_output(figure: nodes.figure, printed_nodes: tuple[type, ...]) -> None:
    """The figure goes after what its cell prints (the output, or a node of
    ``pagerun_printed_nodes`` that holds it): between the two it parted the code from its
    output, and on paper an output's label from the output."""
    parent = figure.parent
    assert parent is not None
    index = parent.index(figure)
    last = index
    for sibling in parent.children[index + 1 :]:
        printed = isinstance(sibling, printed_nodes) or (
            isinstance(sibling, nodes.literal_block) and doctest_kind(sibling) == "testoutput"
        )
        if not printed:
            break
        last += 1
    if last > index:
        parent.remove(figure)
        parent.insert(last, figure)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension(run.__name__)  # the run it shows
    app.add_config_value("pagerun_printed_nodes", [], "html", types=frozenset({list, tuple}))
    app.add_directive("testplot", TestplotDirective)
    # A figure of the project, numbered with the others; builders that do not draw (text,
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
    # After the measured outputs (which replace nodes of the page), before the readers of
    # the resolved tree.
    app.add_post_transform(ShowFigures)
    return {"version": "3.0", "env_version": 1, **PARALLEL_SAFE}
