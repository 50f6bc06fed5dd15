"""The index of the book's extensions (``jaxbook.sphinxext``'s docstring) names each module of
the package that a conf.py loads (the book's, or the guides' own), and no other. (The lab's
report's index is the lab's tests': packages/jaxbook-lab/tests/sphinxext/test_index.py.)"""

from __future__ import annotations

import ast
import pkgutil
import re
from pathlib import Path

import jaxbook.sphinxext

ROOT = Path(__file__).resolve().parents[2]


# The book's conf.py, and the guides' (which reads the book's and adds their extensions).
CONF_FILES = (ROOT / "conf.py", ROOT / "guides" / "conf.py")


def loaded_by_conf_py() -> set[str]:
    """Every extension a conf.py of the project names: in its list (``extensions = [...]``,
    the guides' ``[*book's, ...]``) and in what it adds (``extensions.append(...)``,
    ``extensions += [...]``)."""
    added = []
    for path in CONF_FILES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Assign)
                and getattr(node.targets[0], "id", "") == "extensions"
                and isinstance(node.value, ast.List)
            ) or (
                isinstance(node, ast.AugAssign)
                and getattr(node.target, "id", "") == "extensions"
                and isinstance(node.value, ast.List)
            ):
                added += node.value.elts
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "append"
                and getattr(node.func.value, "id", "") == "extensions"
            ):
                added.append(node.args[0])
    return {e.value for e in added if isinstance(e, ast.Constant)}


def index_loaded_and_modules(package) -> tuple[set[str], set[str], set[str]]:
    """The extensions of ``package`` (a ``sphinxext`` package) that its docstring names, that
    conf.py loads, and that it holds."""
    prefix = f"{package.__name__.partition('.')[0]}."
    loaded = {e for e in loaded_by_conf_py() if e.startswith(prefix)}
    listed = set(re.findall(rf":mod:`({re.escape(prefix)}[\w.]+)`", package.__doc__))
    # A module or a package of modules (editions), not a shared helper (_nodes).
    modules = {
        f"{package.__name__}.{module.name}"
        for module in pkgutil.iter_modules(package.__path__)
        if not module.name.startswith("_")
    }
    return listed, loaded, modules


def test_the_index_lists_the_extensions_conf_py_loads():
    listed, loaded, modules = index_loaded_and_modules(jaxbook.sphinxext)
    assert listed == loaded == modules
