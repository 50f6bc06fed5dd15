"""The package's index of extensions names each module that conf.py loads, and no other."""

from __future__ import annotations

import ast
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


def test_the_index_lists_the_extensions_conf_py_loads():
    loaded = {e for e in loaded_by_conf_py() if e.startswith("jaxbook.")}
    listed = set(re.findall(r":mod:`(jaxbook\.[\w.]+)`", jaxbook.sphinxext.__doc__))
    modules = {
        f"jaxbook.sphinxext.{path.stem}"
        for path in Path(jaxbook.sphinxext.__file__).parent.glob("[!_]*.py")
    }
    assert listed == loaded == modules


def test_the_labs_index_lists_the_extensions_of_its_report_that_conf_py_loads():
    """The lab's report in the guides: conf.py loads each of its extensions (tag guides)."""
    loaded = {e for e in loaded_by_conf_py() if e.startswith("jaxbook_lab.")}
    listed = set(re.findall(r":mod:`(jaxbook_lab\.[\w.]+)`", jaxbook_lab.sphinxext.__doc__))
    modules = {
        f"jaxbook_lab.sphinxext.{path.stem}"
        for path in Path(jaxbook_lab.sphinxext.__file__).parent.glob("[!_]*.py")
    }
    assert listed == loaded == modules
    assert loaded  # the guides load the lab's report
