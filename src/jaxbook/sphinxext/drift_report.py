"""What the lab found when it ran a chapter on other JAX releases, as the book shows it.

A chapter's drift data is ``<chapter>/release-drift.json`` (a
:class:`jaxbook.formats.DriftData` that ``make release-report`` writes). This extension
adds the ``:drift:`QUERY``` role, the releases a query holds on for the chapter's note
on other releases (:func:`releases_where`); the ``drift-unseen`` directive, the
chapter's examples changed since the data was made; and the ``jaxbook_drift`` domain
that keeps each page's examples. The lab's report
(:mod:`jaxbook_lab.sphinxext.drift_report`) reads the data and names the examples
through :func:`load`, :class:`Place`, :func:`unseen` and :func:`example_name`.

Config values:

``jaxbook_pinned_release``
   The release the book pins, which ``checked`` leaves out (default ``""``: the pin
   in the checkout's ``pyproject.toml``).
"""

from __future__ import annotations

import contextlib
import itertools
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from packaging.version import Version
from sphinx.domains import Domain
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective, SphinxRole

from jaxbook import project
from jaxbook._compat import page_file_of
from jaxbook.formats import FormatError, code_digest, read_checked
from jaxbook.sphinxext import PARALLEL_SAFE, _chapters, facts, notes
from jaxbook.sphinxext._locale import _, add_catalog, join_list, listed, sentence
from jaxbook.sphinxext._nodes import enclosing
from pagerun.pages import doctest_code, doctest_kind, doctest_nodes_of, tested_kind

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

CHAPTER_FILE = "release-drift.json"  # beside a chapter's pages
FAILED = {"exception", "assert", "cannot-run"}


def warn(message: str, *args: Any, location: Any) -> None:
    """A warning of type ``jaxbook``, subtype ``drift_report``."""
    logger.warning(message, *args, location=location, type="jaxbook", subtype="drift_report")


def read(path: Path) -> dict[str, Any] | FormatError | None:
    """The drift data at ``path``, what is wrong with it, or None without a file."""
    return read_checked("drift", path)


def load(env: BuildEnvironment, path: Path) -> dict[str, Any] | FormatError | None:
    """:func:`read`, for the page being read: it shows the file, and is read again when
    the file changes or appears."""
    _domain(env).data["shows"].setdefault(env.docname, {})[str(path)] = path.is_file()
    if path.is_file():
        env.note_dependency(str(path))
    return read(path)


def check_files(app: Sphinx, env: BuildEnvironment) -> None:
    """A drift file that does not fit is one warning at the file, once a build."""
    for file in sorted({file for shown in _domain(env).data["shows"].values() for file in shown}):
        if isinstance(data := read(Path(file)), FormatError):
            warn(data.sentence, location=data.location)


def pages_changed(
    app: Sphinx, env: BuildEnvironment, added: Set[str], changed: Set[str], removed: Set[str]
) -> list[str]:
    """A page that shows drift data is read again when a file it shows appears or goes
    (while the file did not exist it was no dependency of the page), and when a page of its
    chapter comes or goes. A page edited is :func:`unseen_lists_changed`'s."""
    come_or_gone = added | removed
    return [
        doc
        for doc, shown in _domain(env).data["shows"].items()
        if any(_chapters.covers(doc, page) for page in come_or_gone)
        or any(Path(f).is_file() != was for f, was in shown.items())
    ]


def _domain(env: BuildEnvironment) -> DriftDomain:
    domain = env.domains[DriftDomain.name]
    assert isinstance(domain, DriftDomain), "setup() adds the domain under its name"
    return domain


