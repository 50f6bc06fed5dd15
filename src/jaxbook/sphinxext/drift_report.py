"""The "other JAX releases" appendix of a chapter: which examples differ there, and why.

``.. drift-report:: release-drift.json`` names the chapter's drift data (a
:class:`jaxbook.formats.DriftData`, relative to the page, as ``include``
takes a file), which ``make release-report`` writes beside the chapter.
The directive is replaced, in the language being built, by:

- a summary: on each release, how many of the chapter's examples print what
  the pages show, and a table of the examples that differ on some release,
  one row each (named by the section it stands in, with its place among the
  section's examples where there are several), with what differs on each
  release and the update notes whose verifying block it is;
- a legend for the differences: ``-`` lines are what the page shows, run on
  the release ``pyproject.toml`` pins, ``+`` lines what the other
  release printed;
- every difference in full, release by release, each example under a caption
  of its own: folded on the web (``<details>``), shown under a plain label in
  the PDF and the EPUB. An example whose result varies from run to run (the
  two editions' runs of it, or runs of ``make release-report``) says so, with
  each result and how often.

The report speaks of its own chapter only (the pages in its directory and
below), in every builder: one file per page, or the whole book as one
document. A chapter without drift data yet says so on its page. While
reading, a :class:`DriftDomain` keeps each page's examples (:class:`Place`:
page, section, label, asserts), as ``sphinx.ext.todo``'s domain keeps todos.
An example of the data is found on the page by its code
(:func:`jaxbook.formats.code_digest`), which outlives an edit that moves its
lines, and by its line otherwise.

A language the data has no runs in yet (one just added, whose untranslated
pages show the source's code) reads the source's runs.

The build warns, at the report, when the data is older than the pages (an
example changed since the release ran it, or gone from the pages), and, at
the file, when the file is of another format or shape (the report then
shows nothing); these warnings are of type ``jaxbook`` and subtype
``drift_report``.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from packaging.version import Version
from sphinx.domains import Domain
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from jaxbook import project
from jaxbook.formats import OUTCOMES, Example, FormatError, Run, code_digest, read_drift
from jaxbook.sphinxext import _chapters, notes
from jaxbook.sphinxext._locale import N_, _, add_catalog, join_list, listed, ngettext, sentence

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

VARIES = "varies"
# An example that stopped at a name an earlier example of its page defines: on the pinned
# release every example passes in order, so a NameError elsewhere means that an earlier
# example failed there, not that the release lacks what this one uses.
AFTER_FAILURE = "after-failure"
SHOWN_OUTCOMES = [*OUTCOMES, AFTER_FAILURE]
PACKAGE_NAMES = {"jax": "JAX", "numpy": "NumPy", "ml-dtypes": "ml_dtypes"}


def short_names() -> dict[str, str]:
    """What differs, as the summary's cells say it."""
    return {
        "output": _("prints something else"),
        "warns": _("a warning"),
        "exception": _("an unexpected exception"),
        "assert": _("an assert fails"),
        "cannot-run": _("cannot run"),
        AFTER_FAILURE: _("an earlier example failed"),
        "skipped": _("skipped"),
        VARIES: _("varies between runs"),
    }


# Each outcome as a clause with its count ("33 print something else").
COUNTED = {
    "same": N_("%d prints the same", "%d print the same"),
    "output": N_("%d prints something else", "%d print something else"),
    "warns": N_("%d emits a warning", "%d emit a warning"),
    "exception": N_("%d raises an unexpected exception", "%d raise an unexpected exception"),
    "assert": N_("%d fails an assert", "%d fail an assert"),
    "cannot-run": N_("%d cannot run", "%d cannot run"),
    AFTER_FAILURE: N_(
        "%d stops because an earlier example failed", "%d stop because an earlier example failed"
    ),
    "skipped": N_("%d is skipped", "%d are skipped"),
    VARIES: N_("%d varies between runs", "%d vary between runs"),
}


def results() -> dict[str, str]:
    """What a run of an example that varies did, as a clause."""
    return {
        "same": _("it printed what the book shows"),
        "output": _("it printed something else"),
        "warns": _("it emitted a warning"),
        "exception": _("it raised an unexpected exception"),
        "assert": _("an assert failed"),
        "cannot-run": _("it could not run"),
        AFTER_FAILURE: _("an earlier example failed"),
        "skipped": _("it was skipped"),
    }


