"""The test suite's own set-up: the site `make test` hands it, and the test roots' copies."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

from jaxbook.testing.builds import LANGUAGES, TESTED_BUILD, build_under_test
from jaxbook.testing.fixtures import edited_files


def load(name: str):
    """A module of this folder (the suite is imported by path, not as a package)."""
    spec = importlib.util.spec_from_file_location(
        f"suite_{Path(name).stem}", Path(__file__).with_name(name)
    )
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ROOT = Path(__file__).resolve().parent.parent
dry_run_all = load("test_makefile.py").dry_run_all


def test_make_test_hands_pytest_the_site_it_built():
    commands = dry_run_all("test", "INSTALL=0").splitlines()

    def lines(ending: str) -> list[int]:
        return [i for i, line in enumerate(commands) if line.endswith(ending)]

    # The builds and the checks of the sources (check-po, lint) side by side, then pytest.
    built, tested = (
        [i for i in lines(" html guides pdf epub doctest check-po lint") if " -j2 " in commands[i]],
        lines(" pytest TESTED_BUILD=_build"),
    )
    assert len(built) == len(tested) == 1, commands
    assert built[0] < tested[0], commands
    # A make test of fewer languages leaves the site's tests to build their own.
    fewer = dry_run_all("test", "INSTALL=0", "LANGUAGES=en").splitlines()
    assert any(line.rstrip().endswith(" pytest") for line in fewer), fewer
    pytest_command = dry_run_all("pytest", "TESTED_BUILD=_build").splitlines()
    assert any(line.startswith(f"{TESTED_BUILD}={ROOT}/_build ") for line in pytest_command)
    # Empty, as outside `make test` (whose own sub-make exports TESTED_BUILD to this test).
    alone = dry_run_all("pytest", TESTED_BUILD="").splitlines()
    assert not any(TESTED_BUILD in line for line in alone), alone


@pytest.fixture
def tested(tmp_path, monkeypatch) -> Path:
    """A build directory as `make test` leaves it: every language's site, guides and books."""
    for language in LANGUAGES:
        (tmp_path / "html" / language).mkdir(parents=True)
        (tmp_path / "html" / language / "index.html").write_text("<html></html>")
        (tmp_path / "guides" / language).mkdir(parents=True)
        (tmp_path / "guides" / language / "contributing.html").write_text("<html></html>")
        for fmt in ("pdf", "epub"):
            (tmp_path / fmt).mkdir(exist_ok=True)
            (tmp_path / fmt / f"jax-book-{language}.{fmt}").write_bytes(b"book")
    monkeypatch.setenv(TESTED_BUILD, str(tmp_path))
    for name in ("JAXBOOK_SITE_URL", "JAXBOOK_REPO_URL"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def test_the_site_make_test_built_is_used(tested):
    assert build_under_test() == tested


def test_without_make_test_the_suite_builds_its_own(tested, monkeypatch):
    monkeypatch.delenv(TESTED_BUILD)
    assert build_under_test() is None


@pytest.mark.parametrize("missing", ["html/en", "guides/zh_CN", "pdf", "epub"])
def test_a_build_without_a_site_or_a_book_is_an_error(tested, missing):
    shutil.rmtree(tested / missing)
    with pytest.raises(pytest.fail.Exception, match=f"{TESTED_BUILD}=.* holds no built site"):
        build_under_test()


def test_a_site_built_for_a_deploy_is_not_taken(tested, monkeypatch):
    monkeypatch.setenv("JAXBOOK_SITE_URL", "https://example.org/jaxbook")
    with pytest.raises(pytest.fail.Exception, match="JAXBOOK_SITE_URL"):
        build_under_test()


def test_a_page_whose_source_is_gone_is_an_error(tested):
    (tested / "html" / "en" / "ch01").mkdir()
    (tested / "html" / "en" / "ch01" / "removed-page.html").write_text("<html></html>")
    (tested / "html" / "en" / "_static").mkdir()
    (tested / "html" / "en" / "_static" / "kept.html").write_text("<html></html>")
    with pytest.raises(pytest.fail.Exception, match=r"no source any more, \['ch01/removed-page"):
        build_under_test()


def test_a_guide_whose_source_is_gone_is_an_error(tested):
    (tested / "guides" / "en" / "removed-guide.html").write_text("<html></html>")
    (tested / "guides" / "en" / "404.html").write_text("<html></html>")
    with pytest.raises(pytest.fail.Exception, match=r"guides/en: .*\['removed-guide.html'\]"):
        build_under_test()


def test_a_site_with_a_deploys_sitemap_is_an_error(tested):
    (tested / "html" / "zh_CN" / "sitemap.xml").write_text("<urlset/>")
    with pytest.raises(pytest.fail.Exception, match="built for a deploy"):
        build_under_test()


def test_an_edit_of_a_test_roots_copy_is_seen_and_a_builds_files_are_not(tmp_path):
    """What ``shared_test_root_left_as_copied`` fails a test for: a page changed or added
    in the copy, not the build directory, a catalog Sphinx compiled beside its ``.po`` or
    Python's bytecode cache."""
    root, copy = tmp_path / "test-book", tmp_path / "book"
    (root / "locale/en/LC_MESSAGES").mkdir(parents=True)
    (root / "index.rst").write_text("Title\n=====\n", encoding="utf-8")
    (root / "locale/en/LC_MESSAGES/index.po").write_text('msgid ""\n', encoding="utf-8")
    shutil.copytree(root, copy)
    (copy / "_build/html").mkdir(parents=True)
    (copy / "_build/html/index.html").write_text("<p>built</p>", encoding="utf-8")
    (copy / "locale/en/LC_MESSAGES/index.mo").write_bytes(b"compiled")
    (copy / "__pycache__").mkdir()
    (copy / "__pycache__/_check.cpython-313.pyc").write_bytes(b"cached")
    assert edited_files(root, copy) == []
    (copy / "index.rst").write_text("Title\n=====\n\nEdited.\n", encoding="utf-8")
    (copy / "other.rst").write_text("Other\n=====\n", encoding="utf-8")
    assert edited_files(root, copy) == ["index.rst", "other.rst"]
