"""`make doctest` runs a page again only when Sphinx reads it again: when something its output
depends on changed, or when it failed; and never reports a stale run as a pass."""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest

from pagerun.sphinxext import run as doctest_run


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


# Each change breaks what a page prints or expects, so the old run would be a lie:
# (file, old, new, the languages whose page must run again and fail).
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


def add_to_global_setup(root, monkeypatch) -> None:
    conf = root / "conf.py"
    conf.write_text(
        conf.read_text(encoding="utf-8") + 'doctest_global_setup += "\\nPLANTED = 1\\n"\n',
        encoding="utf-8",
    )


# Changes that reach every page: each must run again (and pass).
EVERYWHERE = {
    "the doctest settings of conf.py": add_to_global_setup,
    "the doctest environment": lambda root, monkeypatch: monkeypatch.setenv(
        "PAGERUN_PAGE_TIMEOUT", "299"
    ),
}


@pytest.mark.parametrize("change", EVERYWHERE)
def test_a_shared_input_runs_every_page_again(primed, doctest, monkeypatch, change):
    EVERYWHERE[change](primed, monkeypatch)
    verdict = doctest(primed)
    assert verdict.ok, verdict.output
    assert verdict.output.splitlines()[0].startswith("doctest: 4 pages run")


def test_only_runs_the_page_asked_and_leaves_the_others_to_the_next_build(book, doctest):
    verdict = doctest(book, "zh_CN", only=("fence",))
    assert verdict.ok
    assert verdict.output.splitlines()[0].startswith("doctest: 1 page run")
    # The other page with code was read, not run: the next build runs it.
    assert doctest(book, "zh_CN").output.splitlines()[0].startswith("doctest: 1 page run")


def read_at(book) -> dict[str, int]:
    """When the Chinese build last read each page (Sphinx's environment)."""
    with (book / "_build/doctrees/zh_CN/environment.pickle").open("rb") as file:
        return dict(pickle.load(file).all_docs)


def test_a_page_read_without_its_run_is_not_read_again_by_a_build_that_would_not_run_it(
    book, doctest
):
    """Only the next build that runs it reads it again: the same ``--only`` again reads
    nothing (the walk of a new chapter, tests/book/test_new_chapter.py, ran every build of
    its copy so, and read chapter 1's pages again in each)."""
    assert doctest(book, "zh_CN", only=("fence",)).ok
    read = read_at(book)
    verdict = doctest(book, "zh_CN", only=("fence",))
    assert verdict.ok
    assert read_at(book) == read


def test_the_inputs_name_the_machine_the_releases_and_the_variables_that_reach_the_code(
    monkeypatch,
):
    class Config:
        doctest_default_flags = 0
        doctest_global_setup = doctest_global_cleanup = ""
        doctest_test_doctest_blocks = "default"
        # The book's (conf.py).
        pagerun_input_modules = ("jaxbook.doctest.runtime",)
        pagerun_environment = ("JAX_", "XLA_", "CUDA", "NVIDIA", "TPU", "JAXBOOK_RUN_UNRECORDED")
        pagerun_environment_ignored = ("JAX_COMPILATION_CACHE_DIR", "TPU_SKIP_MDS_QUERY")

    monkeypatch.setenv("XLA_FLAGS", "--planted")
    monkeypatch.setenv("PAGERUN_PAGE_TIMEOUT", "299")
    for unrelated in ("TERM", "JAXBOOK_SITE_URL", "PAGERUN_RUN_LOG"):
        monkeypatch.setenv(unrelated, "planted")
    inputs = doctest_run.run_inputs(Config())  # type: ignore[arg-type]
    assert isinstance(inputs["accelerators"], list)
    assert inputs["processor"]
    assert len(inputs["packages"]) == 64  # a digest of every installed release
    assert ("XLA_FLAGS", "--planted") in inputs["environment"]
    assert ("PAGERUN_PAGE_TIMEOUT", "299") in inputs["environment"]
    for unrelated in ("TERM", "JAXBOOK_SITE_URL", "PAGERUN_RUN_LOG"):
        assert unrelated not in dict(inputs["environment"])
    assert "JAX_COMPILATION_CACHE_DIR" not in dict(inputs["environment"])


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
