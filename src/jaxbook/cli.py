"""jaxbook: the one command behind the Makefile's targets for the book.

Each subcommand lives in the module that does the work; only the module of
the subcommand being run is imported, so ``jaxbook --help`` starts at once.
The lab's commands (other JAX releases, the doctest bundle, speed,
Lighthouse) are another command, ``jaxbook-lab`` (:mod:`jaxbook_lab.cli`),
made by :func:`main` from its own table.
"""

from __future__ import annotations

import argparse
import importlib
import multiprocessing
import sys

# name: (module with add_arguments(parser) and run(args), one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "preflight": ("jaxbook.preflight", "check (or, as root on Debian, install) the system's tools"),
    "html": ("jaxbook.site.build", "build the site, every language side by side, and its landing"),
    "guides": ("jaxbook.site.build", "build the guides, a site beside the book's"),
    "editions": ("jaxbook.site.editions", "build the PDF and EPUB of each language"),
    "landing": ("jaxbook.site.landing", "write the root index.html that picks a language"),
    "doctest": ("jaxbook.doctest.runner", "run every code cell of every language; one verdict"),
    "backend": ("jaxbook.doctest.backend", "say which backend JAX runs on (--expect to insist)"),
    "refresh": ("jaxbook.doctest.refresh", "rewrite stale expected outputs from real runs"),
    "po": ("jaxbook.i18n.po", "the catalogs: gettext, update, check, wrap, lost"),
    "language": ("jaxbook.i18n.languages", "add a language to the book, or say it is done"),
    "zh-lint": ("jaxbook.i18n.zh_lint", "the Chinese copy lint (--fix applies it)"),
    "publish-notebooks": ("jaxbook.site.publish", "push the built notebooks to Colab's branch"),
    "livehtml": ("jaxbook.site.live", "serve one language, rebuilt in-process on each save"),
}


def parser_for(
    argv: list[str],
    commands: dict[str, tuple[str, str]] = COMMANDS,
    prog: str = "jaxbook",
    description: str = __doc__.splitlines()[0],
) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module_name, summary) in commands.items():
        command = subparsers.add_parser(name, help=summary, description=summary)
        if argv[:1] == [name]:
            module = importlib.import_module(module_name)
            module.add_arguments(command)
            command.set_defaults(run=module.run)
    return parser


def main(
    argv: list[str] | None = None,
    commands: dict[str, tuple[str, str]] = COMMANDS,
    prog: str = "jaxbook",
    description: str = __doc__.splitlines()[0],
) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parser_for(argv, commands, prog, description).parse_args(argv)
    # A command may run the pages' code, and so start JAX's threads, and then start a
    # process: refresh reads one language after the other, and the next language's Sphinx
    # application starts one (sphinx-sitemap's queue manager). Forked from a process that
    # runs JAX, a child inherits its locks held (JAX warns that it may deadlock). Children
    # come from a fork server instead (Python 3.14's default), which never runs JAX.
    multiprocessing.set_start_method("forkserver", force=True)
    return args.run(args)
