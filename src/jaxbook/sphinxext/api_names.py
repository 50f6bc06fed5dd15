"""The API names and environment variables the prose recommends, checked against the installed JAX.

When a page is read, every inline literal of its prose (paragraphs, lists,
tables, notes; code blocks are checked by running them) that begins with a
name under JAX, ``jax.…`` or ``jnp.…`` (``jax.numpy``), or that is a JAX or
XLA environment variable, ``JAX_…`` or ``XLA_…`` (``=value`` allowed), is
resolved against the JAX the build runs with:

- a name must exist, and must not be in JAX's deprecation machinery (listed
  in its module's ``_deprecations``, or warning when it is looked up);
- a variable must be read by the installed ``jax`` or ``jaxlib`` (a JAX
  configuration option, or its name quoted in their Python sources) and no
  line that names it there may call it deprecated.

A name the text presents as old (a wrong quiz answer, a former address, a
deprecated spelling it warns against) is written with the role
``:old-name:`jax.get_device(x)```, which shows it as inline code and checks it
the other way round: it must be missing or deprecated. A translation keeps the
role and its text (``make check-po`` compares them), so the English edition is
checked as the Chinese one is.

A failure is a warning at the literal (``type="jaxbook"``,
``subtype="api_names"``), so ``-W`` fails the build.

Config values: none.
"""

from __future__ import annotations

import importlib
import re
import warnings
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util import logging

from jaxbook._compat import jax_deprecations
from jaxbook.sphinxext import PARALLEL_SAFE

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

NAME = re.compile(r"(?:jax|jnp)(?:\.[A-Za-z_]\w*)+")
VARIABLE = re.compile(r"(?:JAX|XLA)_[A-Z0-9_]+(?==|$)")
ALIASES = {"jnp": "jax.numpy"}


@cache
def name_problem(name: str) -> str | None:
    """Why ``name`` is not a current JAX API (None when it is)."""
    import jax

    head, *rest = name.split(".")
    path = ALIASES.get(head, head)
    obj = jax if path == "jax" else importlib.import_module(path)
    for part in rest:
        deprecations = jax_deprecations(obj) if isinstance(obj, type(jax)) else {}
        if part in deprecations:
            message = deprecations[part][0]
            return f"{path}.{part} is deprecated in JAX {jax.__version__}: {message}"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                obj = getattr(obj, part)
            except AttributeError:
                try:
                    obj = importlib.import_module(f"{path}.{part}")
                except ImportError:
                    return f"{path} has no {part} in JAX {jax.__version__}"
        if caught:
            return f"{path}.{part} warns in JAX {jax.__version__}: {caught[0].message}"
        path = f"{path}.{part}"
    return None


@cache
def _sources() -> list[str]:
    import jax
    import jaxlib

    files = []
    for package in (jax, jaxlib):
        assert package.__file__ is not None, "jax and jaxlib are packages with an __init__.py"
        for path in sorted(Path(package.__file__).parent.rglob("*.py")):
            files.append(path.read_text(encoding="utf-8", errors="replace"))
    return files


@cache
def variable_problem(variable: str) -> str | None:
    """Why ``variable`` is not read, or is deprecated, in the installed JAX (None when fine)."""
    import jax

    quoted = re.compile(rf"""['"]{variable}['"]""")
    # Only the files that hold the name are split and searched line by line: a regex search
    # of each of JAX's 450,000 lines took a second of each build process that reads the
    # book's pages (seven variables), and splitting them half a second more.
    readings = [
        line
        for text in _sources()
        if variable in text
        for line in text.splitlines()
        if quoted.search(line)
    ]
    # As jaxlib reads XLA_PYTHON_CLIENT_MEM_FRACTION: into deprecated_memory_fraction.
    if any("deprecat" in line.lower() for line in readings):
        return f"{variable} is deprecated in jax/jaxlib {jax.__version__}"
    if readings or variable.lower() in jax.config.values:
        return None
    return f"{variable} is read by neither jax nor jaxlib {jax.__version__}"


def problem(text: str) -> tuple[str, str | None] | None:
    """(what the literal names, why it is not current) for a literal that names JAX API."""
    if match := VARIABLE.match(text):
        return match[0], variable_problem(match[0])
    if match := NAME.match(text):
        return match[0], name_problem(match[0])
    return None


def old_name_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    node = nodes.literal(rawtext, text, classes=["jb-old-name"])
    node["jaxbook_old_name"] = True
    return [node], []


def check_names(app: Sphinx, doctree: nodes.document) -> None:
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
