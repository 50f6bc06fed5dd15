"""The "other JAX releases" page: which cells print differently there, and why.

``.. drift-report::`` is replaced by one section per release recorded in the
drift file (``jaxbook drift --save``), written as prose in the language being
built: the environment it ran in, named as a reader says it (``JAX 0.4.38``,
not ``jax==0.4.38``); how many of the chapter's examples came out the same
and how many did not, with measure words; and, page by page in reading order,
every example that did not, named by the section it stands in and linked to
it, with what changed (the diff or the exception from the real run, and a
marker where a long diff is cut; for a failed assert, the cell's asserts)
and a link to the update note whose verifying block it is.

While reading, each ``testcode`` block's place is collected (its page, the
section it is in, the label right before it, its asserts), keyed by its
source file and line as the drift file names it, in the shape of
``sphinx.ext.todo`` (collect, purge, merge, replace the placeholder). A cell
is matched to a note through its label: the target right before the block
(``.. _check-device-property:``) that a note names in ``:verified-by:``.

Config values:

``jaxbook_release_drift``
   The drift file, relative to the source directory (default ``""``: the
   directive shows nothing but a warning). It is a
   ``jaxbook.releases.drift.DriftData`` of format ``drift.FORMAT``; a file of
   another format or shape is a warning at the file, in one sentence, and the
   report shows nothing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from packaging.version import Version
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from jaxbook.doctest.formats import FormatError
from jaxbook.releases.drift import DriftData, code_digest, read_drift
from jaxbook.sphinxext import notes
from jaxbook.sphinxext._locale import N_, _, add_catalog, ngettext

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)


def outcome_names() -> dict[str, str]:
    return {
        "same": _("same"),
        "output": _("prints something else"),
        "warns": _("emits a warning"),
        "exception": _("raises another exception"),
        "assert": _("an assert fails"),
        "cannot-run": _("cannot run (missing API)"),
        "skipped": _("skipped"),
    }


class drift_report(nodes.General, nodes.Element):
    """Placeholder replaced by the report."""


class DriftReportDirective(SphinxDirective):
    option_spec: ClassVar[dict[str, Any]] = {}

    def run(self) -> list[nodes.Node]:
        node = drift_report()
        self.set_source_info(node)
        # A new drift file (make release-report) makes the page be read and written again.
        if self.config.jaxbook_release_drift:
            self.env.note_dependency(str(Path(self.env.srcdir, self.config.jaxbook_release_drift)))
        return [node]


def _cells(env: BuildEnvironment) -> dict[str, dict[str, dict[str, Any]]]:
    """docname -> {"file:line" of a testcode block -> its place on the page}."""
    if not hasattr(env, "jaxbook_cell_places"):
        env.jaxbook_cell_places = {}
    return env.jaxbook_cell_places


def _place(cell: nodes.literal_block, docname: str) -> dict[str, Any]:
    section = cell.parent
    while section is not None and not isinstance(section, nodes.section):
        section = section.parent
    title = section.next_node(nodes.title) if section is not None else None
    label = None
    previous = cell.parent[cell.parent.index(cell) - 1] if cell.parent.index(cell) else None
    if isinstance(previous, nodes.target) and previous.get("refid"):
        label = previous["refid"]
    return {
        "docname": docname,
        "code": code_digest(cell.get("test", cell.astext())),
        "section": title.astext() if title is not None else "",
        "anchor": label or (section["ids"][0] if section is not None and section["ids"] else ""),
        "label": label,
        "asserts": [
            line.strip()
            for line in cell.astext().splitlines()
            if line.strip().startswith("assert ")
        ],
    }


def collect_labels(app: Sphinx, doctree: nodes.document) -> None:
    """Remember where each code cell stands: its source line, section and label."""
    docname = app.env.current_document.docname
    found: dict[str, dict[str, Any]] = {}
    confdir = Path(app.confdir).resolve()
    for cell in doctree.findall(nodes.literal_block):
        if cell.get("testnodetype") != "testcode":
            continue
        try:
            where = Path(cell.source or "").resolve().relative_to(confdir).as_posix()
        except ValueError:
            continue
        found[f"{where}:{cell.line}"] = _place(cell, docname)
    if found:
        _cells(app.env)[docname] = found
    if any(True for _node in doctree.findall(drift_report)):
        _reports(app.env).add(docname)


def _reports(env: BuildEnvironment) -> set[str]:
    if not hasattr(env, "jaxbook_drift_reports"):
        env.jaxbook_drift_reports = set()
    return env.jaxbook_drift_reports


def outdated_reports(
    app: Sphinx, env: BuildEnvironment, added: Set[str], changed: Set[str], removed: Set[str]
) -> list[str]:
    """Rewrite the report when a page it shows cells of changed: their lines and labels may have."""
    if added or removed:
        return sorted(_reports(env))
    shown = _files_shown(app)
    confdir = Path(app.confdir).resolve()
    for docname in changed:
        paths = [Path(env.doc2path(docname))]
        paths += [Path(app.srcdir, dependency) for dependency in env.dependencies[docname]]
        # The drift file names each cell's file as collect_labels does: from the conf dir.
        files = {
            path.resolve().relative_to(confdir).as_posix()
            for path in paths
            if path.resolve().is_relative_to(confdir)
        }
        if shown is None or files & shown:
            return sorted(_reports(env))
    return []


def _files_shown(app: Sphinx) -> set[str] | None:
    """The files whose cells the drift data lists; None when it cannot be read."""
    name = app.config.jaxbook_release_drift
    try:
        data = read_drift(Path(app.srcdir, name))
        return {
            cell["file"]
            for entry in data["releases"].values()
            for cells in entry["cells"].values()
            for cell in cells
        }
    except FormatError:
        return None  # resolve() says what is wrong with it


def purge_labels(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    _cells(env).pop(docname, None)
    _reports(env).discard(docname)


def merge_labels(
    app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment
) -> None:
    for docname, found in _cells(other).items():
        if docname in docnames:
            _cells(env)[docname] = found
    _reports(env).update(_reports(other) & set(docnames))


def _explained_by(env: BuildEnvironment) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """label -> (table page, row) of each update note that names it as a verifying block."""
    by_label: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for table_doc in notes.table_docnames(env):
        for row in notes.rows(env, table_doc=table_doc):
            for note in row["notes"]:
                for label in note["verified_by"]:
                    by_label.setdefault(label, []).append((table_doc, row))
    return by_label


def _cell_heading(app: Sphinx, fromdoc: str, cell: dict[str, Any], place, explained, names):
    """One cell's line: where it is (its section, linked), what happened, and its note."""
    builder = app.builder
    para = nodes.paragraph(classes=["jb-drift-cell"])
    if place is not None:
        uri = builder.get_relative_uri(fromdoc, place["docname"])
        uri += f"#{place['anchor']}" if place["anchor"] else ""
        link = nodes.reference("", place["section"], internal=True, refuri=uri)
        # A title with a colon of its own is quoted, so the sentence's colon reads as one.
        if ":" in place["section"] or "\uff1a" in place["section"]:
            open_quote, close_quote = str(_("“%s”")).split("%s")
            para += [nodes.Text(open_quote), link, nodes.Text(close_quote)]
        else:
            para += link
    else:
        para += nodes.literal("", f"{cell['file']}:{cell['line']}")
    para += nodes.Text(_(": "))
    para += nodes.strong("", names[cell["outcome"]])
    rows = explained.get((place or {}).get("label") or "", [])
    if rows:
        # The example is the one that checks these notes (its difference may have another
        # cause, such as the random numbers of that release).
        para += nodes.Text(_("; "))
        para += nodes.Text(
            ngettext("it checks update note %s", "it checks update notes %s", len(rows)).split(
                "%s"
            )[0]
        )
        para += series_nodes(
            [
                nodes.reference(
                    "",
                    f"#{row['number']}",
                    internal=True,
                    refuri=builder.get_relative_uri(fromdoc, table_doc)
                    + f"#update-row-{row['id']}",
                )
                for table_doc, row in rows
            ]
        )
    para += nodes.Text(_("."))
    return para


