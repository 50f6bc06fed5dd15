"""List the imports between the parts of the ``jaxbook`` package, and those that go upward.

    python tools/layers.py [src/jaxbook]

A part is a subpackage (``jaxbook.doctest``) or a top-level module
(``jaxbook.project``). ``LAYERS`` is the intended order, bottom first: a part
may import the parts of its own layer and of the layers below it. Each import
from one part into another is printed once per pair of modules, marked
``function`` when it is made inside a function (it runs only when that function
is called) and ``typing`` when it is made only for the type checker; one that
goes upward is marked ``UP``. Then every two modules, and every two parts,
that import each other, in any form, are printed as a circle. The command line
(``jaxbook.cli``) imports its subcommands by name, with :mod:`importlib`, so it
shows no edges here.

It reads the source with :mod:`ast` and imports nothing. ``dev/layers.md``
states what it prints.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

# Bottom first. The root package (``jaxbook``, its ``__init__``) is below all.
LAYERS: list[set[str]] = [
    {"jaxbook.project", "jaxbook.files", "jaxbook.myst", "jaxbook.preflight"},
    {"jaxbook.i18n"},
    {"jaxbook.doctest"},
    {"jaxbook.sphinxext"},
    {"jaxbook.site"},
    {"jaxbook.bench"},
    {"jaxbook.cli", "jaxbook.__main__"},
]


def module_name(path: Path, package: Path) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def part(module: str) -> str:
    return ".".join(module.split(".")[:2])


def layer(module: str) -> int:
    if module == "jaxbook":
        return -1
    return next(i for i, members in enumerate(LAYERS) if part(module) in members)


def imports(path: Path, module: str, modules: set[str]) -> set[tuple[str, str]]:
    """The ``jaxbook`` modules that ``path`` imports, each with how: "", function, typing."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    how: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                how.setdefault(id(inner), "function")
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                for nested in ast.walk(inner):
                    how[id(nested)] = "typing"
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            # ``from jaxbook import project`` imports the module jaxbook.project.
            names = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
            names = names or [base]
        else:
            continue
        for name in names:
            if name.split(".")[0] != "jaxbook":
                continue
            while name not in modules:
                name = name.rpartition(".")[0]
            if name != module:
                found.add((name, how.get(id(node), "")))
    return found


def main(argv: list[str]) -> int:
    package = Path(argv[0] if argv else "src/jaxbook")
    paths = {module_name(p, package): p for p in sorted(package.rglob("*.py"))}
    edges = {m: imports(p, m, set(paths)) for m, p in sorted(paths.items())}
    upward = 0
    for module, targets in edges.items():
        for target, how in sorted(targets):
            if part(target) == part(module):
                continue
            up = layer(target) > layer(module)
            upward += up
            marks = " ".join(m for m in (how, "UP" if up else "") if m)
            print(f"{module} -> {target}" + (f"  ({marks})" if marks else ""))
    print(f"{upward} upward import(s)")
    pairs = {(m, t) for m, targets in edges.items() for t, _ in targets}
    parts = {(part(m), part(t)) for m, t in pairs if part(m) != part(t)}
    for a, b in sorted(pairs | parts):
        if a < b and (b, a) in pairs | parts:
            print(f"circle: {a} <-> {b}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
