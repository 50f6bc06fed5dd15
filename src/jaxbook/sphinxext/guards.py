"""Build-time checks that keep every code cell honest.

Each finding is a warning with the block's location, so ``--fail-on-warning``
turns it into a failed build:

- a literal block that is not a doctest but holds ``>>>`` prompts (doctest
  would skip it silently, so its output would never be checked);
- an expected output with a line that is nothing but the ``...`` wildcard
  (a wildcard may stand for a timing or an address, never for a whole line);
- a ``testcode`` and the ``testoutput`` that answers it with different
  ``:skipif:`` conditions (one would run without the other), except the
  per-backend outputs of a cell (``not ON_TPU``, ``not (ON_CPU or ON_GPU)``;
  ``jaxbook.sphinxext.backend_tabs`` skips the cell where none holds);
- page code that calls ``jax.config.update``: the setting would outlive the
  page and change the next one, so such demos belong in a ``snippet``;
- page code that starts a process with ``subprocess.run`` without a
  ``timeout=``: a hanging snippet must be stopped, with its name.

Config values: none.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util import logging

from jaxbook.backends import backends_of
from jaxbook.sphinxext import PARALLEL_SAFE
from pagerun.pages import doctest_kind, doctest_nodes_of, tested_kind

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

PROMPT = re.compile(r"^\s*>>>( |$)", re.MULTILINE)
WHOLE_LINE_WILDCARD = re.compile(r"^\s*\.\.\.\s*$", re.MULTILINE)
CONFIG_UPDATE = re.compile(r"\bjax\.config\.update\s*\(")
SUBPROCESS_RUN = re.compile(r"\bsubprocess\.run\s*\(")


def _warn(node: nodes.Element, message: str, *args: object) -> None:
    logger.warning(message, *args, location=node, type="jaxbook", subtype="guards")


def check_code_cells(app: Sphinx, doctree: nodes.document) -> None:
    for block in doctree.findall(nodes.literal_block):
        if doctest_kind(block) is None and PROMPT.search(block.astext()):
            _warn(
                block,
                "code block with '>>>' prompts is not a doctest and would never run; "
                "use '.. doctest::' (or testcode/testoutput)",
            )
    previous_code: nodes.Element | None = None
    for node in doctest_nodes_of(doctree, app.config):
        kind = tested_kind(node)  # a ">>>" block is tested as a doctest directive is
        if kind == "testoutput":
            if WHOLE_LINE_WILDCARD.search(node.astext()):
                _warn(
                    node,
                    "expected output has a line that is only the '...' wildcard; "
                    "match the real output and keep wildcards for varying parts",
                )
            backend_variant = (
                previous_code is not None and backends_of(node.get("skipif")) is not None
            )
            if (
                previous_code is not None
                and previous_code.get("skipif") != node.get("skipif")
                and not backend_variant
            ):
                _warn(
                    node,
                    "testoutput has :skipif: %r but its testcode has %r",
                    node.get("skipif"),
                    previous_code.get("skipif"),
                )
            if not backend_variant:
                previous_code = None
        elif kind in {"testcode", "doctest"}:
            previous_code = node if kind == "testcode" else None
            if SUBPROCESS_RUN.search(node.astext()) and "timeout=" not in node.astext():
                _warn(
                    node,
                    "page code runs subprocess.run without timeout=; a hanging script "
                    "would stall the doctests instead of failing with its name",
                )
            if CONFIG_UPDATE.search(node.astext()):
                _warn(
                    node,
                    "page code calls jax.config.update, which would leak into the pages "
                    "that follow; run it in a fresh interpreter with '.. snippet::'",
                )


def setup(app: Sphinx) -> ExtensionMetadata:
    # The cells are sphinx.ext.doctest's, found by its settings (doctest_test_doctest_blocks).
    app.setup_extension("sphinx.ext.doctest")
    app.connect("doctree-read", check_code_cells)
    return {"version": "1.0", **PARALLEL_SAFE}
