"""The Makefile passes its variables through as its help says."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from jaxbook.project import languages

ROOT = Path(__file__).resolve().parent.parent


def dry_run_all(*arguments: str, **environment: str) -> str:
    """The commands ``make -n`` prints, as a shell outside any make would see them."""
    outer = {k: v for k, v in os.environ.items() if k not in {"MAKEFLAGS", "MAKELEVEL", "MFLAGS"}}
    result = subprocess.run(
        ["make", "--no-print-directory", "-n", *arguments],
        cwd=ROOT,
        env={**outer, **environment},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def dry_run(*arguments: str, **environment: str) -> str:
    """The last command ``make -n`` prints."""
    return dry_run_all(*arguments, **environment).splitlines()[-1]


@pytest.mark.parametrize(
    ("arguments", "chapters"), [([], "1,4,16"), (["CHAPTERS=4"], "4"), (["CHAPTERS=1,16"], "1,16")]
)
def test_make_bench_measures_the_courses_its_help_names(arguments, chapters):
    assert f" --chapters {chapters} " in dry_run("bench", *arguments)


@pytest.mark.parametrize(
    ("arguments", "language"),
    [([], "zh_CN"), (["BOOK_LANGUAGE=en"], "en"), (["LANG=en"], "en")],
    ids=["default", "BOOK_LANGUAGE", "LANG on the command line"],
)
def test_make_livehtml_serves_the_language_asked_not_the_shells_locale(arguments, language):
    command = dry_run("livehtml", *arguments, LANG="C.UTF-8")
    assert f"livehtml --language {language} " in command
    assert "C.UTF-8" not in command


def test_the_book_targets_build_every_language_or_the_ones_asked():
    assert dry_run("html").endswith(" " + " ".join(languages()))
    assert dry_run("html", "LANGUAGES=en").endswith(' --sphinxopts " " en')


@pytest.mark.parametrize(
    ("target", "action"),
    [
        ("update-po", "jaxbook po update locale/pot"),
        ("check-po", "jaxbook po check"),
        ("check-po", "jaxbook po lost"),
        ("wrap-po", "jaxbook po wrap"),
    ],
)
def test_a_catalog_target_hands_every_language_to_one_command(target, action):
    commands = dry_run_all(target)
    # The source's directory too: it holds the interface's catalogs, whose messages are English.
    catalogs = " ".join(f"locale/{language}/LC_MESSAGES" for language in languages())
    assert f"/{action} {catalogs}" in commands
    assert "for lang" not in commands


def test_the_lint_fix_merges_into_the_existing_catalogs_only():
    """make zh-lint-fix keeps the translations its corrections touch, and creates no catalog
    (tests/i18n/test_catalogs.py shows what --existing does)."""
    catalogs = " ".join(f"locale/{language}/LC_MESSAGES" for language in languages())
    commands = dry_run_all("zh-lint-fix").splitlines()
    merges = [command for command in commands if " po update " in command]
    assert merges == [f".venv/bin/jaxbook po update --existing locale/pot {catalogs}"]
    assert "update-po" not in " ".join(commands)


@pytest.mark.parametrize("target", ["po-stats", "fuzzy"])
def test_the_progress_targets_hand_potodo_each_languages_directory(target):
    """potodo names a tree by its directory's last part: every language's would be
    "LC_MESSAGES/"."""
    command = dry_run(target)
    assert command.endswith(" " + " ".join(f"locale/{language}" for language in languages()))


def test_make_po_stats_names_each_language():
    result = subprocess.run(
        ["make", "--no-print-directory", "po-stats"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    trees = re.findall(r"^[├└]── (\S+)/ ", result.stdout, re.MULTILINE)
    assert trees == sorted(languages())


@pytest.mark.parametrize(
    ("target", "command"),
    [("add-language", "language add ja"), ("language-done", "language done ja")],
)
def test_the_language_targets_hand_the_language_to_jaxbook(target, command):
    assert dry_run(target, "LANGUAGE=ja").endswith(f"/jaxbook {command}")


@pytest.mark.parametrize("target", ["add-language", "language-done"])
def test_a_language_target_without_a_language_says_what_it_needs(target):
    result = subprocess.run(
        ["make", "--no-print-directory", target], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 2
    assert f"make {target} needs LANGUAGE=<code>, for example LANGUAGE=ja" in result.stdout


def test_make_refresh_outputs_hands_a_pattern_to_jaxbook_as_written():
    """``PAGES="docs/ch02/*"`` reaches jaxbook unexpanded, which takes the pages it matches
    and leaves the chapter's other files (its self-checks, its drift data) out quietly; the
    shell would expand it into every file, and jaxbook would name each of those as no page."""
    command = dry_run("refresh-outputs", "PAGES=docs/ch01/* docs/ch01/arrays.rst")
    arguments = command.split(" refresh ", 1)[1]
    # What the shell that runs the recipe hands to jaxbook, one argument a line.
    handed = subprocess.run(
        ["sh", "-c", f"printf '%s\\n' {arguments}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert handed[-2:] == ["docs/ch01/*", "docs/ch01/arrays.rst"]


def test_make_help_says_where_the_translators_guide_is_in_english():
    """The guide in the repository is Chinese (guides/translating.rst), a page of the guides'
    site, not the book's: a translator reads ``make help`` first."""
    result = subprocess.run(
        ["make", "--no-print-directory", "help"], cwd=ROOT, capture_output=True, text=True
    )
    section = result.stdout[result.stdout.index("Translating") :].split("\n\n")[0]
    assert "_build/guides/en/translating.html after make html guides" in section
    assert "guides/en/translating.html on the site" in section


def test_make_doctest_warm_0_leaves_no_process_and_make_test_never_does():
    """WARM=0 turns the warm processes off (jaxbook.doctest.warm); make test and its
    pytest leave none behind."""
    assert "JAXBOOK_DOCTEST_WARM" not in dry_run_all("doctest")
    assert dry_run_all("doctest", "WARM=0").startswith("JAXBOOK_DOCTEST_WARM=0 ")
    # Each of make test's own makes that runs pages (its builds, doctest among them; pytest).
    test = dry_run_all("test").replace("\\\n", "").splitlines()
    makes = [line for line in test if re.search(r"\bmake( -\S+)* (html|pytest) ", line)]
    assert len(makes) == 2, test
    assert all(line.startswith("JAXBOOK_DOCTEST_WARM=0 ") for line in makes), makes
    assert dry_run("doctest-stop").endswith("doctest --stop --builddir _build")
