"""The notice on a translated page that is not fully translated yet."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from jaxbook.sphinxext import translation_status


def page(app, name: str) -> BeautifulSoup:
    return BeautifulSoup((app.outdir / f"{name}.html").read_text(encoding="utf-8"), "html.parser")


def notices(app, name: str) -> list[str]:
    """The text of each translation notice on a page."""
    return [
        " ".join(n.get_text().split()) for n in page(app, name).select(".jb-translation-notice")
    ]


@pytest.mark.sphinx(
    "html", testroot="translation-status", freshenv=True, confoverrides={"language": "en"}
)
def test_a_page_with_untranslated_passages_says_how_many(app):
    app.build()
    # Of the page's five passages, the empty, the fuzzy and the changed one are not
    # translated; the title and the first paragraph are.
    assert notices(app, "partial") == [
        "Translation in progress This page is 40% translated: "
        "3 of 5 passages still appear in the original language."
    ]
    assert notices(app, "index") == []
    # What is not translated is shown in the original language.
    paragraphs = [p.get_text() for p in page(app, "partial").select("p")]
    assert "这一段还没有译文。" in paragraphs
    assert "这一段在合并目录之后改过。" in paragraphs
    # The counts are the extension's own (its domain's), not the page's metadata, which the
    # templates see as ``meta``.
    assert translation_status.page_progress(app.env, "partial") == (2, 5)
    assert not [key for meta in app.env.metadata.values() for key in meta if "jaxbook" in key]


@pytest.mark.sphinx("html", testroot="translation-status", freshenv=True)
def test_the_source_language_gets_no_notice(app):
    app.build()
    assert notices(app, "partial") == []
