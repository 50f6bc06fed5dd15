"""Translator workflow for the gettext catalogs: merge, progress, fuzzy.

    python tools/po.py update   POT_DIR PO_DIR     merge templates into catalogs
    python tools/po.py stats    PO_DIR             translated / fuzzy / untranslated per page
    python tools/po.py fuzzy    PO_DIR             list fuzzy entries as file:line

The translation checks are tools/po_check.py.

``update`` uses GNU gettext itself: ``msgmerge --previous`` keeps a changed
paragraph's old translation as a fuzzy entry that shows the previous source
(``#|``), and keeps a removed paragraph's translation as an obsolete entry
(``#~``); a new page gets a catalog with every message untranslated. Every catalog is written
at the same width, ``WIDTH`` (79, GNU gettext's default, as python-docs-fr
uses), so that editors and merges produce the same line breaks.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import polib

WIDTH = 79
PLURAL_FORMS = {"en": "nplurals=2; plural=(n != 1);"}


def run(*command: str) -> None:
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)}: {result.stderr.strip()}")


def update(pot_dir: Path, po_dir: Path, language: str) -> int:
    pots = sorted(pot_dir.rglob("*.pot"))
    if not pots:
        sys.exit(f"{pot_dir}: no .pot files; run 'make gettext' first")
    seen = set()
    for pot in pots:
        po = po_dir / pot.relative_to(pot_dir).with_suffix(".po")
        seen.add(po)
        po.parent.mkdir(parents=True, exist_ok=True)
        if po.exists():
            run(
                "msgmerge",
                "--quiet",
                "--update",
                "--backup=none",
                "--previous",
                f"--width={WIDTH}",
                str(po),
                str(pot),
            )
            print(f"{po}: merged")
        else:
            # Not msginit: for English it copies every msgid into its msgstr.
            catalog = polib.pofile(str(pot))
            catalog.header = f"{pot.stem}: {language} translation of the JAX course book."
            catalog.metadata_is_fuzzy = False
            catalog.metadata["PO-Revision-Date"] = catalog.metadata["POT-Creation-Date"]
            catalog.metadata["Last-Translator"] = "JAX course translators"
            catalog.metadata["Language-Team"] = f"{language} translators"
            catalog.metadata["Language"] = language
            catalog.metadata["Plural-Forms"] = PLURAL_FORMS[language]
            catalog.save(str(po))
            run("msgcat", f"--width={WIDTH}", f"--output-file={po}", str(po))
            print(f"{po}: created")
    for po in sorted(set(po_dir.rglob("*.po")) - seen):
        print(f"{po}: its page is gone; the catalog is kept, delete it by hand if that is right")
    return 0


def catalogs(po_dir: Path) -> list[Path]:
    return sorted(po_dir.rglob("*.po"))


def counts(po: polib.POFile) -> tuple[int, int, int]:
    live = [e for e in po if not e.obsolete]
    fuzzy = sum(1 for e in live if e.fuzzy)
    translated = sum(1 for e in live if e.translated() and not e.fuzzy)
    return translated, fuzzy, len(live) - translated - fuzzy


def stats(po_dir: Path) -> int:
    rows = []
    for path in catalogs(po_dir):
        translated, fuzzy, untranslated = counts(polib.pofile(str(path)))
        rows.append(
            (str(path.relative_to(po_dir).with_suffix("")), translated, fuzzy, untranslated)
        )
    name_width = max((len(r[0]) for r in rows), default=4)
    print(f"{'page':<{name_width}}  translated  fuzzy  untranslated  done")
    totals = [0, 0, 0]
    for name, *numbers in rows:
        totals = [t + n for t, n in zip(totals, numbers, strict=True)]
        total = sum(numbers) or 1
        print(
            f"{name:<{name_width}}  {numbers[0]:>10}  {numbers[1]:>5}  {numbers[2]:>12}"
            f"  {100 * numbers[0] / total:5.1f}%"
        )
    total = sum(totals) or 1
    print(
        f"{'all':<{name_width}}  {totals[0]:>10}  {totals[1]:>5}  {totals[2]:>12}"
        f"  {100 * totals[0] / total:5.1f}%"
    )
    return 0


def fuzzy(po_dir: Path) -> int:
    found = 0
    for path in catalogs(po_dir):
        for entry in polib.pofile(str(path)):
            if entry.fuzzy and not entry.obsolete:
                found += 1
                first = entry.msgid.splitlines()[0] if entry.msgid else ""
                print(f"{path}:{entry.linenum}: fuzzy: {first[:70]}")
    print(f"{found} fuzzy entr{'y' if found == 1 else 'ies'}", file=sys.stderr)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("update")
    p.add_argument("pot_dir", type=Path)
    p.add_argument("po_dir", type=Path)
    p.add_argument("--language", default="en")
    for name in ("stats", "fuzzy"):
        sub.add_parser(name).add_argument("po_dir", type=Path)
    args = parser.parse_args()
    if args.command == "update":
        return update(args.pot_dir, args.po_dir, args.language)
    if args.command == "stats":
        return stats(args.po_dir)
    return fuzzy(args.po_dir)


if __name__ == "__main__":
    sys.exit(main())
