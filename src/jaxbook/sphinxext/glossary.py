"""The readers' glossary, generated from the translators' glossary CSV.

Adds the ``book-glossary`` directive (:class:`BookGlossary`): a Sphinx glossary with one
entry per row of the CSV that ``jaxbook_glossary`` names (declared by
:mod:`jaxbook.sphinxext.search_terms`), in the build's language and sort order. The
entries are real glossary terms, indexed and linkable with ``:term:``. A transform
(:class:`LinkFirstUses`) links the first use of each term on the chosen pages to its
entry.

Config values:

- ``jaxbook_glossary_pages`` (``["ch*/*"]``): ``fnmatch`` patterns of the documents
  whose first uses are linked.
"""

from __future__ import annotations

import re
from fnmatch import fnmatch
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.utils import get_source_line
from sphinx import addnodes
from sphinx.domains.std import make_glossary_term
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_id

from jaxbook._compat import add_term_name
from jaxbook.project import SOURCE_LANGUAGE, Term, glossary, glossary_files
from jaxbook.sphinxext import PARALLEL_SAFE, search_terms, terms
from jaxbook.sphinxext._locale import _, add_catalog, language_name, sentence
from jaxbook.sphinxext._nodes import ancestors
from jaxbook.sphinxext.pinyin_index import sort_key
from jaxbook.sphinxext.terms import zh_term

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata


# Text inside these is never a "use" to link.
SKIP = (
    nodes.literal,
    nodes.FixedTextElement,
    nodes.reference,
    nodes.title,
    nodes.rubric,
    nodes.term,
    nodes.raw,
    nodes.comment,
    nodes.math,
    zh_term,
    addnodes.pending_xref,
    addnodes.toctree,
)
# Nor is a label the build writes over an output ("Measured on: CPU backend, ..."): its
# words name the run, they do not use the term.
LABELS = {"pagerun-measured-label", "jb-backend-label"}
LATIN = re.compile(r"[A-Za-z0-9]")


def entries(srcdir: str | Path, config: Config) -> list[Term]:
    return glossary(Path(srcdir, config.jaxbook_glossary))


def glossary_language(config: Config, terms: list[Term]) -> str:
    """The language whose column the build shows: its own, or the source's if the CSV
    has no term in it yet."""
    language = config.language
    translated = any(language in entry.names for entry in terms)
    return language if not terms or translated else SOURCE_LANGUAGE


def unspaced(language: str) -> bool:
    """Whether ``language`` runs its words together (a use is the term itself, not a word)."""
    return language.split("_")[0] in {"zh", "ja"}


def other_language(language: str, terms: list[Term]) -> str | None:
    """The language an entry names beside its own term: the first translation on a
    source page, the source on a translated one."""
    if language != SOURCE_LANGUAGE:
        return SOURCE_LANGUAGE
    return next((other for other in terms[0].names if other != SOURCE_LANGUAGE), None)


class BookGlossary(SphinxDirective):
    """``.. book-glossary::``: the glossary CSV as a Sphinx glossary.

    The CSV has each language's own ``<language>/glossary.csv`` merged in
    (:func:`jaxbook.project.glossary`). Each entry is the term in the page's language, its
    definition (``definition_<language>``) and then the term in one other language
    (:func:`other_language`): "（英文：vectorization）" on a source page, " (Chinese: 向量化)"
    on a translated one. A language with no terms in the CSV yet shows the source's
    entries, and a term not yet translated shows the source's term and definition.
    Generated in the build's language, the entries are not messages for the catalogs; a
    translated term also answers to its source term, so ``:term:`向量化``` resolves in
    every language, and each entry's anchor is the same in every language (``Term.key``).
    """

    has_content = False
    option_spec: ClassVar = {}

    def run(self) -> list[nodes.Node]:
        for path in glossary_files(Path(self.env.srcdir, self.config.jaxbook_glossary)):
            self.env.note_dependency(str(path))
        glossary = addnodes.glossary()
        glossary["sorted"] = False
        items = nodes.definition_list(classes=["glossary"])
        glossary += items
        source, line = self.get_source_info()
        # A directive on a page has its place there.
        assert source is not None, "the directive has no file"
        assert line is not None, "the directive has no line"
        terms = entries(self.env.srcdir, self.config)
        language = glossary_language(self.config, terms)
        other = other_language(language, terms) if terms else None
        if language.startswith("zh"):
            terms.sort(key=lambda entry: sort_key(entry.name(language)))
        else:
            terms.sort(key=lambda entry: entry.name(language).casefold())
        for entry in terms:
            node_id = make_id(self.env, self.state.document, "term", entry.key)
            term = make_glossary_term(
                self.env,
                [nodes.Text(entry.name(language))],
                None,
                source,
                line,
                node_id,
                self.state.document,
            )
            # Generated in the build's language: not a message for the catalogs.
            term["translatable"] = False
            # A translated entry also answers to its source term (XLA is XLA in both).
            same = entry.source.casefold() == entry.name(language).casefold()
            if language != SOURCE_LANGUAGE and not same:
                # No public way to give a term a second name (see jaxbook._compat).
                add_term_name(self.env.domains.standard_domain, entry.source, node_id, term)
            definition = nodes.definition()
            inline, messages = self.parse_inline(entry.definition(language), lineno=line)
            paragraph = nodes.paragraph("", "", *inline)
            if (
                other is not None
                and entry.name(other).casefold() != entry.name(language).casefold()
            ):
                paragraph += named_in(entry.name(other), other, self.config.language)
            definition += paragraph
            definition += messages
            items += nodes.definition_list_item("", term, definition)
        return [glossary]


