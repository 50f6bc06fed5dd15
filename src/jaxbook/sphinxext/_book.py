"""The reader's book as a page of another project sees it: the guides' lab report.

The guides (``guides/``, :mod:`jaxbook.sphinxext.guides`) are a Sphinx project
of their own, built after the book. The lab's report among them shows what
the book's pages hold (each example's place, each update note), which only
the book's build has read: :func:`of` gives the build environment that the
report reads, the build's own in the book, and in the guides the one the
book's build of the same language pickled (``jaxbook_book_doctrees``), with
its sources (``jaxbook_book_srcdir``). :func:`uri` is where a page of the
book is from a page of the guides: on the book's site
(``jaxbook_book_site``), whose inventory sends the guides' ``:doc:`` links
there too (intersphinx).
"""

from __future__ import annotations

import functools
import pickle
import posixpath
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.builders import Builder
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment

PICKLE = "environment.pickle"


def _apart(config: Config) -> str:
    """The book's sources, relative to this project's, in a project apart from the book
    (the guides' extension sets it); "" in the book."""
    return getattr(config, "jaxbook_book_srcdir", "")


def srcdir(env: BuildEnvironment) -> Path:
    """The book's source directory."""
    book = _apart(env.config)
    return Path(env.srcdir, book).resolve() if book else Path(env.srcdir)


def environment_file(env: BuildEnvironment) -> Path | None:
    """The book's pickled environment, in a project apart from the book (else None)."""
    if not _apart(env.config):
        return None
    return Path(env.srcdir, env.config.jaxbook_book_doctrees, PICKLE).resolve()


@functools.lru_cache(maxsize=4)
def _load(path: Path, stamp: float) -> Any:
    with path.open("rb") as file:
        return pickle.load(file)  # the book's own build wrote it


def depend(env: BuildEnvironment) -> None:
    """The page being read shows the book's pages: in the guides, it is read again when the
    book's build has read them again."""
    path = environment_file(env)
    if path is not None and path.is_file():
        env.note_dependency(str(path))


def of(env: BuildEnvironment) -> Any:
    """The environment that holds the book's pages: ``env`` itself in the book; in the
    guides, the one the book's build pickled, its pages read already."""
    path = environment_file(env)
    if path is None:
        return env
    if not path.is_file():
        raise FileNotFoundError(f"{path}: the book is not built in this language (make html)")
    return _load(path, path.stat().st_mtime)


def uri(builder: Builder, fromdoc: str, todoc: str) -> str | None:
    """Where the book's page ``todoc`` is from ``fromdoc``, a page of the guides (on the
    book's site); None where ``todoc`` is a page of this build."""
    if todoc in builder.env.all_docs or not _apart(builder.config):
        return None
    site = builder.config.jaxbook_book_site.rstrip("/")
    if "://" not in site:
        up = posixpath.relpath(".", posixpath.dirname(fromdoc) or ".")
        site = posixpath.normpath(posixpath.join(up, site))
    return f"{site}/{todoc}{getattr(builder, 'link_suffix', '.html')}"
