"""``jaxbook language``: add a language to the book, or say that its translation is done.

    jaxbook language add CODE [--name NAME]   its catalogs, and its row in locale/languages.csv
    jaxbook language done CODE                its translator says the translation is finished

``add`` creates the language's catalogs and glossary and lists it as a ``draft``, which the
next ``make html`` builds (:func:`add`); ``done`` marks a draft finished, so that ``make
check-po`` reports what it left untranslated (:func:`done`).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from jaxbook import project
from jaxbook.i18n import catalogs
from jaxbook.i18n.pofile import known_locale


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True)
    add = sub.add_parser("add", help="create a language's catalogs and list it as a draft")
    add.add_argument("code", help="the language code as Sphinx spells it: ja, ko, pt_BR")
    add.add_argument("--name", help="its name in itself, for the switcher (default: CLDR's)")
    done = sub.add_parser("done", help="say a draft's translation is finished")
    done.add_argument("code")


def own_name(code: str) -> str:
    """The language's name in itself, as CLDR writes it, with a capital where it has one."""
    name = known_locale(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


def add(root: Path, code: str, name: str | None) -> int:
    """Add ``code`` (as Sphinx spells it, and known to CLDR) to the book as a draft.

    The templates are brought up to date as ``make gettext`` does, and
    ``locale/<code>/LC_MESSAGES`` is created from them: a catalog per page, ``book.po`` and,
    for a language other than English, ``sphinx.po`` and ``jaxbook.po``; every entry
    untranslated, ``Plural-Forms`` from CLDR. Only then are its glossary and word list
    written and its row listed, under its name in itself (CLDR's, or ``name``). Nothing else
    changes: every edition's switcher links it, and the landing page sends no reader to a
    draft."""
    listed = project.languages(root)
    if code in listed:
        sys.exit(f"{code} is already one of the book's languages ({project.LANGUAGE_LIST})")
    try:
        known_locale(code)
    except ValueError as exc:
        sys.exit(f"{exc}; write it as Sphinx does: ja, ko, pt_BR")
    name = name or own_name(code)
    # The committed templates, brought up to date as make gettext does.
    pot_dir = root / project.TEMPLATES
    if catalogs.extract(root, pot_dir, "-q"):
        sys.exit(f"{root / 'docs'}: the gettext build failed; {code} was not added")
    po_dir = Path(os.path.relpath(project.catalog_dir(root, code)))
    status = catalogs.update(pot_dir, po_dir, code)
    if status:
        return status
    glossary = root / project.GLOSSARY
    own = project.add_language_glossary(glossary, code) if glossary.is_file() else None
    if own is not None:
        print(
            f"{own.relative_to(root)}: a row for each Chinese term, its "
            f"{', '.join(project.language_columns(code))} empty, for its translator to fill"
        )
    words = project.catalog_dir(root, code).parent / "words.txt"
    if not words.exists():
        # Its spelling check's own words (names, terms its dictionary lacks), one per line.
        words.write_text("", encoding="utf-8")
        print(f"{words.relative_to(root)}: its word list, empty, for the spelling check")
    listed[code] = project.Language(code, name, "draft")
    project.write_languages(root / project.LANGUAGE_LIST, listed)
    print(
        f"{code} ({name}) added as a draft: its catalogs are in {po_dir}; "
        f"'make html' builds its edition, 'make check-po' checks what is translated"
    )
    return 0


def done(root: Path, code: str) -> int:
    """Mark the draft ``code`` done: from then on ``make check-po`` reports its untranslated
    and fuzzy entries, and each glossary term it left empty (:mod:`jaxbook.i18n.check`)."""
    listed = project.languages(root)
    language = listed.get(code)
    if language is None or language.status == "source":
        sys.exit(f"{code} is not a translation of the book ({project.LANGUAGE_LIST})")
    listed[code] = project.Language(code, language.name, "done", language.translators)
    project.write_languages(root / project.LANGUAGE_LIST, listed)
    print(f"{code} is done: 'make check-po' now fails on any entry it has not translated")
    return 0


def run(args: argparse.Namespace) -> int:
    root = project.root()
    if args.action == "add":
        return add(root, args.code, args.name)
    return done(root, args.code)
