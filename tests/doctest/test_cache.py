"""The doctest result cache re-runs a page when anything its output depends on changed,
and never reports a stale result as a pass."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from jaxbook.doctest import cache

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["docs/ch01/quiz.rst", "docs/ch01/answers.rst", "docs/ch01/arrays.rst"]
UNITS = {
    (lang, page)
    for lang in ("zh_CN", "en")
    for page in ("ch01/quiz", "ch01/answers", "ch01/arrays")
}


def doctest(project: Path, **environment: str) -> tuple[subprocess.CompletedProcess, dict]:
    only = [arg for page in PAGES for arg in ("--only", page)]
    verdict = project / "_build" / "verdict.json"
    result = subprocess.run(
        [sys.executable, "-m", "jaxbook", "doctest", "--json", str(verdict), *only, "zh_CN", "en"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=project,
        env={**os.environ, **environment},
    )
    units = json.loads(verdict.read_text(encoding="utf-8"))["units"]
    return result, {(u["language"], u["docname"]): u for u in units}


@pytest.fixture(scope="module")
def primed(tmp_path_factory, book_copier) -> Path:
    """A copy of the book whose cache holds a pass for every unit of PAGES."""
    project = book_copier(tmp_path_factory.mktemp("cached"))
    result, units = doctest(project)
    assert result.returncode == 0, result.stdout
    assert set(units) == UNITS
    assert not any(u["cached"] for u in units.values())
    return project


@pytest.fixture
def project(primed: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "book"
    shutil.copytree(primed, copy, symlinks=True)
    return copy


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_nothing_changed_everything_cached(project):
    result, units = doctest(project)
    assert result.returncode == 0, result.stdout
    assert all(u["cached"] for u in units.values())
    assert "zh_CN: 0 pages run, 3 cached" in result.stdout
    tries = sum(u["tries"] for u in units.values())
    assert result.stdout.splitlines()[-1] == f"{tries} passed, 0 failed"


def test_force_runs_everything(project):
    only = [arg for page in PAGES[:1] for arg in ("--only", page)]
    result = subprocess.run(
        [sys.executable, "-m", "jaxbook", "doctest", "--force", *only, "zh_CN", "en"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=project,
    )
    assert result.returncode == 0, result.stdout
    assert "cached" not in result.stdout
    assert "doctest: 2 units in" in result.stdout


# Each change breaks what a page prints or expects, so a cached pass would be a lie:
# (what to change, the units that must run again and fail, environment).
BREAKING = {
    "page source": (
        lambda p: edit(
            p / "docs/ch01/quiz.rst",
            "   .. testoutput::\n\n      2.0\n",
            "   .. testoutput::\n\n      100.0\n",
        ),
        {("zh_CN", "ch01/quiz"), ("en", "ch01/quiz")},
    ),
    "included file": (
        lambda p: edit(
            p / "docs/ch01/_selfcheck_e1.rst",
            'print("✅ 练习 E1 自检通过")',
            'print("✅ 练习 E1 自检未通过")',
        ),
        {("zh_CN", "ch01/answers"), ("en", "ch01/answers")},
    ),
    "snippet": (
        lambda p: edit(
            p / "snippets/numpy_without_import.py",
            "numpy_array = np.array",
            "import numpy as np\nnumpy_array = np.array",
        ),
        {("zh_CN", "ch01/arrays"), ("en", "ch01/arrays")},
    ),
    "the language's catalog": (
        lambda p: edit(
            p / "locale/en/LC_MESSAGES/ch01/quiz.po",
            'msgid "2.0"\nmsgstr "2.0"',
            'msgid "2.0"\nmsgstr "100.0"',
        ),
        {("en", "ch01/quiz")},
    ),
}


@pytest.mark.parametrize("change", BREAKING)
def test_a_changed_input_reruns_its_pages_and_they_fail(project, change):
    apply, broken = BREAKING[change]
    apply(project)
    result, units = doctest(project)
    assert result.returncode != 0, result.stdout
    for unit, found in units.items():
        if unit in broken:
            assert not found["cached"], f"{unit} reported from the cache after its {change} changed"
            assert found["failures"] > 0, (unit, result.stdout)
        else:
            assert found["cached"], f"{unit} ran again though its inputs did not change"
    assert not result.stdout.splitlines()[-1].endswith(" 0 failed")


# Changes that affect every page: each must run again (and pass).
EVERYWHERE = {
    "uv.lock": (lambda p: edit(p / "uv.lock", "version = 1", "version = 1\n# a new lock"), {}),
    "conf.py": (lambda p: edit(p / "conf.py", "nitpicky = True", "nitpicky = True  # edited"), {}),
    "doctest environment": (lambda p: None, {"JAXBOOK_PAGE_TIMEOUT": "299"}),
}


@pytest.mark.parametrize("change", EVERYWHERE)
def test_a_shared_input_reruns_every_page(project, change):
    apply, environment = EVERYWHERE[change]
    apply(project)
    result, units = doctest(project, **environment)
    assert result.returncode == 0, result.stdout
    assert set(units) == UNITS
    stale = [unit for unit, found in units.items() if found["cached"]]
    assert not stale, f"cached after {change} changed: {stale}"


def test_the_backend_is_part_of_the_key():
    environment = {"JAX_PLATFORMS": "cpu"}
    assert cache.shared_key(ROOT, environment, "cpu:cpu") != cache.shared_key(
        ROOT, environment, "gpu:NVIDIA H200"
    )


def test_the_extensions_are_part_of_the_key(tmp_path):
    package = tmp_path / "jaxbook"
    shutil.copytree(cache.package_dir(), package, ignore=shutil.ignore_patterns("__pycache__"))
    before = cache.shared_key(ROOT, {}, "cpu:cpu", package=package)
    edit(package / "sphinxext" / "snippets.py", "def stage_snippets", "def stage_snippets_")
    assert cache.shared_key(ROOT, {}, "cpu:cpu", package=package) != before


def test_variables_outside_the_doctest_environment_do_not_count():
    base = {"JAX_PLATFORMS": "cpu", "XLA_FLAGS": "--xla_gpu_deterministic_ops=true"}
    key = cache.shared_key(ROOT, base, "cpu:cpu")
    assert cache.shared_key(ROOT, {**base, "TERM": "dumb", "SHLVL": "3"}, "cpu:cpu") == key
    assert cache.shared_key(ROOT, {**base, "XLA_FLAGS": ""}, "cpu:cpu") != key


# What a run's processes do, in one process: the parent (runner, cache, shards, the
# server and its client), a reader per language and a worker running a page in each.
# What it has imported then is what a run loads; matplotlib, jax and Sphinx load
# extensions with importlib, which -X importtime does not see, so sys.modules is read.
TRACE = """
import json, os, sys
from pathlib import Path
from jaxbook.doctest import cache, client, environment, runner, server, shard, units
root = Path.cwd()
spec = runner.spec_from_sphinxopts(root, root / "_build", "")
units.start_worker(environment.doctest_environment(os.environ, root))
for language in ("zh_CN", "en"):
    units.read_language(spec, language)
    result = units.run_unit(spec, language, "ch01/quiz")
    assert result.clean, result
