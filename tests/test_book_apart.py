"""The book never uses the lab: no module of ``jaxbook`` imports ``jaxbook_lab`` (import-linter's
contract, ``make lint``), nor names a file or module of it in code, to read it as a file.

What the lab needs of the book's tools it declares itself: its catalog's template through
``jaxbook.sphinxext.interface.add_package_template``, its catalogs' place in
``pyproject.toml`` (``[tool.jaxbook] package-catalogs``). A docstring or a comment may
speak of the lab; a string the code uses may not."""

from __future__ import annotations

import ast
from pathlib import Path

import jaxbook
from jaxbook.sphinxext import interface

BOOK = Path(jaxbook.__file__).resolve().parent
LAB = "jaxbook_lab"


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the nodes that are a module's, a class's or a function's docstring."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def lab_names_in(source: str) -> list[int]:
    """The lines of ``source`` where a string of its code (not a docstring) names the lab."""
    tree = ast.parse(source)
    skip = docstrings(tree)
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and LAB in node.value
        and id(node) not in skip
    ]


def test_no_module_of_the_book_names_the_lab_in_its_code():
    found = [
        f"{module.relative_to(BOOK.parent)}:{line}"
        for module in sorted(BOOK.rglob("*.py"))
        for line in lab_names_in(module.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_check_sees_a_path_of_the_lab_in_code_but_not_in_a_docstring():
    code = '"""Speaks of jaxbook_lab."""\nPATH = ROOT / "jaxbook_lab" / "x.py"\n'
    assert lab_names_in(code) == [2]
    assert lab_names_in('def f():\n    """Reads nothing of jaxbook_lab."""\n') == []


def test_the_extensions_template_is_made_of_the_books_files_only(tmp_path):
    """Every message of ``jaxbook.pot`` comes from a module of the book (the release notes'
    phrases from ``jaxbook/formats.py``), none from a file of the lab."""
    sources = {
        path for message in interface.extensions_catalog(tmp_path) for path, _ in message.locations
    }
    assert "jaxbook/formats.py" in sources
    assert sorted(path for path in sources if not path.startswith("jaxbook/")) == []
