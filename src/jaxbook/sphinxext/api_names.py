"""The API names and environment variables the prose recommends, checked against the installed JAX.

On ``doctree-read``, each inline literal of a page that names JAX API (``jax.…``, ``jnp.…``)
or a JAX or XLA environment variable (``JAX_…``, ``XLA_…``) must exist in the JAX the build
runs with and must not be deprecated. The role ``:old-name:`jax.get_device(x)``` marks a name
the text presents as old, which must be missing or deprecated. A failure is a warning at the
literal (type ``jaxbook``, subtype ``api_names``), so ``-W`` fails the build.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util import logging

from jaxbook.doctest import jax_names
from jaxbook.sphinxext import PARALLEL_SAFE
from pagerun import kernel

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

NAME = re.compile(r"(?:jax|jnp)(?:\.[A-Za-z_]\w*)+")
VARIABLE = re.compile(r"(?:JAX|XLA)_[A-Z0-9_]+(?==|$)")
# Answered in the build's kernel (pagerun.kernel.ask), where the pages run: the build's
# process never imports JAX. Each answer is kept for the process.
JAX_NAMES = jax_names.__name__


@cache
def name_problem(name: str) -> str | None:
    """Why ``name`` is not a current JAX API (None when it is): it is missing, or in JAX's
    deprecation machinery (its module's ``_deprecations``, or a warning when looked up)."""
    return kernel.ask(JAX_NAMES, "name_problem", name)


@cache
def variable_problem(variable: str) -> str | None:
    """Why ``variable`` is not read, or is deprecated, in the installed JAX (None when fine).

    Read means a JAX configuration option, or its name quoted in the Python sources of
    ``jax`` or ``jaxlib``; deprecated, that a line there that names it says so.
    """
    return kernel.ask(JAX_NAMES, "variable_problem", variable)


def problem(text: str) -> tuple[str, str | None] | None:
    """(what the literal names, why it is not current) for a literal that names JAX API."""
    if match := VARIABLE.match(text):
        return match[0], variable_problem(match[0])
    if match := NAME.match(text):
        return match[0], name_problem(match[0])
    return None


def old_name_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``:old-name:``: inline code checked the other way round (a wrong quiz answer, a former
    address). A translation keeps the role and its text (``make check-po`` compares them),
    so every edition is checked alike."""
    node = nodes.literal(rawtext, text, classes=["jb-old-name"])
    node["jaxbook_old_name"] = True
    return [node], []


def check_names(app: Sphinx, doctree: nodes.document) -> None:
    """Warn at each inline literal that names JAX API wrongly (code blocks are checked by
    running them)."""
    for node in doctree.findall(nodes.literal):
        found = problem(node.astext())
        if found is None:
            continue
        name, why = found
        if node.get("jaxbook_old_name"):
            if why is None:
                logger.warning(
                    "%s is marked :old-name:, but it is current in the installed JAX",
                    name,
                    location=node,
                    type="jaxbook",
                    subtype="api_names",
                )
        elif why is not None:
            logger.warning(
                "%s (mark a name the text presents as old with :old-name:)",
                why,
                location=node,
                type="jaxbook",
                subtype="api_names",
            )


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_role("old-name", old_name_role)
    app.connect("doctree-read", check_names)
    return {"version": "1.0", **PARALLEL_SAFE}
