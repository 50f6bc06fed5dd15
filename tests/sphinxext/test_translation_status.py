"""The notice on a translated page that is not fully translated yet."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest


class Notices(HTMLParser):
    """The text of each translation notice (class ``jb-translation-notice``) on a page."""

    def __init__(self) -> None:
        super().__init__()
        self.notices: list[str] = []
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        if self.depth:
            self.depth += 1
        elif "jb-translation-notice" in (dict(attrs).get("class") or "").split():
            self.depth = 1
            self.notices.append("")

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.notices[-1] += data


def notices(app, page: str) -> list[str]:
    parser = Notices()
    parser.feed((app.outdir / f"{page}.html").read_text(encoding="utf-8"))
    return [" ".join(text.split()) for text in parser.notices]


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
    html = (app.outdir / "partial.html").read_text(encoding="utf-8")
    assert "这一段还没有译文。" in html
    assert "这一段在合并目录之后改过。" in html


@pytest.mark.sphinx("html", testroot="translation-status", freshenv=True)
def test_the_source_language_gets_no_notice(app):
    app.build()
    assert notices(app, "partial") == []