@dataclass(frozen=True)
class Place:
    """Where an example (a ``testcode`` block) stands on its page."""

    docname: str
    file: str  # its source file: absolute as read, from the configuration directory in a Report
    line: int | None
    code: str  # code_digest of its code, in the language read
    section: str  # the title of the section it stands in
    anchor: str  # its label, or its section's id
    label: str | None  # the target right before it, which a note's :verified-by: names
    asserts: tuple[str, ...]
    nth: int  # its place among its section's examples, from 1
    of: int  # how many examples its section has
    gist: str = ""  # the comment its code opens with, which says what it shows


class drift_report(nodes.General, nodes.Element):
    """Placeholder replaced by the report; ``docname`` is its page, ``file`` its data."""


class drift_fold(nodes.General, nodes.Element):
    """Content folded on the web under ``node['label']``; elsewhere shown under it."""


class DriftReportDirective(SphinxDirective):
    required_arguments = 1
    option_spec: ClassVar[dict[str, Any]] = {}

    def run(self) -> list[nodes.Node]:
        relative, absolute = self.env.relfn2path(self.arguments[0])
        present = Path(absolute).exists()
        node = drift_report(
            docname=self.env.current_document.docname, file=relative, present=present
        )
        self.set_source_info(node)
        # New drift data (make release-report) makes the page be read and written again; a
        # file that does not exist yet is watched by outdated_reports (Sphinx takes a
        # missing dependency for a changed one, and would read the page on every build).
        if present:
            self.env.note_dependency(absolute)
        return [node]


# -- collecting ----------------------------------------------------------------------


def _places(document: nodes.document, docname: str) -> list[Place]:
    cells: list[tuple[nodes.Element, nodes.Element | None]] = []
    # A hidden testcode (``:hide:``) is a comment node, and the releases run it too.
    blocks: list[nodes.Element] = [
        b
        for b in document.findall(nodes.Element)
        if isinstance(b, (nodes.literal_block, nodes.comment)) and b.get("testnodetype")
    ]
    expected: dict[int, str] = {}  # a testcode -> the testoutput right after it
    for block, after in pairwise(blocks):
        if after.get("testnodetype") == "testoutput":
            expected[id(block)] = after.astext()
    for cell in blocks:
        if cell.get("testnodetype") != "testcode":
            continue
        section = cell.parent
        while section is not None and not isinstance(section, nodes.section):
            section = section.parent
        cells.append((cell, section))
    per_section = Counter(id(section) for _cell, section in cells)
    seen: Counter[int] = Counter()
    found = []
    for cell, section in cells:
        if not cell.source:
            continue
        seen[id(section)] += 1
        title = section.next_node(nodes.title) if section is not None else None
        index = cell.parent.index(cell)
        previous = cell.parent[index - 1] if index else None
        label = (
            previous["refid"]
            if isinstance(previous, nodes.target) and previous.get("refid")
            else None
        )
        section_id = section["ids"][0] if section is not None and section["ids"] else ""
        found.append(
            Place(
                docname=docname,
                file=Path(cell.source).resolve().as_posix(),
                line=cell.line,
                code=code_digest(cell.get("test", cell.astext()), expected.get(id(cell), "")),
                section=title.astext() if title is not None else "",
                anchor=label or section_id,
                label=label,
                asserts=tuple(
                    line.strip()
                    for line in cell.astext().splitlines()
                    if line.strip().startswith("assert ")
                ),
                nth=seen[id(section)],
                of=per_section[id(section)],
                gist=_gist(cell.astext()),
            )
        )
    return found


def _gist(code: str) -> str:
    """The comment a cell's code opens with (its first line, when that is a comment)."""
    first = code.strip().splitlines()[0] if code.strip() else ""
    return first.lstrip("#").strip().rstrip(",;:，；：、") if first.startswith("#") else ""