def named_in(name: str, language: str, page_language: str) -> list[nodes.Node]:
    """ " (Chinese: 向量化)": the term in another language, after its definition."""
    shown: nodes.inline
    if language == SOURCE_LANGUAGE and not page_language.startswith("zh"):
        shown = zh_term(name, name, classes=["jb-zh-term", "jb-term-other"])
    else:
        shown = nodes.inline(name, name, classes=["jb-term-other"])
    return sentence(
        # Translators: After a glossary term's definition, the term in another language, in
        # brackets: " (Chinese: 向量化)"; %(language)s is that language's name.
        _(" (%(language)s: %(term)s)"),
        language=language_name(language, page_language),
        term=shown,
    )


def links_first_uses(config: Config, docname: str) -> bool:
    return any(fnmatch(docname, pattern) for pattern in config.jaxbook_glossary_pages)


def note_glossary(app: Sphinx, doctree: nodes.document) -> None:
    """A page whose first uses are linked is read and written again when the CSV changes
    (its patterns decide what is linked), not only the glossary page."""
    if app.config.jaxbook_glossary and links_first_uses(app.config, app.env.docname):
        for path in glossary_files(Path(app.env.srcdir, app.config.jaxbook_glossary)):
            app.env.note_dependency(str(path))


def use_rules(
    srcdir: str | Path, config: Config
) -> tuple[list[tuple[re.Pattern[str], str]], dict[str, str]]:
    """How a use of each term is found in the build's language, and how it is shown.

    The rules are ``(pattern, key)`` pairs, the key being the term's ``Term.key``; the
    mapping gives each key's term in the build's language.
    """
    terms = entries(srcdir, config)
    language = glossary_language(config, terms)
    shown = {entry.key: entry.name(language) for entry in terms}
    return rules_for(terms, language), shown


def rules_for(terms: list[Term], language: str) -> list[tuple[re.Pattern[str], str]]:
    """The rules that find uses of ``terms`` in text of ``language``, the longest term first:
    "typed key" before "key", "explicit sharding" before "sharding", so that a use of the
    longer term is not taken by the shorter one inside it."""
    if language == SOURCE_LANGUAGE:
        return rules_for_chinese(terms)
    # A term the language has not translated yet has no use to find in it.
    ordered = sorted(
        (entry for entry in terms if language in entry.patterns),
        key=lambda entry: len(entry.name(language)),
        reverse=True,
    )
    if unspaced(language):
        return [
            (re.compile(entry.patterns[language], re.IGNORECASE), entry.key) for entry in ordered
        ]
    # A whole word: from a word's start (not after a hyphen: "multi-device" is no use of
    # "device") to its end, so that a link never splits a word.
    return [
        (re.compile(rf"(?<![\w-])(?:{entry.patterns[language]})[\w-]*", re.IGNORECASE), entry.key)
        for entry in ordered
    ]


