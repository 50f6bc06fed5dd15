"""`make test` names everything the system lacks, at once and before any long step."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jaxbook import preflight
from jaxbook.project import languages

ROOT = Path(__file__).resolve().parent.parent
QUERIES = ["fc-list", "kpsewhich"]


def path_without(tmp_path: Path, left_out: str) -> str:
    """A PATH holding every command the checks use, and what make and Python need, but one."""
    directory = tmp_path / "bin"
    directory.mkdir()
    commands = {need.name for need in preflight.NEEDS if need.kind == "command"}
    # What make and the interpreter run, and the shell of make's recipes.
    for name in sorted(commands | set(QUERIES) | {"sh", "env", "uname"}):
        if name != left_out and (found := shutil.which(name)):
            (directory / name).symlink_to(found)
    (directory / "python3").symlink_to(sys.executable)
    return str(directory)


@pytest.mark.parametrize("left_out", ["latexmk", "chromedriver", "msgmerge"])
def test_a_missing_tool_is_named_with_its_package(tmp_path, left_out):
    need = next(need for need in preflight.NEEDS if need.name == left_out)
    result = subprocess.run(
        [sys.executable, str(ROOT / "src/jaxbook/preflight.py"), "test"],
        env={**os.environ, "PATH": path_without(tmp_path, left_out)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert lines[0] == "make test needs what this system lacks:"
    assert lines[1:-1] == [f"  - {need.what}: Debian/Ubuntu package {need.package}"]
    assert lines[-1].endswith(f"apt-get install -y --no-install-recommends {need.package}")


def test_make_test_stops_at_once_when_a_tool_is_missing(tmp_path):
    build = tmp_path / "build"
    start = time.monotonic()
    result = subprocess.run(
        ["make", "test", "INSTALL=0", f"BUILDDIR={build}", f"PYTHON={sys.executable}"],
        cwd=ROOT,
        env={**os.environ, "PATH": path_without(tmp_path, "xelatex")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert time.monotonic() - start < 60
    assert "  - xelatex (PDF): Debian/Ubuntu package texlive-xetex" in result.stderr
    assert not build.exists(), "make test started building before it checked the system"


def test_every_need_belongs_to_a_target_and_test_needs_them_all():
    assert all(need.targets for need in preflight.NEEDS)
    assert preflight.needs_of(["test"]) == preflight.NEEDS


def fake_tex(tmp_path: Path, patterns: list[str]) -> str:
    """A PATH whose kpsewhich finds a language.dat listing ``patterns`` (and, as Debian
    writes it, a synonym of the first), and whose other commands are the system's."""
    tmp_path.mkdir(exist_ok=True)
    language_dat = tmp_path / "language.dat"
    lines = [
        "% the patterns the formats are built with",
        *(f"{p} loadhyph-{p}.tex" for p in patterns),
    ]
    language_dat.write_text("\n".join([*lines, f"={patterns[0]}-synonym"]) + "\n", encoding="utf-8")
    directory = tmp_path / "tex"
    directory.mkdir()
    kpsewhich = directory / "kpsewhich"
    real = shutil.which("kpsewhich") or "false"
    kpsewhich.write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = language.dat ]; then echo {language_dat}; else exec {real} "$@"; fi\n'
    )
    kpsewhich.chmod(0o755)
    return f"{directory}{os.pathsep}{os.environ['PATH']}"


def test_the_patterns_are_what_tex_language_dat_lists(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", fake_tex(tmp_path, ["english", "spanish"]))
    preflight.tex_patterns.cache_clear()
    try:
        assert preflight.tex_patterns() == {"english", "spanish", "english-synonym"}
    finally:
        preflight.tex_patterns.cache_clear()


def preflight_pdf(
    tmp_path: Path, patterns: list[str], languages: str
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "src/jaxbook/preflight.py"), "--languages", languages, "pdf"],
        env={**os.environ, "PATH": fake_tex(tmp_path, patterns)},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_languages_missing_hyphenation_patterns_are_named_with_their_packages(tmp_path):
    """A Spanish edition on a TeX without Spanish patterns would be hyphenated as nothing (or
    English): make pdf stops and names the TeX package that holds them."""
    result = preflight_pdf(tmp_path, ["english"], "zh_CN en es")
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert [line for line in lines if "hyphenation" in line] == [
        "  - TeX's spanish hyphenation patterns, which the PDF of es is hyphenated with (TeX "
        "Live package hyphen-spanish): Debian/Ubuntu package texlive-lang-spanish"
    ]
    assert " texlive-lang-spanish" in lines[-1]


def test_chinese_and_english_take_the_english_patterns_of_any_tex(tmp_path):
    assert "hyphenation" not in preflight_pdf(tmp_path, ["english"], "zh_CN en").stderr
    result = preflight_pdf(tmp_path / "without", ["spanish"], "zh_CN en")
    assert "TeX's english hyphenation patterns, which the PDF of zh_CN and en is" in result.stderr


def test_a_language_the_table_does_not_know_is_one_sentence(tmp_path):
    result = preflight_pdf(tmp_path, ["english"], "zh_CN en sv")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [f"make pdf: {preflight.unknown_language('sv')}"]
    # The website needs no TeX: make html does not ask.
    html = subprocess.run(
        [sys.executable, str(ROOT / "src/jaxbook/preflight.py"), "--languages", "sv", "html"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "HYPHENATION" not in html.stderr


def test_every_language_of_the_book_has_its_tex_language():
    assert [code for code in languages() if preflight.tex_language(code) is None] == []


def test_make_hands_the_preflight_the_languages_it_builds():
    dry = subprocess.run(
        ["make", "--no-print-directory", "-n", "pdf", "LANGUAGES=en es"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout.splitlines()
    assert dry[0].endswith('preflight.py --install --languages "en es" pdf')
