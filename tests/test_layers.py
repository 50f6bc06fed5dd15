"""The package's layers: no import circle, and no module that imports one above it.

Every module of ``src/jaxbook`` is read with ``ast``; every import in it
counts, at module level or inside a function (an import made lazy to keep
start-up fast is still a dependency), and so does an ``import_module`` or
``setup_extension`` call that names a module of the package in a string.
From bottom to top:

0. ``project``, ``files``, ``myst``, ``preflight``, ``chinese``, ``formats`` (the files
   that pass between the tools): the standard library only;
1. ``sphinxapp``: the book's Sphinx application, as every tool starts and reads it;
2. ``i18n``, then ``doctest`` (its tools write catalogs with
   ``i18n.pofile.save_wrapped``), then ``sphinxext`` (``measured`` runs page code
   with ``doctest.pages``; ``drift_report`` and ``evidence_column`` read the lab's
   files through ``formats``), then ``site``;
3. the lab: ``releases`` (release environments, drift and evidence: they run
   ``doctest``'s bundle) and ``bench`` (it times the site's builds and the live
   builder), which the book never imports;
4. ``cli`` and ``__main__``.

A module may import its own layer or any below it; the circle test keeps
imports within a layer honest.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "jaxbook"
ROOT = PACKAGE.name

# Bottom to top; a module belongs to the longest entry that names it or a package above
# it. "jaxbook" is the package's __init__ alone: a new top-level module needs a place here.
LAYERS: list[tuple[str, ...]] = [
    (
        ROOT,
        "jaxbook.project",
        "jaxbook.files",
        "jaxbook.myst",
        "jaxbook.preflight",
        "jaxbook.chinese",
        "jaxbook.formats",
    ),
    ("jaxbook.sphinxapp",),
    ("jaxbook.i18n",),
    ("jaxbook.doctest",),
    ("jaxbook.sphinxext",),
    ("jaxbook.site",),
    ("jaxbook.releases", "jaxbook.bench"),
    ("jaxbook.cli", "jaxbook.__main__"),
]
# (module, module it imports) that go up a layer on purpose, each with its reason; none today.
EXCEPTIONS: set[tuple[str, str]] = set()
DYNAMIC_IMPORTS = {"import_module", "setup_extension"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, path: Path) -> set[str]:
    """Every module that ``name`` imports, whatever the package: as written."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            # `from jaxbook.doctest import cache` imports the module jaxbook.doctest.cache.
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, (ast.Attribute, ast.Name))
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            in DYNAMIC_IMPORTS
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(node.args[0].value)
    return found


def graph() -> dict[str, set[str]]:
    """The imports between modules of the package: module -> the package's modules it imports."""
    known = modules()
    return {
        name: {other for other in imported(name, path) if other in known and other != name}
        for name, path in known.items()
    }


def layer(name: str) -> int:
    """The rank in ``LAYERS`` of the longest prefix that names the module."""
    matches = [
        (len(prefix), rank)
        for rank, prefixes in enumerate(LAYERS)
        for prefix in prefixes
        if name == prefix or (prefix != ROOT and name.startswith(prefix + "."))
    ]
    if not matches:
        raise AssertionError(f"{name}: in no layer; add it to LAYERS")
    return max(matches)[1]


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the modules around it (the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for other in sorted(edges[name]):
            if state.get(other) == 1:
                return [*path[path.index(other) :], other]
            if other not in state and (found := visit(other)):
                return found
        path.pop()
        state[name] = 2
        return None

    for name in sorted(edges):
        if name not in state and (found := visit(name)):
            return found
    return None


def upward(edges: dict[str, set[str]]) -> list[str]:
    return [
        f"{name} -> {other}"
        for name, others in sorted(edges.items())
        for other in sorted(others)
        if layer(other) > layer(name) and (name, other) not in EXCEPTIONS
    ]


def test_the_book_never_imports_the_lab():
    """The extensions and the site read the lab's files through jaxbook.formats alone."""
    edges = graph()
    found = sorted(
        f"{name} -> {other}"
        for name, others in edges.items()
        if name.startswith(("jaxbook.sphinxext", "jaxbook.site"))
        for other in others
        if other.startswith(("jaxbook.releases", "jaxbook.bench"))
    )
    assert not found, "the book imports the lab:\n" + "\n".join(found)


def test_every_module_has_a_layer():
    assert [name for name in modules() if layer_or_none(name) is None] == []


def test_no_import_circle():
    found = cycle(graph())
    assert found is None, "import circle: " + " -> ".join(found)


def test_no_module_imports_one_above_it():
    found = upward(graph())
    assert not found, "imports of a higher layer:\n" + "\n".join(found)


def test_the_bottom_layer_needs_the_standard_library_only():
    known = modules()
    outside = sorted(
        f"{name} -> {other}"
        for name, path in known.items()
        if layer(name) == 0
        for other in imported(name, path)
        if other.split(".")[0] not in sys.stdlib_module_names and layer_or_none(other) != 0
    )
    assert not outside, "not the standard library:\n" + "\n".join(outside)


def layer_or_none(name: str) -> int | None:
    try:
        return layer(name)
    except AssertionError:
        return None


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import jaxbook.site.live\n", {"jaxbook.site.live"}),
        ("def f():\n    from jaxbook.site import live\n", {"jaxbook.site", "jaxbook.site.live"}),
        ("from ..site.live import x\n", {"jaxbook.site.live", "jaxbook.site.live.x"}),
        ("importlib.import_module('jaxbook.site.live')\n", {"jaxbook.site.live"}),
    ],
)
def test_every_kind_of_import_is_read(tmp_path, source, expected):
    path = tmp_path / "units.py"
    path.write_text(source, encoding="utf-8")
    assert imported("jaxbook.doctest.units", path) == expected


def test_a_circle_and_an_upward_import_are_found():
    edges = {
        "jaxbook.i18n.catalogs": {"jaxbook.i18n.check"},
        "jaxbook.i18n.check": {"jaxbook.i18n.catalogs"},
        "jaxbook.doctest.units": {"jaxbook.site.live"},
        "jaxbook.site.live": set(),
    }
    assert cycle(edges) == ["jaxbook.i18n.catalogs", "jaxbook.i18n.check", "jaxbook.i18n.catalogs"]
    assert upward(edges) == ["jaxbook.doctest.units -> jaxbook.site.live"]
