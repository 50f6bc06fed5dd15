"""The book's Sphinx application as the tools start it in their own process, and what they read.

``make doctest`` and ``refresh`` (:mod:`jaxbook.doctest.runner`), the tools that read every
page once (``bundle export``, the bench's floor) and the live preview
(:mod:`jaxbook.site.live`) all start Sphinx here, with no catalog left from an earlier
application. Of jaxbook, the module imports only ``jaxbook._compat``, so that everything
that runs Sphinx may import it without importing one another.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, Any

from sphinx.application import Sphinx
from sphinx.util.i18n import docname_to_domain

from jaxbook._compat import forget_gettext_files, forget_sphinx_catalogs


def application(
    srcdir: Path,
    confdir: Path | str,
    outdir: Path,
    doctreedir: Path,
    builder: str,
    language: str,
    *,
    status: IO[str] | None,
    warning: IO[str],
    confoverrides: Mapping[str, Any] | Iterable[tuple[str, Any]] = (),
    tags: Iterable[str] = (),
    freshenv: bool = False,
) -> Sphinx:
    """The book's Sphinx application in ``language``, as every tool starts it.

    It starts with none of the catalogs an earlier application of this process
    loaded: Sphinx keeps them per process and only adds a new language's as a
    fallback, so a Chinese reading after an English one would come out in English,
    and gettext keeps each file it read, so a recompiled one would not be read.
    """
    forget_catalogs()
    return Sphinx(
        srcdir,
        confdir,
        outdir,
        doctreedir,
        builder,
        confoverrides={**dict(confoverrides), "language": language},
        status=status,
        warning=warning,
        tags=tuple(tags),
        freshenv=freshenv,
    )


def forget_catalogs() -> None:
    """Drop every catalog this process loaded, as a new process would start."""
    forget_sphinx_catalogs()
    forget_gettext_files()


def read_pages(
    srcdir: Path,
    confdir: Path,
    language: str,
    tmp: Path,
    confoverrides: Mapping[str, Any] | None = None,
) -> Sphinx:
    """Read every page in ``language`` (translations applied, snippets staged) with the
    ``dummy`` builder into the scratch directory ``tmp``, so that the doctrees can be
    walked."""
    app = application(
        srcdir,
        confdir,
        tmp / "out",
        tmp / "doctrees",
        "dummy",
        language,
        status=None,
        warning=sys.stderr,
        confoverrides=confoverrides or {},
    )
    app.build()
    return app


def forget_page_catalogs(app: Sphinx) -> None:
    """Drop the loaded catalogs of ``app``'s pages, so that a recompiled .mo is read again.

    gettext caches every catalog it has loaded (Python's
    ``gettext._translations``, and Sphinx's ``sphinx.locale.translators``,
    which would keep the old one as the primary catalog and the new one as a
    mere fallback). Sphinx's own messages and the extensions' catalogs (such as
    ``jaxbook``'s labels, which the update-notes table translates when it is
    resolved) stay loaded.
    """
    # Sphinx keeps its catalogs for the process (sphinx-doc/sphinx#12130, #13448), and
    # gettext its files by path: neither has a public way to read a catalog again.
    forget_gettext_files()
    pages = {docname_to_domain(docname, app.config.gettext_compact) for docname in app.env.all_docs}
    forget_sphinx_catalogs(lambda namespace, catalog: namespace == "general" and catalog in pages)


class LiveApplication:
    """The book's application in one language, kept alive to build what changed again and again.

    Each build drops the page catalogs first (``forget_page_catalogs``), so that a saved
    ``.po`` shows, and returns its own warnings; ``read`` is the pages it read (and so,
    with the doctest extension, ran). The live preview keeps one, and so does the warm
    ``make doctest``.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """:func:`application`'s arguments, less ``warning``: the application's warnings
        are kept here, and each build returns its own."""
        self.warnings = io.StringIO()
        self.app = application(*args, warning=self.warnings, **kwargs)
        self.read: list[str] = []
        self._reported = 0
        self.app.connect("env-before-read-docs", self._reading)

    def build(self) -> str:
        """Build what changed since the last build; return the warnings of this build (the
        first's with those of starting the application)."""
        self.read = []
        forget_page_catalogs(self.app)
        self.app.build()
        self.warnings.seek(self._reported)
        warnings = self.warnings.read()
        self._reported = self.warnings.tell()
        return warnings

    def _reading(self, app: Sphinx, env: object, docnames: list[str]) -> None:
        self.read = list(docnames)