def outcome_counts(counts: dict[str, int], outcomes: list[str]) -> list[str]:
    """Each outcome that happened, as a clause with its count ("33 print something else")."""
    forms = {
        "same": N_("%d prints the same", "%d print the same"),
        "output": N_("%d prints something else", "%d print something else"),
        "warns": N_("%d emits a warning", "%d emit a warning"),
        "exception": N_("%d raises another exception", "%d raise another exception"),
        "assert": N_("%d fails an assert", "%d fail an assert"),
        "cannot-run": N_("%d cannot run (an API is missing)", "%d cannot run (an API is missing)"),
        "skipped": N_("%d is skipped", "%d are skipped"),
    }
    return [
        ngettext(one, many, counts[key]) % counts[key]
        for key, (one, many) in forms.items()
        if key in outcomes and counts.get(key)
    ]


def series(items: list[str]) -> str:
    """A list in the language's own way: "a, b, and c"; in Chinese "a、b、c"."""
    if len(items) < 2:
        return "".join(items)
    if len(items) == 2:
        return _("%s and %s") % tuple(items)
    head = items[0]
    for item in items[1:-1]:
        head = _("%s, %s") % (head, item)
    return _("%s, and %s") % (head, items[-1])


def series_nodes(items: list[nodes.Node]) -> list[nodes.Node]:
    """``series`` of nodes (links): the language's separators between them."""
    text = series([f"\x00{i}\x00" for i in range(len(items))])
    out: list[nodes.Node] = []
    for i, piece in enumerate(re.split(r"\x00(\d+)\x00", text)):
        if i % 2:
            out.append(items[int(piece)])
        elif piece:
            out.append(nodes.Text(piece))
    return out


