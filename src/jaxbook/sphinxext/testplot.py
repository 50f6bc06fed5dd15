"""A doctested code cell whose figure is drawn from that same code at build time.

``.. testplot::`` is a ``testcode`` block (so ``make doctest`` runs it, and a
following ``testoutput`` checks what it prints) that is also handed to
Matplotlib's ``plot`` directive, which executes it while the page is read
and inserts the figure after the code. Nothing is committed as an image.

Options are those of ``testcode`` (``:skipif:``, ``:hide:``...) plus
``:alt:`` and ``:caption:`` for the figure.

Config values: those of ``matplotlib.sphinxext.plot_directive``
(``plot_formats``, ``plot_html_show_formats``...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from docutils.parsers.rst import directives
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
        return [*code_nodes, *plot.run()]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("sphinx.ext.doctest")
    app.setup_extension("matplotlib.sphinxext.plot_directive")
    app.add_directive("testplot", TestplotDirective, override=True)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
