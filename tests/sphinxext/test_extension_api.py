"""The extensions talk through public names, and declare the state they keep on ``env``.

For the extensions listed in ``CHECKED`` (the update notes and their evidence column):

- no module of the package reads a name beginning with ``_`` of one of them
  (``notes._tables(env)``, ``from ...notes import _notes``): another extension
  reads their data through a public query (``notes.rows``, ``notes.table_docnames``);
- each is safe for parallel reading and writing, as a test build's application
  recorded it.

Read with ``ast``. That every extension keeping state on ``env`` declares an
``env_version`` is ``tests/sphinxext/test_warning_kinds.py``'s.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "jaxbook"
CHECKED = ["jaxbook.sphinxext.notes", "jaxbook.sphinxext.evidence_column"]


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def private_reads(tree: ast.AST, targets: set[str]) -> list[str]:
    """``module._name`` for each target module that the tree imports and reads privately."""
    aliases: dict[str, str] = {}  # local name -> target module
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                whole = f"{node.module}.{alias.name}"
                if whole in targets:
                    aliases[alias.asname or alias.name] = whole
                elif node.module in targets and alias.name.startswith("_"):
                    found.append(f"{node.module}.{alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in targets and alias.asname:
                    aliases[alias.asname] = alias.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            dotted = ast.unparse(node.value)
            target = aliases.get(dotted, dotted if dotted in targets else None)
            if target and not node.attr.startswith("__"):
                found.append(f"{target}.{node.attr}")
    return found


def test_no_module_reads_a_private_name_of_another_extension():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        others = set(CHECKED) - {name}
        found += [f"{name}: {read}" for read in private_reads(tree, others)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "source",
    [
        "from jaxbook.sphinxext import notes\nnotes._tables(env)\n",
        "import jaxbook.sphinxext.notes\njaxbook.sphinxext.notes._notes(env)\n",
        "from jaxbook.sphinxext.notes import _tables\n",
    ],
)
def test_a_private_read_is_found(source):
    assert private_reads(ast.parse(source), {"jaxbook.sphinxext.notes"})


@pytest.mark.parametrize("name", CHECKED)
@pytest.mark.sphinx("html", testroot="evidence-column")
def test_the_checked_extensions_are_parallel_safe(app, name):
    extension = app.extensions[name]
    assert extension.parallel_read_safe is True
    assert extension.parallel_write_safe is True