PACKAGE_NAMES = {"jax": "JAX", "numpy": "NumPy", "ml-dtypes": "ml_dtypes"}


def environment_names(environment: str) -> list[str]:
    """``Python 3.13, jax==0.4.38, jaxlib==0.4.38`` as a reader says it: JAX 0.4.38, ..."""
    named = []
    for part in environment.split(", "):
        name, _sep, version = part.partition("==")
        if not version:
            named.append(part)
        else:
            named.append(f"{PACKAGE_NAMES.get(name, name)} {version}")
    return named


def reading_order(env: BuildEnvironment, root: str) -> list[str]:
    """The documents in the order a reader meets them, through the toctrees."""
    order: list[str] = []

    def visit(docname: str) -> None:
        if docname in order:
            return
        order.append(docname)
        for child in env.toctree_includes.get(docname, []):
            visit(child)

    visit(root)
    return order + sorted(set(env.found_docs) - set(order))


def _warn_if_older_than_the_pages(
    app: Sphinx, fromdoc: str, data: DriftData, language: str
) -> None:
    """A release that did not run an example as the page has it now, or whose differing
    example is no longer on a page, speaks of code the reader cannot see."""
    # The examples of this page's chapter (its directory): a chapter added since is not
    # one this report speaks of.
    chapter = Path(app.env.doc2path(fromdoc)).resolve().parent
    prefix = chapter.relative_to(Path(app.confdir).resolve()).as_posix() + "/"
    prefix = "" if prefix == "./" else prefix
    current = {
        place["code"]: where
        for found in _cells(app.env).values()
        for where, place in found.items()
        if where.startswith(prefix)
    }
    for release in sorted(data["releases"], key=Version):
        entry = data["releases"][release]
        ran = set(entry["ran"].get(language, []))
        gone = [
            f"{cell['file']}:{cell['line']}"
            for cell in entry["cells"].get(language, [])
            if cell["file"].startswith(prefix) and "code" in cell and cell["code"] not in current
        ]
        changed = sorted(where for code, where in current.items() if code not in ran)
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
                    location=(fromdoc, None),
                    type="jaxbook",
                    subtype="drift_report",
                )


