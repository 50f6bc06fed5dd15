"""What the lab found when it ran a chapter on other JAX releases, as the book shows it.

A chapter's drift data, ``<chapter>/release-drift.json`` (a
:class:`jaxbook.formats.DriftData` that ``make release-report`` writes), is
shown in two places:

- **The chapter's note on other releases,** which its author writes. Each
  release it names comes from the data: ``:drift:`QUERY``` gives the releases
  that QUERY holds on, as a list in the build's language:

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

  A query that holds on no release is a warning at the role.
  ``.. drift-unseen::`` names the chapter's examples that changed since the
  data was made, with links, and shows nothing while there are none.
- **The lab's report on the web,** ``.. drift-report:: ch01/release-drift.json``
  (relative to the page): what ran where and when, with how many examples did
  what; the examples the data has not seen yet; a table of the examples that
  differ on some release; and every difference, folded per release. Before
  ``make release-report`` has run the chapter it says so; a path that cannot be
  a chapter's data (another file name, or a directory that holds no page) is a
  warning at the directive instead, which would otherwise read as a chapter
  not run yet.

An example of the data is found on the pages by its code in the book's
source language (:func:`jaxbook.formats.code_digest`), which :class:`SourceCode`
takes before a translation replaces the code. Data older than the pages is
said where it is shown, never a warning. A file of another format or shape is
one warning at the file. The warnings are of type ``jaxbook`` and subtype
``drift_report``.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import itertools
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from babel.dates import format_date
from docutils import nodes
from packaging.version import Version
from sphinx.domains import Domain
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective, SphinxRole

from jaxbook import project
from jaxbook.chinese import spaced
from jaxbook.formats import OUTCOMES, FormatError, code_digest, read_drift
from jaxbook.sphinxapp import doctest_nodes_of
from jaxbook.sphinxext import PARALLEL_SAFE, _book, _chapters, notes
from jaxbook.sphinxext._locale import N_, _, add_catalog, join_list, listed, ngettext, sentence
from jaxbook.sphinxext._nodes import enclosing

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

CHAPTER_FILE = "release-drift.json"  # beside a chapter's pages
SHOWS = "jaxbook_drift_files"  # in a page's metadata: each drift file it shows -> did it exist
VARIES = "varies"
FAILED = {"exception", "assert", "cannot-run"}
COUNTED = {
    # Translators: How many of a chapter's examples did what (%d is the count), listed in one
    # sentence of the "other releases" report: "On JAX 0.4.38, of the 12 examples of this
    # chapter, 10 print the same and 2 print something else."
    "same": N_("%d prints the same", "%d print the same"),
    # Translators: A count of examples in the "other releases" report, as "%d prints the same".
    "output": N_("%d prints something else", "%d print something else"),
    # Translators: A count of examples in the "other releases" report, as "%d prints the same".
    "warns": N_("%d emits a warning", "%d emit a warning"),
    # Translators: A count of examples in the "other releases" report, as "%d prints the same".
    "exception": N_("%d raises an unexpected exception", "%d raise an unexpected exception"),
    # Translators: A count of examples in the "other releases" report, as "%d prints the same".
    "assert": N_("%d fails an assert", "%d fail an assert"),
    # Translators: A count of examples in the "other releases" report, as "%d prints the same".
    "cannot-run": N_("%d cannot run", "%d cannot run"),
    # Translators: A count of examples in the "other releases" report, as "%d prints the same".
    "skipped": N_("%d is skipped", "%d are skipped"),
    # Translators: A count of examples in the "other releases" report, as "%d prints the same".
    VARIES: N_("%d varies between runs", "%d vary between runs"),
}


def short_names() -> dict[str, str]:
    """Each outcome as the table's cells say it."""
    return {
        # Translators: What one example did on another JAX release, in a cell of the "other
        # releases" report's table and after "1.2 Arrays — " in its list of differences.
        "same": _("prints what the book shows"),
        # Translators: What one example did on another release, as "prints what the book shows".
        "output": _("prints something else"),
        # Translators: What one example did on another release, as "prints what the book shows".
        "warns": _("a warning"),
        # Translators: What one example did on another release, as "prints what the book shows".
        "exception": _("an unexpected exception"),
        # Translators: What one example did on another release, as "prints what the book shows".
        "assert": _("an assert fails"),
        # Translators: What one example did on another release, as "prints what the book shows".
        "cannot-run": _("cannot run"),
        # Translators: What one example did on another release, as "prints what the book shows".
        "skipped": _("skipped"),
        # Translators: What one example did on another release, as "prints what the book shows".
        VARIES: _("varies between runs"),
    }


