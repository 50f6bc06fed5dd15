"""⚠️ update notes and the generated update-notes table.

An update note marks a place where the chapter corrects an outdated claim.
Its argument is the one-line point shown in the table; its body is the note
shown on the page; ``:verified-by:`` names the labels of the doctest blocks
that prove it::

    .. update-note:: JAX is not lazy: it dispatches each operation asynchronously
       :id: async-dispatch
       :verified-by: check-async-dispatch

       Body of the note.

A note that says how an older JAX release behaved names the probes that
check it on real releases, ``:evidence: device-method`` (comma-separated),
and, where the claim is about one old output, that output: ``:old:
dot-value=10.811179161071777``. This extension keeps both with the note;
``jaxbook.sphinxext.evidence_column`` turns them into the table's "Changed
in" column and checks them against the evidence file.

A second note with the same ``:id:`` and no argument adds another location to
the same row. ``.. update-notes-table::`` is replaced at build time by a table
with one row per id, in reading order, linking to each note and to each
verifying block. A table lists the notes of the pages in its own directory
and below, so a book of many chapters has one table per chapter
(``chNN/update-notes``), each numbered from 1; a note links to the table of
its chapter. The build warns, with a location, about an id without a point
or with two, and about a ``:verified-by:`` label that does not exist; these
warnings are of type ``jaxbook`` and subtype ``notes``
(``suppress_warnings = ["jaxbook.notes"]`` silences them).

The shape follows ``sphinx.ext.todo``: notes are collected in the environment
at read time (``env_version`` in the metadata names the shape of what is kept
there), merged for parallel builds, and the placeholder node is replaced when
the doctree is resolved. Other extensions read the notes through the public
queries, :func:`rows` and :func:`table_docnames`, never the environment's
attributes.

Events:

``update-notes-columns(app, fromdoc)``
   Emitted for each table as it is built; a handler returns a :class:`Column`
   to add after the five (No., Section, Point, Where, Verified by), or None.
   With any such column the five take their narrow widths.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from jaxbook.sphinxext._locale import _, add_catalog

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

SECTION_NUMBER = re.compile(r"^\s*(\d+(?:\.\d+)+)")
# Of 100: the five columns alone, and beside the columns that other extensions add.
WIDTHS = [5, 8, 45, 27, 15]
NARROW_WIDTHS = [4, 6, 30, 16, 10]
# The shape of what is kept on the environment; a new shape takes the next number.
ENV_VERSION = 1


@dataclass(frozen=True)
class Column:
    """A column that another extension adds to the table (``update-notes-columns``)."""

    header: str
    width: int  # of 100, beside NARROW_WIDTHS
    cell: Callable[[dict[str, Any]], nodes.Element]  # a row of rows() -> its cell's paragraph


class update_note(nodes.Admonition, nodes.Element):
    """A ⚠️ note; ``node['note_id']`` names its row in the table."""


class update_note_point(nodes.paragraph):
    """The note's one-line point, shown as its title and copied into the table."""


class update_notes_table(nodes.General, nodes.Element):
    """Placeholder replaced by the generated table."""


def _id_list(argument: str) -> list[str]:
    return [label.strip() for label in argument.split(",") if label.strip()]


