"""jaxbook: the one command behind the Makefile's targets.

Each subcommand lives in the module that does the work; only the module of
the subcommand being run is imported, so ``jaxbook bundle run`` needs Python
and JAX alone, and ``jaxbook --help`` starts at once.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# name: (module with add_arguments(parser) and run(args), one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "preflight": ("jaxbook.preflight", "check (or, as root on Debian, install) the system's tools"),
    "html": ("jaxbook.site.build", "build the site, every language side by side, and its landing"),
    "editions": ("jaxbook.site.editions", "build the PDF and EPUB of each language"),
    "landing": ("jaxbook.site.landing", "write the root index.html that picks a language"),
    "doctest": ("jaxbook.doctest.runner", "run every code cell of every language; one verdict"),
    "backend": ("jaxbook.doctest.backend", "say which backend JAX runs on (--expect to insist)"),
    "bundle": ("jaxbook.doctest.bundle", "export the doctests, or run them with Python and JAX"),
    "refresh": ("jaxbook.doctest.refresh", "rewrite stale expected outputs from real runs"),
    "record": ("jaxbook.doctest.record", "write another backend's recorded outputs onto the pages"),
    "drift": ("jaxbook.releases.drift", "run the book on another JAX release; report what changed"),
    "evidence": ("jaxbook.releases.evidence", "find where each noted behavior changed, by release"),
    "po": ("jaxbook.i18n.po", "the catalogs: gettext, update, check, wrap, lost"),
    "language": ("jaxbook.i18n.languages", "add a language to the book, or say it is done"),
    "zh-lint": ("jaxbook.i18n.zh_lint", "the Chinese copy lint (--fix applies it)"),
    "lighthouse": ("jaxbook.site.lighthouse", "audit every page of a deploy build with Lighthouse"),
    "publish-notebooks": ("jaxbook.site.publish", "push the built notebooks to Colab's branch"),
    "livehtml": ("jaxbook.site.live", "serve one language, rebuilt in-process on each save"),
    "bench": ("jaxbook.bench.suite", "measure doctest, builds, pages and setup"),
}


def parser_for(argv: list[str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="jaxbook", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module_name, summary) in COMMANDS.items():
        command = commands.add_parser(name, help=summary, description=summary)
        if argv[:1] == [name]:
            module = importlib.import_module(module_name)
            module.add_arguments(command)
            command.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parser_for(argv).parse_args(argv)
    return args.run(args)
