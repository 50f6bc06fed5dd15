"""The general index of the Chinese edition, in pinyin order.

Sphinx sorts and groups the general index by code point, which in Chinese is
no order a reader knows: 不, 中, 主, 函, ... each under its own heading. On a
Chinese build this extension regroups the index that the ``genindex`` page is
written from: every entry sorts by its pinyin (``pypinyin``, without tones;
a Latin entry by itself, lower-cased) and goes under the capital of its first
letter, A to Z, with symbols and digits first under "Symbols", as Sphinx
does. Other languages keep Sphinx's order. The PDF's index (makeindex) sorts
each Chinese entry by the same pinyin: the LaTeX writer gives it as the sort key,
and the page numbers follow a Chinese entry after full-width commas.
In every language, the pages under an entry of the web's index are listed in
reading order, not by their titles' spelling.
In every language the writer also sets a term's entry in the text's type (an
API's stays in code type) and writes a hyphen as a hyphen, so that a term the
glossary and the text both index is one entry.

A word whose reading pypinyin gets wrong out of context is read as the book
means it (``PHRASES``: 重塑 is chóng sù, not zhòng sù).

Config values: none.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from itertools import groupby
from typing import TYPE_CHECKING, Any

from sphinx.writers.latex import LaTeXTranslator

from jaxbook.sphinxext import _chapters

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

SYMBOLS = "Symbols"
PHRASES = {"重塑": [["chóng"], ["sù"]]}


@cache
def _pinyin() -> Callable[[str], list[str]]:
    """pypinyin with the book's readings, loaded when an index is first sorted: loading it
    takes a quarter of a second, which every other build of the book would pay."""
    from pypinyin import Style, lazy_pinyin, load_phrases_dict

    load_phrases_dict(PHRASES)
    return lambda name: lazy_pinyin(name, style=Style.NORMAL, errors="default")


def sort_key(name: str) -> tuple[int, str]:
    """Symbols first, then by pinyin (tones dropped) or the Latin spelling."""
    spelled = " ".join(_pinyin()(name)).lower()
    spelled = unicodedata.normalize("NFD", spelled)
    return (0 if not spelled[:1].isalpha() else 1, spelled)


def heading(name: str) -> str:
    first = sort_key(name)[1][:1]
    return first.upper() if first.isascii() and first.isalpha() else SYMBOLS


def regroup(groups: list[tuple[str, list[Any]]]) -> list[tuple[str, list[Any]]]:
    """The (heading, entries) groups of the general index, in pinyin order."""
    entries = sorted(
        (entry for _letter, items in groups for entry in items), key=lambda e: sort_key(e[0])
    )
    return [
        (letter, list(items)) for letter, items in groupby(entries, key=lambda e: heading(e[0]))
    ]


def reading_order(app: Sphinx) -> dict[str, int]:
    """Each page's address and its place in the book, as a reader meets it."""
    order = _chapters.reading_order(app.env)
    return {app.builder.get_target_uri(name): i for i, name in enumerate(order)}


def in_reading_order(groups: list[tuple[str, list[Any]]], places: dict[str, int]) -> None:
    """Sort each entry's places (the pages under it) as a reader meets them."""

    def place(subitem: tuple[str, list[tuple[str, str]]]) -> int:
        _name, links = subitem
        uri = links[0][1].split("#")[0] if links else ""
        return places.get(uri, len(places))

    for _letter, items in groups:
        for _name, (_links, subitems, _key) in items:
            subitems.sort(key=place)


def order_index(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    if "genindexentries" not in context:
        return
    in_reading_order(context["genindexentries"], reading_order(app))
    if not (app.config.language or "").startswith("zh"):
        return
    context["genindexentries"] = regroup(context["genindexentries"])
    context["genindexcounts"] = [
        sum(1 + len(subitems) for _name, (_links, subitems, _key) in items)
        for _letter, items in context["genindexentries"]
    ]


class PinyinLaTeXTranslator(LaTeXTranslator):
    """Sphinx's LaTeX writer, with a Chinese index entry sorted by its pinyin, a term set
    in the text's type (Sphinx sets every entry in code type), hyphens as hyphens, and a
    glossary term's entry written after its label, as the text's entries are written."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.term_entries: list[str] = []

    def visit_index(self, node: Any) -> None:
        start = len(self.body)
        entries = node["entries"]
        if node.get("jaxbook_mentions"):
            # "jax.jit; 1.3 ..." names the page for the web; on paper its number does.
            node["entries"] = [
                (kind, value.split(";")[0].strip(), *rest) for kind, value, *rest in entries
            ]
        try:
            super().visit_index(node)
        finally:  # it ends by raising SkipNode
            node["entries"] = entries
            for i in range(start, len(self.body)):
                text = self.body[i].replace(r"\sphinxhyphen{}", "-")
                text = SHOWN_ENTRY.sub(_shown, text)
                if (self.config.language or "").startswith("zh"):
                    text = INDEX_ENTRY.sub(_pinyin_sort_key, text)
                self.body[i] = text
            if self.in_term:
                # Inside the label's argument, TeX writes "\textrm {term}" to the index
                # file where a paragraph writes "\textrm{term}": one term, two headwords.
                self.term_entries.extend(self.body[start:])
                del self.body[start:]

    def depart_term(self, node: Any) -> None:
        super().depart_term(node)
        if not self.in_term:
            self.body.extend(self.term_entries)
            self.term_entries.clear()


# The shown part of an entry; an API, an option or a variable keeps the code type.
SHOWN_ENTRY = re.compile(r"\\spxentry\{((?:[^{}]|\{\})*)\}")
API = re.compile(r"^(jax|jnp|lax|np|XLA_|JAX_)|[._]")


def _shown(match: re.Match[str]) -> str:
    shown = match.group(1)
    plain = shown.replace("\\_", "_")
    # A page's title under an entry ("1.2 JAX 与 NumPy") has a dot but is no API.
    if API.search(plain) and " " not in plain.strip():
        return match.group(0)
    return "\\spxentry{\\textrm{" + shown + "}}"


# \index{key@\spxentry{shown}...}: a single entry as Sphinx's writer puts it.
INDEX_ENTRY = re.compile(r"\\index\{([^@!{}]*[\u4e00-\u9fff][^@!{}]*)@")


def _pinyin_sort_key(match: re.Match[str]) -> str:
    return "\\index{" + sort_key(match.group(1))[1].replace("@", "") + "@"


# makeindex's separators between an entry and its page numbers, in Chinese type.
CHINESE_DELIMITERS = """
delim_0 "，"
delim_1 "，"
delim_2 "，"
delim_n "，"
delim_r "～"
"""


def chinese_separators(app: Sphinx, exception: Exception | None) -> None:
    if exception or app.builder.name != "latex" or not (app.config.language or "").startswith("zh"):
        return
    style = app.outdir / "python.ist"
    if style.exists() and "delim_0" not in style.read_text(encoding="utf-8"):
        with style.open("a", encoding="utf-8") as file:
            file.write(CHINESE_DELIMITERS)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("html-page-context", order_index)
    app.connect("build-finished", chinese_separators)
    app.set_translator("latex", PinyinLaTeXTranslator, override=True)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
