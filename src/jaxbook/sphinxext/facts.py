"""Roles that name the book's facts and its course from the one place each is kept.

Adds two roles, which a translation keeps as they are. ``:fact:`jax``` shows a fact
about the book's runs (:class:`FactRole`): the pinned JAX release, the Python the book
is built with, and where and when each backend's outputs were recorded.
``:course:`《JAX 入门》 <chapter-1-introduction-to-jax>``` links to the course the book
is drawn from, in the page's language where the course has an edition
(:class:`CourseRole`).

Config values:

- ``jaxbook_course_url`` (``{}``): the course's address per language; a language with
  none uses the source language's.
- ``jaxbook_repo_root`` (``""``: ``conf.py``'s directory): the book's checkout, relative
  to ``conf.py``'s directory (the guides give ``".."``), made absolute on
  ``config-inited``; other extensions read the checkout's files from it too.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util.docutils import ReferenceRole, SphinxRole

from jaxbook import project
from jaxbook.backends import chip
from jaxbook.chinese import HAN, spaced
from jaxbook.sphinxext import PARALLEL_SAFE, backend_tabs

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata


def facts(config: Config, root: Path, language: str | None = None) -> dict[str, str]:
    """Every fact the role knows, in ``language`` (by default the one ``config`` builds)."""
    from babel.dates import format_date

    known = {
        "jax": project.pinned_release(root),
        "python": project.python_version(root),
    }
    for backend, recorded in config.jaxbook_recorded_on.items():
        for key, value in recorded.items():
            if key == "date":
                day = datetime.date.fromisoformat(value)
                value = spaced(format_date(day, "long", locale=language or config.language))
            if isinstance(value, str):
                known[f"{backend}-{key}"] = value
        if "device" in recorded:
            known[f"{backend}-chip"] = chip(recorded["device"])
    return known


class FactRole(SphinxRole):
    """``:fact:`name```: a fact of :func:`facts`, marked as one; an unknown name is an error
    that lists the known ones.

    The facts: ``jax``, the JAX release the checkout's ``pyproject.toml`` pins;
    ``python``, the checkout's ``.python-version``; ``<backend>-<fact>`` (``gpu-device``,
    ``tpu-python``, ...), where that backend's outputs were recorded
    (``jaxbook_recorded_on``, :mod:`jaxbook.sphinxext.backend_tabs`'s);
    ``<backend>-date``, the day of that recording as the page's language writes a date; and
    ``<backend>-chip``, the device by its product's name (``TPU v5e`` where JAX reports
    ``TPU v5 lite``).
    """

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        root = Path(self.config.jaxbook_repo_root)
        # The parallel text parses the other language's message with its own language.
        language = getattr(self.inliner.document.settings, "jaxbook_language", None)
        known = facts(self.config, root, language)
        # A new pin or interpreter rewrites the pages that name it.
        for name in ("pyproject.toml", ".python-version"):
            self.env.note_dependency(str(root / name))
        if self.text not in known:
            message = self.inliner.reporter.error(
                f"no fact {self.text!r}; the facts are: {', '.join(sorted(known))}",
                line=self.lineno,
            )
            return [self.inliner.problematic(self.rawtext, self.rawtext, message)], [message]
        # Marked, so that a check can tell a named fact from a typed copy of it.
        return [nodes.inline(known[self.text], known[self.text], classes=["jb-fact"])], []


def course_url(config: Config) -> str:
    """The course's address in the build's language, or the source language's ("" if none)."""
    urls = config.jaxbook_course_url
    return (urls.get(config.language) or urls.get(project.SOURCE_LANGUAGE) or "").rstrip("/")


class CourseRole(ReferenceRole):
    """``:course:`text <path>```: a link to ``path`` under the course's address in the
    build's language (:func:`course_url`), so a translation keeps the target and
    translates the text."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        base = course_url(self.config)
        if not base:
            message = self.inliner.reporter.error(
                "course: no jaxbook_course_url for this language", line=self.lineno
            )
            return [self.inliner.problematic(self.rawtext, self.rawtext, message)], [message]
        path = self.target if self.has_explicit_title else ""
        url = base + (f"/{path.strip('/')}" if path else "")
        # A course is a work: its title in italics, as a book's is (US style). Chinese sets
        # no text in italics (clreq): its marks set a title apart (《JAX 入门》), and a part
        # of the course (第 1 章) stays upright.
        title: nodes.Node = nodes.Text(self.title)
        if not HAN.search(self.title):
            title = nodes.emphasis(self.title, self.title)
        return [nodes.reference(self.rawtext, "", title, refuri=url)], []


def resolve_repo_root(app: Sphinx, config: Config) -> None:
    """The checkout, found from conf.py's directory where the application is: the roles and
    post-transforms that read it cannot reach it."""
    config.jaxbook_repo_root = str(Path(app.confdir, config.jaxbook_repo_root).resolve())


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension(backend_tabs.__name__)
    app.add_config_value("jaxbook_course_url", {}, "env", types=frozenset({dict}))
    app.add_config_value("jaxbook_repo_root", "", "env", types=frozenset({str}))
    # Before every handler that reads it (drift_report's pinned release among them).
    app.connect("config-inited", resolve_repo_root, priority=100)
    app.add_role("fact", FactRole())
    app.add_role("course", CourseRole())
    return {"version": "1.0", **PARALLEL_SAFE}
