"""Build the site: one ``sphinx-build -b html`` per language, all at once, then the landing page.

    jaxbook html [--builddir _build] [--sphinxopts "..."] zh_CN [en ...]

Sphinx is given ``--fail-on-warning --keep-going``, so the build stops on no
warning but fails on any. ``html_command`` is also what the tests and
``make bench`` build with, so that they build the way readers' sites are built.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from pathlib import Path

from jaxbook import project
from jaxbook.site import landing


def html_command(
    root: Path, language: str, outdir: Path, doctreedir: Path, *extra: str
) -> list[str]:
    """The sphinx-build call of `make html` for one language of the book at ``root``."""
    return [
        sys.executable,
        "-m",
        "sphinx",
        "-b",
        "html",
        *extra,
        "-c",
        str(root),
        "-D",
        f"language={language}",
        "-d",
        str(doctreedir),
        str(root / "docs"),
        str(outdir),
    ]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("languages", nargs="+", help="the first is the landing page's default")
    parser.add_argument("--builddir", type=Path, default=Path("_build"))
    parser.add_argument("--sphinxopts", default="", help="extra sphinx-build options")


def run(args: argparse.Namespace) -> int:
    root = project.root()
    builddir = args.builddir.resolve()
    extra = ["--fail-on-warning", "--keep-going", *shlex.split(args.sphinxopts)]
    processes = [
        subprocess.Popen(
            html_command(
                root,
                language,
                builddir / "html" / language,
                builddir / "doctrees" / language,
                *extra,
                "-D",
                f"jaxbook_measurements={builddir / 'measured' / language}",
            )
        )
        for language in args.languages
    ]
    status = max(process.wait() for process in processes)
    if status:
        return status
    landing.write(builddir / "html", args.languages)
    return 0