class UpdateNoteDirective(SphinxDirective):
    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar[dict[str, Any]] = {
        "id": directives.unchanged_required,
        "verified-by": _id_list,
        "evidence": _id_list,
        "old": directives.unchanged_required,
        # A note that warns of a hazard (code that silently does the wrong thing); the
        # others correct the course and are not warnings.
        "warning": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        note_id = self.options.get("id")
        if not note_id:
            raise self.error("update-note needs an :id: option")
        serial = self.env.new_serialno(f"update-note-{note_id}")
        anchor = f"update-note-{note_id}" + (f"-{serial}" if serial else "")
        node = update_note(
            note_id=note_id,
            verified_by=self.options.get("verified-by", []),
            evidence=self.options.get("evidence", []),
            old=self.options.get("old"),
            warning="warning" in self.options,
            ids=[anchor],
            classes=["admonition", "warning", "jb-update-note"],
        )
        self.set_source_info(node)
        # The theme draws the warning sign of a "warning" admonition itself.
        label = nodes.inline("", _("Note"), classes=["jb-note-label"])
        # The label comes from this extension's catalog, not the page's.
        title = nodes.title("", "", label, translatable=False)
        messages: list[nodes.Node] = []
        if self.arguments:
            point_text = self.arguments[0]
            inline, messages = self.parse_inline(point_text, lineno=self.lineno)
            point = update_note_point(point_text, "", *inline, classes=["jb-note-point"])
            self.set_source_info(point)
            node += title
            node += point
        else:
            node += title
        node += self.parse_content_to_nodes()
        return [node, *messages]


class UpdateNotesTableDirective(SphinxDirective):
    option_spec: ClassVar[dict[str, Any]] = {}

    def run(self) -> list[nodes.Node]:
        node = update_notes_table()
        self.set_source_info(node)
        return [node]


# -- collecting ------------------------------------------------------------


def _notes(env: BuildEnvironment) -> dict[str, list[dict[str, Any]]]:
    if not hasattr(env, "jaxbook_update_notes"):
        env.jaxbook_update_notes = {}
    return env.jaxbook_update_notes


def _tables(env: BuildEnvironment) -> set[str]:
    if not hasattr(env, "jaxbook_update_tables"):
        env.jaxbook_update_tables = set()
    return env.jaxbook_update_tables


def table_docnames(env: BuildEnvironment) -> list[str]:
    """The documents that hold an ``update-notes-table``, sorted."""
    return sorted(_tables(env))


def collect_notes(app: Sphinx, doctree: nodes.document) -> None:
    """Store this document's (already translated) notes in the environment."""
    docname = app.env.current_document.docname
    if any(True for _node in doctree.findall(update_notes_table)):
        _tables(app.env).add(docname)
    found = []
    for position, node in enumerate(doctree.findall(update_note)):
        points = list(node.findall(update_note_point))
        found.append(
            {
                "id": node["note_id"],
                "docname": docname,
                "anchor": node["ids"][0],
                "position": position,
                "line": node.line,
                "source": node.source,
                "point": points[0].deepcopy() if points else None,
                "verified_by": list(node["verified_by"]),
                "evidence": list(node.get("evidence", [])),
                "old": node.get("old"),
            }
        )
    if found:
        _notes(app.env)[docname] = found


def purge_notes(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    _notes(env).pop(docname, None)
    _tables(env).discard(docname)


def merge_notes(
    app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment
) -> None:
    for docname, found in _notes(other).items():
        if docname in docnames:
            _notes(env)[docname] = found
    _tables(env).update(_tables(other) & set(docnames))


def outdated_tables(
    app: Sphinx, env: BuildEnvironment, added: Set[str], changed: Set[str], removed: Set[str]
) -> list[str]:
    """Rebuild the tables that list a changed page's notes (all of them when pages come or go)."""
    if added or removed:
        return sorted(_tables(env))
    return sorted(table for table in _tables(env) if any(_covers(table, d) for d in changed))


# -- resolving ---------------------------------------------------------------


def reading_order(env: BuildEnvironment) -> list[str]:
    """Documents in the order a reader meets them through the toctrees."""
    order: list[str] = []

    def walk(docname: str) -> None:
        if docname in order:
            return
        order.append(docname)
        for child in env.toctree_includes.get(docname, []):
            walk(child)

    walk(env.config.root_doc)
    order.extend(sorted(set(env.found_docs) - set(order)))
    return order


def _covers(table_doc: str | None, docname: str) -> bool:
    """Whether the table on ``table_doc`` lists the notes of ``docname`` (same dir or below)."""
    if table_doc is None:
        return True
    directory = table_doc.rpartition("/")[0]
    return not directory or docname.startswith(directory + "/")


def rows(
    env: BuildEnvironment, *, warn: bool = False, table_doc: str | None = None
) -> list[dict[str, Any]]:
    """One row per note id, numbered in reading order; optionally warns about bad ids.

    With ``table_doc``, only the notes that table lists. A row is a dict: ``id``,
    ``number``, ``notes`` (each occurrence, in reading order: ``id``, ``docname``,
    ``anchor``, ``line``, ``source``, ``point``, ``verified_by``, ``evidence``
    (probe names), ``old`` (``probe=answer`` or None)) and ``point`` (the
    occurrence that gives the point, or None).
    """
    rank = {docname: i for i, docname in enumerate(reading_order(env))}
    occurrences = sorted(
        (
            note
            for docname, found in _notes(env).items()
            if _covers(table_doc, docname)
            for note in found
        ),
        key=lambda note: (rank.get(note["docname"], len(rank)), note["position"]),
    )
    by_id: dict[str, dict[str, Any]] = {}
    for note in occurrences:
        row = by_id.setdefault(note["id"], {"id": note["id"], "notes": [], "point": None})
        row["notes"].append(note)
        if note["point"] is not None:
            if row["point"] is None:
                row["point"] = note
            elif warn:
                _warn(
                    note,
                    "update note %r has a point in two places; give the point once and "
                    "leave the other occurrences without an argument",
                )
    # Numbered where the reader first meets the note, wherever its point is given.
    ordered = sorted(by_id.values(), key=lambda row: occurrences.index(row["notes"][0]))
    for number, row in enumerate(ordered, start=1):
        row["number"] = number
        if row["point"] is None and warn:
            first = row["notes"][0]
            _warn(first, "update note %r has no point: give one occurrence an argument")
    return ordered


def _labels(row: dict[str, Any]) -> list[str]:
    return list(dict.fromkeys(lbl for note in row["notes"] for lbl in note["verified_by"]))


def _warn(note: dict[str, Any], message: str, *args: Any) -> None:
    """A warning at the note, about its id (the message's first %r)."""
    logger.warning(
        message,
        note["id"],
        *args,
        location=(note["docname"], note["line"]),
        type="jaxbook",
        subtype="notes",
    )


def check_notes(app: Sphinx, env: BuildEnvironment) -> None:
    """Warn once per build about ids without a point or with two, and unknown labels."""
    std = env.domains.standard_domain
    for row in rows(env, warn=True):
        for label in _labels(row):
            if label not in std.anonlabels:
                note = next(n for n in row["notes"] if label in n["verified_by"])
                _warn(note, "update note %r: no label %r for its verifying block", label)


def _section_label(env: BuildEnvironment, docname: str) -> str:
    title = env.titles[docname].astext() if docname in env.titles else docname
    match = SECTION_NUMBER.match(title)
    return match.group(1) if match else title


def _link(builder: Builder, fromdoc: str, todoc: str, anchor: str, text: str) -> nodes.reference:
    uri = builder.get_relative_uri(fromdoc, todoc) + "#" + anchor
    return nodes.reference("", text, internal=True, refuri=uri)


def _cell(*children: nodes.Node) -> nodes.entry:
    para = nodes.paragraph()
    for i, child in enumerate(children):
        if i:
            para += nodes.Text(_("; "))
        para += child
    return nodes.entry("", para)


def build_table(app: Sphinx, fromdoc: str, table_rows: list[dict[str, Any]]) -> nodes.table:
    env, builder = app.env, app.builder
    std = env.domains.standard_domain
    columns = [column for column in app.emit("update-notes-columns", fromdoc) if column]
    headers = [_("No."), _("Section"), _("Point"), _("Where"), _("Verified by")]
    headers += [column.header for column in columns]
    widths = (NARROW_WIDTHS if columns else WIDTHS) + [column.width for column in columns]
    table = nodes.table(classes=["jb-update-notes", "colwidths-given"])
    group = nodes.tgroup(cols=len(headers))
    table += group
    for width in widths:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    head += nodes.row("", *(nodes.entry("", nodes.paragraph("", h)) for h in headers))
    group += head
    body = nodes.tbody()
    group += body
    for row in table_rows:
        docnames = list(dict.fromkeys(note["docname"] for note in row["notes"]))
        sections = ""
        for label in dict.fromkeys(_section_label(env, d) for d in docnames):
            sections = _("%s, %s") % (sections, label) if sections else label
        point = row["point"]["point"] if row["point"] else None
        point_para = nodes.paragraph("", "", *(point.deepcopy().children if point else []))
        where = [
            _link(
                builder,
                fromdoc,
                note["docname"],
                note["anchor"],
                env.titles[note["docname"]].astext(),
            )
            for note in row["notes"]
        ]
        checks = []
        for label in _labels(row):
            target = std.anonlabels.get(label)
            if target is None:
                continue
            docname, anchor = target
            checks.append(
                _link(
                    builder,
                    fromdoc,
                    docname,
                    anchor,
                    f"✔ {_section_label(env, docname)}",
                )
            )
        row_node = nodes.row(ids=[f"update-row-{row['id']}"])
        row_node += nodes.entry("", nodes.paragraph("", str(row["number"])))
        row_node += nodes.entry("", nodes.paragraph("", sections))
        row_node += nodes.entry("", point_para)
        row_node += _cell(*where)
        row_node += _cell(*checks)
        for column in columns:
            row_node += nodes.entry("", column.cell(row))
        body += row_node
    # The cells repeat text that is translated where the notes stand.
    for node in table.findall(nodes.TextElement):
        node["translatable"] = False
    return table


def _table_docname(env: BuildEnvironment, docname: str) -> str | None:
    """The table that lists this page's notes: the nearest one up its directories."""
    tables = [table for table in sorted(_tables(env)) if _covers(table, docname)]
    return max(tables, key=lambda table: table.count("/")) if tables else None


def resolve(app: Sphinx, doctree: nodes.document, fromdoc: str) -> None:
    env = app.env
    table_doc = _table_docname(env, fromdoc)
    table_rows = rows(env, table_doc=table_doc) if _notes(env) else []
    numbers = {row["id"]: row["number"] for row in table_rows}
    for note in doctree.findall(update_note):
        number = numbers.get(note["note_id"])
        if number is None or table_doc is None:
            continue
        title = next(iter(note.findall(nodes.title)))
        backlink = _link(
            app.builder,
            fromdoc,
            table_doc,
            f"update-row-{note['note_id']}",
            _("update note #%s") % number,
        )
        backlink["classes"].append("jb-note-backlink")
        title += nodes.Text(" · ")
        title += backlink
    for placeholder in list(doctree.findall(update_notes_table)):
        if app.builder.format not in {"html", "latex"}:
            placeholder.parent.remove(placeholder)
            continue
        table = build_table(app, fromdoc, rows(env, table_doc=fromdoc))
        if app.builder.format == "latex":
            # Longer than a page: let LaTeX break it and repeat the header.
            table["classes"].append("longtable")
        placeholder.replace_self(table)


def visit_note_html(self: Any, node: update_note) -> None:
    self.visit_admonition(node)


def depart_note(self: Any, node: update_note) -> None:
    self.depart_admonition(node)


def visit_note_latex(self: Any, node: update_note) -> None:
    # A warning box, as the theme draws it on the web; its title is the label.
    self.body.append("\n" + self.hypertarget_to(node) + r"\begin{sphinxadmonition}{warning}")
    self.no_latex_floats += 1


def _visit_passthrough(self: Any, node: nodes.Element) -> None:
    pass


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    app.add_event("update-notes-columns")
    passthrough = (_visit_passthrough, _visit_passthrough)
    app.add_node(
        update_note,
        html=(visit_note_html, depart_note),
        latex=(visit_note_latex, depart_note),
        text=passthrough,
        man=passthrough,
        texinfo=passthrough,
    )
    app.add_node(update_note_point)
    app.add_node(update_notes_table)
    app.add_directive("update-note", UpdateNoteDirective)
    app.add_directive("update-notes-table", UpdateNotesTableDirective)
    app.connect("doctree-read", collect_notes)
    app.connect("env-purge-doc", purge_notes)
    app.connect("env-merge-info", merge_notes)
    app.connect("env-get-outdated", outdated_tables)
    app.connect("env-check-consistency", check_notes)
    app.connect("doctree-resolved", resolve)
    return {
        "version": "1.0",
        "env_version": ENV_VERSION,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
