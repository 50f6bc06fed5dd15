"""Build the PDF and EPUB editions of each language.

    jaxbook editions [--builddir _build] [--site DIR] [--format pdf|epub] zh_CN [en ...]

PDF: ``sphinx-build -b latex`` (xelatex, xeCJK, Noto CJK; see
``jaxbook.sphinxext.editions``), then ``latexmk``; the file is
``<builddir>/pdf/<name>-<language>.pdf``. EPUB: ``sphinx-build -b epub``;
``<builddir>/epub/<name>-<language>.epub``. The languages build side by side.
When the site is built (``<builddir>/html/<language>/``, or ``--site``), each
file is also copied there, where its pages link it (``jaxbook_editions``,
:mod:`jaxbook.sphinxext.editions`). Each language builds
into the site's doctree directory, ``<builddir>/doctrees/<language>``, in the
doctest environment: after ``make html`` nothing
is read again, and the books show the figures and measurements of the site's
one run of each page (:mod:`pagerun.sphinxext.run`). A language's formats
build one after the other, since they share that directory; the languages
build side by side.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from jaxbook import project
from jaxbook.doctest.environment import doctest_environment
from jaxbook.files import holding
from jaxbook.site.build import html_command

FORMATS = ("pdf", "epub")
LATEXMK = ["latexmk", "-pdfxe", "-interaction=nonstopmode", "-halt-on-error", "-silent"]
# Both LaTeX runs of a 70-page book take under a minute on two cores.
LATEX_TIMEOUT = 900


def sphinx_command(
    root: Path, builder: str, language: str, outdir: Path, doctrees: Path, *extra: str
) -> list[str]:
    command = html_command(root, language, outdir, doctrees, *extra)
    command[command.index("html")] = builder
    return command


def edition_files(builddir: Path, fmt: str, language: str) -> list[Path]:
    return sorted((builddir / fmt).glob(f"*-{language}.{fmt}"))


def build_language(
    root: Path, builddir: Path, site_root: Path, language: str, fmt: str, extra: list[str]
) -> int:
    builder = "latex" if fmt == "pdf" else "epub"
    outdir = builddir / builder / language
    # The site's: Sphinx reads (and runs) only what changed since make html read it.
    doctrees = builddir / "doctrees" / language
    # The EPUB packs every file in its directory: leave none from another build.
    shutil.rmtree(outdir, ignore_errors=True)
    with holding(doctrees):
        result = subprocess.run(
            sphinx_command(root, builder, language, outdir, doctrees, *extra),
            env=doctest_environment(os.environ, root, language),
        )
    if result.returncode:
        return result.returncode
    if fmt == "pdf":
        texs = sorted(outdir.glob("*.tex"))
        latex = subprocess.run(
            [*LATEXMK, *(t.name for t in texs)],
            cwd=outdir,
            capture_output=True,
            text=True,
            timeout=LATEX_TIMEOUT,
        )
        if latex.returncode:
            log = "\n".join(
                line for tex in texs for line in _errors(outdir / tex.with_suffix(".log").name)
            )
            print(f"{outdir}: latexmk failed\n{log or latex.stdout[-3000:]}", file=sys.stderr)
            return latex.returncode
        built = [outdir / t.with_suffix(".pdf").name for t in texs]
    else:
        built = sorted(outdir.glob("*.epub"))
    (builddir / fmt).mkdir(parents=True, exist_ok=True)
    site = site_root / language
    for path in built:
        shutil.copy2(path, builddir / fmt / path.name)
        if site.is_dir():
            shutil.copy2(path, site / path.name)
        else:
            print(f"{path.name}: no site at {site}, so not copied into it (run make html first)")
    return 0


def _errors(log: Path) -> list[str]:
    if not log.exists():
        return []
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    return ["\n".join(lines[i : i + 4]) for i, line in enumerate(lines) if line.startswith("!")][:5]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    project.add_build_arguments(parser)
    parser.add_argument("--format", dest="formats", action="append", choices=FORMATS)
    parser.add_argument(
        "--site", type=Path, help="the site that holds <language>/ (default: <builddir>/html)"
    )


def run(args: argparse.Namespace) -> int:
    from concurrent.futures import ThreadPoolExecutor

    root = project.root()
    builddir = args.builddir.resolve()
    site_root = (args.site or builddir / "html").resolve()
    extra = ["--fail-on-warning", "--keep-going", "-q", *args.sphinxopts]
    formats = args.formats or list(FORMATS)

    def build(language: str) -> list[int]:
        # One format after the other: they share the language's doctree directory.
        return [build_language(root, builddir, site_root, language, f, extra) for f in formats]

    with ThreadPoolExecutor(max_workers=len(args.languages)) as pool:
        statuses = dict(zip(args.languages, pool.map(build, args.languages), strict=True))
    for fmt_index, fmt in enumerate(formats):
        for language in args.languages:
            status = statuses[language][fmt_index]
            files = edition_files(builddir, fmt, language)
            print(f"{fmt} {language}: " + ("failed" if status else ", ".join(map(str, files))))
    return max(status for language_statuses in statuses.values() for status in language_statuses)
