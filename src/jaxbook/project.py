"""The book's facts, each in one place, and where the book project is.

``conf.py``, the tools and the Makefile read here the book's languages
(``locale/languages.csv``: :func:`languages`), its glossary (:func:`glossary`), where its
catalogs stand (:func:`catalog_dir`, :func:`interface_catalog`), the ``sphinx-build`` call
(:func:`sphinx_build`), and the pinned JAX release and Python (:func:`pinned_release`,
:func:`python_version`).

The book is the one around the current directory (:func:`find_root`). The module uses only
the standard library, so the Makefile can run it before ``.venv`` exists.
"""

from __future__ import annotations

import argparse
import csv
import functools
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

# The pages' language; the first row of the list of languages must be it.
SOURCE_LANGUAGE = "zh_CN"
LOCALE = Path("locale")
LANGUAGE_LIST = LOCALE / "languages.csv"
# The templates of every catalog (make gettext), committed for Weblate and Poedit.
TEMPLATES = LOCALE / "pot"
THEME_DOMAIN = "sphinx"
EXTENSION_DOMAIN = "jaxbook"
# The book's own interface domains (sphinx.po: the theme and Sphinx's domain; jaxbook.po: the
# extensions); interface_domains() adds those of the package catalogs.
INTERFACE_DOMAINS = (THEME_DOMAIN, EXTENSION_DOMAIN)
# The language the interface's messages are written in: it needs no catalog of them.
INTERFACE_SOURCE = "en"
# The extensions' own catalogs, which travel with the package (its Chinese labels).
PACKAGE_CATALOGS = Path(__file__).resolve().parent / "sphinxext" / "locales"
# The checkout the package is installed from (editable): its pyproject.toml declares the
# catalogs of the distribution's other packages (package_catalog_dirs()).
DISTRIBUTION = PACKAGE_CATALOGS.parents[3]
GLOSSARY = LOCALE / "glossary.csv"
# A page is reStructuredText or MyST Markdown (conf.py's source_suffix).
SOURCE_SUFFIX = {".rst": "restructuredtext", ".md": "markdown"}
# What a copy of the book needs to build and check itself: its sources and catalogs, and
# the files its pages read facts from (the pinned releases, the Python it runs on).
CONFIG_FILES = ("conf.py", "docutils.conf", "pyproject.toml", ".python-version", "uv.lock")
# The reader's book's sources, and the guides' (how the book is made: a site of their own,
# with a conf.py of their own, guides/conf.py, that reads the book's), both translated
# through locale/.
BOOK_SOURCES = "docs"
GUIDES = "guides"
BOOK_FILES = (*CONFIG_FILES, BOOK_SOURCES, GUIDES, "snippets", "locale", "records")
STATUSES = ("source", "draft", "done")
LANGUAGE_COLUMNS = ("code", "name", "status", "translators")


@dataclass(frozen=True)
class Language:
    """One row of the list of languages.

    ``status`` is ``source`` for the first row only, ``draft`` while a translation is under
    way and ``done`` once its translator says so (``jaxbook language``). ``translators`` is
    written in the source language, like ``conf.py``'s ``author``: the edition names them
    on its title page and in its EPUB through its ``book.po``."""

    code: str  # as Sphinx spells it: zh_CN, en, ja, pt_BR
    name: str  # in the language itself, as the switcher shows it
    status: str  # one of STATUSES
    translators: str = ""  # who translated the book into it, in the source language

    @property
    def draft(self) -> bool:
        return self.status == "draft"


def read_languages(path: Path) -> dict[str, Language]:
    """The languages listed in the CSV at ``path``, in its order; a faulty row is refused."""
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        if tuple(reader.fieldnames or ()) != LANGUAGE_COLUMNS:
            raise ValueError(f"{path}:1: the header must be {','.join(LANGUAGE_COLUMNS)}")
        rows = list(reader)
    found: dict[str, Language] = {}
    problems = []
    for line, row in enumerate(rows, start=2):
        language = Language(*((row.get(column) or "").strip() for column in LANGUAGE_COLUMNS))
        if not language.code or not language.name:
            problems.append(f"{path}:{line}: a language needs its code and its name")
        elif language.code in found:
            problems.append(f"{path}:{line}: {language.code} is listed twice")
        elif (language.status == "source") != (line == 2):
            problems.append(
                f"{path}:{line}: the first row, and only it, is the source "
                f"({SOURCE_LANGUAGE}, status source)"
            )
        elif line == 2 and language.code != SOURCE_LANGUAGE:
            problems.append(f"{path}:{line}: the source is {SOURCE_LANGUAGE}, not {language.code}")
        elif language.status == "source" and language.translators:
            problems.append(f"{path}:{line}: the source has no translators")
        elif language.status not in STATUSES:
            problems.append(
                f"{path}:{line}: status {language.status!r} is none of {', '.join(STATUSES)}"
            )
        found[language.code] = language
    if not rows:
        problems.append(f"{path}: no languages listed")
    if problems:
        raise ValueError("\n".join(problems))
    return found


