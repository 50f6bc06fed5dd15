"""`make doctest` runs every page of every language with the engine and prints one verdict:
each failure at its page and line with expected and actual output, a line per language."""

from __future__ import annotations

import re

import pytest

from jaxbook.doctest import runner
from pagerun.engine import PageRun


def test_every_page_of_both_languages_passes_and_each_example_is_recorded(book, doctest):
    verdict = doctest(book, side_by_side=True)

    assert verdict.ok, verdict.output
    first = verdict.output.splitlines()[0]
    assert re.fullmatch(r"doctest: 4 pages run in [\d.]+ s \(zh_CN, en side by side\)", first)
    assert "zh_CN: 5 passed, 0 failed\n" in verdict.output
    assert "en: 5 passed, 0 failed\n" in verdict.output
    assert verdict.last == "10 passed, 0 failed"
    printed = {
        language: [(b["file"], b["line"], b["got"]) for b in blocks]
        for language, blocks in verdict.record["blocks"].items()
    }
    # What each example printed, in its language (the English page runs its translated code).
    assert ("docs/printing.rst", 4, "你好\n") in printed["zh_CN"]
    assert ("docs/printing.rst", 4, "hello\n") in printed["en"]
    assert ("docs/fence.md", 7, "42\n") in printed["en"]
    assert ("docs/_shared.rst", 1, "6\n") in printed["zh_CN"]
    assert len(printed["zh_CN"]) == len(printed["en"]) == 5


def test_a_wrong_output_and_a_failing_assert_fail_at_their_page_and_line(book, doctest, edit):
    edit(book / "docs/printing.rst", "   你好\n", "   再见\n")
    edit(book / "docs/fence.md", "print(base + 2)", "assert base == 41, base")

    verdict = doctest(book, "zh_CN")

    assert not verdict.ok
    lines = verdict.output.splitlines()
    assert "docs/printing.rst:4: doctest failed [zh_CN]" in lines
    assert "Expected:\n    再见\nGot:\n    你好\n" in verdict.output
    # A MyST page's cell is named by its fence's line.
    assert "docs/fence.md:7: doctest failed [zh_CN]" in lines
    assert "AssertionError: 40" in verdict.output
    assert verdict.last == "3 passed, 2 failed"


def test_an_unexpected_warning_is_named_at_its_cell(book, doctest):
    page = book / "docs/printing.rst"
    page.write_text(
        page.read_text(encoding="utf-8")
        + '\n.. testcode::\n\n   import warnings\n   warnings.warn("planted", FutureWarning)\n',
        encoding="utf-8",
    )
    lines = page.read_text(encoding="utf-8").splitlines()
    line = len(lines) - lines[::-1].index(".. testcode::")

    verdict = doctest(book, "zh_CN")

    assert not verdict.ok
    assert f"docs/printing.rst:{line}: unexpected FutureWarning: planted [zh_CN]" in (
        verdict.output.splitlines()
    )


def test_a_setup_that_fails_is_named(book, doctest, edit):
    edit(book / "docs/fence.md", "base = 40", "base = undefined_name")

    verdict = doctest(book, "zh_CN")

    assert "docs/fence.md:3: setup code failed [zh_CN]" in verdict.output.splitlines()
    assert "NameError: name 'undefined_name' is not defined" in verdict.output
    # As the doctest builder counts: a group whose setup failed runs none of its tests.
    assert verdict.last == "4 passed, 1 failed"


def test_a_page_sphinx_warns_about_fails_the_run(book, doctest, edit):
    edit(book / "docs/prose.rst", "这一页没有代码。", ".. no-such-directive::")

    verdict = doctest(book, "zh_CN")

    assert not verdict.ok
    assert "docs: reading the zh_CN pages warned:" in verdict.output
    assert "Unknown directive type" in verdict.output
    assert "zh_CN: 5 passed, 1 failed\n" in verdict.output  # its line counts it, as the last
    assert verdict.last == "5 passed, 1 failed"


