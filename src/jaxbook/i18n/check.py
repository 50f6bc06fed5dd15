"""Translation QA for the gettext catalogs; every finding is ``file:line: message``.

    jaxbook po check [--glossary locale/glossary.csv] [locale/<language>/LC_MESSAGES ...]

Exit status 1 on any finding. This module reads the catalogs and reports: each catalog
(:func:`check_catalog`), then across a directory's catalogs
(:func:`inconsistent_translations`). The per-entry checks live in
:mod:`jaxbook.i18n.parity` (markup, code, placeholders, smuggling),
:mod:`jaxbook.i18n.glossary` (terms) and :mod:`jaxbook.i18n.style` (English style).
"""

from __future__ import annotations

import argparse
import difflib
import functools
import re
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import polib
from babel.core import get_global

from jaxbook import project
from jaxbook.chinese import HAN, HAN_RANGES
from jaxbook.i18n import parsers
from jaxbook.i18n.glossary import (
    Term,
    check_glossary,
    glossary_gaps,
    glossary_to_translate,
    load_glossary,
)
from jaxbook.i18n.parity import (
    CODE_SPAN,
    MYST,
    Reading,
    check_code,
    check_markup,
    check_placeholders,
    check_smuggling,
    entry_syntax,
    is_python,
    page_syntax,
    source_page,
)
from jaxbook.i18n.pofile import (
    Finding,
    catalog_files,
    entry_line,
    faults,
    foreign_marks,
    is_interface,
    msgid_line,
    msgstr_line,
    plural_forms,
    readable,
    shown,
    wrap_faults,
)
from jaxbook.i18n.style import (
    check_style,
    codespell,
    hunspell,
    is_html_message,
    is_literal,
    language_tags,
)
from jaxbook.project import find_root

INTERFACE_NAMES = {project.THEME_DOMAIN: "theme", project.EXTENSION_DOMAIN: "extensions"}


def check_headers(path: Path, po: polib.POFile, language: str) -> list[Finding]:
    findings = []
    meta = po.metadata
    if meta.get("Language") != language:
        findings.append(
            Finding(path, 1, f"header Language is {meta.get('Language')!r}, expected {language!r}")
        )
    try:
        expected = plural_forms(language)
    except ValueError:
        expected = None  # a language CLDR does not know: the header must only be there
    if not meta.get("Plural-Forms") or (expected and meta["Plural-Forms"] != expected):
        findings.append(Finding(path, 1, f"header Plural-Forms must be {expected!r}"))
    if "charset=utf-8" not in meta.get("Content-Type", "").lower():
        findings.append(Finding(path, 1, "header Content-Type must declare charset=UTF-8"))
    return findings


def squashed(text: str) -> str:
    return "".join(text.split())


def page_blocks(page: Path) -> set[str]:
    """The page's blocks (paragraphs, titles, code), spacing aside."""
    blocks = parsers.block_texts(page.read_text(encoding="utf-8"), page_syntax(page).markdown)
    return {squashed(block) for block in blocks if block.strip()}


def lost_translations(path: Path, po: polib.POFile, page: Path | None) -> list[Finding]:
    """Obsolete translations whose source text the page still has: a merge dropped them."""
    if page is None:
        return []
    blocks = page_blocks(page)
    return [
        Finding(
            path,
            entry_line(entry),
            f"obsolete, but {page.name} still shows this text: the templates lost it, "
            "so its translation is no longer used",
        )
        for entry in po
        if entry.obsolete and entry.msgstr and squashed(entry.msgid) in blocks
    ]


def template_of(path: Path) -> Path | None:
    """The committed template a catalog is merged from, if any: ``<page>.pot`` under the
    ``pot`` directory beside the catalog's language (``locale/pot``), or, for a catalog the
    package holds (its Chinese labels), the project's."""
    place = project.catalog_place(path)
    if place is None:
        return None
    locale, _language, domain = place
    name = f"{domain}.pot"
    template = locale / project.TEMPLATES.name / name
    if locale in project.package_catalog_dirs():
        root = find_root(locale)
        template = root / project.TEMPLATES / name if root else template
    return template if template.is_file() else None