def unseen_lists_changed(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """The pages that list a chapter's unseen examples, written again when a page of their
    chapter was read: the list is made as they are written (:class:`UnseenExamples`)."""
    return _chapters.written_before_their_chapter(app, env, _domain(env).data["unseen"])


# -- the examples on the pages ------------------------------------------------------


class SourceCode(SphinxTransform):
    """Each example's digest in the source language, before a translation replaces its code
    (with the output after it, as ``jaxbook-lab bundle export`` pairs them): the data finds
    an example on the pages by it (:func:`jaxbook.formats.code_digest`)."""

    default_priority = 19  # the Locale transform's is 20

    def apply(self, **kwargs: Any) -> None:
        blocks = doctest_nodes_of(self.document, self.config)
        for block, after in itertools.zip_longest(blocks, blocks[1:]):
            if tested_kind(block) in ("testcode", "doctest"):
                output = after is not None and doctest_kind(after) == "testoutput"
                block["jaxbook_code"] = code_digest(
                    doctest_code(block), doctest_code(after) if output else ""
                )


@dataclass(frozen=True)
class Place:
    """Where an example stands on the pages."""

    docname: str
    line: int | None
    code: str  # its digest in the source language
    anchor: str  # the label right before it, or its section's id
    section: str  # its section's title
    nth: int  # its place among its section's examples, from 1
    of: int


class DriftDomain(Domain):
    """Each page's examples, as ``sphinx.ext.todo``'s domain keeps todos."""

    name = "jaxbook_drift"
    label = "Drift report"
    # places: docname -> its examples; unseen: the pages that list the unseen examples;
    # shows: docname -> each drift file it shows -> whether the file was there (load()).
    initial_data: ClassVar[dict[str, Any]] = {"places": {}, "unseen": {}, "shows": {}}
    data_version = 7

    def clear_doc(self, docname: str) -> None:
        for key in ("places", "unseen", "shows"):
            self.data[key].pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for key in ("places", "unseen", "shows"):
            for docname in docnames & otherdata[key].keys():
                self.data[key][docname] = otherdata[key][docname]

    def process_doc(self, env: BuildEnvironment, docname: str, document: nodes.document) -> None:
        if next(document.findall(drift_placeholder), None) is not None:
            self.data["unseen"][docname] = True
        blocks = [b for b in doctest_nodes_of(document, env.config) if "jaxbook_code" in b]
        sections = [enclosing(block, nodes.section) for block in blocks]
        seen: Counter[int] = Counter()
        places = []
        for block, section in zip(blocks, sections, strict=True):
            seen[id(section)] += 1
            index = block.parent.index(block)
            before = block.parent[index - 1] if index else None
            label = before.get("refid") if isinstance(before, nodes.target) else None
            places.append(
                Place(
                    docname=docname,
                    line=block.line,
                    code=block["jaxbook_code"],
                    anchor=label or (section["ids"][0] if section else ""),
                    section=section[0].astext() if section else "",
                    nth=seen[id(section)],
                    of=sections.count(section),
                )
            )
        if places:
            self.data["places"][docname] = places


def chapter_places(env: BuildEnvironment, chapter: str) -> list[Place]:
    """The examples of the pages in ``chapter`` (a directory of the source) and below, in
    reading order."""
    rank = {doc: i for i, doc in enumerate(_chapters.reading_order(env))}
    return sorted(
        (
            place
            for docname, found in env.domaindata[DriftDomain.name]["places"].items()
            if not chapter or docname.startswith(chapter + "/")
            for place in found
        ),
        key=lambda p: (rank.get(p.docname, len(rank)), p.line or 0),
    )


def unseen(data: dict[str, Any], places: list[Place]) -> list[Place]:
    """The examples on the pages that some release of the data did not run as they are."""
    ran = [
        Counter((e["page"], e["code"]) for e in r["examples"]) for r in data["releases"].values()
    ]
    seen: Counter[tuple[str, str]] = Counter()
    out = []
    for place in places:
        seen[place.docname, place.code] += 1
        if any(
            counts[place.docname, place.code] < seen[place.docname, place.code] for counts in ran
        ):
            out.append(place)
    return out


# -- the note: releases from the data ------------------------------------------------


# A query that names an outcome, and the outcome it names; TEXT is in the run's detail.
OUTCOME_QUERIES = {"cannot-run": "cannot-run", "raises": "exception", "fails": "assert"}


def releases_where(data: dict[str, Any], query: str, pinned: str) -> list[str] | None:
    """The releases of the data that ``query`` holds on; None for a query of no known kind.

    ``checked``             every release of the data but the one the book pins;
    ``runs``                those on which every example ran without an error
                            (an exception, a failed assert, or an API it lacks);
    ``cannot-run TEXT``     those on which an example could not run, its error naming TEXT;
    ``raises TEXT``         those on which an example raised an unexpected exception, its
                            message naming TEXT;
    ``fails TEXT``          those on which an example's assert naming TEXT failed;
    ``prints TEXT``         those on which an example printed a line with TEXT where the
                            page shows another;
    ``lowest QUERY``        the lowest release from which on QUERY holds on every release.
    """
    lowest = query.startswith("lowest ")
    kind, _sep, text = query.removeprefix("lowest ").strip().partition(" ")

    def holds(release: str) -> bool:
        runs = [run for e in data["releases"][release]["examples"] for run in e["runs"]]
        if kind == "checked":
            return release != pinned
        if kind == "runs":
            return all(run["outcome"] not in FAILED for run in runs)
        if kind in OUTCOME_QUERIES:
            outcome = OUTCOME_QUERIES[kind]
            return any(r["outcome"] == outcome and text in r.get("detail", "") for r in runs)
        lines = [
            line
            for r in runs
            if r["outcome"] == "output"
            for line in r.get("detail", "").split("\n")
        ]
        return any(line[:1] == "+" and text in line for line in lines)

    if kind not in ("checked", "runs", "prints", *OUTCOME_QUERIES) or (
        text and kind in ("checked", "runs")
    ):
        return None
    releases = sorted(data["releases"], key=Version)
    if lowest:
        return list(itertools.takewhile(holds, reversed(releases)))[-1:]
    return [release for release in releases if holds(release)]


class DriftRole(SphinxRole):
    """``:drift:`QUERY```: the releases of the chapter's drift data that QUERY holds on
    (:func:`releases_where`), as a list in the build's language; a query that holds on no
    release is a warning at the role."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        # Beside the page's file; also where a translation or the parallel text is parsed
        # (in a document of its own, named after the page's file: page_file_of).
        source, _line = self.get_source_info()
        page_file = page_file_of(str(source)) if source else self.env.doc2path(self.env.docname)
        data = load(self.env, Path(page_file).parent / CHAPTER_FILE)
        found = None
        if isinstance(data, dict):
            found = releases_where(data, self.text, self.config.jaxbook_pinned_release)
        if found:
            # The parallel text parses the other language's message with its own language.
            language = getattr(self.inliner.document.settings, "jaxbook_language", None)
            said = join_list(found, language or self.config.language)
            return [nodes.inline(self.rawtext, said, classes=["jb-drift-releases"])], []
        if data is None:
            warn(
                "drift: the chapter has no drift data (%s)",
                CHAPTER_FILE,
                location=self.get_location(),
            )
        elif found is None and not isinstance(data, FormatError):  # that is said at the file
            warn("drift: unknown query %r", self.text, location=self.get_location())
        elif found == []:
            warn(
                "drift: %r holds on no release of %s",
                self.text,
                CHAPTER_FILE,
                location=self.get_location(),
            )
        return [nodes.literal(self.rawtext, self.text)], []


class drift_placeholder(nodes.General, nodes.Element):
    """Replaced, once every page is read, by the examples that the data of ``file`` has not
    seen."""


class DriftUnseenDirective(SphinxDirective):
    """``.. drift-unseen::``: the chapter's examples that changed since its drift data was
    made, with links; nothing while there are none. Data older than the pages is said
    here, never a warning."""

    def run(self) -> list[nodes.Node]:
        path = Path(self.env.doc2path(self.env.docname)).parent / CHAPTER_FILE
        load(self.env, path)
        return [drift_placeholder(file=str(path))]


# -- writing ----------------------------------------------------------------------------


# A page's number at the start of its numbered title ("1.2 Random numbers"): the lab's
# report has the title alone, from the places the book's build published.
SECTION_NUMBER = re.compile(r"^\s*(\d+(?:\.\d+)+)")


def example_name(place: Place, title: str) -> str:
    """An example named by its section, as the update-notes table names one ("1.2 Random
    numbers, example 2 of 3"); ``title`` is its page's, numbered."""
    match = SECTION_NUMBER.match(title)
    page = match.group(1) if match else title
    if place.section == title:
        named = place.section
    elif match:
        # Translators: An example named by where it is: the section's number and its title
        # ("1.2 Random numbers").
        named = _("%(page)s %(section)s") % {"page": page, "section": place.section}
    else:
        # Translators: An example named by where it is: a section's title, then its page's
        # number or title ("Random numbers (1.2)").
        named = _("%(section)s (%(page)s)") % {"page": page, "section": place.section}
    if place.of > 1:
        # Translators: One of several examples of a section: "1.2 Random numbers, example 2 of
        # 3".
        named = _("%(example)s, example %(nth)d of %(of)d") % {
            "example": named,
            "nth": place.nth,
            "of": place.of,
        }
    return named


def said_unseen(
    said: str,
    data: dict[str, Any],
    places: list[Place],
    caption: Callable[[Place], nodes.Node],
    language: str,
) -> list[nodes.Node]:
    """The examples of ``places`` that the data has not seen, each its ``caption`` (a link),
    named in ``said``, a sentence with ``%(examples)s``; nothing while there are none."""
    changed = unseen(data, places)
    if not changed:
        return []
    examples = listed([caption(place) for place in changed], language)
    return [
        nodes.paragraph("", "", *sentence(said, examples=examples), classes=["jb-drift-unseen"])
    ]


class UnseenExamples(SphinxPostTransform):
    """Each ``drift-unseen`` placeholder as the examples its data has not seen, each linked
    (a link of the notes' domain, resolved with the references after this)."""

    default_priority = 5
    builders = ("gettext",)  # the catalogs never wait on the lab

    def apply(self, **kwargs: Any) -> None:
        env, gettext = self.env, self.is_supported()
        for node in list(self.document.findall(drift_placeholder)):
            path = Path(node["file"])
            data = read(path)
            if gettext or not isinstance(data, dict):
                # Without data, or with a file that does not fit (a warning said why), nothing.
                node.replace_self([])
                continue
            chapter = path.parent.relative_to(env.srcdir).as_posix().removeprefix(".")

            def caption(place: Place) -> nodes.Node:
                title = _chapters.numbered_title(env, place.docname)
                named = nodes.Text(example_name(place, title))
                return notes.place(place.docname, place.anchor, named)

            said = _(
                "These examples have changed since the chapter last ran on other releases, "
                "and what this page says has not been checked against them yet: %(examples)s."
            )
            node.replace_self(
                said_unseen(said, data, chapter_places(env, chapter), caption, self.config.language)
            )


def pinned_release(app: Sphinx, config: Config) -> None:
    """The release the book pins in its checkout's ``pyproject.toml`` (``jaxbook_repo_root``,
    :mod:`jaxbook.sphinxext.facts`'), unless set (a book without a pin has every release of
    its data as another one)."""
    with contextlib.suppress(OSError, KeyError, ValueError):
        if not config.jaxbook_pinned_release:
            config.jaxbook_pinned_release = project.pinned_release(Path(config.jaxbook_repo_root))


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    # The examples are the doctest builder's nodes, as its settings find them.
    app.setup_extension("sphinx.ext.doctest")
    app.setup_extension(notes.__name__)
    # The checkout whose pyproject.toml pins the release (jaxbook_repo_root).
    app.setup_extension(facts.__name__)
    app.add_config_value("jaxbook_pinned_release", "", "env", types=frozenset({str}))
    app.connect("config-inited", pinned_release)
    app.add_node(drift_placeholder)
    app.add_domain(DriftDomain)
    app.add_transform(SourceCode)
    app.add_role("drift", DriftRole())
    app.add_directive("drift-unseen", DriftUnseenDirective)
    app.connect("env-get-outdated", pages_changed)
    app.connect("env-get-updated", unseen_lists_changed)
    app.connect("env-check-consistency", check_files)
    app.add_post_transform(UnseenExamples)
    return {"version": "3.0", "env_version": DriftDomain.data_version, **PARALLEL_SAFE}
