"""The landing page names the book in each language built, and links every language."""

from __future__ import annotations

from html.parser import HTMLParser

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