def warn(message: str, *args: Any, location: Any) -> None:
    logger.warning(message, *args, location=location, type="jaxbook", subtype="drift_report")


@functools.lru_cache(maxsize=8)
def _read(path: Path, stamp: float) -> dict[str, Any] | FormatError:
    try:
        return dict(read_drift(path))
    except FormatError as error:
        return error


def read(path: Path) -> dict[str, Any] | FormatError | None:
    """The drift data at ``path``, what is wrong with it, or None without a file."""
    return _read(path, path.stat().st_mtime) if path.is_file() else None


def load(env: BuildEnvironment, path: Path) -> dict[str, Any] | FormatError | None:
    """:func:`read`, for the page being read: it shows the file, and is read again when
    the file changes or appears."""
    if env.docname:  # not a passage parsed while pages are written (the parallel text)
        env.metadata[env.docname].setdefault(SHOWS, {})[str(path)] = path.is_file()
        if path.is_file():
            env.note_dependency(str(path))
    return read(path)


def check_files(app: Sphinx, env: BuildEnvironment) -> None:
    """A drift file that does not fit is one warning at the file, once a build."""
    for file in sorted({file for meta in env.metadata.values() for file in meta.get(SHOWS, {})}):
        if isinstance(data := read(Path(file)), FormatError):
            warn(data.sentence, location=data.location)


def pages_changed(
    app: Sphinx, env: BuildEnvironment, added: Set[str], changed: Set[str], removed: Set[str]
) -> list[str]:
    """The pages that show drift data are read again when a page changes (what the data has
    seen, and the examples' links, may have), or when a file they show appears."""
    return [
        doc
        for doc, meta in env.metadata.items()
        if SHOWS in meta
        and (
            added | changed | removed
            or any(Path(f).is_file() != was for f, was in meta[SHOWS].items())
        )
    ]


# -- the examples on the pages ------------------------------------------------------


def _code(node: nodes.Element) -> str:
    return node["test"] if "test" in node else node.astext()


class SourceCode(SphinxTransform):
    """Each example's digest in the source language, before a translation replaces its code
    (with the output after it, as ``jaxbook-lab bundle export`` pairs them)."""

    default_priority = 19  # the Locale transform's is 20

    def apply(self, **kwargs: Any) -> None:
        blocks = doctest_nodes_of(self.document, self.config)
        for block, after in itertools.zip_longest(blocks, blocks[1:]):
            if block.get("testnodetype", "doctest") in ("testcode", "doctest"):
                output = after is not None and after.get("testnodetype") == "testoutput"
                block["jaxbook_code"] = code_digest(_code(block), _code(after) if output else "")


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
    initial_data: ClassVar[dict[str, Any]] = {"places": {}}
    data_version = 5

    def clear_doc(self, docname: str) -> None:
        self.data["places"].pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for docname in docnames & otherdata["places"].keys():
            self.data["places"][docname] = otherdata["places"][docname]

    def process_doc(self, env: BuildEnvironment, docname: str, document: nodes.document) -> None:
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
    reading order; ``env`` is the book's (:func:`jaxbook.sphinxext._book.of`)."""
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
    """The releases of the data that ``query`` holds on (see the module's description);
    None for a query of no known kind."""
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
    """``:drift:`QUERY```: the releases of the chapter's drift data that QUERY holds on."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        # Beside the page's file; also where a translation or the parallel text is parsed
        # (its document is named "<page file>:<line>:<translated>").
        source, _line = self.get_source_info()
        data = load(
            self.env, Path(source or self.env.doc2path(self.env.docname)).parent / CHAPTER_FILE
        )
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
    """Replaced, once every page is read, by the examples the data has not seen
    (``kind="unseen"``) or by the lab's report (``kind="report"``) of ``file``."""


class drift_fold(nodes.General, nodes.Element):
    """Content folded on the web under ``node['label']``."""


class DriftUnseenDirective(SphinxDirective):
    def run(self) -> list[nodes.Node]:
        path = Path(self.env.doc2path(self.env.docname)).parent / CHAPTER_FILE
        load(self.env, path)
        return [drift_placeholder(kind="unseen", file=str(path))]


