"""The extensions' own message catalog (labels such as "Outdated"), and whole sentences.

Labels are written in English and translated through the book's
``locale/<lang>/LC_MESSAGES/jaxbook.po``, else this package's ``locales/`` (:func:`add_catalog`).
:func:`catalog_paths` and :func:`catalog_entries` find the book's catalogs as Sphinx does.
:func:`sentence` turns a translated message with ``%(name)s`` placeholders into nodes, and
:func:`listed` joins items as the build's language joins a list.
"""

from __future__ import annotations

import functools
import io
import re
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import polib
from babel import Locale, UnknownLocaleError
from babel.lists import format_list
from babel.messages.mofile import read_mo, write_mo
from docutils import nodes
from sphinx import locale
from sphinx.locale import get_translation, get_translator
from sphinx.util import logging
from sphinx.util.i18n import CatalogInfo, CatalogRepository, docname_to_domain, read_po

from jaxbook._compat import (
    forget_gettext_files,
    forget_sphinx_catalogs,
    reload_sphinx_catalogs,
)
from jaxbook.chinese import spaced

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

MESSAGE_CATALOG_NAME = "jaxbook"
LOCALE_DIR = Path(__file__).parent / "locales"

_ = get_translation(MESSAGE_CATALOG_NAME)
logger = logging.getLogger(__name__)


def gettext_noop(message: str) -> str:
    """Marks a label kept in data for the catalog's template; ``_`` translates it when used."""
    return message


def N_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a label with a count for the catalog; ``ngettext`` translates it when used."""
    return singular, plural


def ngettext(singular: str, plural: str, n: int, domain: str = MESSAGE_CATALOG_NAME) -> str:
    """A label with a count, in the form the language gives that count (of ``domain``'s
    catalog: this package's, or the lab's)."""
    return get_translator(domain).ngettext(singular, plural, n)


def repositories(app: Sphinx) -> list[CatalogRepository]:
    """The book's catalogs of the build's language (its ``locale_dirs``)."""
    book_dirs = [str(Path(app.srcdir, d)) for d in app.config.locale_dirs]
    return [CatalogRepository(str(app.srcdir), book_dirs, app.config.language, "utf-8")]


# The domains each application has compiled (compile_package_catalog).
_compiled: weakref.WeakKeyDictionary[Sphinx, set[str]] = weakref.WeakKeyDictionary()


def compile_package_catalog(
    app: Sphinx, domain: str = MESSAGE_CATALOG_NAME, locale_dir: Path = LOCALE_DIR
) -> Path:
    """Compile a package's labels for the build (this package's, or ``domain``'s under
    ``locale_dir``: the lab's) and return the locale directory that holds them: ``.mo``
    files under the doctree directory (``<doctreedir>/jaxbook-locales``), written from the
    package's ``.po`` where they differ from it, so that a build never writes into the
    package, which may be installed read-only."""
    compiled_dir = Path(app.doctreedir, "jaxbook-locales")
    done = _compiled.setdefault(app, set())
    if domain in done:  # each extension registers the catalog; it is compiled once
        return compiled_dir
    done.add(domain)
    language = app.config.language
    catalog = CatalogInfo(str(locale_dir / language / "LC_MESSAGES"), domain, "utf-8")
    if Path(catalog.po_path).is_file():
        mo = compiled_dir / language / "LC_MESSAGES" / catalog.mo_file
        data = compiled(catalog, language, app.config.gettext_allow_fuzzy_translations)
        if not mo.is_file() or mo.read_bytes() != data:
            mo.parent.mkdir(parents=True, exist_ok=True)
            mo.write_bytes(data)
    return compiled_dir


def compiled(catalog: CatalogInfo, language: str, use_fuzzy: bool) -> bytes:
    """The ``.mo`` that Sphinx compiles ``catalog``'s ``.po`` to (``CatalogInfo.write_mo``)."""
    with open(catalog.po_path, encoding=catalog.charset) as po:
        messages = read_po(po, language)
    out = io.BytesIO()
    write_mo(out, messages, use_fuzzy)
    return out.getvalue()


def translations_in(mo: bytes) -> tuple[str, dict[object, object]]:
    """What a compiled catalog translates: its plural forms, and each message's (id,
    context) and its strings. Not the rest of its header: where a ``.po`` lacks
    ``POT-Creation-Date``, Babel writes the minute it compiled it, so two compiles of one
    ``.po`` can differ in that alone."""

    def hashable(text: str | list[str] | tuple[str, ...] | None) -> object:
        # A message with plurals has a list of each.
        return text if text is None or isinstance(text, str) else tuple(text)

    catalog = read_mo(io.BytesIO(mo))
    return catalog.plural_forms, {
        (hashable(m.id), m.context): hashable(m.string) for m in catalog if m.id
    }


