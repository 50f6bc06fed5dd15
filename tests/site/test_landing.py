"""The landing page names the book in each language built, and links every language."""

from __future__ import annotations

import json
from html.parser import HTMLParser

from jaxbook import project
from jaxbook.site import landing


class Landing(HTMLParser):
    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.links: list[tuple[str, str]] = []  # (hreflang, text)
        self._in: str | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "title":
            self._in = "title"
        elif tag == "a":
            self.links.append((attributes["hreflang"], ""))
            self._in = "a"

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        if self._in == "title":
            self.title += data
        elif self._in == "a":
            self.links[-1] = (self.links[-1][0], self.links[-1][1] + data)


def test_the_title_is_the_books_in_each_language_once(tmp_path):
    for language, title in [
        ("zh_CN", "JAX 入门"),
        ("en", "Getting Started with JAX"),
        ("ja", "JAX 入门"),  # not translated yet: the source's title, not said twice
    ]:
        (tmp_path / language).mkdir()
        (tmp_path / language / "index.html").write_text(
            f"<html><head><title>{title}</title></head></html>", encoding="utf-8"
        )
    page = Landing(landing.write(tmp_path, ["zh_CN", "en", "ja"]).read_text(encoding="utf-8"))
    assert page.title == "JAX 入门 · Getting Started with JAX"
    assert [hreflang for hreflang, _name in page.links] == ["zh-CN", "en", "ja"]
    assert page.links[:2] == [("zh-CN", "简体中文"), ("en", "English")]


def test_a_draft_is_listed_for_its_translators_but_no_browser_is_sent_to_it(tmp_path, monkeypatch):
    listed = {
        "zh_CN": project.Language("zh_CN", "简体中文", "source"),
        "en": project.Language("en", "English", "done"),
        "es": project.Language("es", "Español", "draft"),
    }
    monkeypatch.setattr(project, "languages", lambda book=None: listed)
    text = landing.write(tmp_path, list(listed)).read_text(encoding="utf-8")
    sites = json.loads(text.split("var sites = ", 1)[1].split(";\n", 1)[0])
    assert [site["dir"] for site in sites] == ["zh_CN", "en"]
    page = Landing(text)
    assert [hreflang for hreflang, _name in page.links] == ["zh-CN", "en", "es"]
    assert '<a href="es/index.html" hreflang="es">Español</a> (draft)</li>' in text
    # Proved to fail: with the draft offered, a Spanish browser would be sent to it.
    monkeypatch.setattr(project, "languages", lambda book=None: {**listed, "es": listed["en"]})
    text = landing.write(tmp_path, list(listed)).read_text(encoding="utf-8")
    assert '"dir": "es"' in text