def message_key(entry: polib.POEntry) -> tuple[str, str]:
    return (entry.msgctxt or "", entry.msgid)


def template_name(template: Path) -> str:
    """A template as a finding names it: from its book (``locale/pot/ch01/arrays.pot``)."""
    # The nearest "pot" above it: a page's template may sit in its chapter's folder.
    locale = next(p for p in template.parents if p.name == project.TEMPLATES.name).parent
    return template.relative_to(locale.parent).as_posix()


def check_template(
    path: Path, po: polib.POFile, lines: list[str], template: Path
) -> tuple[list[Finding], set[tuple[str, str]]]:
    """Each msgid the template does not have (edited by hand, or the source moved on), and
    the template's messages the catalog lacks; the first's keys, which nothing else checks.

    A msgid that is not in the template names the template's line of the message it most
    resembles (which is then not also reported as missing), to copy back if the msgid was
    edited by hand: that works in a language git has never seen, where 'make update-po'
    would keep the entry's translation only as fuzzy, or as obsolete after a large edit."""
    entries = [e for e in polib.pofile(str(template)) if not e.obsolete]
    known: set[tuple[str, str]] = {message_key(e) for e in entries}
    live = [entry for entry in po if not entry.obsolete]
    stray: set[tuple[str, str]] = {message_key(e) for e in live} - known
    present = {message_key(e) for e in live}
    missing = [e for e in entries if message_key(e) not in present]
    template_lines = template.read_text(encoding="utf-8").splitlines()
    name = template_name(template)
    findings = []
    for entry in live:
        if message_key(entry) not in stray:
            continue
        nearest = resembled(entry, missing)
        if nearest is None:
            where = f"this msgid is not in the template {name}, nor any like it"
            edited = "delete the entry"
        else:
            missing.remove(nearest)
            where = f"this msgid is not in the template {name}"
            line = msgid_line(template_lines, entry_line(nearest))
            edited = f"copy back the msgid at {name}:{line}, keeping the msgstr"
        findings.append(
            Finding(
                path,
                msgid_line(lines, entry_line(entry)),
                f"{where}: if you edited it, {edited} (only the msgstr is the translator's); "
                "if the page changed since the last merge, run 'make update-po'",
            )
        )
    if missing:
        findings.append(
            Finding(
                path,
                1,
                f"{len(missing)} message(s) of the template {name} are not in the catalog: "
                "run 'make update-po'"
                + (", once the msgids named above are mended" if findings else ""),
            )
        )
    return findings, stray


# How alike an edited msgid and its template's message are, at the least (difflib's ratio).
RESEMBLANCE = 0.6


def resembled(entry: polib.POEntry, candidates: list[polib.POEntry]) -> polib.POEntry | None:
    """The candidate whose msgid ``entry``'s most resembles, if any resembles it enough."""
    scored = [
        (difflib.SequenceMatcher(None, entry.msgid, other.msgid, autojunk=False).ratio(), i)
        for i, other in enumerate(candidates)
        if bool(other.msgid_plural) == bool(entry.msgid_plural)
    ]
    best = max(scored, default=None)
    return candidates[best[1]] if best is not None and best[0] >= RESEMBLANCE else None


# The scripts (CLDR's likely subtags) whose writing uses Han characters: in their text,
# Chinese left behind is told by clauses copied from the source, not by the characters.
HAN_SCRIPTS = {"Hani", "Hans", "Hant", "Jpan", "Kore"}
HAN_RUN = re.compile(f"[{HAN_RANGES}]+")
COPIED_RUN = 4  # Han characters in a row that a Japanese or Korean text does not share by chance


@functools.cache
def writes_han(language: str) -> bool:
    likely = get_global("likely_subtags").get(language.split("_")[0], "")
    return bool(set(likely.split("_")) & HAN_SCRIPTS) or language.startswith("zh")


