"""A doctested code cell whose figure is drawn from that same code at build time.

``.. testplot::`` is a ``testcode`` block (so ``make doctest`` runs it, and a
following ``testoutput`` checks what it prints) that is also handed to
Matplotlib's ``plot`` directive, which executes it while the page is read
and inserts the figure after the code. Nothing is committed as an image.

On a MyST Markdown page it is written ```` ```{testplot} ````. The plot
directive adds its figure by inserting reST into the parser's input, which
MyST's directive machinery cannot do; there the inserted reST is parsed on its
own and its nodes follow the code.

Options are those of ``testcode`` (``:skipif:``, ``:hide:``...) plus
``:alt:`` and ``:caption:`` for the figure.

Config values: those of ``matplotlib.sphinxext.plot_directive``
(``plot_formats``, ``plot_html_show_formats``...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from docutils.parsers.rst import Parser as RstParser
from docutils.parsers.rst import directives
from docutils.utils import new_document
from matplotlib.sphinxext.plot_directive import PlotDirective
from sphinx.ext.doctest import TestcodeDirective

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


class TestplotDirective(TestcodeDirective):
    option_spec: ClassVar[dict[str, Any]] = {
        **TestcodeDirective.option_spec,
        "alt": directives.unchanged,
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        test_options = {k: v for k, v in self.options.items() if k not in {"alt", "caption"}}
        plot_options = {k: v for k, v in self.options.items() if k in {"alt", "caption"}}
        self.options = test_options
        # The doctest builder knows the block by its directive name.
        self.name = "testcode"
        code_nodes = super().run()
        plot = PlotDirective(
            "plot",
            [],
            {**plot_options, "include-source": False, "show-source-link": False},
            self.content,
            self.lineno,
            self.content_offset,
            self.block_text,
            self.state,
            self.state_machine,
        )
        return [*code_nodes, *self.run_plot(plot)]

    def run_plot(self, plot: PlotDirective) -> list[nodes.Node]:
        # MyST's mock state machine raises its own error for what it lacks.
        if "insert_input" in dir(type(self.state_machine)):
            return plot.run()
        inserted: list[tuple[list[str], str]] = []
        self.state_machine.insert_input = lambda lines, source: inserted.append((lines, source))
        try:
            result = plot.run()
        finally:
            del self.state_machine.insert_input
        for lines, source in inserted:
            document = new_document(source, self.state.document.settings)
            RstParser().parse("\n".join(lines), document)
            result.extend(document.children)
        return result


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("sphinx.ext.doctest")
    app.setup_extension("matplotlib.sphinxext.plot_directive")
    app.add_directive("testplot", TestplotDirective, override=True)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
