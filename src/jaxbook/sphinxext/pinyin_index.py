"""The general index of the Chinese edition, in pinyin order.

Sphinx sorts the general index by code point, which in Chinese is no order a reader knows.
On a Chinese build this extension regroups the ``genindex`` page's entries by pinyin under
the headings A to Z (:func:`order_index`, on ``html-page-context``), and gives the PDF's
makeindex the same sort keys and Chinese separators (:class:`IndexEntries`, a mixin of the
book's LaTeX translator; :func:`chinese_separators`). In every language the index lists an
entry's pages in reading order and sets an API's entry in code type. No config values.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from markupsafe import Markup, escape
from sphinx import package_dir
from sphinx.locale import _ as sphinx_
from sphinx.util import logging
from sphinx.util.index_entries import split_index_msg
from sphinx.writers.latex import CR, EXTRA_RE

from jaxbook.chinese import HAN
from jaxbook.sphinxext import PARALLEL_SAFE, _chapters
from jaxbook.sphinxext.api_names import NAME, VARIABLE

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence, Set

    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata
    from sphinx.writers.latex import LaTeXTranslator

logger = logging.getLogger(__name__)

SYMBOLS = "Symbols"
# Words whose reading pypinyin gets wrong out of context, read as the book means them.
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
    # One space between syllables and words: "与 jit" is "yu jit", not "yu  jit " (pypinyin
    # keeps the spaces around a Latin word), which sorted before "yu fu".
    spelled = " ".join(" ".join(_pinyin()(name)).split()).lower()
    spelled = unicodedata.normalize("NFD", spelled)
    return (0 if not spelled[:1].isalpha() else 1, spelled)


def heading(name: str) -> str:
    first = sort_key(name)[1][:1]
    # "Symbols" in the edition's language, as Sphinx's own index says it ("符号").
    return first.upper() if first.isascii() and first.isalpha() else sphinx_(SYMBOLS)


def regroup(groups: list[tuple[str, list[Any]]]) -> list[tuple[str, list[Any]]]:
    """The (heading, entries) groups of the general index, in pinyin order."""
    entries = sorted(
        (entry for _letter, items in groups for entry in items), key=lambda e: sort_key(e[0])
    )
    return [
        (letter, list(items)) for letter, items in groupby(entries, key=lambda e: heading(e[0]))
    ]


# A JAX API, configuration option or environment variable, as book_index names them.
OPTION = re.compile(r"jax_[a-z0-9_]+")
# Such a name inside an entry's text ("开启（jax_enable_x64）", "取代 jax.pmap 的方式"), or the
# update method .at[].
CODE_IN_TEXT = re.compile(rf"({NAME.pattern}|{OPTION.pattern}|\.at\[\])")
# An entry's aside that is a name of code: with a dot or an underscore ("fold_in", ".at").
CODE_WORD = re.compile(r"\.[A-Za-z_]\w*|[A-Za-z_]\w*(?:[._]\w+)+")


def is_api(name: str) -> bool:
    """Whether an index entry names an API (set in code type), not a term or a concept."""
    return any(pattern.fullmatch(name) for pattern in (NAME, VARIABLE, OPTION))


def reading_order(app: Sphinx) -> dict[str, int]:
    """Each page's address and its place in the book, as a reader meets it."""
    order = _chapters.reading_order(app.env)
    return {app.builder.get_target_uri(name): i for i, name in enumerate(order)}


def page_titles(app: Sphinx) -> set[str]:
    """The pages' titles, as book_index writes them under an entry."""
    return {" ".join(title.astext().split()) for title in app.env.titles.values()}


def in_reading_order(
    groups: list[tuple[str, list[Any]]],
    places: dict[str, int],
    titles: Set[str] = frozenset(),
    key: Callable[[str], Any] = str.casefold,
) -> None:
    """Sort each entry's subitems: the pages it is mentioned on (their titles) as a
    reader meets them, then its subentries in ``key``'s order, then its "see" entries
    (which link nowhere)."""

    def place(subitem: tuple[str, list[tuple[str, str]]]) -> tuple[int, int, Any]:
        name, links = subitem
        if not links:
            return (2, 0, key(name))
        if name in titles:
            uri = links[0][1].split("#")[0]
            return (0, places.get(uri, len(places)), "")
        return (1, 0, key(name))

    for _letter, items in groups:
        for _name, (_links, subitems, _key) in items:
            subitems.sort(key=place)


def in_code(name: str) -> str:
    """An API's entry in code type on the web's index page."""
    if not is_api(name):
        return name
    return Markup(
        '<code class="docutils literal notranslate"><span class="pre">%s</span></code>'
    ) % escape(name)