def source_left(msgid: str, strs: Reading, language: str) -> str | None:
    """Chinese of the source left in a translation (a zh role's mention and the inline code,
    which must stay as written, aside)."""
    if not HAN.search(msgid) or is_literal(msgid):
        return None  # an output comes from its code, an example of markup stays as written
    prose = "".join(strs.prose)
    if writes_han(language):
        for run in HAN_RUN.findall(msgid):
            match = difflib.SequenceMatcher(None, run, prose, autojunk=False).find_longest_match()
            if match.size >= COPIED_RUN:
                copied = run[match.a : match.a + match.size]
                return (
                    f"Chinese left in the translation: {copied!r} is copied from the source; "
                    "translate it"
                )
        return None
    left = re.search(f"[{HAN_RANGES}][^\\n]{{0,24}}", prose)
    if left:
        return (
            f"Chinese left in the translation: {left[0].strip()!r}; translate it (a Chinese "
            "word the text talks about is marked with the zh role)"
        )
    return None


@functools.cache
def sphinx_translates(language: str) -> frozenset[str]:
    """The messages Sphinx's own catalog of ``language`` translates (the theme's catalog of
    the book needs only the others: Sphinx reads both)."""
    import sphinx  # where its catalogs are; nothing of it runs

    found: set[str] = set()
    for code in dict.fromkeys([language, language.split("_")[0]]):
        po = Path(sphinx.__file__).parent / "locale" / code / "LC_MESSAGES" / "sphinx.po"
        if po.is_file():
            found |= {e.msgid for e in polib.pofile(str(po)) if e.msgstr and not e.fuzzy}
    return frozenset(found)


def review_state(entry: polib.POEntry) -> str | None:
    """Why a translator still has to look at an entry: fuzzy, or untranslated."""
    if entry.fuzzy:
        return (
            "fuzzy: review the translation against the changed source (#|), then remove the flag"
            if entry.previous_msgid
            # Babel's merge (sphinx-intl) marks an entry fuzzy without the #| lines.
            else "fuzzy: review the translation against the page (the merge kept "
            "no #| lines to show what changed), then remove the flag"
        )
    translated = entry.msgstr or any(entry.msgstr_plural.values())
    return None if translated else "untranslated"


def check_interface(path: Path, po: polib.POFile, lines: list[str]) -> list[Finding]:
    """An interface catalog's translations keep their code spans (``code``), which the
    extensions set as code; placeholders and plural forms are msgfmt's (``msgfmt_check``)."""
    findings = []
    for entry in po:
        if entry.obsolete or entry.fuzzy or not entry.msgstr:
            continue
        missing = Counter(CODE_SPAN.findall(entry.msgid)) - Counter(CODE_SPAN.findall(entry.msgstr))
        if missing:
            findings.append(
                Finding(
                    path,
                    msgstr_line(lines, entry_line(entry)),
                    f"inline code missing from the translation: {', '.join(map(repr, missing))}",
                )
            )
    return findings