class DriftDomain(Domain):
    """Each page's examples, and the pages that hold a report with the data they name."""

    name = "jaxbook_drift"
    label = "Drift report"
    initial_data: ClassVar[dict[str, Any]] = {"places": {}, "reports": {}}
    data_version = 4

    @property
    def places(self) -> dict[str, list[Place]]:
        return self.data["places"]

    @property
    def reports(self) -> dict[str, tuple[str, bool]]:
        """Page -> its drift file (from the source directory), and whether it existed."""
        return self.data["reports"]

    def clear_doc(self, docname: str) -> None:
        self.places.pop(docname, None)
        self.reports.pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for docname in docnames:
            if docname in otherdata["places"]:
                self.places[docname] = otherdata["places"][docname]
            if docname in otherdata["reports"]:
                self.reports[docname] = otherdata["reports"][docname]

    def process_doc(self, env: BuildEnvironment, docname: str, document: nodes.document) -> None:
        found = _places(document, docname)
        if found:
            self.places[docname] = found
        for node in document.findall(drift_report):
            self.reports[docname] = (node["file"], node["present"])


def _domain(env: BuildEnvironment) -> DriftDomain:
    domain = env.domains[DriftDomain.name]
    assert isinstance(domain, DriftDomain), "setup() adds the domain under its name"
    return domain


def outdated_reports(
    app: Sphinx, env: BuildEnvironment, added: Set[str], changed: Set[str], removed: Set[str]
) -> list[str]:
    """Rewrite a report when a page of its chapter changed (its examples' places may have),
    and read it again when its chapter's drift data has appeared since."""
    reports = _domain(env).reports
    if added or removed:
        return sorted(reports)
    return sorted(
        doc
        for doc, (file, present) in reports.items()
        if any(_chapters.covers(doc, d) for d in changed)
        or (not present and Path(env.srcdir, file).exists())
    )


# -- the report ------------------------------------------------------------------------


def environment_names(environment: str) -> list[str]:
    """``Python 3.13, jax==0.4.38, jaxlib==0.4.38`` as a reader says it: JAX 0.4.38, ..."""
    named = []
    for part in environment.split(", "):
        name, _sep, version = part.partition("==")
        named.append(f"{PACKAGE_NAMES.get(name, name)} {version}" if version else part)
    return named


def without_release_names(example: Example, release: str, pinned: str) -> Example:
    """The example with what differs only in naming the release taken as the same.

    An example that prints ``jax.__version__`` prints each release's own name: a
    changed line whose only change is that name is expected, not a difference.
    The rest of a diff stays; a run left with nothing else printed differently
    prints the same.
    """
    runs = []
    for run in example["runs"]:
        detail = run.get("detail", "")
        if run["outcome"] == "output" and detail:
            lines = detail.split("\n")
            removed = [line[1:] for line in lines if line.startswith("-")]
            added = [line[1:].replace(release, pinned) for line in lines if line.startswith("+")]
            expected = {line for line in removed if line in added}
            kept = [line for line in lines if line[1:].replace(release, pinned) not in expected]
            if len(kept) < len(lines):
                run = {**run, "detail": "\n".join(kept)}
                if not any(line.startswith(("-", "+")) for line in kept):
                    run = {"language": run["language"], "outcome": "same"}
        runs.append(run)
    return {**example, "runs": runs}


def shown_outcome(run: Run) -> str:
    """A run's outcome as the page shows it: one that stopped at a NameError is counted
    as stopped by an earlier example's failure (``AFTER_FAILURE``), not as one that
    cannot run."""
    if run["outcome"] == "cannot-run" and run.get("detail", "").startswith("NameError"):
        return AFTER_FAILURE
    return run["outcome"]


def outcome_of(example: Example) -> str:
    """One outcome for an example, or ``varies`` when its runs had several."""
    outcomes = {shown_outcome(run) for run in example["runs"]}
    return outcomes.pop() if len(outcomes) == 1 else VARIES


def counted(
    counts: Counter[str], language: str, forms: dict[str, tuple[str, str]] = COUNTED
) -> str:
    """Each outcome that happened, with its count, as a list ("47 print the same, ...")."""
    clauses = [
        ngettext(*forms[key], counts[key]) % counts[key]
        for key in [*SHOWN_OUTCOMES, VARIES]
        if counts.get(key)
    ]
    return join_list(clauses, language)


@dataclass
class Shown:
    """An example of the data on one release, with its place on the current pages."""

    example: Example
    place: Place | None
    outcome: str