def write_languages(path: Path, listed: dict[str, Language]) -> None:
    """Write the list of languages to ``path``, as ``read_languages`` reads it."""
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(LANGUAGE_COLUMNS)
        writer.writerows(
            [(lang.code, lang.name, lang.status, lang.translators) for lang in listed.values()]
        )


def languages(book: Path | None = None) -> dict[str, Language]:
    """The languages of the book at ``book`` (default: the one around the current
    directory), the source first."""
    return read_languages((book or root()) / LANGUAGE_LIST)


def translations(book: Path | None = None) -> list[str]:
    """Every language of the book but the source, in the list's order."""
    return [code for code in languages(book) if code != SOURCE_LANGUAGE]


def catalog_dir(root: Path, language: str) -> Path:
    """``locale/<language>/LC_MESSAGES`` of the book at ``root``."""
    return root / LOCALE / language / "LC_MESSAGES"


@functools.cache
def package_catalog_dirs() -> tuple[Path, ...]:
    """The directories of catalogs that travel with a package (``<language>/LC_MESSAGES/
    <domain>.po`` under each): this package's own, then those the distribution's
    ``pyproject.toml`` names in ``[tool.jaxbook] package-catalogs`` (relative to it), where
    the package is installed from a checkout that has them. The book never imports those
    packages: they name their catalogs here, and register them with Sphinx themselves."""
    import tomllib  # Python 3.11: this module also runs where the bundle does

    found = [PACKAGE_CATALOGS]
    pyproject = DISTRIBUTION / "pyproject.toml"
    if pyproject.is_file():
        config = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        for name in config.get("tool", {}).get("jaxbook", {}).get("package-catalogs", []):
            directory = (DISTRIBUTION / name).resolve()
            if directory.is_dir() and directory not in found:
                found.append(directory)
    return tuple(found)


@functools.cache
def interface_domains() -> tuple[str, ...]:
    """Every domain of the interface's catalogs: the book's (``INTERFACE_DOMAINS``), then
    each that a package catalog directory holds in some language (``jaxbook_lab``)."""
    found = dict.fromkeys(INTERFACE_DOMAINS)
    for directory in package_catalog_dirs():
        found |= dict.fromkeys(sorted(po.stem for po in directory.glob("*/LC_MESSAGES/*.po")))
    return tuple(found)


def package_po_file(language: str, domain: str) -> Path | None:
    """``language``'s catalog of ``domain`` that travels with a package, if one does."""
    for directory in package_catalog_dirs():
        path = directory / language / "LC_MESSAGES" / f"{domain}.po"
        if path.is_file():
            return path
    return None


def is_package_catalog_dir(po_dir: Path) -> bool:
    """Whether ``po_dir`` is a language's directory of catalogs that travel with a package."""
    return po_dir.resolve().parent.parent in package_catalog_dirs()


def interface_catalog(root: Path, language: str, domain: str) -> Path:
    """``language``'s catalog of the interface's ``domain``: the book's, or where the book has
    none and a package has one, the package's (the path the book's would have otherwise)."""
    book = catalog_dir(root, language) / f"{domain}.po"
    package = package_po_file(language, domain)
    return package if not book.is_file() and package is not None else book


def bcp47(language: str) -> str:
    """``language`` as HTML's ``lang`` and EPUB's ``dc:language`` spell it: ``zh-CN``
    for Sphinx's ``zh_CN``."""
    return language.replace("_", "-")


def speaks_interface_source(language: str) -> bool:
    """Whether ``language`` is the interface's own (``en``, ``en_GB``): no catalog needed."""
    return language.split("_")[0] == INTERFACE_SOURCE


def catalog_place(path: Path) -> tuple[Path, str, str] | None:
    """Where the catalog ``path`` stands: its locale directory, its language and its domain
    (``.../locale``, ``en`` and ``ch01/arrays`` for ``.../locale/en/LC_MESSAGES/ch01/
    arrays.po``); None for a file outside an ``LC_MESSAGES`` directory."""
    parts = path.resolve().parts
    if "LC_MESSAGES" not in parts[:-1]:
        return None
    at = len(parts) - 1 - parts[::-1].index("LC_MESSAGES")
    if at < 2:
        return None
    domain = Path(*parts[at + 1 :]).with_suffix("").as_posix()
    return Path(*parts[: at - 1]), parts[at - 1], domain


