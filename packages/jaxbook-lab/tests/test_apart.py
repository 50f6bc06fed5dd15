"""The lab's tests take nothing of the book's tests: what the two suites share is the book's
pytest plugin, ``jaxbook.testing`` (``pytest_plugins`` in this directory's conftest.py), never
a module of the book's ``tests/`` package, which is the book's to change.

import-linter sees the book's ``tests`` (a contract keeps them from importing the lab) but not
these, which no package name reaches; this scan reads their import statements."""

from __future__ import annotations

import ast
from pathlib import Path

HERE = Path(__file__).resolve().parent
BOOKS_TESTS = "tests"


def imports_of_the_books_tests(root: Path) -> list[str]:
    """``file:line`` of every import of the book's ``tests`` package under ``root``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            if any(name.split(".")[0] == BOOKS_TESTS for name in names):
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_no_test_of_the_lab_imports_the_books_tests():
    assert imports_of_the_books_tests(HERE) == []


def test_the_scan_finds_an_import_of_the_books_tests(tmp_path):
    (tmp_path / "conftest.py").write_text("from tests.conftest import built\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "test_x.py").write_text(
        "import os\nimport tests.sphinxext.test_locale\nfrom . import tests\n", encoding="utf-8"
    )
    assert imports_of_the_books_tests(tmp_path) == ["conftest.py:1", "sub/test_x.py:2"]
