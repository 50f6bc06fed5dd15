"""``jaxbook po``: the translators' command, one action per tool of :mod:`jaxbook.i18n`.

    jaxbook po update POT_DIR PO_DIR    merge templates into catalogs (jaxbook.i18n.catalogs)
    jaxbook po stats PO_DIR             translated / fuzzy / untranslated per page
    jaxbook po fuzzy PO_DIR             list fuzzy entries as file:line
    jaxbook po check PO_DIR             the translation checks (jaxbook.i18n.check)
    jaxbook po lost PO_DIR              translations HEAD had that are gone (jaxbook.i18n.loss)
    jaxbook po wrap PO_DIR              re-wrap every catalog at the catalogs' width

Only this module imports the tools it dispatches to, so none of them imports
another for its command line.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from jaxbook.i18n import catalogs, check, loss


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True)
    update_parser = sub.add_parser("update", help="merge the .pot templates into the catalogs")
    update_parser.add_argument("pot_dir", type=Path)
    update_parser.add_argument("po_dir", type=Path)
    update_parser.add_argument("--language", default="en")
    for name, summary in [
        ("stats", "translated, fuzzy and untranslated messages per page"),
        ("fuzzy", "list the fuzzy entries as file:line"),
        ("wrap", "re-wrap every catalog at the catalogs' width"),
        ("lost", "list the translations git HEAD had that the catalogs have lost"),
    ]:
        sub.add_parser(name, help=summary).add_argument("po_dir", type=Path)
    check.add_arguments(sub.add_parser("check", help=check.__doc__.splitlines()[0]))


def run(args: argparse.Namespace) -> int:
    if args.action == "update":
        return catalogs.update(args.pot_dir, args.po_dir, args.language)
    if args.action == "check":
        return check.run(args)
    if args.action == "lost":
        return loss.run(args.po_dir)
    actions = {"stats": catalogs.stats, "fuzzy": catalogs.fuzzy, "wrap": catalogs.wrap_all}
    return actions[args.action](args.po_dir)
