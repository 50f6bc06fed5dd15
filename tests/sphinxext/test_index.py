"""The indexes of extensions (the book's package's, the lab's report's) name each module of
theirs that conf.py loads, and no other."""

from __future__ import annotations

import ast
import pkgutil
import re
from pathlib import Path

import jaxbook.sphinxext
import jaxbook_lab.sphinxext

ROOT = Path(__file__).resolve().parents[2]


def loaded_by_conf_py() -> set[str]:
    """Every extension conf.py loads: its list, and those it adds for a tag (the guides' site:
    ``extensions.append(...)``, ``extensions += [...]``)."""
    conf = ast.parse((ROOT / "conf.py").read_text(encoding="utf-8"))
    extensions = next(
        node.value
        for node in conf.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "extensions"
    )
    assert isinstance(extensions, ast.List)
    added = [*extensions.elts]
    for node in ast.walk(conf):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "append"
            and getattr(node.func.value, "id", "") == "extensions"
        ):
            added.append(node.args[0])
        elif (
            isinstance(node, ast.AugAssign)
            and getattr(node.target, "id", "") == "extensions"
            and isinstance(node.value, ast.List)
        ):
            added += node.value.elts
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


def test_the_labs_index_lists_the_extensions_of_its_report_that_conf_py_loads():
    """The lab's report in the guides: conf.py loads each of its extensions (tag guides)."""
    listed, loaded, modules = index_loaded_and_modules(jaxbook_lab.sphinxext)
    assert listed == loaded == modules
    assert loaded  # the guides load the lab's report
