"""Exercise self-checks: code a reader runs in the page's notebook, never printed on the page.

An exercise's self-check is a Python file beside its page, named by the page::

    .. selfcheck:: _selfcheck_e1.py

The file's code becomes a literal block inside a ``selfcheck`` node. Every
writer skips that node (HTML, hence the EPUB, LaTeX, text, man, Texinfo) and
the search index leaves it out, so the web pages, the PDF and the EPUB show
neither the code nor any output of it. The literal block stays in the doctree:
it is a message of the page's catalog like any code block
(``gettext_additional_targets``), so the English self-check has English
messages, and the page's notebook (:mod:`jaxbook.sphinxext.notebooks`) makes it
a code cell, which a reader runs below their answer.

With ``:doctest:`` (on the answers page, after the reference answer) the block
is also a ``testcode`` with no expected output: ``make doctest`` runs the
self-check on the reference answer in each language, and it passes only if it
raises nothing and prints nothing. Without it (on the exercises page, where no
answer exists) the block is not a doctest.

A self-check prints nothing when the answer passes, and an ``AssertionError``
that says what is wrong when it does not; ``tests/book/test_selfchecks.py`` runs
every chapter's files on their reference answers and on no answer, and each
chapter's ``tests/book/test_chNN_exercises.py`` on wrong answers.

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
    """An exercise's self-check: in the doctree (catalog, notebook, doctest), never written."""


def _skip(_translator: object, _node: nodes.Node) -> None:
    raise nodes.SkipNode


class SelfcheckDirective(SphinxDirective):
    """``.. selfcheck:: <file>.py``, with ``:doctest:`` where an answer is defined above it."""

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