def holds_other(catalog: CatalogInfo, language: str, use_fuzzy: bool) -> bool:
    """Whether ``catalog``'s ``.mo`` translates otherwise than its ``.po`` (read as
    translations only where the bytes differ: the same bytes are the same catalog)."""
    kept, made = Path(catalog.mo_path).read_bytes(), compiled(catalog, language, use_fuzzy)
    return kept != made and translations_in(kept) != translations_in(made)


_fresh: weakref.WeakSet[Sphinx] = weakref.WeakSet()


def freshen_catalogs(app: Sphinx) -> None:
    """Recompile each ``.mo`` of the build's language that is newer than its ``.po`` but
    holds other messages (a catalog directory copied with ``cp -r`` can leave an old
    ``.mo`` newer than its ``.po``, and Sphinx, which compares only their times, would
    build with the old translations), and say so; once per application."""
    if app in _fresh:
        return
    _fresh.add(app)
    language = app.config.language
    fuzzy = app.config.gettext_allow_fuzzy_translations
    stale = [
        catalog
        for repo in repositories(app)
        for catalog in repo.catalogs
        if not catalog.is_outdated() and holds_other(catalog, language, fuzzy)
    ]
    for catalog in stale:
        logger.info(
            "%s: not compiled from %s as it is now (an older copy?); compiled again",
            catalog.mo_path,
            catalog.po_file,
        )
        catalog.write_mo(language, fuzzy)
    if any(catalog.domain == "sphinx" for catalog in stale):
        # Sphinx loaded the theme's catalog before any extension: load the new one instead.
        forget_sphinx_catalogs(
            lambda namespace, catalog: (namespace, catalog) == ("general", "sphinx")
        )
        forget_gettext_files()
        reload_sphinx_catalogs(app)


def add_catalog(
    app: Sphinx, domain: str = MESSAGE_CATALOG_NAME, locale_dir: Path = LOCALE_DIR
) -> None:
    """Compile the labels' catalogs for the build language and register them: the book's
    (``<locale_dir>/<language>/LC_MESSAGES/jaxbook.po``, which a translator of a new
    language writes), before this package's own (``compile_package_catalog``). Every
    catalog of the book in the build's language is compiled again first where its ``.mo``
    is not its ``.po``'s (``freshen_catalogs``). Another package's extensions register
    their own catalog the same way (``domain``, with its ``.po`` files under
    ``locale_dir``: the lab's report, ``jaxbook_lab``).

    ``make update-po`` merges both catalogs from ``locale/pot/jaxbook.pot``; no ``.mo`` is
    committed."""
    freshen_catalogs(app)
    language = app.config.language
    book_dirs = [str(Path(app.srcdir, d)) for d in app.config.locale_dirs]
    for repo in repositories(app):
        for catalog in repo.catalogs:
            if catalog.domain == domain and catalog.is_outdated():
                catalog.write_mo(language)
    # Sphinx keeps one registry of catalogs per process, not per application, and
    # adds a new language's catalog only as a fallback of the one loaded first: an
    # English build after a Chinese one in the same process would show Chinese labels.
    forget_sphinx_catalogs(lambda namespace, catalog: (namespace, catalog) == ("general", domain))
    locale.init(
        [*book_dirs, str(compile_package_catalog(app, domain, locale_dir))], language, domain
    )


def page_domain(config: Config, docname: str) -> str:
    """The catalog domain of page ``docname`` (``ch01/intro``, or ``ch01`` when compact)."""
    return docname_to_domain(docname, config.gettext_compact)


def catalog_paths(
    srcdir: str | Path, config: Config, domain: str, language: str | None = None
) -> list[Path]:
    """``language``'s (by default the build's) ``<domain>.po`` in each of the book's
    ``locale_dirs`` that holds one, in their order."""
    repo = CatalogRepository(srcdir, config.locale_dirs, language or config.language, "utf-8")
    paths = (Path(d, repo.language, "LC_MESSAGES", f"{domain}.po") for d in repo.locale_dirs)
    return [path for path in paths if path.is_file()]


@functools.cache
def _entries(path: Path, mtime: float) -> dict[str, polib.POEntry]:
    return {e.msgid: e for e in polib.pofile(str(path)) if not e.obsolete}


def catalog_entries(
    srcdir: str | Path, config: Config, domain: str, language: str | None = None
) -> dict[str, polib.POEntry]:
    """The live (not obsolete) entries of ``domain``'s catalogs in ``language``, by message
    id; where two ``locale_dirs`` hold one message, the first one's, as in Sphinx's own
    translations."""
    merged: dict[str, polib.POEntry] = {}
    for path in reversed(catalog_paths(srcdir, config, domain, language)):
        merged |= _entries(path, path.stat().st_mtime)
    return merged


