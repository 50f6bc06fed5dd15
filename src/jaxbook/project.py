"""The book's facts, each in one place, and where the book project is.

- ``LANGUAGES``: the book's languages, the source first, each with the name
  its language switcher and landing page show; ``translations()`` is every
  language but the source. ``conf.py``, the tools and the Makefile (through
  ``python src/jaxbook/project.py languages``) read them here.
- ``SOURCE_LANGUAGE``: the language the pages are written in (Chinese).
- ``GLOSSARY``: the translators' glossary, relative to the project root, and
  ``glossary()``, its one reader: the readers' glossary, Chinese search and
  ``make check-po`` all take their terms from it.
- ``catalog_dir()``: where a translation's catalogs are, and ``catalog_language()``,
  the language of such a directory.
- ``pinned_release()`` and ``python_version()``: the JAX release the book runs on
  (``pyproject.toml``'s pin) and the Python it is built with (``.python-version``);
  the prose names them through ``jaxbook.sphinxext.facts``.

The package is installed (editable in ``.venv``), so its own location says
nothing about which checkout it works on; the commands work on the project
around the current directory, as ``git`` does.

The module uses the standard library only, so that the Makefile can run it
before ``.venv`` exists.
"""

from __future__ import annotations

import csv
import sys
from dataclasses import dataclass
from pathlib import Path

SOURCE_LANGUAGE = "zh_CN"
LANGUAGES = {SOURCE_LANGUAGE: "简体中文", "en": "English"}
LOCALE = Path("locale")
GLOSSARY = LOCALE / "glossary.csv"
# A page is reStructuredText or MyST Markdown (conf.py's source_suffix).
SOURCE_SUFFIX = {".rst": "restructuredtext", ".md": "markdown"}


def translations() -> list[str]:
    """Every language of the book but the source, in ``LANGUAGES``' order."""
    return [language for language in LANGUAGES if language != SOURCE_LANGUAGE]


def catalog_dir(root: Path, language: str) -> Path:
    """``locale/<language>/LC_MESSAGES`` of the book at ``root``."""
    return root / LOCALE / language / "LC_MESSAGES"


def catalog_language(po_dir: Path) -> str:
    """The language of a catalog directory: ``locale/en/LC_MESSAGES`` (or ``.../en``) is ``en``."""
    return po_dir.parent.name if po_dir.name == "LC_MESSAGES" else po_dir.name


@dataclass(frozen=True)
class Term:
    """One row of the glossary: a Chinese term, its English, and what each means."""

    zh: str
    en: str
    pattern: str  # a regular expression that an English use of the term matches
    exclusive: bool  # the English term may stand only for this Chinese one
    note: str
    definition_zh: str
    definition_en: str


REQUIRED = ("zh", "en", "pattern", "definition_zh", "definition_en")


def glossary(path: Path) -> list[Term]:
    """The terms of the glossary CSV at ``path``, in its order; a row that lacks one is refused."""
    with path.open(encoding="utf-8", newline="") as f:
        rows = [
            {k: (v or "").strip() for k, v in row.items() if k is not None}
            for row in csv.DictReader(f)
        ]
    missing = [
        f"{path}:{i + 2}: no {column}"
        for i, row in enumerate(rows)
        for column in REQUIRED
        if not row.get(column)
    ]
    if missing:
        raise ValueError("glossary rows lack a column:\n" + "\n".join(missing))
    return [
        Term(
            row["zh"],
            row["en"],
            row["pattern"],
            row.get("exclusive") == "yes",
            row.get("note", ""),
            row["definition_zh"],
            row["definition_en"],
        )
        for row in rows
    ]


def page_file(docs: Path, docname: str) -> Path:
    """The source of ``docname`` under ``docs``: its ``.rst`` or its ``.md`` file."""
    for suffix in SOURCE_SUFFIX:
        path = docs / f"{docname}{suffix}"
        if path.is_file():
            return path
    return docs / f"{docname}.rst"


def page_name(root: Path, docname: str) -> str:
    """``docs/<docname>.rst`` or ``docs/<docname>.md``, as messages name a page."""
    return page_file(root / "docs", docname).relative_to(root).as_posix()


def pinned_release(root: Path, package: str = "jax") -> str:
    """The release of ``package`` that ``pyproject.toml`` pins exactly (``jax==0.12.0.1``)."""
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
    if sys.argv[1:] != ["languages"]:
        sys.exit("usage: python src/jaxbook/project.py languages")
    print(*LANGUAGES)
