"""`make doctest` runs a page again only when Sphinx reads it again: when something its output
depends on changed, or when it failed; and never reports a stale run as a pass.

Which change runs which page again is pagerun's to hold
(packages/pagerun/tests/test_incremental.py); these tests hold the book's tool to it: its
counts, its record, its ``--force`` and ``--only``, its languages."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.fixture
def primed(book, doctest):
    """The tiny book after one run of both languages: every page read and run."""
    verdict = doctest(book)
    assert verdict.ok, verdict.output
    assert verdict.output.splitlines()[0].startswith("doctest: 4 pages run")
    return book


def test_nothing_changed_nothing_runs_and_the_verdict_is_whole(primed, doctest):
    verdict = doctest(primed)
    assert verdict.ok
    assert verdict.output.splitlines()[0].startswith("doctest: 0 pages run")
    assert verdict.last == "10 passed, 0 failed"
    # What each example printed comes from the environment, run or not.
    assert len(verdict.record["blocks"]["en"]) == 5


def test_force_reads_and_runs_everything(primed, doctest):
    verdict = doctest(primed, force=True)
    assert verdict.output.splitlines()[0].startswith("doctest: 4 pages run")


# A catalog reaches its language's build alone: the Chinese page does not run again.
BREAKING = {
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
    # The broken page ran again in each language it reaches; no other page did.
    assert verdict.output.splitlines()[0].startswith(f"doctest: {len(languages)} page")


def test_a_failing_page_runs_again_at_every_build(book, doctest, edit):
    edit(book / "docs/fence.md", "print(base + 2)", "print(base + 3)")
    assert not doctest(book, "zh_CN").ok
    verdict = doctest(book, "zh_CN")
    assert not verdict.ok
    assert verdict.output.splitlines()[0].startswith("doctest: 1 page run")
    edit(book / "docs/fence.md", "print(base + 3)", "print(base + 2)")
    assert doctest(book, "zh_CN").ok
    assert doctest(book, "zh_CN").output.splitlines()[0].startswith("doctest: 0 pages run")


def test_only_runs_the_page_asked_and_leaves_the_others_to_the_next_build(book, doctest):
    verdict = doctest(book, "zh_CN", only=("fence",))
    assert verdict.ok
    assert verdict.output.splitlines()[0].startswith("doctest: 1 page run")
    # The other page with code was read, not run: the next build runs it.
    assert doctest(book, "zh_CN").output.splitlines()[0].startswith("doctest: 1 page run")


def test_the_inputs_start_no_jax():
    """Computing ``pagerun_run_inputs`` leaves JAX's backends alone, so that a build may
    fork its readers after it (JAX warns that a fork after it started may deadlock)."""
    code = (
        "import sys, types\n"
        "from pagerun.sphinxext import run as doctest_run\n"
        "config = types.SimpleNamespace(doctest_default_flags=0, doctest_global_setup='',"
        " doctest_global_cleanup='', doctest_test_doctest_blocks='default',"
        # The book's settings (conf.py): its runtime, JAX's variables.
        " pagerun_input_modules=['jaxbook.doctest.runtime'],"
        " pagerun_environment=['JAX_', 'XLA_'], pagerun_environment_ignored=[])\n"
        "inputs = doctest_run.run_inputs(config)\n"
        "print(sorted(inputs), 'jax._src.xla_bridge' in sys.modules"
        " and bool(sys.modules['jax._src.xla_bridge']._backends))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("] ")[1].strip() == "False"
