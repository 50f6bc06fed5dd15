"""Each extension's warnings are of type ``jaxbook`` and of its module's name as subtype.

So ``suppress_warnings = ["jaxbook.pairs"]`` silences the pair directives'
warnings and no other extension's. An extension that keeps state on the
environment declares an ``env_version``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import jaxbook.sphinxext

PACKAGE = Path(jaxbook.sphinxext.__file__).parent
PAIRS = "WARNING: recommended half outside a pair directive"
GUARDS = "WARNING: code block with '>>>' prompts is not a doctest"


@pytest.mark.sphinx("html", testroot="warning-kinds")
def test_each_kind_warns(built):
    assert PAIRS in built.warnings
    assert GUARDS in built.warnings


@pytest.mark.sphinx(
    "html", testroot="warning-kinds", confoverrides={"suppress_warnings": ["jaxbook.pairs"]}
)
def test_suppress_warnings_silences_one_kind_and_not_another(built):
    assert PAIRS not in built.warnings
    assert GUARDS in built.warnings


def extension_of(path: Path) -> str:
    """The extension whose code ``path`` is: its module's name, or its package's (the
    modules of ``editions/`` are the extension ``editions``)."""
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


def warning_calls() -> list[tuple[str, int, dict[str, object]]]:
    """(extension, line, keyword constants) of every ``logger.warning`` call in the
    extensions."""
    calls = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "warning"
                and getattr(node.func.value, "id", "") == "logger"
            ):
                keywords = {
                    k.arg: k.value.value for k in node.keywords if isinstance(k.value, ast.Constant)
                }
                calls.append((extension_of(path), node.lineno, keywords))
    return calls


def test_every_warning_names_its_extension():
    calls = warning_calls()
    assert calls
    wrong = [
        f"{module}.py:{line}: type={kw.get('type')!r} subtype={kw.get('subtype')!r}"
        for module, line, kw in calls
        if (kw.get("type"), kw.get("subtype")) != ("jaxbook", module)
    ]
    assert not wrong


# The events whose handlers keep per-document data an extension purges and merges.
STATE_EVENTS = {"env-purge-doc", "env-merge-info"}


def keeps_state(tree: ast.Module) -> bool:
    """Whether a module keeps state on the environment: sets an attribute of it (not its
    ``temp_data``) or a page's metadata, handles the events of per-document data it purges
    and merges, or adds a domain (whose data Sphinx pickles)."""
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else []
        for target in targets:
            text = ast.unparse(target)
            on_env = isinstance(target, ast.Attribute) and text.split(".")[-2:-1] == ["env"]
            if on_env and target.attr != "temp_data":  # type: ignore[union-attr]
                return True
            if isinstance(target, ast.Subscript) and ".env.metadata[" in f".{text}":
                return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "add_domain":
                return True
            first = node.args[0] if node.args else None
            if (
                node.func.attr == "connect"
                and isinstance(first, ast.Constant)
                and first.value in STATE_EVENTS
            ):
                return True
    return False


def declares_env_version(tree: ast.Module) -> bool:
    """Whether a module's ``setup()`` returns metadata with an ``env_version``."""
    return any(
        isinstance(node, ast.Dict)
        and any(isinstance(k, ast.Constant) and k.value == "env_version" for k in node.keys)
        for node in ast.walk(tree)
    )


def test_an_extension_that_keeps_state_on_env_declares_its_version():
    trees: dict[str, list[ast.Module]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if not extension_of(path).startswith("_"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            trees.setdefault(extension_of(path), []).append(tree)
    keeping = {name for name, modules in trees.items() if any(map(keeps_state, modules))}
    assert {"translation_status", "notes"} <= keeping
    undeclared = {name for name in keeping if not any(map(declares_env_version, trees[name]))}
    assert not undeclared


@pytest.mark.parametrize(
    ("source", "keeps"),
    [
        ("def f(app):\n    app.env.jaxbook_pages = {}", True),
        ("def f(self):\n    self.env.temp_data['x'] = 1", False),
        ("def f(env):\n    env.temp_data = {}", False),
        ("def f(app, d):\n    app.env.metadata[d]['x'] = 1", True),
        ("def setup(app):\n    app.connect('env-purge-doc', purge)", True),
        ("def setup(app):\n    app.connect('doctree-read', read)", False),
        ("def setup(app):\n    app.add_domain(Notes)", True),
        ("def f(env):\n    return env.docname == 'x'", False),
    ],
)
def test_the_state_scan_tells_state_kept_on_the_environment(source, keeps):
    assert keeps_state(ast.parse(source)) is keeps