def catalog_language(po_dir: Path) -> str:
    """The language of a catalog directory: ``locale/en/LC_MESSAGES`` (or ``.../en``) is ``en``."""
    return po_dir.parent.name if po_dir.name == "LC_MESSAGES" else po_dir.name


@dataclass(frozen=True)
class Term:
    """One row of the glossary: the term in each language that has its columns, how a
    translation's use of it is recognised, and what it means in each language."""

    names: dict[str, str]  # language -> the term in it; the source's always
    patterns: dict[str, str]  # translation -> a regular expression its uses match
    definitions: dict[str, str]  # language -> the readers' glossary entry
    exclusive: bool  # a translation's term may stand only for this source term
    note: str
    line: int = 0  # the row's line in the CSV
    # language -> its own glossary and the row's line there, for a language that has one
    places: dict[str, tuple[Path, int]] = field(default_factory=dict)

    @property
    def source(self) -> str:
        return self.names[SOURCE_LANGUAGE]

    @property
    def key(self) -> str:
        """The name that identifies the term in every language (its anchor, the key of its
        links): the glossary's first translation's, or the source's where it has none."""
        translations = [language for language in self.names if language != SOURCE_LANGUAGE]
        return self.names[translations[0]] if translations else self.source

    def name(self, language: str) -> str:
        """The term in ``language``, or in the source where the glossary has none in it (no
        column, or an empty row of a language still translating it)."""
        return self.names.get(language, self.source)

    def definition(self, language: str) -> str:
        return self.definitions.get(language, self.definitions[SOURCE_LANGUAGE])

    @property
    def source_pattern(self) -> re.Pattern[str]:
        """How the source text uses the term: as written, and a term in Latin letters
        (XLA, jaxpr) as a whole word, not inside a name (``XLA_FLAGS``, ``make_jaxpr``)."""
        edge = r"[A-Za-z0-9_]"
        before = f"(?<!{edge})" if re.match(edge, self.source[:1]) else ""
        after = f"(?!{edge})" if re.match(edge, self.source[-1:]) else ""
        return re.compile(before + re.escape(self.source) + after)


# Beside a column per language (the term): definition_<language> for each, and
# pattern_<language> for each translation.
TERM_COLUMNS = ("exclusive", "note")


def glossary_languages(columns: list[str]) -> list[str]:
    """The languages a glossary header has columns for, the source first."""
    found = [
        c
        for c in columns
        if c not in TERM_COLUMNS and not c.startswith(("pattern_", "definition_"))
    ]
    return sorted(found, key=lambda language: language != SOURCE_LANGUAGE)


def language_columns(language: str) -> tuple[str, ...]:
    """A language's columns in the glossary: its term, its pattern (a translation's) and its
    definition."""
    pattern = () if language == SOURCE_LANGUAGE else (f"pattern_{language}",)
    return (language, *pattern, f"definition_{language}")