class LinkFirstUses(SphinxTransform):
    """The first use of each term on a page becomes a reference to its entry: the
    ``pending_xref`` that ``:term:`` makes (the standard domain's ``term``), so that Sphinx
    resolves it for every builder as it resolves the role's, and a term missing from the
    glossary is its warning ("term not in glossary").

    In a language written without spaces (Chinese, Japanese) a use is the term itself, and
    a longer term that contains it wins (向量化 is never linked as 量化), also across a line
    break; in another language it is a whole-word match of the CSV's ``pattern_<language>``
    (:func:`rules_for`). Code, titles, links and ``:zh:`` mentions are left alone
    (:func:`skipped`).
    """

    # After the i18n transform (20) has translated the page and book_index (840) has read
    # the uses as they are written, before Sphinx collects the page (SphinxDomains, 850).
    default_priority = 845

    def apply(self, **kwargs: object) -> None:
        docname = self.env.current_document.docname
        if not self.config.jaxbook_glossary or not links_first_uses(self.config, docname):
            return
        terms = entries(self.env.srcdir, self.config)
        rules = rules_for(terms, glossary_language(self.config, terms))
        # Every glossary answers to the source term (a translated entry as a second name).
        targets = {entry.key: entry.source for entry in terms}
        linked: set[str] = set()
        language = self.config.language
        done: set[int] = set()
        for text in list(self.document.findall(nodes.Text)):
            if id(text) in done or skipped(text):
                continue
            # A run of Text nodes is one text (MyST gives each line break a node of its own),
            # so that a longer term broken across them still wins over a shorter one in it.
            parent = text.parent
            at = next(i for i, child in enumerate(parent.children) if child is text)
            end = at
            while end < len(parent) and isinstance(parent[end], nodes.Text):
                end += 1
            done.update(id(node) for node in parent.children[at:end])
            value = "".join(str(node) for node in parent.children[at:end])
            todo = [span for span in uses_in(value, rules, language) if span[2] not in linked]
            if not todo:
                continue
            pieces: list[nodes.Node] = []
            position = 0
            for start, stop, key in todo:
                if key in linked:
                    continue
                linked.add(key)
                pieces.append(nodes.Text(value[position:start]))
                pieces.append(reference(value[start:stop], targets[key], docname, parent))
                position = stop
            pieces.append(nodes.Text(value[position:]))
            parent[at:end] = [piece for piece in pieces if piece.astext()]


def reference(text: str, term: str, docname: str, at: nodes.Element) -> addnodes.pending_xref:
    """What ``:term:`text <term>``` makes, the link's text marked as a first use."""
    xref = addnodes.pending_xref(
        "",
        nodes.inline(text, text, classes=["jb-term"]),
        refdomain="std",
        reftype="term",
        reftarget=term,
        refexplicit=True,
        refwarn=True,
        refdoc=docname,
    )
    xref.source, xref.line = get_source_line(at)
    return xref


# An update note's point: shown as the note's title, and copied, once the pages are read,
# into the update-notes table of another page, where no reference in it would be resolved.
POINTS = {"jb-note-point"}


def skipped(text: nodes.Text) -> bool:
    """Whether ``text`` is no use of a term: in code, a title, a link, a label over an
    output, or what only some builders show (``only``)."""
    return any(
        isinstance(parent, (*SKIP, addnodes.only, nodes.substitution_definition))
        or (LABELS | POINTS) & set(parent.get("classes", []))
        for parent in ancestors(text)
    )


def rules_for_chinese(terms: list[Term]) -> list[tuple[re.Pattern[str], str]]:
    """One rule per Chinese term, the longest first: 向量化 before 量化, 类型化密钥 before 密钥."""
    ordered = sorted(terms, key=lambda term: len(term.source), reverse=True)
    return [(term.source_pattern, term.key) for term in ordered]


def uses_in(
    text: str, rules: list[tuple[re.Pattern[str], str]], language: str
) -> list[tuple[int, int, str]]:
    """``uses`` in ``text`` as a reader reads it: a line break is a space between words,
    and nothing between two characters of a language written without spaces (类型化⏎密钥 is
    类型化密钥, "typed⏎key" is "typed key"). The spans are ``text``'s."""
    read: list[str] = []
    where: list[int] = []  # where each character of ``read`` is in ``text``
    for match in re.finditer(r"\s+|\S", text):
        start, piece = match.start(), match.group()
        if not piece.isspace():
            read.append(piece)
            where.append(start)
            continue
        before, after = text[start - 1 : start], text[match.end() : match.end() + 1]
        if (
            unspaced(language)
            and "\n" in piece
            and not (LATIN.match(before) and LATIN.match(after))
        ):
            continue
        read.append(" ")
        where.append(start)
    where.append(len(text))
    return [
        (where[start], where[end - 1] + 1 if end > start else where[start], key)
        for start, end, key in uses("".join(read), rules)
    ]


def uses(text: str, rules: list[tuple[re.Pattern[str], str]]) -> list[tuple[int, int, str]]:
    """Non-overlapping uses of the terms in ``text``, earlier rules taking precedence."""
    taken: list[tuple[int, int, str]] = []
    for pattern, key in rules:
        for match in pattern.finditer(text):
            start, end = match.span()
            if all(end <= s or start >= e for s, e, _ in taken):
                taken.append((start, end, key))
    return sorted(taken)


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    app.setup_extension(search_terms.__name__)
    app.setup_extension(terms.__name__)
    app.add_config_value("jaxbook_glossary_pages", ["ch*/*"], "env", types=frozenset({list}))
    app.add_directive("book-glossary", BookGlossary)
    app.connect("doctree-read", note_glossary)
    app.add_transform(LinkFirstUses)
    # env_version: raised whenever what a read page keeps changes (the first uses are
    # references in the read page), so that an older environment reads every page again.
    return {"version": "1.0", "env_version": 2, **PARALLEL_SAFE}
