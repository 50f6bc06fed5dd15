"""The labels a package's modules translate, read from their source: every ``_("...")``
(``ngettext``, ``N_``, ``gettext_noop``) of a module that takes those names from the
package's catalog module. The book's tests and the lab's hold each catalog to its labels:
every one translated, none that nothing uses."""

from __future__ import annotations

import ast
from pathlib import Path

# gettext_noop: a label kept in data (the edition statements), looked up as _().
TRANSLATING = ("_", "ngettext", "N_", "gettext_noop")


def labels_in(modules: list[Path], catalog_module: str) -> set[str]:
    """Every ``_("...")`` (``ngettext``, ``N_``, ``gettext_noop``) of those ``modules`` that
    take their translating names from ``catalog_module`` (or are it)."""
    found: set[str] = set()
    for module in modules:
        tree = ast.parse(module.read_text(encoding="utf-8"))
        own = module.with_suffix("").parts[-len(catalog_module.split(".")) :]
        imports = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == catalog_module
            for alias in node.names
        }
        if own != tuple(catalog_module.split(".")) and not imports & set(TRANSLATING):
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in TRANSLATING
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.add(node.args[0].value)
    return found
