"""The result cache runs a page again when anything its output depends on changed, and never
reports a stale result as a pass."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from jaxbook.doctest import cache

ROOT = Path(__file__).resolve().parents[2]
PAGES = {(language, page) for language in ("zh_CN", "en") for page in ("printing", "fence")}


@pytest.fixture
def primed(book, doctest):
    """The tiny book after one run of both languages: every page cached."""
    verdict = doctest(book)
    assert verdict.ok, verdict.output
    return book


def cached_lines(verdict) -> dict[str, str]:
    return {line.split(":")[0]: line for line in verdict.output.splitlines() if " cached (" in line}


def test_nothing_changed_everything_cached(primed, doctest):
    verdict = doctest(primed)
    assert verdict.ok
    assert verdict.output.splitlines()[0].startswith("doctest: 0 pages run")
    assert "zh_CN: 0 pages run, 2 cached (5 examples that passed with the same inputs)" in (
        verdict.output
    )
    assert verdict.last == "10 passed, 0 failed"
    # A page reported from the cache still records what it printed.
    assert len(verdict.record["blocks"]["en"]) == 5


def test_force_runs_everything(primed, doctest):
    verdict = doctest(primed, force=True)
    assert verdict.output.splitlines()[0].startswith("doctest: 4 pages run")
    assert "cached" not in verdict.output


# Each change breaks what a page prints or expects, so a cached pass would be a lie:
# (file, old, new, the pages that must run again and fail).
BREAKING = {
    "page source": ("docs/fence.md", "print(base + 2)", "print(base + 3)", {"zh_CN", "en"}),
    "included file": ("docs/_shared.rst", "   6\n", "   7\n", {"zh_CN", "en"}),
    "the language's catalog": (
        "locale/en/LC_MESSAGES/printing.po",
        'msgstr "hello"',
        'msgstr "goodbye"',
        {"en"},
    ),
}


@pytest.mark.parametrize("change", BREAKING)
def test_a_changed_input_runs_its_page_again_and_it_fails(primed, doctest, edit, change):
    file, old, new, languages = BREAKING[change]
    edit(primed / file, old, new)

    verdict = doctest(primed)

    assert not verdict.ok
    assert verdict.last.endswith(f" {len(languages)} failed")
    lines = cached_lines(verdict)
    for language in ("zh_CN", "en"):
        # The broken page ran again in each language it reaches; every other page is cached.
        expected = 1 if language in languages else 2
        assert f"{language}: {2 - expected} page" in lines[language], lines
        assert f", {expected} cached" in lines[language], lines


# Changes that reach every page: each must run again (and pass).
EVERYWHERE = {
    "uv.lock": lambda root, monkeypatch: (root / "uv.lock").write_text("# a new lock\n"),
    "conf.py": lambda root, monkeypatch: (root / "conf.py").write_text(
        (root / "conf.py").read_text(encoding="utf-8") + "# edited\n", encoding="utf-8"
    ),
    "doctest environment": lambda root, monkeypatch: monkeypatch.setenv(
        "JAXBOOK_PAGE_TIMEOUT", "299"
    ),
}


@pytest.mark.parametrize("change", EVERYWHERE)
def test_a_shared_input_runs_every_page_again(primed, doctest, monkeypatch, change):
    EVERYWHERE[change](primed, monkeypatch)
    verdict = doctest(primed)
    assert verdict.ok, verdict.output
    assert verdict.output.splitlines()[0].startswith("doctest: 4 pages run")


def test_a_cut_off_or_reshaped_entry_is_run_again(primed, doctest):
    entries = sorted((primed / "_build" / "doctest-cache" / "zh_CN").rglob("*.json"))
    assert len(entries) == 2, entries
    cut, reshaped = entries
    cut.write_bytes(cut.read_bytes()[: cut.stat().st_size // 2])
    entry = json.loads(reshaped.read_text(encoding="utf-8"))
    entry["result"] = {**entry["result"], "a field of another version": 1}
    reshaped.write_text(json.dumps(entry), encoding="utf-8")

    verdict = doctest(primed, "zh_CN")

    assert verdict.ok
    assert verdict.output.splitlines()[0].startswith("doctest: 2 pages run")


def test_a_failing_page_is_never_cached(book, doctest, edit):
    edit(book / "docs/fence.md", "print(base + 2)", "print(base + 3)")
    assert not doctest(book, "zh_CN").ok
    verdict = doctest(book, "zh_CN")
    assert not verdict.ok
    assert "zh_CN: 1 page run, 1 cached" in verdict.output


def test_the_backend_is_part_of_the_key():
    environment = {"JAX_PLATFORMS": "cpu"}
    assert cache.shared_key(ROOT, environment, "cpu:cpu") != cache.shared_key(
        ROOT, environment, "gpu:NVIDIA H200"
    )


def test_every_file_of_the_package_is_part_of_the_key(tmp_path):
    """The extensions, the engine, the runtime: every module a run can load."""
    package = tmp_path / "jaxbook"
    shutil.copytree(cache.package_dir(), package, ignore=shutil.ignore_patterns("__pycache__"))
    before = cache.shared_key(ROOT, {}, "cpu:cpu", package=package)
    modules = sorted(package.rglob("*.py"))
    assert len(modules) > 50
    outside = []
    for module in modules:
        original = module.read_bytes()
        module.write_bytes(original + b"\n# edited\n")
        if cache.shared_key(ROOT, {}, "cpu:cpu", package=package) == before:
            outside.append(module)
        module.write_bytes(original)
    assert outside == []


def test_variables_outside_the_doctest_environment_do_not_count():
    base = {"JAX_PLATFORMS": "cpu", "XLA_FLAGS": "--xla_gpu_deterministic_ops=true"}
    key = cache.shared_key(ROOT, base, "cpu:cpu")
    assert cache.shared_key(ROOT, {**base, "TERM": "dumb", "SHLVL": "3"}, "cpu:cpu") == key
    assert cache.shared_key(ROOT, {**base, "XLA_FLAGS": ""}, "cpu:cpu") != key
