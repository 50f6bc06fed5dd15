"""The book never uses the lab: no module of ``jaxbook`` imports ``jaxbook_lab`` (import-linter's
contract, ``make lint``), nor names a file or module of it in code, to read it as a file.
The lab uses the book's public modules only: another import-linter contract forbids it the
book's private (``_``-prefixed) modules, which it must list, and a test here that it lists
them all.

What the lab needs of the book's tools it declares itself: its catalog's template through
``jaxbook.sphinxext.interface.add_package_template``, its catalogs' place in
``pyproject.toml`` (``[tool.jaxbook] package-catalogs``). A docstring or a comment may
speak of the lab; a string the code uses may not."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import jaxbook
from jaxbook.sphinxext import interface

BOOK = Path(jaxbook.__file__).resolve().parent
LAB = "jaxbook_lab"
PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
PUBLIC_SURFACE_CONTRACT = "The lab on the book's public surface"


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


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_modules(package: Path) -> set[str]:
    """The modules and packages of ``package`` (a directory) that are private themselves
    (``jaxbook._compat``), not through a private package above them, which covers them."""
    found = set()
    for path in sorted(package.rglob("*.py")):
        parts = [package.name, *path.relative_to(package).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        first = next((i for i, part in enumerate(parts) if private(part)), None)
        if first is not None:
            found.add(".".join(parts[: first + 1]))
    return found


def forbidden_to_the_lab() -> list[str]:
    contracts = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]
    (contract,) = [
        c for c in contracts["contracts"] if c["name"].startswith(PUBLIC_SURFACE_CONTRACT)
    ]
    assert contract["type"] == "forbidden"
    assert contract["source_modules"] == [LAB]
    return contract["forbidden_modules"]


def test_the_lab_is_forbidden_every_private_module_of_the_book():
    """import-linter's wildcards name whole modules only, so the contract lists the book's
    private modules: a new one missing from the list, or a listed one gone, fails here."""
    assert set(forbidden_to_the_lab()) == private_modules(BOOK)


def test_the_check_finds_a_private_module_at_any_depth(tmp_path):
    package = tmp_path / "jaxbook"
    modules = ["__init__", "__main__", "cli", "_compat", "site/__init__", "site/_serve"]
    # A private package covers its modules: the contract names it alone.
    modules += ["_hidden/__init__", "_hidden/inner"]
    for name in modules:
        (package / f"{name}.py").parent.mkdir(parents=True, exist_ok=True)
        (package / f"{name}.py").write_text("", encoding="utf-8")
    assert private_modules(package) == {
        "jaxbook._compat",
        "jaxbook.site._serve",
        "jaxbook._hidden",
    }