class Report:
    """The report on one page, in one language, from its chapter's data."""

    def __init__(self, app: Sphinx, fromdoc: str, node: drift_report, data: Any) -> None:
        self.app, self.env, self.builder = app, app.env, app.builder
        self.fromdoc = fromdoc
        self.docname: str = node["docname"]
        self.line = node.line
        self.language: str = app.config.language
        self.data = data
        # The language whose runs the report reads: the page's, or, while the data has
        # none in it (a language just added), the source's, whose code an untranslated
        # page shows (in a book whose data holds other languages only, the first of them).
        ran_in = {
            lang for r in data["releases"].values() for e in r["examples"] for lang in e["code"]
        }
        self.runs_language = (
            self.language
            if self.language in ran_in or not ran_in
            else min(ran_in, key=lambda lang: (lang != project.SOURCE_LANGUAGE, lang))
        )
        # Files as the drift data names them: from the configuration directory.
        confdir = Path(app.confdir).resolve()
        self.places = [
            replace(place, file=Path(place.file).relative_to(confdir).as_posix())
            for docname, found in _domain(self.env).places.items()
            if _chapters.covers(self.docname, docname)
            for place in found
            if Path(place.file).is_relative_to(confdir)
        ]
        rank = {doc: i for i, doc in enumerate(_chapters.reading_order(self.env))}
        self.rank = lambda place: (rank.get(place.docname, len(rank)), place.line or 0)
        table_doc = notes.table_of(self.env, self.docname)
        self.table_doc = table_doc
        self.explained: dict[str, list[notes.Row]] = {}
        for row in notes.rows(self.env, table_doc=table_doc) if table_doc else []:
            for label in row.labels:
                self.explained.setdefault(label, []).append(row)

    # -- matching the data to the pages

    def shown(self, release: str) -> list[Shown]:
        """The release's examples of this language, each at its place, in reading order."""
        by_code: dict[tuple[str, str, str], list[Place]] = {}
        by_line: dict[tuple[str, str, int | None], Place] = {}
        for known in self.places:
            by_code.setdefault((known.docname, known.file, known.code), []).append(known)
            by_line[known.docname, known.file, known.line] = known
        shown = []
        pinned = project.pinned_release(Path(self.app.confdir))
        for example in self.data["releases"][release]["examples"]:
            example = without_release_names(example, release, pinned)
            code = example["code"].get(self.runs_language)
            if code is None or not _chapters.covers(self.docname, example["page"]):
                continue
            same_code = by_code.get((example["page"], example["file"], code))
            place = same_code.pop(0) if same_code else None
            place = place or by_line.get((example["page"], example["file"], example["line"]))
            shown.append(Shown(example, place, outcome_of(example)))
        last = (10**9, 0)  # an example no page holds now: after the rest
        return sorted(shown, key=lambda s: self.rank(s.place) if s.place else last)

    def warn_if_older_than_the_pages(self) -> None:
        """A release that did not run an example as the page has it now, or whose example is
        no longer on a page, speaks of code the reader cannot see."""
        current = Counter((p.docname, p.file, p.code) for p in self.places)
        where = {(p.docname, p.file, p.code): p for p in self.places}
        for release in sorted(self.data["releases"], key=Version):
            examples = self.data["releases"][release]["examples"]
            ran = Counter(
                (e["page"], e["file"], e["code"][self.runs_language])
                for e in examples
                if self.runs_language in e["code"] and _chapters.covers(self.docname, e["page"])
            )
            changed = sorted(f"{where[key].file}:{where[key].line}" for key in current - ran)
            gone = sorted(
                f"{e['file']}:{e['line']}"
                for e in examples
                if (e["page"], e["file"], e["code"].get(self.runs_language)) in ran - current
            )
            for what, places in (("changed since it ran", changed), ("gone from the pages", gone)):
                if places:
                    shown = ", ".join(places[:3]) + (", ..." if len(places) > 3 else "")
                    logger.warning(
                        "drift-report: the drift data of JAX %s is older than the pages: "
                        "%d example(s) %s (%s); run 'make release-report'",
                        release,
                        len(places),
                        what,
                        shown,
                        location=(self.docname, self.line),
                        type="jaxbook",
                        subtype="drift_report",
                    )

    # -- pieces

    def caption(self, place: Place | None, example: Example) -> list[nodes.Node]:
        """The example named by where it stands, linked there; its place among several."""
        if place is None:
            return [nodes.literal("", f"{example['file']}:{example['line']}")]
        # As the update-notes table names a section: "1.2 Similarities", and a page
        # without a number by its title; then which of the section's examples it is.
        page = notes.section_label(self.env, place.docname)
        own = place.section == self.env.titles[place.docname].astext()  # the page's title
        if own:
            named = place.section
        elif notes.SECTION_NUMBER.match(page + " "):
            named = _("%(page)s %(section)s") % {"page": page, "section": place.section}
        else:
            named = _("%(section)s (%(page)s)") % {"page": page, "section": place.section}
        if place.of > 1 and place.gist:
            # Code blocks have no numbers a reader could find: the one that opens with this
            # comment.
            named = _("%(example)s: %(gist)s") % {"example": named, "gist": place.gist}
        elif place.of > 1:
            named = _("%(example)s, example %(nth)d of %(of)d") % {
                "example": named,
                "nth": place.nth,
                "of": place.of,
            }
        return [
            notes.link(self.builder, self.fromdoc, place.docname, place.anchor, nodes.Text(named))
        ]

    def notes_of(self, place: Place | None) -> list[notes.Row]:
        """The update notes whose verifying block the example is."""
        return self.explained.get(place.label or "", []) if place else []

    def note_links(self, place: Place | None) -> list[nodes.Node]:
        rows = self.notes_of(place)
        if not rows or self.table_doc is None:
            return []
        links = [
            notes.link(
                self.builder,
                self.fromdoc,
                self.table_doc,
                f"update-row-{row.id}",
                nodes.Text(str(row.number)),
            )
            for row in rows
        ]
        return listed(links, self.language)

    # -- the report

    def build(self) -> list[nodes.Node]:
        self.warn_if_older_than_the_pages()
        releases = sorted(self.data["releases"], key=Version)
        if not releases:
            return [_none_yet()]
        shown = {release: self.shown(release) for release in releases}
        differing = [r for r in releases if any(s.outcome != "same" for s in shown[r])]
        out: list[nodes.Node] = [self.tallies(releases, shown)]
        if differing:
            out.append(self.summary(differing, shown))
            out.append(self.legend())
            for release in differing:
                out.append(self.differences(release, shown[release]))
        for node in out:
            for text in node.findall(nodes.TextElement):
                text["translatable"] = False
        return out

    def tallies(self, releases: list[str], shown: dict[str, list[Shown]]) -> nodes.Node:
        items = nodes.bullet_list(classes=["jb-drift-tallies"])
        for release in releases:
            counts = Counter(s.outcome for s in shown[release])
            total = sum(counts.values())
            if counts["same"] == total:
                said = ngettext(
                    "On JAX %(release)s, the %(total)d example of this chapter prints what "
                    "the book shows.",
                    "On JAX %(release)s, all %(total)d examples of this chapter print what "
                    "the book shows.",
                    total,
                ) % {"release": release, "total": total}
            else:
                said = ngettext(
                    "On JAX %(release)s, of the %(total)d example of this chapter, %(outcomes)s.",
                    "On JAX %(release)s, of the %(total)d examples of this chapter, %(outcomes)s.",
                    total,
                ) % {
                    "release": release,
                    "total": total,
                    "outcomes": counted(counts, self.language, COUNTED),
                }
            items += nodes.list_item("", nodes.paragraph("", said))
        return items

    def summary(self, differing: list[str], shown: dict[str, list[Shown]]) -> nodes.Node:
        """One row per example that differs on some release: what differs where, and why."""
        names = short_names()
        rows: dict[int, dict[str, Any]] = {}  # position in reading order -> the row
        order: list[tuple[Any, int]] = []
        keyed: dict[tuple[str, str, int | None], int] = {}
        for release in differing:
            for index, item in enumerate(shown[release]):
                if item.outcome == "same":
                    continue
                e = item.example
                key = (e["page"], e["file"], item.place.line if item.place else e["line"])
                if key not in keyed:
                    keyed[key] = len(rows)
                    rows[keyed[key]] = {"item": item, "by_release": {}}
                    order.append((self.rank(item.place) if item.place else (10**9, 0), keyed[key]))
                rows[keyed[key]]["by_release"][release] = (item.outcome, index)
        headers = [
            _("Example"),
            *(f"JAX {release}" for release in differing),
            _("Update note"),
        ]
        table = nodes.table(classes=["jb-drift-summary", "colwidths-given"])
        if self.builder.format == "latex":
            # Longer than a page: let LaTeX break it and repeat the header.
            table["classes"].append("longtable")
        group = nodes.tgroup(cols=len(headers))
        table += group
        # The releases' columns wide enough for "prints something else" on two lines in the
        # PDF; the notes' column holds a few numbers.
        for width in [36, *([48 // len(differing)] * len(differing)), 16]:
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        head += nodes.row("", *(nodes.entry("", nodes.paragraph("", h)) for h in headers))
        group += head
        body = nodes.tbody()
        group += body
        for _rank, position in sorted(order):
            row = rows[position]
            item = row["item"]
            cells = [nodes.paragraph("", "", *self.caption(item.place, item.example))]
            for release in differing:
                outcome, index = row["by_release"].get(release, ("same", None))
                if outcome == "same":
                    cells.append(nodes.paragraph("", "—"))
                    continue
                to_detail = nodes.reference(
                    "",
                    "",
                    nodes.Text(names[outcome]),
                    internal=True,
                    refid=self.anchor_id(release, index),
                )
                cells.append(nodes.paragraph("", "", to_detail))
            cells.append(
                nodes.paragraph("", "", *(self.note_links(item.place) or [nodes.Text("—")]))
            )
            body += nodes.row("", *(nodes.entry("", cell) for cell in cells))
        return table

    def legend(self) -> nodes.Node:
        return nodes.paragraph(
            "",
            _(
                "In the differences below, a line that begins with “-” is what the book "
                "shows, run on %(release)s, and a line that begins with “+” is what the "
                "other release printed instead."
            )
            % {"release": f"JAX {project.pinned_release(Path(self.app.confdir))}"},
            classes=["jb-drift-legend"],
        )

    def anchor_id(self, release: str, index: int | None) -> str:
        return nodes.make_id(f"drift {self.docname} {release} {index}")

    def differences(self, release: str, shown: list[Shown]) -> nodes.Node:
        entry = self.data["releases"][release]
        fold = drift_fold(
            label=_("All differences on JAX %(release)s") % {"release": release},
            classes=["jb-drift-fold"],
        )
        fold += nodes.paragraph(
            "",
            _("Tested with %(environment)s.")
            % {"environment": join_list(environment_names(entry["environment"]), self.language)},
        )
        for index, item in enumerate(shown):
            if item.outcome == "same":
                continue
            fold += nodes.target("", "", ids=[self.anchor_id(release, index)])
            fold += self.example_details(item)
        return fold

    def example_details(self, item: Shown) -> list[nodes.Node]:
        names = short_names()
        example = item.example
        heading = nodes.paragraph(classes=["jb-drift-cell"])
        heading += sentence(
            _("%(example)s — %(what)s"),
            example=self.caption(item.place, example),
            what=nodes.strong("", names[item.outcome]),
        )
        out: list[nodes.Node] = [heading]
        runs = example["runs"]
        if item.outcome == VARIES:
            clauses = results()
            seen = {shown_outcome(run) for run in runs}
            happened = [clauses[o] for o in SHOWN_OUTCOMES if o in seen]
            if len(happened) == 2:
                said = _(
                    "The result varies from run to run: in some runs %(first)s, in others "
                    "%(second)s."
                ) % {"first": happened[0], "second": happened[1]}
            else:
                said = _(
                    "The result varies from run to run; each of these happened in some of "
                    "the runs: %(results)s."
                ) % {"results": join_list(happened, self.language)}
            out.append(nodes.paragraph("", said))
        links = self.note_links(item.place)
        if links:
            out.append(
                nodes.paragraph(
                    "",
                    "",
                    *sentence(
                        ngettext(
                            "Related update note: %(notes)s.",
                            "Related update notes: %(notes)s.",
                            len(self.notes_of(item.place)),
                        ),
                        notes=links,
                    ),
                )
            )
        # This language's runs first: their output is the page's language.
        differing = [r for r in runs if r["outcome"] != "same"]
        differing.sort(key=lambda r: r["language"] != self.runs_language)
        for outcome in dict.fromkeys(r["outcome"] for r in differing):
            run = next(r for r in differing if r["outcome"] == outcome)
            # The run names the assert that failed (this language's run first).
            named = [
                r["detail"]
                for r in differing
                if r["outcome"] == "assert" and r.get("detail", "").startswith("assert")
            ]
            if outcome == "assert" and named:
                out.append(nodes.paragraph("", _("The assert that fails:")))
                out.append(nodes.literal_block(named[0], named[0], language="python"))
                continue
            if outcome == "assert" and item.place and item.place.asserts:
                out.append(
                    nodes.paragraph(
                        "",
                        _("The assert that fails:")
                        if len(item.place.asserts) == 1
                        # A count does not pick this sentence: the run names no assert.
                        else _("On this release, one of these asserts fails:"),
                    )
                )
                asserts = "\n".join(item.place.asserts)
                out.append(nodes.literal_block(asserts, asserts, language="python"))
                continue
            detail = run.get("detail", "")
            if detail:
                out.append(nodes.literal_block(detail, detail, language="diff"))
            if run.get("cut"):
                out.append(
                    nodes.paragraph(
                        "",
                        ngettext("(%d more line left out)", "(%d more lines left out)", run["cut"])
                        % run["cut"],
                        classes=["jb-drift-cut"],
                    )
                )
        return out


def _none_yet() -> nodes.Node:
    return nodes.paragraph(
        "",
        _("No other JAX release has run this chapter's examples yet."),
        classes=["jb-drift-none"],
    )


def resolve(app: Sphinx, doctree: nodes.document, fromdoc: str) -> None:
    for placeholder in list(doctree.findall(drift_report)):
        if app.builder.name == "gettext":
            # Its text comes from this package's catalog, not the page's: nothing to
            # extract, and a translator's catalogs do not wait on make release-report.
            placeholder.replace_self([])
            continue
        path = Path(app.srcdir, placeholder["file"])
        if not path.exists():
            placeholder.replace_self(_none_yet())
            continue
        try:
            data = read_drift(path)
        except FormatError as error:
            logger.warning(
                error.sentence, location=error.location, type="jaxbook", subtype="drift_report"
            )
            placeholder.replace_self([])
            continue
        built = Report(app, fromdoc, placeholder, data)
        placeholder.replace_self(_unfolded(app, built.build(), built.docname))


def _unfolded(app: Sphinx, report: list[nodes.Node], docname: str) -> list[nodes.Node]:
    """Off the web a fold cannot open, and pages of raw differences are no reading for a
    printed book: the PDF and the EPUB keep the tallies and the summary, whose cells then
    name the outcome without linking it, and say where the differences are."""
    if app.builder.format == "html" and app.builder.name != "epub":
        return report
    folds = [node for node in report if isinstance(node, drift_fold)]
    if not folds:
        return report
    out = [
        node
        for node in report
        if not isinstance(node, drift_fold)
        and not (isinstance(node, nodes.Element) and "jb-drift-legend" in node["classes"])
    ]
    for node in out:
        for ref in list(node.findall(nodes.reference)):
            if ref.get("refid", "").startswith("drift-"):
                ref.replace_self(ref.children)
    # The page on the web, where a deploy build knows the site's address.
    site = os.environ.get("JAXBOOK_SITE_URL") or getattr(app.config, "jaxbook_site_url", "")
    if site:
        url = f"{site.rstrip('/')}/{app.config.language}/{docname}.html"
        out.append(
            nodes.paragraph(
                "",
                "",
                *sentence(
                    _(
                        "The web edition of this page, %(url)s, shows each of these differences "
                        "in full."
                    ),
                    url=nodes.reference(url, url, refuri=url),
                ),
            )
        )
    else:
        out.append(
            nodes.paragraph(
                "", _("The web edition of this page shows each of these differences in full.")
            )
        )
    return out


def visit_fold_html(self: Any, node: drift_fold) -> None:
    self.body.append(self.starttag(node, "details"))
    self.body.append(f"<summary>{self.encode(node['label'])}</summary>\n")


def depart_fold_html(self: Any, node: drift_fold) -> None:
    self.body.append("</details>\n")


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    app.setup_extension("jaxbook.sphinxext.notes")
    app.add_node(drift_report)
    app.add_node(drift_fold, html=(visit_fold_html, depart_fold_html))
    app.add_domain(DriftDomain)
    app.add_directive("drift-report", DriftReportDirective)
    app.connect("env-get-outdated", outdated_reports)
    app.connect("doctree-resolved", resolve)
    return {
        "version": "1.0",
        "env_version": DriftDomain.data_version,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