def apis_in_code(groups: list[tuple[str, list[Any]]]) -> list[tuple[str, list[Any]]]:
    return [
        (
            letter,
            [
                (
                    in_code(name),
                    (links, [(in_code(sub), sublinks) for sub, sublinks in subitems], k),
                )
                for name, (links, subitems, k) in items
            ],
        )
        for letter, items in groups
    ]


def name_pages(groups: list[tuple[str, list[Any]]], titles: dict[str, str]) -> None:
    """An entry that leads to several pages names each by its title, as a mention does
    (book_index), instead of Sphinx's bare "[1]", "[2]"; one place stays the entry's link."""
    for _letter, items in groups:
        for _name, (links, subitems, _key) in items:
            if len(links) < 2:
                continue
            pages = [titles.get(uri.split("#")[0]) for _main, uri in links]
            if None in pages:
                continue  # a page this build does not know: the entry stays as Sphinx has it
            named = {name: sublinks for name, sublinks in subitems}
            for (main, uri), title in zip(links, pages, strict=True):
                assert title is not None
                if title in named:
                    continue  # the page is named already: its first place is enough
                else:
                    named[title] = [(main, uri)]
                    subitems.append((title, named[title]))
            links.clear()


def order_index(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """The ``genindex`` page's entries as the book orders them.

    In Chinese every entry and subentry sorts by its pinyin without tones (a Latin entry by
    itself, lower-cased) and goes under the capital of its first letter, symbols and digits
    first under "Symbols", as Sphinx does; other languages keep Sphinx's order. In every
    language an entry's pages come in reading order, before its subentries and its "see"
    entries, and an API's entry (:func:`is_api`) is set in code type."""
    if "genindexentries" not in context:
        return
    chinese = (app.config.language or "").startswith("zh")
    name_pages(
        context["genindexentries"],
        {
            app.builder.get_target_uri(doc): " ".join(title.astext().split())
            for doc, title in app.env.titles.items()
        },
    )
    in_reading_order(
        context["genindexentries"],
        reading_order(app),
        page_titles(app),
        (lambda name: sort_key(name)) if chinese else str.casefold,
    )
    if chinese:
        context["genindexentries"] = regroup(context["genindexentries"])
        context["genindexcounts"] = [
            sum(1 + len(subitems) for _name, (_links, subitems, _key) in items)
            for _letter, items in context["genindexentries"]
        ]
    context["genindexentries"] = apis_in_code(context["genindexentries"])


# The entries Sphinx's writer makes of a "pair" and a "triple" entry, by their levels.
SPHINX_LEVELS: dict[str, Callable[..., list[tuple[str, ...]]]] = {
    "pair": lambda a, b: [(a, b), (b, a)],
    "triple": lambda a, b, c: [(a, f"{b} {c}"), (b, f"{c}, {a}"), (c, f"{a} {b}")],
}


if TYPE_CHECKING:
    # A mixin's methods reach the translator's through super(); mypy sees its base.
    _Translator = LaTeXTranslator
else:
    _Translator = object


class IndexEntries(_Translator):
    """The index entries of the book's LaTeX translator (``jaxbook.sphinxext.latex_translator``):
    a Chinese entry sorted by its pinyin, a term set in the text's type (Sphinx sets every
    entry in code type), hyphens as hyphens, a glossary term's entry written after its label,
    as the text's entries are written, and a "see" entry written where the index begins,
    after every page number."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.term_entries: list[str] = []
        self.see_entries: list[str] = []

    def visit_index(self, node: Any) -> None:
        """Sphinx's ``\\index{key@shown!...}``, each level keyed and set as the book sets it."""
        start = len(self.body)
        if not node.get("inline", True):
            self.body.append(CR)
        for kind, value, _target, main, _category in node["entries"]:
            if node.get("jaxbook_mentions"):
                # "jax.jit; 1.3 ..." names the page for the web; on paper its number does.
                value = value.split(";")[0].strip()
            try:
                parts = split_index_msg(kind, value)
            except ValueError as error:
                logger.warning(str(error), location=node, type="jaxbook", subtype="pinyin_index")
                continue
            page = "|spxpagem" if main else ""
            if kind in SEE_KINDS:
                # makeindex's \seealso says "see also" (\alsoname); Sphinx writes \see for both.
                # Written where the index begins (astext): makeindex lists an entry's
                # locators by page, so these follow every page number ("惰性求值, 13, 95,
                # 另请参见 异步派发"), as a publisher sets them, not before.
                self.see_entries.append(
                    rf"\index{{{self.index_level(parts[0])}|{kind}{{{self.index_text(parts[1])}}}}}"
                )
            else:
                for levels in SPHINX_LEVELS.get(kind, lambda *single: [single])(*parts):
                    self.body.append(self.index_entry(levels, page))
        if not node.get("inline", True):
            self.body.append(r"\ignorespaces ")
        if self.in_term:
            # Inside the label's argument, TeX writes "\textrm {term}" to the index
            # file where a paragraph writes "\textrm{term}": one term, two headwords.
            self.term_entries.extend(self.body[start:])
            del self.body[start:]
        raise nodes.SkipNode

    def index_entry(self, levels: Sequence[str], page: str) -> str:
        return rf"\index{{{'!'.join(self.index_level(level) for level in levels)}{page}}}"

    def index_level(self, text: str) -> str:
        """``key@shown``: a Chinese key by its pinyin; an API in code type, the rest in the
        text's."""
        chinese = (self.config.language or "").startswith("zh") and HAN.search(text)
        key = self.index_text(sort_key(text)[1] if chinese else text)
        extra = EXTRA_RE.match(text)
        name, aside = (extra[1], extra[2]) if extra else (text, None)
        shown = self.index_text(name) if is_api(name) else rf"\textrm{{{self.with_code(name)}}}"
        shown = rf"\spxentry{{{shown}}}"
        if aside is not None:
            # Upright, as the entry is (Sphinx sets it in italics): a name in code type.
            code = all(CODE_WORD.fullmatch(part) for part in aside.split(", "))
            aside = self.index_text(aside) if code else self.with_code(aside)
            shown += rf"\spxextra{{\texttt{{{aside}}}}}" if code else rf"\spxextra{{{aside}}}"
        return f"{key}@{shown}"

    def with_code(self, text: str) -> str:
        """``text`` escaped, each API name in it ("CPU 上的 jax.device_put") in code type."""
        pieces = CODE_IN_TEXT.split(text)
        return "".join(
            rf"\texttt{{{self.index_text(piece)}}}" if at % 2 else self.index_text(piece)
            for at, piece in enumerate(pieces)
        )

    def index_text(self, text: str) -> str:
        """Text escaped for LaTeX and makeindex as Sphinx's writer escapes it, with a hyphen
        as a hyphen (Sphinx's \\sphinxhyphen would make two headwords of one term)."""
        text = self.encode(text).replace(r"\sphinxhyphen{}", "-")
        text = text.replace(r"\{", r"\sphinxleftcurlybrace{}").replace(
            r"\}", r"\sphinxrightcurlybrace{}"
        )
        for mark, quoted in (('"', '""'), ("@", '"@'), ("!", '"!'), ("|", r"\textbar{}")):
            text = text.replace(mark, quoted)
        return text

    def astext(self) -> str:
        if self.see_entries and self.elements.get("printindex"):
            # On a page of their own, before the index opens (sphinxtheindex clears the
            # page): the page of these entries is past every page of the text.
            self.body.append("\n\\clearpage\n" + "".join(self.see_entries) + "\n")
            self.see_entries = []
        return super().astext()

    def depart_term(self, node: Any) -> None:
        super().depart_term(node)
        if not self.in_term:
            self.body.extend(self.term_entries)
            if self.term_entries:
                # The line's end after the entry would be a space that opens the definition.
                self.body.append("%")
            self.term_entries.clear()


SEE_KINDS = ("see", "seealso")


# makeindex's separators between an entry and its page numbers, in Chinese type.
CHINESE_DELIMITERS = """
delim_0 "，"
delim_1 "，"
delim_2 "，"
delim_n "，"
delim_r "～"
"""


def chinese_separators(app: Sphinx) -> None:
    """A Chinese edition's makeindex style: Sphinx's, and the separators above. Sphinx copies
    ``latex_additional_files`` after its own support files, so this one replaces its
    ``python.ist``."""
    if app.builder.name != "latex" or not (app.config.language or "").startswith("zh"):
        return
    style = Path(app.doctreedir, "python.ist")
    style.parent.mkdir(parents=True, exist_ok=True)
    sphinx_style = Path(package_dir, "texinputs", "python.ist").read_text(encoding="utf-8")
    style.write_text(sphinx_style + CHINESE_DELIMITERS, encoding="utf-8")
    app.config.latex_additional_files = [*app.config.latex_additional_files, str(style)]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("html-page-context", order_index)
    app.connect("builder-inited", chinese_separators)
    return {"version": "1.0", **PARALLEL_SAFE}
