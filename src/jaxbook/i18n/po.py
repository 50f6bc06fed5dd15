"""``jaxbook po``: the translators' command, one action per tool of :mod:`jaxbook.i18n`.

    jaxbook po gettext [POT_DIR]                        write the templates into locale/pot
    jaxbook po update [--existing] POT_DIR [PO_DIR...]  merge the templates into the catalogs
    jaxbook po check [PO_DIR...]                        the translation checks
    jaxbook po lost [PO_DIR...]                         translations git HEAD had that are gone
    jaxbook po wrap [PO_DIR...]                         normalize and re-wrap every catalog

Each action takes catalog directories (``locale/<language>/LC_MESSAGES``), by default
every language's (:func:`every_language`); it runs on each even when one fails, and exits 1
if any did. Only this module imports the tools, so none imports another for its command line.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from jaxbook import project
from jaxbook.i18n import catalogs, check, loss


def every_language() -> list[Path]:
    """Each language's catalog directory, the source's too: it translates the interface."""
    root = project.root()
    return [
        Path(os.path.relpath(project.catalog_dir(root, language)))
        for language in project.languages()
    ]


def add_po_dirs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "po_dirs", nargs="*", type=Path, help="catalog directories (default: every translation)"
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True)
    gettext_parser = sub.add_parser(
        "gettext", help="write every catalog's template (.pot) into locale/pot and POT_DIR"
    )
    gettext_parser.add_argument("pot_dir", type=Path, nargs="?", default=project.TEMPLATES)
    project.add_sphinxopts(gettext_parser)
    update_parser = sub.add_parser("update", help="merge the .pot templates into the catalogs")
    update_parser.add_argument(
        "pot_dir", type=Path, help="the templates (make gettext: locale/pot)"
    )
    update_parser.add_argument(
        "--existing",
        action="store_true",
        help="merge into the catalogs that exist only, and name any not created (make zh-lint-fix)",
    )
    add_po_dirs(update_parser)
    for name, summary in [
        ("wrap", "normalise every catalog (line endings, other tools' marks), re-wrap it"),
        ("lost", "list the translations git HEAD had that the catalogs have lost"),
    ]:
        add_po_dirs(sub.add_parser(name, help=summary))
    check_parser = sub.add_parser("check", help=check.__doc__.splitlines()[0])
    add_po_dirs(check_parser)
    check.add_arguments(check_parser)


def run(args: argparse.Namespace) -> int:
    if args.action == "gettext":
        return catalogs.extract(project.root(), args.pot_dir, *args.sphinxopts)
    po_dirs = args.po_dirs or every_language()
    if args.action == "update":
        return catalogs.update_all(args.pot_dir, po_dirs, create=not args.existing)
    actions = {
        "check": lambda po_dir: check.run(po_dir, args),
        "lost": loss.run,
        "wrap": catalogs.wrap_all,
    }
    return max([actions[args.action](po_dir) for po_dir in po_dirs])
