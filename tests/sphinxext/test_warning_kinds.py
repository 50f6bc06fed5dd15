"""Each extension's warnings are of type ``jaxbook`` and of its module's name as subtype.

So ``suppress_warnings = ["jaxbook.pairs"]`` silences the pair directives'
warnings and no other extension's. An extension that keeps state on the
environment declares an ``env_version``.
"""

from __future__ import annotations

import ast
import re
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


# What an extension keeps on the environment: an attribute of its own, a page's
# metadata, per-document data it purges and merges, or a domain's data.
KEEPS_STATE = re.compile(
    r"\benv\.(?!temp_data)\w+\s*=[^=]|\benv\.metadata\[[^]]+\]\[[^]]+\]\s*=[^=]"
    r"|\"env-(?:purge-doc|merge-info)\"|\badd_domain\("
)


def test_an_extension_that_keeps_state_on_env_declares_its_version():
    sources: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if not extension_of(path).startswith("_"):
            sources[extension_of(path)] = sources.get(extension_of(path), "") + path.read_text(
                encoding="utf-8"
            )
    keeping = {name for name, source in sources.items() if KEEPS_STATE.search(source)}
    assert {"translation_status", "notes"} <= keeping
    undeclared = {name for name in keeping if '"env_version"' not in sources[name]}
    assert not undeclared
