"""What ``jaxbook.sphinxext.discovery`` sets of other extensions' settings: only what
depends on the build's language, and never over a value the book's conf.py set."""

from __future__ import annotations

import runpy
import shutil
from pathlib import Path

import pytest
from sphinx.util.tags import Tags

from jaxbook.sphinxext.discovery import date_format
from jaxbook.testing.builds import copy_book

ROOT = Path(__file__).parent.parent / "roots" / "test-editions"


def book(tmp_path: Path, *lines: str) -> Path:
    """The editions' small book with discovery loaded, and ``lines`` added to its conf.py."""
    srcdir = Path(shutil.copytree(ROOT, tmp_path / "book"))
    with (srcdir / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write('extensions += ["jaxbook.sphinxext.discovery"]\n')
        conf.writelines(f"{line}\n" for line in lines)
    return srcdir


def test_what_the_book_leaves_unset_is_the_languages(make_app, tmp_path, monkeypatch):
    monkeypatch.delenv("JAXBOOK_SITE_URL", raising=False)
    config = make_app("html", srcdir=book(tmp_path)).config
    assert config.html_last_updated_fmt == date_format("zh_CN")
    assert config.notfound_urls_prefix == "/zh_CN/"
    assert config.ogp_site_name == "小书"
    assert config.ogp_social_cards == {"enable": False}


def test_the_books_own_settings_are_kept(make_app, tmp_path, monkeypatch):
    monkeypatch.delenv("JAXBOOK_SITE_URL", raising=False)
    own = {
        "html_last_updated_fmt": "%Y",
        "notfound_urls_prefix": "/own/",
        "ogp_site_name": "Own",
        "ogp_social_cards": {"enable": True},
    }
    srcdir = book(tmp_path, *(f"{name} = {value!r}" for name, value in own.items()))
    config = make_app("html", srcdir=srcdir).config
    assert {name: config[name] for name in own} == own


# sphinx_sitemap, whose setting site_url is, reads a deprecated attribute of Sphinx's.
@pytest.mark.filterwarnings("ignore::sphinx.deprecation.RemovedInSphinx11Warning")
def test_a_site_url_that_is_not_the_sites_is_warned_of(make_app, tmp_path, monkeypatch):
    monkeypatch.setenv("JAXBOOK_SITE_URL", "https://example.org/book")
    srcdir = book(
        tmp_path, 'extensions += ["sphinx_sitemap"]', 'site_url = "https://elsewhere.org/"'
    )
    app = make_app("html", srcdir=srcdir)
    assert app.config.ogp_site_url == "https://example.org/book/zh_CN/"
    assert "site_url (the sitemap's address) is 'https://elsewhere.org/'" in app.warning.getvalue()
    assert "[jaxbook.discovery]" in app.warning.getvalue()


def test_a_source_archive_builds_without_dates_or_a_warning(make_app, tmp_path, monkeypatch):
    """The book's conf.py in a tree without git's history (an archive: its copy, no ``.git``)
    loads the dates' extension all the same, and silences the one warning it then gives; a
    page of such a tree, built with that setting, has no date. Without the setting the build
    warns, once per directory of pages."""
    monkeypatch.delenv("JAXBOOK_SITE_URL", raising=False)
    archive = tmp_path / "archive"
    archive.mkdir()
    conf = runpy.run_path(str(copy_book(archive) / "conf.py"), {"tags": Tags()})
    assert "sphinx_last_updated_by_git" in conf["extensions"]
    silenced = [kind for kind in conf["suppress_warnings"] if kind.startswith("git.")]
    assert silenced == ["git.subprocess_error"]
    for suppress in ([], silenced):
        srcdir = book(
            tmp_path / f"silenced-{bool(suppress)}",
            'extensions += ["sphinx_last_updated_by_git"]',
            f"suppress_warnings = {suppress!r}",
        )
        app = make_app("html", srcdir=srcdir)
        app.build()
        warned = "Error getting data from Git" in app.warning.getvalue()
        assert warned is not bool(suppress), app.warning.getvalue()
        # (the page's date, whether its source may be linked): none, and the source unlinked.
        assert app.env.git_last_updated["chapter"] == (None, False)
