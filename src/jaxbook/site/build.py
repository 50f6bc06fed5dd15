"""Build the site: one ``sphinx-build -b html`` per language, all at once, then the landing page.

    jaxbook html [--builddir _build] [--sphinxopts "..."] zh_CN [en ...]
    jaxbook guides [--builddir _build] [--sphinxopts "..."] zh_CN [en ...]

Sphinx runs with ``--fail-on-warning --keep-going``, so no warning stops the build but
any fails it, an example whose output is not what its code prints among them
(:mod:`pagerun.sphinxext.run` runs each page as it reads it). ``jaxbook guides`` builds
the guides, a site of their own (:func:`build_guides`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
from pathlib import Path

from jaxbook import project
from jaxbook.doctest.environment import doctest_environment
from jaxbook.files import holding
from jaxbook.site import landing


def html_command(
    root: Path,
    language: str,
    outdir: Path,
    doctreedir: Path,
    *extra: str,
    sources: str = project.BOOK_SOURCES,
) -> list[str]:
    """The sphinx-build call of `make html` for one language of the book at ``root`` (of
    `make guides` with ``sources="guides"``: with the guides' conf.py, which reads the
    book's). The tests and ``make bench`` build with it too, so that they build the way
    readers' sites are built."""
    return project.sphinx_build(
        root,
        "html",
        outdir,
        *extra,
        "-D",
        f"language={language}",
        "-d",
        str(doctreedir),
        sources=sources,
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    project.add_build_arguments(parser, languages_help="the first is the landing page's default")


def run(args: argparse.Namespace) -> int:
    root = project.root()
    builddir = args.builddir.resolve()
    extra = ["--fail-on-warning", "--keep-going", *args.sphinxopts]
    if args.command == "guides":
        return build_guides(root, builddir, args.languages, extra)
    with contextlib.ExitStack() as held:
        for language in args.languages:
            held.enter_context(holding(builddir / "doctrees" / language))
        status = build_languages(root, builddir, args.languages, extra)
    if status:
        return status
    landing.write(builddir / "html", args.languages)
    return 0


def build_languages(root: Path, builddir: Path, languages: list[str], extra: list[str]) -> int:
    """Each language's site, side by side; the worst exit status. Each builds in the
    doctest environment (:mod:`jaxbook.doctest.environment`) into
    ``<builddir>/doctrees/<language>``, which ``make pdf``, ``make epub`` and ``make doctest``
    share."""
    processes = [
        subprocess.Popen(
            html_command(
                root,
                language,
                builddir / "html" / language,
                builddir / "doctrees" / language,
                *extra,
            ),
            env=doctest_environment(os.environ, root, language),
        )
        for language in languages
    ]
    return max(process.wait() for process in processes)


def build_guides(root: Path, builddir: Path, languages: list[str], extra: list[str]) -> int:
    """The guides' site of each language, side by side, then their landing page.

    The guides (``guides/``: how the book is made, the author's and translator's guides,
    the lab's report) go into ``<builddir>/guides/<language>``, after the book's site of
    each language is built there: they link it, and the lab's report shows its examples
    (:mod:`jaxbook.sphinxext.guides`)."""
    environment = dict(os.environ)
    if url := environment.get("JAXBOOK_SITE_URL", "").rstrip("/"):
        # A deploy publishes them under <site>/guides/ (their canonical URLs and sitemaps),
        # and they link the book's pages at <site>/<language>/ (jaxbook.sphinxext.guides).
        environment.update(JAXBOOK_SITE_URL=f"{url}/{project.GUIDES}", JAXBOOK_BOOK_URL=url)
    processes = [
        subprocess.Popen(
            html_command(
                root,
                language,
                builddir / project.GUIDES / language,
                builddir / "doctrees" / project.GUIDES / language,
                *extra,
                "-D",
                f"jaxbook_book_build={builddir}",
                sources=project.GUIDES,
            ),
            env=environment,
        )
        for language in languages
    ]
    status = max(process.wait() for process in processes)
    if not status:
        landing.write(builddir / project.GUIDES, languages, home="contributing.html")
    return status
