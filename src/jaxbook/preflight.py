"""What the book needs of the system, checked before a long step: one list, one message.

    python3 src/jaxbook/preflight.py [--install] [--languages "zh_CN en"] TARGET...
    jaxbook preflight [--install] [--languages "zh_CN en"] TARGET...

Checks the tools, fonts and TeX hyphenation patterns that the make targets use outside
the virtual environment, and names everything a target lacks in one message, with the
``apt-get install`` command that provides it; exit status 1 if anything is missing.
It uses the standard library only, so that the Makefile can run it before ``.venv``
exists and a fresh machine learns in seconds what it lacks.
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
# A PDF is hyphenated in its edition's language (jaxbook.sphinxext.editions sets
# polyglossia's name for it as the edition's main language). By code as Sphinx spells it,
# then by its language alone (pt_BR, then pt).
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


def read_needs(path: Path) -> list[Need]:
    """The table of ``needs.csv``: a row per need; its targets and alternatives are
    space-separated."""
    with path.open(encoding="utf-8", newline="") as f:
        return [
            Need(
                row["what"],
                row["kind"],
                row["name"],
                row["package"],
                tuple(row["targets"].split()),
                tuple(row["alternatives"].split()),
            )
            for row in csv.DictReader(f)
        ]


# A language's hunspell dictionary is listed where one exists: make check-po reports a
# language without one as unchecked rather than check it in another. Spanish's dictionary
# and hyphenation patterns are there for the tests' second language.
NEEDS = read_needs(Path(__file__).with_name("needs.csv"))


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
    """0 if the system has what ``targets`` need, else 1 after one message naming it all.
    With ``allow_install``, as root on Debian or Ubuntu, install what is missing with
    ``apt-get`` and check again; elsewhere (macOS, no root) the message is the answer."""
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
