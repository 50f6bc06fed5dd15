"""Exercise self-checks: code a reader runs in the page's notebook, never printed on the page.

Adds the ``selfcheck`` directive (``.. selfcheck:: _selfcheck_e1.py``, a Python file
beside the page) and the ``selfcheck`` node, which every writer skips and the search
index leaves out. The code stays in the doctree, so it is translated like any code
block and the page's notebook (:mod:`jaxbook.sphinxext.notebooks`) makes it a code cell
that the reader runs below their answer.

Config values: none.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

from jaxbook._compat import doctest_node
from jaxbook.sphinxext import PARALLEL_SAFE

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


class selfcheck(nodes.General, nodes.Element):
    """An exercise's self-check: in the doctree (catalog, notebook, doctest), never written.

    Every writer skips it (HTML, hence the EPUB, LaTeX, text, man, Texinfo), so no page
    shows the code or its output; its literal block is a message of the page's catalog like
    any code block (``gettext_additional_targets``)."""


def _skip(_translator: object, _node: nodes.Node) -> None:
    raise nodes.SkipNode


class SelfcheckDirective(SphinxDirective):
    """``.. selfcheck:: <file>.py``, with ``:doctest:`` where an answer is defined above it.

    With ``:doctest:`` (on the answers page, after the reference answer) the block is also a
    ``testcode`` with no expected output, so ``make doctest`` passes it only if it raises and
    prints nothing. A self-check prints nothing when the answer passes, and raises an
    ``AssertionError`` saying what is wrong when it does not; ``tests/book/test_selfchecks.py``
    runs every chapter's self-checks on their reference answers and on no answer."""

    required_arguments = 1
    option_spec: ClassVar = {"doctest": directives.flag}

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        relative, absolute = self.env.relfn2path(name)
        if not name.endswith(".py") or not Path(absolute).is_file():
            raise self.error(f"selfcheck {name!r}: no Python file of that name beside the page")
        self.env.note_dependency(relative)
        code = Path(absolute).read_text(encoding="utf-8").rstrip("\n")
        if "doctest" in self.options:
            # What sphinx.ext.doctest's testcode directive makes, with no testoutput after it.
            block = doctest_node("testcode", code, hidden=False)
        else:
            block = nodes.literal_block(code, code, language="python")
        self.set_source_info(block)
        wrapper = selfcheck("", block, classes=["no-search"])
        self.set_source_info(wrapper)
        return [wrapper]


def setup(app: Sphinx) -> ExtensionMetadata:
    skip = (_skip, None)
    app.add_node(selfcheck, html=skip, latex=skip, text=skip, man=skip, texinfo=skip)
    app.add_directive("selfcheck", SelfcheckDirective)
    return {"version": "1.0", **PARALLEL_SAFE}
