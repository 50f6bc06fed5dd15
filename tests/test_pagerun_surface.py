"""The book and the lab use pagerun through its public surface: the names each of its
modules lists in ``__all__``. pagerun is a distribution of its own, which another book
may install; what its modules do not list (its ``_compat``, a module's helpers) may
change in any release. import-linter keeps both packages from importing ``pagerun._compat``
(``pyproject.toml``); this test reads their syntax trees for the names they take from
pagerun's modules, whether imported by name (``from pagerun.engine import PageRun``) or
read from a module imported whole (``from pagerun import kernel``, then ``kernel.ask``).
The lab's sources are read as text: the book's tests import nothing of it."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import pagerun

ROOT = Path(__file__).resolve().parents[1]
USERS = [ROOT / "src" / "jaxbook", ROOT / "packages" / "jaxbook-lab" / "src" / "jaxbook_lab"]


def is_module(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def taken(tree: ast.Module) -> Iterator[tuple[int, str, str]]:
    """(line, module, name) for each name ``tree`` takes from a module of pagerun."""
    modules: dict[str, str] = {}  # a local name bound to a module of pagerun -> the module
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "pagerun":
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                if is_module(submodule):
                    modules[alias.asname or alias.name] = submodule
                else:
                    yield node.lineno, node.module or "", alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "pagerun" and alias.asname:
                    modules[alias.asname] = alias.name
    for node in ast.walk(tree):
        named = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        if named and node.value.id in modules:
            yield node.lineno, modules[node.value.id], node.attr


def uses() -> list[tuple[str, str, str]]:
    found = []
    for package in USERS:
        for path in sorted(package.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for line, module, name in taken(tree):
                found.append((f"{path.relative_to(ROOT)}:{line}", module, name))
    return found


def test_the_book_and_the_lab_take_only_what_pagerun_lists_as_public():
    found = uses()
    # The scan finds what it is for: the book's run of pages, the lab's bundle.
    assert ("pagerun.engine", "PageRun") in {(module, name) for _, module, name in found}
    assert ("pagerun.kernel", "ask") in {(module, name) for _, module, name in found}
    outside = [
        f"{place}: {module}.{name}"
        for place, module, name in found
        if name not in getattr(importlib.import_module(module), "__all__", ())
    ]
    assert not outside, "names pagerun does not list in __all__:\n" + "\n".join(outside)


def public_modules() -> list[str]:
    """pagerun's modules that another project may import: all but the underscored."""
    return sorted(
        module.name
        for module in pkgutil.walk_packages(pagerun.__path__, "pagerun.")
        if not any(part.startswith("_") for part in module.name.split("."))
    )


@pytest.mark.parametrize("module", public_modules())
def test_every_public_module_of_pagerun_lists_its_public_names(module):
    imported = importlib.import_module(module)
    assert [name for name in imported.__all__ if not hasattr(imported, name)] == []


def test_a_private_name_taken_from_pagerun_is_found():
    tree = ast.parse(
        "from pagerun import kernel\nfrom pagerun.engine import EXCEPTION\nkernel._stop()\n"
    )
    assert set(taken(tree)) == {(2, "pagerun.engine", "EXCEPTION"), (3, "pagerun.kernel", "_stop")}
