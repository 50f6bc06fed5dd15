"""The package's index of extensions names each module that conf.py loads, and no other."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import jaxbook.sphinxext

ROOT = Path(__file__).resolve().parents[2]


def test_the_index_lists_the_extensions_conf_py_loads():
    conf = ast.parse((ROOT / "conf.py").read_text(encoding="utf-8"))
    extensions = next(
        node.value
        for node in conf.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "extensions"
    )
    # With those conf.py adds for a tag (the guides' site: extensions.append(...)).
    appended = [
        node.args[0]
        for node in ast.walk(conf)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "append"
        and getattr(node.func.value, "id", "") == "extensions"
    ]
    loaded = {e.value for e in [*extensions.elts, *appended] if e.value.startswith("jaxbook.")}
    listed = set(re.findall(r":mod:`(jaxbook\.[\w.]+)`", jaxbook.sphinxext.__doc__))
    modules = {
        f"jaxbook.sphinxext.{path.stem}"
        for path in Path(jaxbook.sphinxext.__file__).parent.glob("[!_]*.py")
    }
    assert listed == loaded == modules