def read_table(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    """A glossary CSV's columns and rows, each cell stripped."""
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        columns = [c.strip() for c in reader.fieldnames or ()]
        rows = [
            {k.strip(): (v or "").strip() for k, v in row.items() if k is not None}
            for row in reader
        ]
    return columns, rows


def language_glossaries(path: Path) -> list[Path]:
    """The glossaries of single languages beside the shared one at ``path``:
    ``<language>/glossary.csv`` in its folder (``locale/es/glossary.csv``), with the columns
    ``zh_CN``, the language's term, ``pattern_<language>`` and ``definition_<language>``,
    a row per Chinese term of the shared one (``jaxbook language add`` writes it)."""
    return sorted(path.parent.glob(f"*/{path.name}"))


def glossary_files(path: Path) -> list[Path]:
    """Every file ``glossary(path)`` reads: the shared glossary and each language's."""
    return [path, *language_glossaries(path)]


def language_glossary(path: Path, language: str) -> Path:
    """Where ``language``'s own glossary is, beside the shared one at ``path``."""
    return path.parent / language / path.name


def merge_language(
    path: Path, columns: list[str], rows: list[dict[str, str]], where: list[dict[str, int]]
) -> list[str]:
    """Merge the language glossary at ``path`` into the shared table (``columns``, ``rows``)
    by the Chinese term, noting the line of each of its rows in ``where``; the problems
    (a column not its language's, a Chinese term the shared table lacks), where it has any."""
    language = path.parent.name
    own = [SOURCE_LANGUAGE, *language_columns(language)]
    if language == SOURCE_LANGUAGE:
        return [f"{path}:1: the source's terms are in the shared glossary, not here"]
    if language in columns:
        return [f"{path}:1: {language} has its columns in the shared glossary already"]
    have, own_rows = read_table(path)
    problems = [
        f"{path}:1: column {column} is not {language}'s: its columns are {','.join(own)}"
        for column in have
        if column not in own
    ]
    problems += [f"{path}:1: no column {column}" for column in own if column not in have]
    if problems:
        return problems
    columns += language_columns(language)
    index = {row.get(SOURCE_LANGUAGE, ""): at for at, row in enumerate(rows)}
    for line, row in enumerate(own_rows, start=2):
        source = row.get(SOURCE_LANGUAGE, "")
        at = index.get(source) if source else None
        if at is None:
            problems.append(f"{path}:{line}: {source!r} is not a term of the shared glossary")
        elif language in where[at]:
            problems.append(f"{path}:{line}: {source} again (line {where[at][language]})")
        else:
            rows[at].update({column: row.get(column, "") for column in language_columns(language)})
            where[at][language] = line
    return problems


def glossary(path: Path) -> list[Term]:
    """The terms of the glossary CSV at ``path``, in its order, with the columns of each
    language glossary beside it (``language_glossaries()``) merged in by the Chinese term;
    a missing column, a row without a cell of the source's columns, or a row with some of
    a translation's cells and not the others, is refused, and so is a language glossary's
    column that is not its language's or a Chinese term the shared glossary lacks. A row
    that leaves all of a translation's cells empty (or, in a language glossary, a term it
    has no row for) is a term that language has not translated yet: it has no name,
    pattern or definition in it."""
    columns, rows = read_table(path)
    languages = glossary_languages(columns)
    required = [column for language in languages for column in language_columns(language)]
    problems = [f"{path}:1: no column {column}" for column in required if column not in columns]
    if SOURCE_LANGUAGE not in languages:
        problems.insert(0, f"{path}:1: no column {SOURCE_LANGUAGE}, the source's terms")
    # Each row's line in its language's own glossary, for the languages that have one.
    where: list[dict[str, int]] = [{} for _ in rows]
    own = {}
    for file in language_glossaries(path):
        found = merge_language(file, columns, rows, where)
        if not found:
            own[file.parent.name] = file
        problems += found
    languages = glossary_languages(columns)
    filled: list[list[str]] = []
    for line, (row, lines) in enumerate(zip(rows, where, strict=True), start=2):
        here = [
            language
            for language in languages
            if language == SOURCE_LANGUAGE
            or any(row.get(column) for column in language_columns(language))
        ]
        filled.append(here)
        problems += [
            f"{own[language]}:{lines[language]}: no {column}"
            if language in own
            else f"{path}:{line}: no {column}"
            for language in here
            for column in language_columns(language)
            if column in columns and not row.get(column)
        ]
    if problems:
        raise ValueError("the glossary is refused:\n" + "\n".join(problems))
    return [
        Term(
            names={language: row[language] for language in here},
            patterns={
                language: row[f"pattern_{language}"]
                for language in here
                if language != SOURCE_LANGUAGE
            },
            definitions={language: row[f"definition_{language}"] for language in here},
            exclusive=row.get("exclusive") == "yes",
            note=row.get("note", ""),
            line=line,
            places={language: (own[language], lines[language]) for language in lines},
        )
        for line, (row, here, lines) in enumerate(zip(rows, filled, where, strict=True), start=2)
    ]


def glossary_columns(path: Path) -> list[str]:
    """The languages the glossary CSV at ``path`` has columns for, the source first, then
    those with a glossary of their own beside it."""
    with path.open(encoding="utf-8", newline="") as f:
        header = next(csv.reader(f), [])
    shared = glossary_languages([column.strip() for column in header])
    return shared + [
        file.parent.name for file in language_glossaries(path) if file.parent.name not in shared
    ]


def add_language_glossary(path: Path, language: str) -> Path | None:
    """Write ``language``'s own glossary beside the shared one at ``path``: its columns
    (``zh_CN``, the term, ``pattern_<language>``, ``definition_<language>``) and a row for
    each Chinese term, every other cell empty. None, writing nothing, where it has one
    already or its columns are in the shared glossary."""
    own = language_glossary(path, language)
    columns, rows = read_table(path)
    if own.exists() or language in columns:
        return None
    own.parent.mkdir(parents=True, exist_ok=True)
    empty = [""] * len(language_columns(language))
    with own.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow([SOURCE_LANGUAGE, *language_columns(language)])
        writer.writerows([row.get(SOURCE_LANGUAGE, ""), *empty] for row in rows)
    return own


def page_file(docs: Path, docname: str) -> Path:
    """The source of ``docname`` under ``docs``: its ``.rst`` or its ``.md`` file."""
    for suffix in SOURCE_SUFFIX:
        path = docs / f"{docname}{suffix}"
        if path.is_file():
            return path
    return docs / f"{docname}.rst"


def source_file(root: Path, docname: str) -> Path:
    """The source of ``docname``, a page of the book (``docs/``) or of its guides (``guides/``),
    whose catalogs share ``locale/``: the book's where neither has it."""
    for sources in (BOOK_SOURCES, GUIDES):
        if (path := page_file(root / sources, docname)).is_file():
            return path
    return page_file(root / BOOK_SOURCES, docname)


def page_name(root: Path, docname: str) -> str:
    """``docs/<docname>.rst`` or ``docs/<docname>.md``, as messages name a page."""
    return page_file(root / BOOK_SOURCES, docname).relative_to(root).as_posix()


def add_build_arguments(
    parser: argparse.ArgumentParser, nargs: str = "+", languages_help: str | None = None
) -> None:
    """The arguments of a command that runs ``sphinx-build`` for some of the book's languages
    (``jaxbook html``, ``editions``, ``doctest``): the languages, the build directory, and
    :func:`add_sphinxopts`."""
    parser.add_argument("languages", nargs=nargs, help=languages_help)
    parser.add_argument("--builddir", type=Path, default=Path("_build"))
    add_sphinxopts(parser)


def add_sphinxopts(parser: argparse.ArgumentParser) -> None:
    """``--sphinxopts "-D name=value -t tag"`` (the Makefile's ``SPHINXOPTS``): options
    passed on to ``sphinx-build``, split as a shell splits them (``args.sphinxopts`` is a
    list)."""
    parser.add_argument(
        "--sphinxopts",
        type=shlex.split,
        default="",
        help="extra sphinx-build options (-D name=value, -t tag, ...)",
    )


def config_dir(root: Path, sources: str = BOOK_SOURCES) -> Path:
    """The directory of the ``conf.py`` that builds ``sources`` of the book at ``root``: the
    book's own, or for its guides theirs (``guides/conf.py``, which reads the book's)."""
    return root / GUIDES if sources == GUIDES else root


def sphinx_build(
    root: Path, builder: str, outdir: Path, *options: str, sources: str = BOOK_SOURCES
) -> list[str]:
    """The ``sphinx-build`` call that builds the book at ``root`` into ``outdir`` with
    ``builder``: its pages, or with ``sources=GUIDES`` its guides (with their ``conf.py``)."""
    return [
        sys.executable,
        "-m",
        "sphinx",
        "-b",
        builder,
        *options,
        "-c",
        str(config_dir(root, sources)),
        str(root / sources),
        str(outdir),
    ]


def pinned_release(root: Path, package: str = "jax") -> str:
    """The release of ``package`` that ``pyproject.toml`` pins exactly (``jax==0.12.0.1``); the
    prose names it through :mod:`jaxbook.sphinxext.facts`."""
    import tomllib  # Python 3.11: this module also runs where the bundle does

    pyproject = root / "pyproject.toml"
    for requirement in tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"][
        "dependencies"
    ]:
        name, sep, version = requirement.partition("==")
        if sep and name.strip() == package:
            return version.strip()
    raise ValueError(f"{pyproject}: no exact pin {package}==... among the dependencies")


def python_version(root: Path) -> str:
    """The Python the book is built and its outputs recorded with (``.python-version``: 3.13)."""
    return (root / ".python-version").read_text(encoding="utf-8").strip()


def find_root(start: Path | None = None) -> Path | None:
    """The book around ``start`` (the current directory), found as ``git`` finds its
    checkout: the package is installed editable, so its own location says nothing about
    the checkout."""
    here = (start or Path.cwd()).resolve()
    for directory in [here, *here.parents]:
        if (directory / "conf.py").is_file() and (directory / "docs").is_dir():
            return directory
    return None


def root() -> Path:
    found = find_root()
    if found is None:
        raise SystemExit(f"{Path.cwd()}: not inside the book (no conf.py with docs/ above it)")
    return found


if __name__ == "__main__":
    # The Makefile's questions, asked with the system's Python before .venv exists.
    answers = {"languages": lambda: languages(), "pinned-jax": lambda: [pinned_release(root())]}
    if len(sys.argv) != 2 or sys.argv[1] not in answers:
        sys.exit(f"usage: python src/jaxbook/project.py {{{','.join(answers)}}}")
    try:
        print(*answers[sys.argv[1]]())
    except ValueError as exc:
        sys.exit(str(exc))
