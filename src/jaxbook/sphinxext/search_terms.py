"""Teach the Chinese search the book's terms, from the translation glossary.

On ``builder-inited`` a Chinese HTML build writes the glossary's Chinese terms to a jieba
user dictionary (:func:`write_dictionary`), and the search language it adds
(:class:`GlossaryAwareChinese`) indexes each of them whole. Without it, jieba cuts 向量化
into 向 / 量化 and files *vectorization* under 量化, *quantization*: the very confusion
the chapter warns about.

Config values:

- ``jaxbook_glossary`` (``""``): the glossary CSV (its source terms, the ``zh_CN``
  column), relative to the source directory.
- ``jaxbook_search_terms`` (``[]``): Chinese words to keep whole that the glossary does
  not hold.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import jieba
from sphinx.search.zh import SearchChinese
from sphinx.util import logging

from jaxbook.project import glossary
from jaxbook.sphinxext import PARALLEL_SAFE

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

# Large frequencies make jieba prefer these words over its own splits.
FREQUENCY = 100000


def terms(app: Sphinx) -> list[str]:
    words = list(app.config.jaxbook_search_terms)
    if app.config.jaxbook_glossary:
        words += [term.source for term in glossary(Path(app.srcdir, app.config.jaxbook_glossary))]
    return list(dict.fromkeys(words))


def write_dictionary(app: Sphinx) -> None:
    """Write the terms to a jieba user dictionary in the doctree directory and point
    ``html_search_options["dict"]`` at it; warn instead if ``conf.py`` names one there."""
    if not app.config.language.startswith("zh") or app.builder.format != "html":
        return
    path = Path(app.doctreedir, "jieba-dict.txt")
    path.parent.mkdir(parents=True, exist_ok=True)
    options = app.config.html_search_options
    if "dict" in options:
        # conf.py's dictionary wins; jieba takes one.
        logger.warning(
            "html_search_options sets jieba's dictionary: the glossary's terms are not kept "
            "whole in the search index",
            type="jaxbook",
            subtype="search_terms",
        )
        return
    path.write_text("".join(f"{word} {FREQUENCY} n\n" for word in terms(app)), encoding="utf-8")
    # A new dict: conf.py's stays as conf.py wrote it.
    app.config.html_search_options = {**options, "dict": str(path)}


class GlossaryAwareChinese(SearchChinese):
    """Sphinx's Chinese splitter, keeping the user dictionary's terms whole: jieba's search
    mode would still add a term's known sub-words (量化 from 向量化)."""

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(options)
        path = options.get("dict")
        self.protected = set()
        if path and Path(path).is_file():
            lines = Path(path).read_text(encoding="utf-8").splitlines()
            self.protected = {line.split()[0] for line in lines if line.strip()}

    def split(self, input: str) -> list[str]:
        chinese: list[str] = []
        for word in jieba.cut(input):
            chinese.extend([word] if word in self.protected else jieba.cut_for_search(word))
        latin1 = [term.strip() for term in self.latin1_letters.findall(input)]
        self.latin_terms.update(latin1)
        return chinese + latin1


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_config_value("jaxbook_glossary", "", "html", types=frozenset({str}))
    app.add_config_value("jaxbook_search_terms", [], "html", types=frozenset({list, tuple}))
    app.add_search_language(GlossaryAwareChinese)
    app.connect("builder-inited", write_dictionary)
    return {"version": "1.0", **PARALLEL_SAFE}