def build_report(app: Sphinx, fromdoc: str, data: DriftData) -> list[nodes.Node]:
    env = app.env
    language = app.config.language
    places = {where: place for found in _cells(env).values() for where, place in found.items()}
    # A cell is found by its file and code first (an edit may have moved its line since
    # the drift run), by its line otherwise.
    by_code = {
        (where.rsplit(":", 1)[0], place["code"]): place
        for found in _cells(env).values()
        for where, place in found.items()
    }

    def place_of(cell: dict[str, Any]) -> dict[str, Any] | None:
        found = by_code.get((cell["file"], cell.get("code")))
        return found or places.get(f"{cell['file']}:{cell['line']}")

    _warn_if_older_than_the_pages(app, fromdoc, data, language)
    explained = _explained_by(env)
    names = outcome_names()
    order = {docname: i for i, docname in enumerate(reading_order(env, app.config.root_doc))}
    result: list[nodes.Node] = []
    for release in sorted(data["releases"], key=Version):
        entry = data["releases"][release]
        counts = entry["counts"].get(language, {})
        section = nodes.section(ids=[f"jax-{release.replace('.', '-')}"])
        section += nodes.title("", f"JAX {release}")
        # Data saved before drift told warnings apart does not list its outcomes; it
        # cannot say "0 warn".
        outcomes = entry.get("outcomes") or [key for key in names if key != "warns"]
        total = sum(counts.values())
        ran = _("Tested with %s.") % series(environment_names(entry["environment"]))
        if counts.get("same", 0) == total:
            tally = (
                ngettext(
                    "The %d example of this chapter prints what the page shows.",
                    "All %d examples of this chapter print what the pages show.",
                    total,
                )
                % total
            )
        else:
            tally = _("Of the %(total)d examples of this chapter, %(outcomes)s.") % {
                "total": total,
                "outcomes": series(outcome_counts(counts, outcomes)),
            }
        # Chinese sentences follow each other without a space.
        section += nodes.paragraph("", ran + ("" if ran.endswith("。") else " ") + tally)
        cells = entry["cells"].get(language, [])

        def position(cell: dict[str, Any]) -> tuple[int, int]:
            place = place_of(cell)
            return (order.get(place["docname"], len(order)) if place else len(order), cell["line"])

        current_page = None
        for cell in sorted(cells, key=position):
            place = place_of(cell)
            page = env.titles[place["docname"]].astext() if place else cell["file"]
            if page != current_page:
                section += nodes.rubric("", page)
                current_page = page
            section += _cell_heading(app, fromdoc, cell, place, explained, names)
            detail = cell.get("detail", "")
            if cell["outcome"] == "assert" and place and place["asserts"]:
                section += nodes.paragraph(
                    "",
                    ngettext(
                        "The assert that fails:",
                        "One of these asserts fails:",
                        len(place["asserts"]),
                    ),
                )
                asserts = "\n".join(place["asserts"])
                section += nodes.literal_block(asserts, asserts, language="python")
                continue
            section += nodes.literal_block(detail, detail, language="diff")
            if cell.get("cut"):
                section += nodes.paragraph(
                    "",
                    ngettext("(%d more line left out)", "(%d more lines left out)", cell["cut"])
                    % cell["cut"],
                    classes=["jb-drift-cut"],
                )
        result.append(section)
    for node in result:
        for text in node.findall(nodes.TextElement):
            text["translatable"] = False
    return result


def resolve(app: Sphinx, doctree: nodes.document, fromdoc: str) -> None:
    for placeholder in list(doctree.findall(drift_report)):
        if app.builder.name == "gettext":
            # Its text comes from this package's catalog, not the page's: nothing to
            # extract, and a translator's catalogs do not wait on make release-report.
            placeholder.replace_self([])
            continue
        name = app.config.jaxbook_release_drift
        path = Path(app.srcdir, name) if name else None
        if path is None or not path.exists():
            logger.warning(
                "drift-report: no drift file %r; run 'make release-report'",
                name,
                location=placeholder,
                type="jaxbook",
                subtype="drift_report",
            )
            placeholder.replace_self([])
            continue
        try:
            data = read_drift(path)
        except FormatError as error:
            logger.warning(
                error.sentence, location=error.location, type="jaxbook", subtype="drift_report"
            )
            placeholder.replace_self([])
            continue
        placeholder.replace_self(build_report(app, fromdoc, data))


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    app.setup_extension("jaxbook.sphinxext.notes")
    app.add_config_value("jaxbook_release_drift", "", "env", types=frozenset({str}))
    app.add_node(drift_report)
    app.add_directive("drift-report", DriftReportDirective)
    app.connect("doctree-read", collect_labels)
    app.connect("env-purge-doc", purge_labels)
    app.connect("env-merge-info", merge_labels)
    app.connect("env-get-outdated", outdated_reports)
    app.connect("doctree-resolved", resolve)
    return {
        "version": "1.0",
        # The cells' places and the pages with a report are kept on the environment.
        "env_version": 1,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