def check_catalog(
    path: Path, language: str, terms: list[Term], draft: bool = False
) -> list[Finding]:
    """The findings of one catalog; in a ``draft`` language's, its untranslated and fuzzy
    entries are work still to do, not findings (``draft_summary`` counts them).

    A fault of the file (:func:`jaxbook.i18n.pofile.faults`: BOM, CRLF, non-UTF-8 bytes,
    truncation, ``msgfmt --check``) is the only finding, as the rest cannot be read. Then:
    wrapping (``powrap --check``); the ``Language``, ``Plural-Forms`` and charset headers;
    msgids the template lacks; marks another merge tool (sphinx-intl's Babel) writes and
    ``msgmerge`` does not; obsolete translations the page still shows. Per entry:
    untranslated and fuzzy entries (a release ships neither); markup parity, each side read
    by its page's parser; a Python msgid's code; named placeholders (``%(course)s``);
    nothing smuggled in that the msgid lacks; Chinese left from the source; the glossary's
    terms; and, in English, house style."""
    broken = faults(path)
    if broken:
        return broken  # the rest needs a catalog that parses
    findings = wrap_faults(path)
    po = polib.pofile(str(path))
    lines = path.read_text(encoding="utf-8").splitlines()
    findings += check_headers(path, po, language)
    template = template_of(path)
    stray: set[tuple[str, str]] = set()
    if template is not None:
        found, stray = check_template(path, po, lines, template)
        findings += found
    interface = is_interface(path)
    if interface:
        if project.speaks_interface_source(language):
            return [
                Finding(
                    path,
                    1,
                    f"{language} is the language of the interface's messages, so it needs no "
                    "catalog of them (another merge tool made this one): delete it",
                )
            ]
        findings += check_interface(path, po, lines)
    else:
        findings += [
            Finding(path, line, f"{what}, written by another merge tool; 'make wrap-po' removes it")
            for line, what in foreign_marks(po)
        ]
    page = None if interface else source_page(path)
    syntax_of = entry_syntax(page)
    findings += lost_translations(path, po, page)
    for entry in po:
        if entry.obsolete or message_key(entry) in stray:
            continue
        where = msgstr_line(lines, entry_line(entry))
        state = review_state(entry)
        if (
            state == "untranslated"
            and path.stem == project.THEME_DOMAIN
            and entry.msgid in sphinx_translates(language)
        ):
            continue  # Sphinx's own catalog of the language translates it
        if state is not None:
            if not draft:
                findings.append(Finding(path, where, state))
            continue
        if interface:
            continue
        problems = []
        syntax = syntax_of(entry)
        ids, strs = syntax.read(entry.msgid), syntax.read(entry.msgstr)
        if syntax is MYST or is_html_message(entry):
            strs.html -= language_tags(entry.msgstr)  # a foreign phrase's mark is the translator's
        if is_python(entry.msgid):
            problem = check_code(entry.msgid, entry.msgstr)
            if problem:
                problems.append(problem)
        else:
            problems += check_markup(ids, strs)
            if language == "en":
                problems += check_style(entry.msgid, entry.msgstr, ids, strs)
        problems += check_placeholders(entry.msgid, entry.msgstr)
        problems += check_smuggling(entry.msgid, entry.msgstr, ids, strs)
        left = source_left(entry.msgid, strs, language)
        if left:
            problems.append(left)
        problems += check_glossary(terms, entry.msgid, strs)
        findings += [Finding(path, where, problem) for problem in problems]
    return findings


def inconsistent_translations(paths: list[Path], terms: Sequence[Term] = ()) -> list[Finding]:
    """Each message translated one way across the catalogs (学习目标, 本节用到的导入：):
    a second translation is a finding at its entry, naming the first.

    A glossary term said alone is the exception: a table's row ("Function
    transformations"), a cheat sheet's cell ("Reduce") and an index entry's headword
    ("function transformation", the glossary's own words, under which the index merges
    the term's places) each take the form their place needs, and ``check_glossary`` holds
    every one of them to the term."""
    first: dict[str, tuple[str, Path, int]] = {}
    findings = []
    alone = {term.source for term in terms}
    for path in readable(paths):  # check_catalog names what is wrong with the others
        for entry in polib.pofile(str(path)):
            if entry.obsolete or entry.fuzzy or not entry.msgstr or not entry.msgid:
                continue
            if entry.msgid in alone:
                continue
            line = entry_line(entry)
            seen = first.setdefault(entry.msgid, (entry.msgstr, path, line))
            if seen[0] != entry.msgstr:
                findings.append(
                    Finding(
                        path,
                        msgstr_line(path.read_text(encoding="utf-8").splitlines(), line),
                        f"translated otherwise in {seen[1]}:{seen[2]} ({seen[0][:60]!r}); a "
                        "message the book says in several places is translated one way",
                    )
                )
    return findings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--glossary", type=Path, default=project.GLOSSARY)
    parser.add_argument(
        "--words",
        type=Path,
        help="the language's word list (default: locale/<language>/words.txt), names and "
        "terms its dictionary does not know",
    )


def is_draft(po_dir: Path, language: str) -> bool:
    """Whether the book around ``po_dir`` lists ``language`` as a draft (a language of
    no book, or one it does not list, is checked as finished)."""
    root = find_root(po_dir)
    if root is None or not (root / project.LANGUAGE_LIST).is_file():
        return False
    listed = project.languages(root).get(language)
    return listed is not None and listed.draft


