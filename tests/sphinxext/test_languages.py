"""The links a page's template gets to the same page in each language, and to the book's
PDF and EPUB: the builder's own URLs, relative to the page, whatever its depth and the
builder's link suffix."""

from __future__ import annotations

import shutil

import pytest
from sphinx.errors import ConfigError

LANGUAGES = {"zh_CN": "中文", "en": "English"}


def contexts(app) -> dict[str, dict]:
    """Each page's template context, as the build writes it."""
    seen: dict[str, dict] = {}

    def keep(app, pagename, template, context, doctree) -> None:
        seen[pagename] = context

    app.connect("html-page-context", keep, priority=900)
    app.build()
    return seen


@pytest.mark.parametrize(
    ("builder", "overrides", "urls"),
    [
        ("html", {}, {"index": "../en/index.html", "ch1/page": "../../en/ch1/page.html"}),
        # Clean URLs: the page has no suffix, and its link to itself elsewhere has none.
        ("html", {"html_link_suffix": ""}, {"ch1/page": "../../en/ch1/page"}),
        # A page is a directory's index.html, one level further down.
        ("dirhtml", {}, {"index": "../en/", "ch1/page": "../../../en/ch1/page/"}),
    ],
)
def test_the_switcher_links_the_same_page_in_the_other_language(
    make_app, rootdir, tmp_path, builder, overrides, urls
):
    srcdir = shutil.copytree(rootdir / "test-glossary", tmp_path / "book")
    app = make_app(
        builder,
        srcdir=srcdir,
        confoverrides={
            "extensions": ["jaxbook.sphinxext.glossary", "jaxbook.sphinxext.languages"],
            "jaxbook_languages": LANGUAGES,
            **overrides,
        },
    )
    seen = contexts(app)
    for page, url in urls.items():
        links = {link["code"]: link["url"] for link in seen[page]["jaxbook_languages"]}
        assert links["en"] == url, page


def test_the_not_found_page_links_its_twin_from_the_sites_root(make_app, rootdir, tmp_path):
    """sphinx-notfound-page roots the not-found page's links at the site's root (the page is
    served at any depth): the switcher's link is the other language's page there, no ".."."""
    srcdir = shutil.copytree(rootdir / "test-glossary", tmp_path / "book")
    extensions = ["jaxbook.sphinxext.glossary", "notfound.extension", "jaxbook.sphinxext.languages"]
    app = make_app(
        "html",
        srcdir=srcdir,
        confoverrides={
            "extensions": extensions,
            "jaxbook_languages": LANGUAGES,
            "language": "zh_CN",
            "notfound_urls_prefix": "/book/zh_CN/",
        },
    )
    links = {link["code"]: link["url"] for link in contexts(app)["404"]["jaxbook_languages"]}
    assert links == {"zh_CN": "/book/zh_CN/404.html", "en": "/book/en/404.html"}


def test_the_editions_are_linked_from_every_page_at_its_depth(make_app, rootdir, tmp_path):
    srcdir = shutil.copytree(rootdir / "test-editions", tmp_path / "book")
    (srcdir / "ch1").mkdir()
    shutil.move(srcdir / "chapter.rst", srcdir / "ch1" / "chapter.rst")
    index = srcdir / "index.rst"
    index.write_text(index.read_text("utf-8").replace("   chapter", "   ch1/chapter"), "utf-8")
    app = make_app("html", srcdir=srcdir)
    seen = contexts(app)
    books = ["jaxbook-zh_CN.pdf", "jaxbook-zh_CN.epub"]
    assert [e["url"] for e in seen["index"]["jaxbook_editions"]] == books
    assert [e["url"] for e in seen["ch1/chapter"]["jaxbook_editions"]] == [f"../{b}" for b in books]
    # The books build apart, after the site: its build says that they are still to come.
    assert "the pages link jaxbook-zh_CN.pdf, jaxbook-zh_CN.epub, which the editions' build" in (
        app.status.getvalue()
    )


def test_a_site_offers_the_editions_its_configuration_names(make_app, rootdir, tmp_path):
    srcdir = shutil.copytree(rootdir / "test-editions", tmp_path / "book")
    app = make_app("html", srcdir=srcdir, confoverrides={"jaxbook_editions": ["epub"]})
    seen = contexts(app)
    assert [e["url"] for e in seen["index"]["jaxbook_editions"]] == ["jaxbook-zh_CN.epub"]
    # Once the site holds it, its build says nothing of it.
    (app.outdir / "jaxbook-zh_CN.epub").write_bytes(b"PK")
    app.status.truncate(0)
    app.build(force_all=True)
    assert "the editions' build" not in app.status.getvalue()


def test_an_edition_the_book_does_not_make_is_a_configuration_error(make_app, rootdir, tmp_path):
    srcdir = shutil.copytree(rootdir / "test-editions", tmp_path / "book")
    with pytest.raises(ConfigError, match=r"conf\.py: jaxbook_editions names mobi; the editions"):
        make_app("html", srcdir=srcdir, confoverrides={"jaxbook_editions": ["pdf", "mobi"]})


@pytest.mark.parametrize(
    ("builder", "overrides", "env", "links"),
    [
        # The other edition's site root, beside this one, from a page at any depth.
        ("html", {}, {}, {"index": "../en/index.html", "ch1/page": "../../en/index.html"}),
        ("dirhtml", {}, {}, {"ch1/page": "../../../en/index.html"}),
        # A deploy build knows the site's address: the link is absolute, in every format.
        (
            "html",
            {},
            {"JAXBOOK_SITE_URL": "https://x.example/book"},
            {"ch1/page": "https://x.example/book/en/"},
        ),
        (
            "epub",
            {},
            {"JAXBOOK_SITE_URL": "https://x.example/book"},
            {"index": "https://x.example/book/en/"},
        ),
        # A book without that address links no file outside itself: the words stay.
        ("epub", {}, {}, {"index": None}),
    ],
)
def test_an_edition_link_leads_to_the_other_languages_site_root(
    make_app, rootdir, tmp_path, monkeypatch, builder, overrides, env, links
):

    monkeypatch.delenv("JAXBOOK_SITE_URL", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    srcdir = shutil.copytree(rootdir / "test-glossary", tmp_path / "book")
    for page in ("index.rst", "ch1/page.rst"):
        with (srcdir / page).open("a", encoding="utf-8") as f:
            f.write("\n\n本书同时提供\\ :edition:`英文版 <en>`。\n")
    app = make_app(
        builder,
        srcdir=srcdir,
        confoverrides={
            "extensions": ["jaxbook.sphinxext.languages", "jaxbook.sphinxext.glossary"],
            "jaxbook_languages": LANGUAGES,
            **overrides,
        },
    )
    seen: dict[str, list] = {}

    def keep(app, doctree, docname) -> None:
        seen[docname] = [
            (node.get("refuri"), node.astext())
            for node in doctree.findall(lambda n: n.astext() == "英文版" and n.tagname != "#text")
        ]

    app.connect("doctree-resolved", keep, priority=900)
    app.build()
    assert "unknown" not in app.warning.getvalue()
    for page, link in links.items():
        assert seen[page] == [(link, "英文版")], page
