"""A page runs again when Sphinx reads it again because one of its inputs changed (its
source, an included file, its catalog; for every page, the doctest settings and the
environment that reaches the code), always while its run failed, and never otherwise."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest

from pagerun.pages import records
from pagerun.sphinxext import run as doctest_run

PAGES = ["numbers", "printing"]  # the pages with code, in the order they run


@pytest.fixture
def primed(rootdir: Path, tmp_path: Path, build) -> Path:
    """A copy of the project after one build: every page read, and run, and passing."""
    project = Path(shutil.copytree(rootdir / "test-rerun", tmp_path / "project"))
    app, ran = build(project, "verdict")
    assert ran == PAGES
    assert broken(app) == {}
    return project


def broken(app) -> dict[str, int]:
    return {page: r.run.broken for page, r in records(app.env).items() if r.run.broken}


def test_nothing_changed_nothing_runs_and_every_run_is_kept(primed, build):
    app, ran = build(primed, "verdict")
    assert ran == []
    # What each example printed comes from the environment, run or not.
    printed = {page: [b["got"] for b in r.run.printed] for page, r in records(app.env).items()}
    assert printed == {"numbers": ["42\n", "6\n"], "printing": ["hello\n"]}


# Each change breaks what a page prints or expects, so the old run would be a lie:
# (file, old, new, the page that must run again and fail).
BREAKING = {
    "page source": ("numbers.rst", "print(BASE + 2)", "print(BASE + 3)", "numbers"),
    "included file": ("_shared.rst", "   6\n", "   7\n", "numbers"),
    "the page's catalog": (
        "locale/en/LC_MESSAGES/printing.po",
        'msgstr "hello"',
        'msgstr "goodbye"',
        "printing",
    ),
}


@pytest.mark.parametrize("change", BREAKING)
def test_a_changed_input_runs_its_page_again_and_it_fails(primed, build, edit, change):
    file, old, new, page = BREAKING[change]
    edit(primed / file, old, new)

    app, ran = build(primed, "verdict")

    assert ran == [page]  # the broken page ran again; no other page did
    assert broken(app) == {page: 1}


def add_to_global_setup(project: Path, monkeypatch) -> None:
    conf = project / "conf.py"
    conf.write_text(
        conf.read_text(encoding="utf-8") + 'doctest_global_setup += "PLANTED = 1\\n"\n',
        encoding="utf-8",
    )


# Changes that reach every page: each must run again (and pass).
EVERYWHERE = {
    "the doctest settings of conf.py": add_to_global_setup,
    "the environment": lambda project, monkeypatch: monkeypatch.setenv(
        "PAGERUN_PAGE_TIMEOUT", "299"
    ),
}


@pytest.mark.parametrize("change", EVERYWHERE)
def test_a_shared_input_runs_every_page_again(primed, build, monkeypatch, change):
    EVERYWHERE[change](primed, monkeypatch)
    app, ran = build(primed, "verdict")
    assert ran == PAGES
    assert broken(app) == {}


def read_at(project: Path) -> dict[str, int]:
    """When the build last read each page (Sphinx's environment)."""
    with (project / "_build/doctrees/environment.pickle").open("rb") as file:
        return dict(pickle.load(file).all_docs)


def test_a_page_read_without_its_run_is_read_again_by_the_next_build_that_runs_it(
    rootdir, tmp_path, build
):
    """``pagerun_run`` names the pages a build runs; another page is read, not run, and the
    next build that runs it reads it again, not one that would not run it either."""
    project = Path(shutil.copytree(rootdir / "test-rerun", tmp_path / "project"))
    only = {"pagerun_run": ["numbers"]}
    app, ran = build(project, "verdict", confoverrides=only)
    assert ran == ["numbers"]
    read = read_at(project)
    app, ran = build(project, "verdict", confoverrides=only)
    assert ran == []
    assert read_at(project) == read
    app, ran = build(project, "verdict")
    assert ran == ["printing"]
    assert broken(app) == {}


def keys_of(project: Path) -> dict[str, str]:
    """The key of each page's kept run (``code_key``), from the pickled environment."""
    with (project / "_build/doctrees/environment.pickle").open("rb") as file:
        return {page: r.key for page, r in records(pickle.load(file)).items()}


def test_a_build_started_from_another_directory_takes_the_runs_back(
    rootdir, tmp_path, build, edit, monkeypatch
):
    """docutils names an included file's text by its path from the working directory
    (``numbers`` includes a test); the key holds the path from the source directory, so a
    page read again for its prose alone takes its run back whichever directory the build
    was started from."""
    project = Path(shutil.copytree(rootdir / "test-rerun", tmp_path / "project"))
    monkeypatch.chdir(project)
    app, ran = build(project, "verdict")
    assert ran == PAGES
    keys, read = keys_of(project), read_at(project)
    edit(project / "numbers.rst", "=======\n", "=======\n\nSome prose above the code.\n")
    monkeypatch.chdir(tmp_path)
    app, ran = build(project, "verdict")
    assert read_at(project)["numbers"] != read["numbers"]  # read again, for its prose
    assert ran == []  # and its run taken back
    assert keys_of(project) == keys
    assert broken(app) == {}


def test_a_moved_project_keeps_its_keys_but_sphinx_reads_it_afresh(primed, tmp_path, build):
    """The keys hold no path of the project: a copy of it elsewhere, doctree directory and
    all, works out the same key for every page. Sphinx itself, though, discards an
    environment whose source directory changed ("source directory has changed"), and the
    runs kept in it with it: the copy runs every page again. (Were Sphinx to keep it, the
    pages would take their runs back; this test would then say so.)"""
    keys = keys_of(primed)
    assert set(keys) == set(PAGES)
    moved = Path(shutil.copytree(primed, tmp_path / "elsewhere" / "project"))
    app, ran = build(moved, "verdict")
    assert "source directory has changed" in app.status.getvalue()
    assert ran == PAGES
    assert keys_of(moved) == keys
    assert broken(app) == {}


def test_a_key_names_each_file_by_its_path_from_the_source_directory(tmp_path, monkeypatch):
    srcdir = tmp_path / "book" / "docs"
    srcdir.mkdir(parents=True)
    page = srcdir / "ch01" / "page.rst"
    assert doctest_run.source_key(str(page), srcdir) == "ch01/page.rst"
    # A snippet outside the source directory, and so another file than one inside it.
    snippet = tmp_path / "book" / "snippets" / "page.rst"
    assert doctest_run.source_key(str(snippet), srcdir) == "../snippets/page.rst"
    # docutils' path of an included file, from the working directory.
    monkeypatch.chdir(tmp_path / "book")
    assert doctest_run.source_key("docs/ch01/page.rst", srcdir) == "ch01/page.rst"
    # Suffixes Sphinx puts after a file's name stay on it; a string names no file.
    translated = f"{page}:12:<translated>"
    assert doctest_run.source_key(translated, srcdir) == "ch01/page.rst:12:<translated>"
    assert doctest_run.source_key("<string>", srcdir) == "<string>"
    assert doctest_run.source_key(None, srcdir) is None


def test_the_inputs_name_the_machine_the_releases_and_the_variables_that_reach_the_code(
    monkeypatch,
):
    class Config:
        doctest_default_flags = 0
        doctest_global_setup = doctest_global_cleanup = ""
        doctest_test_doctest_blocks = "default"
        # A project whose global setup imports a module of its own (here one of pagerun's),
        # and whose library reads variables of its own.
        pagerun_input_modules = ("pagerun.blocks",)
        pagerun_environment = ("MYLIB_", "OTHERLIB_FLAGS")
        pagerun_environment_ignored = ("MYLIB_CACHE_DIR",)

    monkeypatch.setenv("MYLIB_FLAGS", "--planted")
    monkeypatch.setenv("MYLIB_CACHE_DIR", "/tmp/planted")
    monkeypatch.setenv("PAGERUN_PAGE_TIMEOUT", "299")
    for unrelated in ("TERM", "OTHERLIB_SITE_URL", "PAGERUN_RUN_LOG"):
        monkeypatch.setenv(unrelated, "planted")
    inputs = doctest_run.run_inputs(Config())  # type: ignore[arg-type]
    assert isinstance(inputs["accelerators"], list)
    assert inputs["processor"]
    assert len(inputs["packages"]) == 64  # a digest of every installed release
    assert ("MYLIB_FLAGS", "--planted") in inputs["environment"]
    assert ("PAGERUN_PAGE_TIMEOUT", "299") in inputs["environment"]
    for unrelated in ("TERM", "OTHERLIB_SITE_URL", "PAGERUN_RUN_LOG"):
        assert unrelated not in dict(inputs["environment"])
    assert "MYLIB_CACHE_DIR" not in dict(inputs["environment"])


def test_a_modules_comments_docstrings_and_layout_are_not_an_input_of_the_runs(
    tmp_path, monkeypatch
):
    """The digest of an input module (the engine, the kernel, ``pagerun_input_modules``) is
    of its code: what it does, not how it is written down or explained."""
    monkeypatch.syspath_prepend(str(tmp_path))
    module = tmp_path / "pagerun_planted_setup.py"

    class Config:
        doctest_default_flags = 0
        doctest_global_setup = doctest_global_cleanup = ""
        doctest_test_doctest_blocks = "default"
        pagerun_input_modules = (module.stem,)
        pagerun_environment = pagerun_environment_ignored = ()

    def digest(source: str) -> str:
        module.write_text(source, encoding="utf-8")
        # The engine's, the kernel's, then the project's modules.
        return doctest_run.run_inputs(Config())["code"][-1]  # type: ignore[arg-type]

    written = digest('"""Sets the pages up."""\n\ndef setup():\n    return 1\n')
    explained = digest(
        '"""Sets the pages up,\nexplained again."""\n\n\n'
        "def setup():  # a comment\n"
        '    """One, as the pages expect."""\n\n    return 1\n'
    )
    assert explained == written
    assert digest('"""Sets the pages up."""\n\ndef setup():\n    return 2\n') != written
    # A string that is code (a value, not a docstring) is part of it.
    assert digest('def setup():\n    x = "a"\n    return 1\n') != digest(
        'def setup():\n    x = "b"\n    return 1\n'
    )
