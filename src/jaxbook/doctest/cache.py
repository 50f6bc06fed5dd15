"""The doctest result cache: a page is run again only when something its output depends on changed.

Like jupyter-cache for notebooks, each page that passed in a language is
stored under ``<builddir>/doctest-cache/<language>/<page>.json`` with the key
it ran under. The key is a hash of everything that can change what the page's
code prints or what the page expects:

- the page's source, and every file Sphinx recorded it depends on (the
  ``.. include::`` files, the scripts shown with ``.. snippet::``);
- the page's catalog in that language (``locale/<lang>/LC_MESSAGES/<page>.po``);
- ``uv.lock`` and the Python version;
- the backend JAX runs on (platform and device kind, asked of JAX itself);
- the doctest environment (``jaxbook.doctest.environment``): every variable
  it sets and every variable JAX, XLA, Python or the book reads;
- every file of the ``jaxbook`` package, ``conf.py`` and ``docutils.conf``.
  The whole package, not the parts thought to reach the pages: a run imports
  across it (the extension ``sphinxext.measured`` imports ``doctest.pages``;
  the runner starts Sphinx with ``sphinxapp``), and a list kept by hand drifts.

Only clean passes are stored; a page that failed always runs again.
A key that cannot be computed (a file went missing) means no cache entry.
"""

from __future__ import annotations

import hashlib
import json
import platform
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import jaxbook
from jaxbook.files import write_text_atomically
from jaxbook.project import SOURCE_LANGUAGE, catalog_dir, page_file

# Variables that reach the pages' code: JAX and XLA settings, the CUDA stack,
# Python's own, the book's, and the locale.
ENVIRONMENT_PREFIXES = (
    "JAX",
    "XLA",
    "TF_",
    "CUDA",
    "NVIDIA",
    "TPU",
    "PYTHON",
    "MPL",
    "OMP_",
    "LC_",
    "LANG",
    "TZ",
)
# Where compiled programs are kept changes how fast the pages run, not what they print.
ENVIRONMENT_IGNORED = {"JAX_COMPILATION_CACHE_DIR"}
PROJECT_FILES = ("conf.py", "docutils.conf", "uv.lock")


def _digest_file(digest: hashlib._Hash, path: Path, name: str | None = None) -> None:
    digest.update(f"{name or path}\0".encode())
    digest.update(path.read_bytes() if path.is_file() else b"<missing>")
    digest.update(b"\0")


def package_dir() -> Path:
    return Path(jaxbook.__file__).parent


def package_files(package: Path) -> list[Path]:
    """Every file of the package (its compiled catalogs and bytecode aside)."""
    return sorted(
        path
        for path in package.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".mo"
    )


def environment_items(environment: Mapping[str, str]) -> list[tuple[str, str]]:
    return sorted(
        (name, value)
        for name, value in environment.items()
        if name.startswith(ENVIRONMENT_PREFIXES) and name not in ENVIRONMENT_IGNORED
    )


def shared_key(
    root: Path, environment: Mapping[str, str], backend: str, package: Path | None = None
) -> str:
    """The part of every unit's key that is the same for all pages."""
    digest = hashlib.sha256()
    digest.update(f"python {platform.python_version()}\0backend {backend}\0".encode())
    for name, value in environment_items(environment):
        digest.update(f"{name}={value}\0".encode())
    for name in PROJECT_FILES:
        _digest_file(digest, root / name, name)
    package = package or package_dir()
    for path in package_files(package):
        _digest_file(digest, path, path.relative_to(package).as_posix())
    return digest.hexdigest()


def unit_key(
    root: Path, shared: str, language: str, docname: str, dependencies: Iterable[str]
) -> str:
    digest = hashlib.sha256(f"{shared}\0{language}\0{docname}\0".encode())
    _digest_file(digest, page_file(root / "docs", docname), "page")
    for dependency in sorted(set(dependencies)):
        path = Path(dependency)
        # The .mo is compiled from the .po, which is hashed below.
        if path.suffix == ".mo":
            continue
        name = path.relative_to(root).as_posix() if path.is_relative_to(root) else None
        _digest_file(digest, path, name)
    if language != SOURCE_LANGUAGE:
        _digest_file(digest, catalog_dir(root, language) / f"{docname}.po", "po")
    return digest.hexdigest()


class ResultCache:
    """Clean passes of pages, one JSON file per page and language, each with its key."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, language: str, docname: str) -> Path:
        return self.directory / language / f"{docname}.json"

    def get(self, language: str, docname: str, key: str) -> dict[str, Any] | None:
        """The stored result of the page if it was stored under ``key``."""
        try:
            entry = json.loads(self._path(language, docname).read_text(encoding="utf-8"))
            if entry.get("key") != key or not isinstance(entry["result"], dict):
                return None
        except (OSError, ValueError, AttributeError, KeyError, TypeError):
            # Unreadable, cut off or of another shape: no entry, so the page runs again.
            return None
        return entry["result"]

    def put(self, language: str, docname: str, key: str, result: dict[str, Any] | None) -> None:
        """Store a clean pass; ``None`` (the page failed) removes the page's entry."""
        path = self._path(language, docname)
        if result is None:
            path.unlink(missing_ok=True)
            return
        entry = {"key": key, "result": result}
        write_text_atomically(path, json.dumps(entry, ensure_ascii=False))
