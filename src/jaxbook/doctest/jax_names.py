"""What the installed JAX has: the answers behind the prose's checks of the names it gives.

The build's process never imports JAX: ``jaxbook.sphinxext.api_names`` (is a
name current, is a variable read) and ``jaxbook.sphinxext.book_index`` (which
option, module attribute or array attribute a literal names) ask these
functions in the build's kernel (:func:`pagerun.kernel.ask`), where
the pages run, which imports JAX once for both. Each takes and returns plain
values (text, booleans, a set of text), and keeps its answers for the kernel's
life.

This module imports no Sphinx and nothing of the book's project; JAX's
private names it reads are in :mod:`jaxbook._compat`.
"""

from __future__ import annotations

import importlib
import re
import warnings
from functools import cache
from pathlib import Path

from jaxbook._compat import jax_array_class, jax_deprecations

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
    # Only the files that hold the name are split and searched line by line: a search of
    # each of JAX's lines would cost every build process that reads the book's pages.
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


@cache
def module_attribute(module: str, name: str) -> bool:
    """Whether the JAX module ``module`` has the public attribute ``name``."""
    return not name.startswith("_") and hasattr(importlib.import_module(module), name)


@cache
def options() -> set[str]:
    """The names of JAX's configuration options (``jax_enable_x64``...)."""
    import jax

    return set(jax.config.values)


@cache
def option_of(name: str) -> str | None:
    """The configuration option that ``name`` is the context manager of (JAX 0.12's
    ``jax.threefry_partitionable`` is the option ``jax_threefry_partitionable``), or None."""
    import jax

    head, *rest = name.split(".")
    if head != "jax" or len(rest) != 1:
        return None
    option = getattr(getattr(jax, rest[0], None), "name", None)
    return option if isinstance(option, str) and option in options() else None


@cache
def array_attribute(name: str) -> bool:
    """Whether arrays have ``name`` (the implementation has what the abstract class lacks),
    asked of their class: an array would start a backend."""
    return not name.startswith("_") and hasattr(jax_array_class(), name)