def package_entries(language: str) -> dict[str, polib.POEntry]:
    """The live entries of this package's own catalog of labels in ``language``."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{MESSAGE_CATALOG_NAME}.po"
    return _entries(path, path.stat().st_mtime) if path.is_file() else {}


def reviewed(entry: polib.POEntry) -> bool:
    """Whether ``entry`` is translated and not awaiting review (fuzzy)."""
    return bool(entry.msgstr or any(entry.msgstr_plural.values())) and not entry.fuzzy


# The book joins a Chinese list as its prose does: 、 between items and 和 before the last
# ("0.4.38、0.5.0 和 0.11.2"), with the space the book puts between 和 and a Latin letter or
# digit beside it, where CLDR's pattern has none ("0.5.0和0.11.2").
LIST_WORDS = {"zh": ("、", "和")}
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
CODE = re.compile(r"``(.+?)``")

Part = str | nodes.Node | Sequence[nodes.Node]


def _locale(language: str | None) -> Locale:
    try:
        return Locale.parse(language or "en")
    except (ValueError, UnknownLocaleError):
        return Locale.parse("en")


def language_name(code: str, in_language: str | None) -> str:
    """The language of ``code`` (``zh_CN``: Chinese) as ``in_language`` names it: CLDR's
    name (Babel), or the catalog's where the book says it otherwise (英文, not 英语)."""
    language = _locale(code).language
    # Translators: The name of the English language, not a menu's label: in the glossary, after
    # a term's definition, " (English: vectorization)". Left untranslated, the language's
    # name from CLDR is used (Chinese translates it: 英文, not CLDR's 英语).
    if language == "en" and (word := str(_("English"))) != "English":
        return word
    return Locale.parse(language).get_display_name(_locale(in_language)) or language


def _text(item: Part) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, nodes.Node):
        return item.astext()
    return "".join(node.astext() for node in item)


def _separators(texts: Sequence[str], words: tuple[str, str]) -> list[str]:
    """What goes between neighbouring items of a list joined with ``words`` (the mark between
    items, the word before the last): the word is spaced from a Latin letter or digit beside
    it, as the book writes Chinese beside Latin."""
    between, last = words
    separators = [between] * max(len(texts) - 2, 0)
    if len(texts) > 1:
        before, after = texts[-2][-1:], texts[-1][:1]
        around = spaced(before + last + after)
        separators.append(around[len(before) : len(around) - len(after)])
    return separators


def join_list(items: Sequence[str], language: str | None) -> str:
    """Words as a list in ``language``: "a, b, and c"; in Chinese "a、b 和 c". Babel's CLDR
    patterns join the other languages', so a new language needs a catalog, not code."""
    where = _locale(language)
    words = LIST_WORDS.get(where.language)
    if words is not None and items:
        separators = _separators(items, words)
        return "".join(item + sep for item, sep in zip(items, [*separators, ""], strict=True))
    return format_list(list(items), locale=where)


def listed(items: Sequence[Part], language: str | None) -> list[nodes.Node]:
    """Nodes (links, say) as a list in ``language``: Babel's pattern, filled with the nodes
    (in Chinese the book's, spaced by what the nodes say)."""
    names = [f"item{i}" for i in range(len(items))]
    words = LIST_WORDS.get(_locale(language).language)
    if words is not None and items:
        separators = _separators([_text(item) for item in items], words)
        pattern = "".join(f"%({n})s{sep}" for n, sep in zip(names, [*separators, ""], strict=True))
    else:
        pattern = join_list([f"%({name})s" for name in names], language)
    return sentence(pattern, **dict(zip(names, items, strict=True)))


def sentence(message: str, **parts: Part) -> list[nodes.Node]:
    """A translated message as nodes: each ``%(name)s`` is the part of that name, text or
    nodes (a node is used as it is, not copied), and ````code```` a code span. A sentence
    that holds a link or code is thus one message, its parts wherever the translation
    puts them."""
    out: list[nodes.Node] = []
    for i, piece in enumerate(PLACEHOLDER.split(str(message))):
        if i % 2:
            part = parts[piece]
            if isinstance(part, str):
                out.append(nodes.Text(part))
            elif isinstance(part, nodes.Node):
                out.append(part)
            else:
                out.extend(part)
        else:
            out.extend(_inline(piece))
    return out


def _inline(text: str) -> list[nodes.Node]:
    out: list[nodes.Node] = []
    for i, piece in enumerate(CODE.split(text)):
        if piece:
            out.append(nodes.literal("", piece) if i % 2 else nodes.Text(piece))
    return out
