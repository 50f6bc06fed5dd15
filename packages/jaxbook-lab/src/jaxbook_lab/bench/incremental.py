"""Clean and incremental HTML builds of one language in one long-lived process, as the preview does.

    python -m jaxbook_lab.bench.incremental ROOT PAGE CATALOG MARKER [--runs 3] [--language en]

Builds ROOT's book once from nothing (the clean figure), then, ``--runs``
times each, appends a comment to the page PAGE (a ``docs/`` path) and edits
the msgstr of CATALOG that contains MARKER, rebuilding after each edit in the
same Sphinx application (``jaxbook.site.live.LiveBuilder``). Each rebuilt
page is checked to show the edit. Prints one JSON object of seconds. A
warning in any build is an error.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from jaxbook.project import catalog_dir, translations
from jaxbook.site.live import LiveBuilder


def timed_build(builder: LiveBuilder) -> float:
    start = time.perf_counter()
    warnings = builder.build()
    seconds = time.perf_counter() - start
    if warnings:
        sys.exit(f"the build warned:\n{warnings}")
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jaxbook_lab.bench.incremental")
    parser.add_argument("root", type=Path)
    parser.add_argument("page", help="a page to edit, e.g. docs/ch01/quiz.rst")
    parser.add_argument(
        "catalog", help="a catalog to edit, e.g. locale/en/LC_MESSAGES/ch01/quiz.po"
    )
    parser.add_argument("marker", help="text of the msgstr to edit")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--language", default=translations()[0])
    args = parser.parse_args(argv)
    root = args.root.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        builder = LiveBuilder(root, args.language, out / "html", out / "doctrees")
        clean = timed_build(builder)
        page, catalog = root / args.page, root / args.catalog
        docname = Path(args.page).relative_to("docs").with_suffix("").as_posix()
        catalog_docname = Path(args.catalog).relative_to(catalog_dir(Path(), args.language))
        catalog_html = out / "html" / catalog_docname.with_suffix(".html")
        page_text, catalog_text = page.read_text("utf-8"), catalog.read_text("utf-8")
        if args.marker not in catalog_text:
            sys.exit(f"{catalog}: no msgstr contains {args.marker!r}")
        after_page, after_msgstr = [], []
        try:
            for run in range(args.runs):
                # A comment changes the source but not what a reader sees.
                page.write_text(page_text + f"\n.. edited {run}\n", encoding="utf-8")
                after_page.append(timed_build(builder))
                edited = f"{args.marker} (edited {run})"
                catalog.write_text(catalog_text.replace(args.marker, edited, 1), "utf-8")
                after_msgstr.append(timed_build(builder))
                if edited not in catalog_html.read_text(encoding="utf-8"):
                    sys.exit(f"{catalog_html}: the rebuilt page does not show the edit")
        finally:
            page.write_text(page_text, encoding="utf-8")
            catalog.write_text(catalog_text, encoding="utf-8")
        print(
            json.dumps(
                {
                    "docname": docname,
                    "clean_s": clean,
                    "after_page_s": after_page,
                    "after_msgstr_s": after_msgstr,
                }
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