class DriftReportDirective(SphinxDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        # Relative to the page, as if it stood among the book's pages (the lab's report
        # in the guides, a project of its own, shows the book's chapters).
        book = _book.srcdir(self.env)
        path = book / Path(self.env.relfn2path(self.arguments[0])[1]).relative_to(self.env.srcdir)
        if problem := self.not_a_chapters_data(path):
            # Shown, it would say that no release has run the chapter: a wrong path would
            # read as a chapter not run yet.
            warn(
                "drift-report: %s %s; the path is relative to this page: %s on a chapter's "
                "own page, <chapter>/%s on a page above the chapters (guides/lab.rst)",
                self.arguments[0],
                problem,
                CHAPTER_FILE,
                CHAPTER_FILE,
                location=self.get_location(),
            )
            return []
        load(self.env, path)
        _book.depend(self.env)
        return [drift_placeholder(kind="report", file=str(path))]

    def not_a_chapters_data(self, path: Path) -> str | None:
        """Why ``path`` cannot be a chapter's drift data, which may not exist yet: it is
        ``release-drift.json`` in a directory of the chapter's pages."""
        if path.name != CHAPTER_FILE:
            return f"is not a chapter's {CHAPTER_FILE}"
        srcdir = _book.srcdir(self.env)
        if path.parent == srcdir or not path.parent.is_relative_to(srcdir):
            return "is in no chapter's directory"
        chapter = path.parent.relative_to(srcdir).as_posix()
        if not any(next((srcdir / chapter).rglob(f"*{s}"), None) for s in project.SOURCE_SUFFIX):
            return f"is in {chapter}/, which holds no page"
        return None


# -- writing ----------------------------------------------------------------------------


def resolve(app: Sphinx, doctree: nodes.document, fromdoc: str) -> None:
    for node in list(doctree.findall(drift_placeholder)):
        path = Path(node["file"])
        data = read(path)
        if app.builder.name == "gettext" or isinstance(data, FormatError):
            node.replace_self([])  # the catalogs never wait on the lab; a warning said why
            continue
        chapter = path.parent.relative_to(_book.srcdir(app.env)).as_posix().removeprefix(".")
        places = chapter_places(_book.of(app.env), chapter)
        shown = Shown(app, fromdoc)
        if node["kind"] == "unseen":
            node.replace_self(shown.unseen(data, places, in_the_book=True) if data else [])
        elif data and data["releases"]:
            node.replace_self(shown.report(data, places))
        else:
            none = _("No other JAX release has run this chapter's examples yet.")
            node.replace_self(nodes.paragraph("", none, classes=["jb-drift-none"]))


class Shown:
    """What one page shows of a chapter's data, in the build's language."""

    def __init__(self, app: Sphinx, fromdoc: str) -> None:
        # The book's environment: its pages' titles (in the guides too).
        self.app, self.env, self.fromdoc = app, _book.of(app.env), fromdoc
        self.language = app.config.language

    def caption(self, place: Place) -> nodes.Node:
        """An example named by its section, as the update-notes table names one, linked."""
        page = notes.section_label(self.env, place.docname)
        if place.section == self.env.titles[place.docname].astext():
            named = place.section
        elif notes.SECTION_NUMBER.match(page + " "):
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
        builder = self.app.builder
        return notes.link(builder, self.fromdoc, place.docname, place.anchor, nodes.Text(named))

    def unseen(self, data: dict, places: list[Place], *, in_the_book: bool) -> list[nodes.Node]:
        changed = unseen(data, places)
        if not changed:
            return []
        said = (
            _(
                "These examples have changed since the chapter last ran on other releases, "
                "and what this page says has not been checked against them yet: %(examples)s."
            )
            if in_the_book
            else _(
                "The data has not seen these examples yet: they have changed since the last "
                "``make release-report``, which runs them again: %(examples)s."
            )
        )
        examples = listed([self.caption(place) for place in changed], self.language)
        return [
            nodes.paragraph("", "", *sentence(said, examples=examples), classes=["jb-drift-unseen"])
        ]

    def report(self, data: dict[str, Any], places: list[Place]) -> list[nodes.Node]:
        releases = sorted(data["releases"], key=Version)
        # Each example of the pages with its outcome on each release that ran it as it is;
        # the runs of an example's older form are left out (the unseen list names it).
        left = {release: list(data["releases"][release]["examples"]) for release in releases}
        rows: list[tuple[Place, dict[str, dict[str, Any]]]] = []
        for place in places:
            found = {}
            for release in releases:
                key = (place.docname, place.code)
                example = next((e for e in left[release] if (e["page"], e["code"]) == key), None)
                if example is not None:
                    left[release].remove(example)
                    found[release] = example
            rows.append((place, found))
        out: list[nodes.Node] = [self.runs(data, releases, rows)]
        out += self.unseen(data, places, in_the_book=False)
        rows = [(p, f) for p, f in rows if any(outcome_of(e) != "same" for e in f.values())]
        differing = [
            r for r in releases if any(r in f and outcome_of(f[r]) != "same" for _p, f in rows)
        ]
        if differing:
            out.append(self.table(differing, rows))
            legend = _(
                "In the differences below, a line that begins with “-” is what the book "
                "shows, run on %(release)s, and a line that begins with “+” is what the "
                "other release printed instead."
            ) % {"release": f"JAX {self.app.config.jaxbook_pinned_release}"}
            out.append(nodes.paragraph("", legend, classes=["jb-drift-legend"]))
            out += [self.differences(release, rows) for release in differing]
        for node in out:
            for text in node.findall(nodes.TextElement):
                text["translatable"] = False
        return out

    def runs(self, data: dict[str, Any], releases: list[str], rows: list) -> nodes.Node:
        """What ran where and when, and how many examples did what."""
        items = nodes.bullet_list(classes=["jb-drift-runs"])
        for release in releases:
            entry = data["releases"][release]
            counts = Counter(outcome_of(f[release]) for _p, f in rows if release in f)
            total = sum(counts.values())
            clauses = [ngettext(*COUNTED[k], counts[k]) % counts[k] for k in COUNTED if counts[k]]
            said = ngettext(
                "On JAX %(release)s, of the %(total)d example of this chapter, %(outcomes)s.",
                "On JAX %(release)s, of the %(total)d examples of this chapter, %(outcomes)s.",
                total,
            ) % {"release": release, "total": total, "outcomes": join_list(clauses, self.language)}
            where = _("Run on %(date)s on the %(device)s, with %(environment)s.") % {
                "date": spaced(
                    format_date(
                        datetime.date.fromisoformat(entry["date"]), "long", locale=self.language
                    )
                ),
                "device": entry["device"].upper() if entry["device"].islower() else entry["device"],
                "environment": join_list(environment_names(entry["environment"]), self.language),
            }
            # Translators: Two sentences of the "other releases" report, one after the other (a
            # language without spaces between sentences drops the space).
            both = _("%(sentence)s %(next)s") % {"sentence": said, "next": where}
            items += nodes.list_item("", nodes.paragraph("", both))
        return items

    def table(self, differing: list[str], rows: list) -> nodes.Node:
        names = short_names()
        # Translators: The header of the first column of the "other releases" report's table, which
        # names each example; the other columns are "JAX 0.4.38".
        headers = [_("Example"), *(f"JAX {release}" for release in differing)]
        body = nodes.tbody()
        for index, (place, found) in enumerate(rows):
            cells = [nodes.paragraph("", "", self.caption(place))]
            for release in differing:
                outcome = outcome_of(found[release]) if release in found else "same"
                shown: nodes.Node = nodes.Text(names[outcome] if outcome != "same" else "—")
                if outcome != "same":
                    shown = nodes.reference(
                        "", "", shown, internal=True, refid=self.anchor(release, index)
                    )
                cells.append(nodes.paragraph("", "", shown))
            body += nodes.row("", *(nodes.entry("", cell) for cell in cells))
        head = nodes.thead(
            "", nodes.row("", *(nodes.entry("", nodes.paragraph("", h)) for h in headers))
        )
        group = nodes.tgroup(
            "", *(nodes.colspec(colwidth=1) for _h in headers), head, body, cols=len(headers)
        )
        return nodes.table("", group, classes=["jb-drift-summary"])

    def anchor(self, release: str, index: int) -> str:
        return nodes.make_id(f"drift {self.fromdoc} {release} {index}")

    def differences(self, release: str, rows: list) -> nodes.Node:
        """Every difference on ``release``, this language's runs first (its output is the
        page's language): folded on the web, under a heading elsewhere."""
        names = short_names()
        label = _("All differences on JAX %(release)s") % {"release": release}
        fold = drift_fold(label=label, classes=["jb-drift-fold"])
        for index, (place, found) in enumerate(rows):
            outcome = outcome_of(found[release]) if release in found else "same"
            if outcome == "same":
                continue
            what = nodes.strong("", names[outcome])
            fold += nodes.paragraph(
                "",
                "",
                # Translators: An example and what it did on another release, in the report's list
                # of differences: "1.2 Random numbers — prints something else".
                *sentence(_("%(example)s — %(what)s"), example=self.caption(place), what=what),
                ids=[self.anchor(release, index)],
                classes=["jb-drift-cell"],
            )
            runs = found[release]["runs"]
            if outcome == VARIES:
                had = [names[o] for o in OUTCOMES if o in {r["outcome"] for r in runs}]
                said = _("The result varies from run to run: %(results)s.")
                fold += nodes.paragraph("", said % {"results": join_list(had, self.language)})
            differing = sorted(
                (r for r in runs if r["outcome"] != "same"),
                key=lambda r: r["language"] != self.language,
            )
            for kind in dict.fromkeys(r["outcome"] for r in differing):
                run = next(r for r in differing if r["outcome"] == kind)
                if run.get("detail"):
                    shown = {"output": "diff", "assert": "python"}.get(kind, "text")
                    fold += nodes.literal_block(run["detail"], run["detail"], language=shown)
                if run.get("cut"):
                    cut = ngettext(
                        "(%d more line left out)", "(%d more lines left out)", run["cut"]
                    )
                    fold += nodes.paragraph("", cut % run["cut"], classes=["jb-drift-cut"])
        if self.app.builder.format != "html" or self.app.builder.name == "epub":
            return nodes.container("", nodes.rubric("", label), *fold.children)
        return fold


def outcome_of(example: dict[str, Any]) -> str:
    """One outcome for an example, or ``varies`` when its runs had several."""
    outcomes = {run["outcome"] for run in example["runs"]}
    return outcomes.pop() if len(outcomes) == 1 else VARIES


def environment_names(environment: str) -> list[str]:
    """``Python 3.13, jax==0.4.38, jaxlib==0.4.38`` as a reader names them, without JAX
    itself (the release): Python 3.13, jaxlib 0.4.38."""
    names = {"numpy": "NumPy", "ml-dtypes": "ml_dtypes"}
    named = []
    for part in environment.split(", "):
        name, _sep, version = part.partition("==")
        if name != "jax":
            named.append(f"{names.get(name, name)} {version}" if version else part)
    return named


def visit_fold_html(self: Any, node: drift_fold) -> None:
    self.body.append(self.starttag(node, "details"))
    self.body.append(f"<summary>{self.encode(node['label'])}</summary>\n")


def depart_fold_html(self: Any, node: drift_fold) -> None:
    self.body.append("</details>\n")


def pinned_release(app: Sphinx, config: Config) -> None:
    """The release the book pins in ``pyproject.toml`` beside ``conf.py``, unless set (a
    book without a pin has every release of its data as another one)."""
    with contextlib.suppress(OSError, KeyError, ValueError):
        if not config.jaxbook_pinned_release:
            config.jaxbook_pinned_release = project.pinned_release(Path(app.confdir))


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    app.setup_extension(notes.__name__)
    app.add_config_value("jaxbook_pinned_release", "", "env", types=frozenset({str}))
    app.connect("config-inited", pinned_release)
    app.add_node(drift_placeholder)
    app.add_node(drift_fold, html=(visit_fold_html, depart_fold_html))
    app.add_domain(DriftDomain)
    app.add_transform(SourceCode)
    app.add_role("drift", DriftRole())
    app.add_directive("drift-unseen", DriftUnseenDirective)
    app.add_directive("drift-report", DriftReportDirective)
    app.connect("env-get-outdated", pages_changed)
    app.connect("env-check-consistency", check_files)
    # A handler, not a post-transform: it links with the builder.
    app.connect("doctree-resolved", resolve)
    return {"version": "2.0", "env_version": DriftDomain.data_version, **PARALLEL_SAFE}