def test_only_runs_the_pages_asked_and_refuses_one_the_book_lacks(book, doctest, edit):
    verdict = doctest(book, "zh_CN", only=("fence",))
    assert verdict.ok
    assert verdict.last == "1 passed, 0 failed"

    verdict = doctest(book, "zh_CN", only=("missing",))
    assert not verdict.ok
    assert "docs/missing.rst: no such page" in verdict.output


def test_languages_that_ran_different_numbers_of_examples_fail():
    runs = [
        runner.LanguageRun("zh_CN", [PageRun(tries=3)]),
        runner.LanguageRun("en", [PageRun(tries=2)]),
    ]
    assert not runner.print_verdict(runs)


def test_the_verdict_names_the_counts_of_each_language(capsys):
    runs = [
        runner.LanguageRun("zh_CN", [PageRun(tries=3)]),
        runner.LanguageRun("en", [PageRun(tries=2)]),
    ]
    runner.print_verdict(runs)
    out = capsys.readouterr().out
    assert "the languages ran different numbers of examples (zh_CN 3, en 2)" in out
    assert re.search(r"^5 passed, 1 failed$", out, re.MULTILINE)


def test_a_language_whose_run_stopped_says_it_failed_on_its_own_line(capsys):
    """A language's line counts the failures outside its tests (its process died, its pages
    could not be read), as the last line does: it never reads "0 failed" under its error."""
    runs = [
        runner.LanguageRun("zh_CN", [PageRun(tries=3)]),
        runner.LanguageRun("en", errors=["docs: the en run stopped: BrokenProcessPool: died"]),
    ]
    assert not runner.print_verdict(runs)
    lines = capsys.readouterr().out.splitlines()
    assert "zh_CN: 3 passed, 0 failed" in lines
    assert "en: 0 passed, 1 failed" in lines
    assert lines[-1] == "3 passed, 2 failed"  # and the languages ran different numbers


def test_each_language_compiles_into_a_cache_of_its_own(book, doctest):
    """Side by side, the two languages run the same page at the same time; a compilation
    cache entry one of them is writing must not be read half-written by the other."""
    page = book / "docs/prose.rst"
    page.write_text(
        page.read_text(encoding="utf-8")
        + "\n.. testcode::\n\n   import os\n\n"
        + '   print(os.environ["JAX_COMPILATION_CACHE_DIR"])\n'
        + "\n.. testoutput::\n\n   ...\n",
        encoding="utf-8",
    )

    verdict = doctest(book, side_by_side=True)

    assert verdict.ok, verdict.output
    caches = {
        language: next(b["got"] for b in blocks if "prose" in b["file"])
        for language, blocks in verdict.record["blocks"].items()
    }
    assert caches["zh_CN"].rstrip().endswith("/jax-cache/zh_CN"), caches
    assert caches["en"].rstrip().endswith("/jax-cache/en"), caches


def test_a_page_is_named_by_its_file_or_by_its_docname(tmp_path):
    """`make doctest ONLY=ch01/index` and `ONLY=docs/ch01/index.rst` name one page; a name
    that is neither says so (a translator's trial wrote the docname and was refused)."""
    from jaxbook.doctest.runner import docname_of

    (tmp_path / "docs" / "ch01").mkdir(parents=True)
    (tmp_path / "docs" / "ch01" / "index.rst").write_text("T\n=\n", encoding="utf-8")
    (tmp_path / "docs" / "ch01" / "intro.md").write_text("# T\n", encoding="utf-8")
    assert docname_of(tmp_path, "ch01/index") == "ch01/index"
    assert docname_of(tmp_path, "ch01/intro") == "ch01/intro"
    assert docname_of(tmp_path, str(tmp_path / "docs/ch01/index.rst")) == "ch01/index"
    with pytest.raises(SystemExit, match="ch01/nope: not a page of the book"):
        docname_of(tmp_path, "ch01/nope")