def still_to_review(path: Path, po: polib.POFile, language: str) -> list[str]:
    """Each entry's review state (untranslated, fuzzy) that ``check_catalog`` would report
    in a finished language: what Sphinx's own catalog translates is not the theme's work."""
    states = []
    for entry in po:
        state = None if entry.obsolete else review_state(entry)
        theme_done = path.stem == project.THEME_DOMAIN and entry.msgid in sphinx_translates(
            language
        )
        if state is not None and not (state == "untranslated" and theme_done):
            states.append(state.split(":")[0])
    return states


def draft_summary(paths: list[Path], language: str, glossary: Path) -> str:
    """What a draft language still has to translate, and when that becomes findings."""
    pages: Counter = Counter()
    interface: Counter = Counter()
    for path in readable(paths):
        counts = interface if is_interface(path) else pages
        counts.update(still_to_review(path, polib.pofile(str(path)), language))
    return (
        f"{language} is a draft (locale/languages.csv): {pages['untranslated']} untranslated "
        f"and {pages['fuzzy']} fuzzy entries in the pages' catalogs, "
        f"{interface['untranslated'] + interface['fuzzy']} of the interface's labels "
        f"(sphinx.po, jaxbook.po) to translate, and {glossary_to_translate(glossary, language)}, "
        f"are not findings until its translator runs 'jaxbook language done {language}'"
    )


def word_list(po_dir: Path, args: argparse.Namespace) -> Path:
    """The language's word list: ``locale/<language>/words.txt`` beside its catalogs."""
    return args.words or (po_dir.parent if po_dir.name == "LC_MESSAGES" else po_dir) / "words.txt"


def missing_interface(po_dir: Path, language: str, paths: list[Path]) -> list[Finding]:
    """A finished language that does not translate the interface: its labels show in English."""
    if project.speaks_interface_source(language) or po_dir.name != "LC_MESSAGES":
        return []
    have = {path.stem for path in paths if is_interface(path)}
    return [
        Finding(
            po_dir / f"{domain}.po",
            1,
            f"no catalog of the {INTERFACE_NAMES.get(domain, domain + ' extensions')}'s "
            f"labels, which show in English: 'make update-po' creates it from "
            f"{shown(project.TEMPLATES / domain)}.pot",
        )
        for domain in project.interface_domains()
        if domain not in have
    ]


def run(po_dir: Path, args: argparse.Namespace) -> int:
    """Check the catalogs under ``po_dir`` with ``args``' glossary and words."""
    language = project.catalog_language(po_dir)
    draft = is_draft(po_dir, language)
    try:
        terms = load_glossary(args.glossary, language)
    except ValueError as refused:  # each problem a finding, file:line: what is wrong
        print(str(refused).partition("\n")[2])
        return 1
    paths = catalog_files(po_dir)
    if not paths:
        print(f"{po_dir}: no catalogs; run 'make update-po'")
        return 1
    findings = [f for path in paths for f in check_catalog(path, language, terms, draft)]
    source = language == project.SOURCE_LANGUAGE  # its catalogs translate the interface only
    if not draft and not source:
        findings += glossary_gaps(args.glossary, language)
    if not draft and not source:
        findings += missing_interface(po_dir, language, paths)
    findings += inconsistent_translations([path for path in paths if not is_interface(path)], terms)
    words = word_list(po_dir, args)
    if language.split("_")[0] == "en":
        findings += codespell(readable(paths), words)
    # The source's catalogs translate the interface into Chinese, which no hunspell
    # dictionary spells (its copy is the Chinese lint's): nothing to check, nothing to say.
    spelled, unchecked = ([], None) if source else hunspell(paths, language, words)
    findings += spelled
    for finding in findings:
        print(finding)
    if unchecked:
        print(unchecked, file=sys.stderr)
    if draft:
        print(draft_summary(paths, language, args.glossary), file=sys.stderr)
    print(f"{language}: {len(paths)} catalogs, {len(findings)} finding(s)", file=sys.stderr)
    return 1 if findings else 0