print(json.dumps(sorted(name for name in sys.modules if name.split(".")[0] == "jaxbook")))
"""


@pytest.fixture(scope="module")
def traced(tmp_path_factory, book_copier) -> list[str]:
    """Every module of jaxbook that a doctest run loads."""
    project = book_copier(tmp_path_factory.mktemp("traced"))
    run = subprocess.run(
        [sys.executable, "-c", TRACE], capture_output=True, text=True, timeout=600, cwd=project
    )
    assert run.returncode == 0, run.stderr
    modules = json.loads(run.stdout.splitlines()[-1])
    # Loaded by the readers and workers only, or through Sphinx's extension loader.
    assert {"jaxbook.sphinxapp", "jaxbook.sphinxext.measured", "jaxbook.doctest.runtime"} <= set(
        modules
    )
    return modules


def test_every_module_a_doctest_run_loads_is_part_of_the_key(tmp_path, traced):
    package = tmp_path / "jaxbook"
    shutil.copytree(cache.package_dir(), package, ignore=shutil.ignore_patterns("__pycache__"))
    before = cache.shared_key(ROOT, {}, "cpu:cpu", package=package)
    outside = []
    for name in traced:
        origin = Path(importlib.util.find_spec(name).origin)
        copy = package / origin.relative_to(cache.package_dir())
        original = copy.read_bytes()
        copy.write_bytes(original + b"\n# edited\n")
        if cache.shared_key(ROOT, {}, "cpu:cpu", package=package) == before:
            outside.append(name)
        copy.write_bytes(original)
    assert outside == []
