"""Report a failing ``testcode`` block at its own line.

``sphinx.ext.doctest`` builds each ``testcode`` example with the block's line
both as the test's line and as the example's offset inside it, so doctest's
report (``test line + example offset + 1``) points at about twice the real
line. This module overrides the ``doctest`` builder so that such an example
counts from the block itself and the report names the ``.. testcode::``
directive's line, the same convention as a ``.. doctest::`` block's first
example.

Config values: none.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from sphinx.ext.doctest import DocTestBuilder, SphinxDocTestRunner

if TYPE_CHECKING:
    import doctest

    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


class LineAccurateRunner(SphinxDocTestRunner):
    def _failure_header(self, test: doctest.DocTest, example: doctest.Example) -> str:
        if len(test.examples) == 1 and test.lineno is not None and example.lineno == test.lineno:
            example = copy.copy(example)
            example.lineno = 0
        # typeshed's doctest stub leaves out DocTestRunner's private _failure_header.
        return super()._failure_header(test, example)  # type: ignore[misc]


class LineAccurateDocTestBuilder(DocTestBuilder):
    """The stock builder, with a runner that reports ``testcode`` lines correctly."""

    @property
    def test_runner(self) -> SphinxDocTestRunner:
        return self._test_runner

    @test_runner.setter
    def test_runner(self, runner: SphinxDocTestRunner) -> None:
        runner.__class__ = LineAccurateRunner
        self._test_runner = runner


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("sphinx.ext.doctest")
    app.add_builder(LineAccurateDocTestBuilder, override=True)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
