"""⚠️ update notes and the generated update-notes table.

The ``update-note`` directive marks where a chapter corrects an outdated claim
(:class:`UpdateNoteDirective`); ``update-notes-table`` becomes a table of the notes of its
directory and below, one row per note id, linking each note and its verifying blocks
(:class:`UpdateNotesTableDirective`). :class:`NotesDomain` keeps the notes; other extensions
read them through :func:`rows`, :func:`table_docnames` and :func:`table_of`. Warnings:
``jaxbook.notes`` (:func:`check_notes`).

Events:

``update-notes-columns(app, fromdoc)``
   Emitted for each table as it is built (``fromdoc``: the table's page); a handler
   returns a :class:`Column` to add after No., Note and See, or None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

from jaxbook.sphinxext import PARALLEL_SAFE, OwnRolesDomain, Xref, _chapters
from jaxbook.sphinxext._locale import _, add_catalog, sentence
from jaxbook.sphinxext._nodes import PASSTHROUGH, detached, enclosing

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

# Of 100: the three columns alone, and beside the columns that other extensions add. The
# numbers' column is as wide as its Chinese header, 编号, set on one line (at 7 it wrapped,
# "编" / "号", in the Chinese PDF).
WIDTHS = [8, 55, 37]
# The three columns' widths beside any column another extension adds (update-notes-columns):
# the "See" column is the widest, as it names each section by number and title, with its page.
NARROW_WIDTHS = [9, 35, 38]


@dataclass(frozen=True)
class Note:
    """One occurrence of an update note, as its page has it."""

    id: str
    docname: str
    anchor: str
    position: int  # among the page's notes
    line: int | None
    point: nodes.Element | None  # the one-line point, when this occurrence gives it
    verified_by: tuple[str, ...]  # labels of the blocks that verify it
    evidence: tuple[str, ...]  # probe names
    old: str | None  # "probe=answer": an old output the note speaks of
    warning: bool = False  # a warning of code that goes wrong silently, not a correction

    @property
    def location(self) -> tuple[str, int | None]:
        """Where a warning about the note points: its page and line."""
        return self.docname, self.line


@dataclass
class Row:
    """One row of a table: every occurrence of an id, numbered in reading order."""

    id: str
    number: int
    notes: list[Note]
    point: Note | None = None  # the occurrence that gives the point

    @property
    def labels(self) -> list[str]:
        return list(dict.fromkeys(label for note in self.notes for label in note.verified_by))

    @property
    def probes(self) -> list[str]:
        return list(dict.fromkeys(probe for note in self.notes for probe in note.evidence))

    @property
    def old(self) -> dict[str, str]:
        """The old answer the row claims for some of its probes."""
        pairs = (note.old.split("=", 1) for note in self.notes if note.old and "=" in note.old)
        return dict((probe, answer) for probe, answer in pairs)

    @property
    def docnames(self) -> list[str]:
        return list(dict.fromkeys(note.docname for note in self.notes))


@dataclass(frozen=True)
class Column:
    """A column that another extension adds to the table (``update-notes-columns``)."""

    header: str
    width: int  # of 100, beside NARROW_WIDTHS
    cell: Callable[[Row], nodes.Element]  # a row -> its cell's paragraph, rows in order


class update_note(nodes.Admonition, nodes.Element):
    """A ⚠️ note; ``node['note_id']`` names its row, ``node['docname']`` its page."""


class update_note_point(nodes.paragraph):
    """The note's one-line point, shown as its title and copied into the table."""


class update_notes_table(nodes.General, nodes.Element):
    """Placeholder replaced by the generated table; ``node['docname']`` is its page, so that
    single-document builders (LaTeX, single HTML) still get one table per chapter."""


def _id_list(argument: str) -> list[str]:
    return [label.strip() for label in argument.split(",") if label.strip()]


class UpdateNoteDirective(SphinxDirective):
    """An update note: its argument is the one-line point shown in the table, its body the
    note on the page, ``:verified-by:`` the labels of the doctest blocks that prove it::

        .. update-note:: JAX is not lazy: it dispatches each operation asynchronously
           :id: async-dispatch
           :verified-by: check-async-dispatch

           Body of the note.

    A second note with the same ``:id:`` and no argument adds a place to the same row.
    ``:evidence:`` (comma-separated) names the probes that check, on real releases, a note
    about how an older JAX behaved, and ``:old: probe=answer`` the one old output it is
    about: :mod:`jaxbook.sphinxext.evidence_column` turns them into the "Changed in" column.
    """

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
            docname=self.env.current_document.docname,
            verified_by=self.options.get("verified-by", []),
            evidence=self.options.get("evidence", []),
            old=self.options.get("old"),
            warning="warning" in self.options,
            ids=[anchor],
            classes=["jb-update-note"]
            + (
                ["admonition", "warning"] if "warning" in self.options else ["jb-update-note-plain"]
            ),
        )
        self.set_source_info(node)
        # A warning's label; a correction's title is its number alone (resolve() writes it).
        # The theme draws the warning sign of a "warning" admonition itself.
        label = nodes.inline(
            "",
            # Translators: The label of an update note that warns (a box in the text):
            # "Warning · Update note 5".
            _("Warning") if "warning" in self.options else "",
            classes=["jb-note-label"],
        )
        # The label comes from this extension's catalog, not the page's.
        title = nodes.title("", "", label, translatable=False)
        messages: list[nodes.system_message] = []
        node += title
        if self.arguments:
            point_text = self.arguments[0]
            inline, messages = self.parse_inline(point_text, lineno=self.lineno)
            point = update_note_point(point_text, "", *inline, classes=["jb-note-point"])
            self.set_source_info(point)
            node += point
        node += self.parse_content_to_nodes()
        return [node, *messages]


class UpdateNotesTableDirective(SphinxDirective):
    """The table of the notes of its directory and below, so each chapter has its own
    (``chNN/update-notes``), numbered from 1; a note links to its chapter's table."""

    option_spec: ClassVar[dict[str, Any]] = {}

    def run(self) -> list[nodes.Node]:
        node = update_notes_table(docname=self.env.current_document.docname)
        self.set_source_info(node)
        return [node]


# -- collecting ------------------------------------------------------------


class NotesDomain(OwnRolesDomain):
    """Each page's update notes, and the pages that hold a table of them.

    Modeled on ``sphinx.ext.todo``: it keeps each page's notes (:class:`Note`, already
    translated), forgets a reread page and merges parallel readers. The post-transforms'
    links are ``pending_xref`` nodes of this domain: ``row`` (a note's row) and ``place``
    (``docname#anchor``: a note or a verifying block)."""

    name = "jaxbook_notes"
    label = "Update notes"
    initial_data: ClassVar[dict[str, Any]] = {
        "notes": {},
        "tables": {},
        "sections": {},
        "titles": {},
    }
    # The shape of the records; a new shape takes the next number.
    data_version = 6

    @property
    def notes(self) -> dict[str, list[Note]]:
        return self.data["notes"]

    @property
    def tables(self) -> dict[str, bool]:
        return self.data["tables"]

    @property
    def sections(self) -> dict[str, dict[str, str]]:
        """docname -> {label of a block on the page -> the title of the section it is in}."""
        return self.data["sections"]

    @property
    def titles(self) -> dict[str, dict[str, nodes.Element]]:
        """docname -> {label of a block on the page -> that section's title, as its nodes:
        the table sets a name of code in it as code}."""
        return self.data["titles"]

    def clear_doc(self, docname: str) -> None:
        self.notes.pop(docname, None)
        self.tables.pop(docname, None)
        self.sections.pop(docname, None)
        self.titles.pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for docname in docnames:
            if docname in otherdata["notes"]:
                self.notes[docname] = otherdata["notes"][docname]
            if docname in otherdata["tables"]:
                self.tables[docname] = True
            if docname in otherdata["sections"]:
                self.sections[docname] = otherdata["sections"][docname]
            if docname in otherdata["titles"]:
                self.titles[docname] = otherdata["titles"][docname]

    def process_doc(self, env: BuildEnvironment, docname: str, document: nodes.document) -> None:
        if any(True for _node in document.findall(update_notes_table)):
            self.tables[docname] = True
        found = []
        for position, node in enumerate(document.findall(update_note)):
            points = list(node.findall(update_note_point))
            found.append(
                Note(
                    id=node["note_id"],
                    docname=docname,
                    anchor=node["ids"][0],
                    position=position,
                    line=node.line,
                    point=detached(points[0]) if points else None,
                    verified_by=tuple(node["verified_by"]),
                    evidence=tuple(node.get("evidence", [])),
                    old=node.get("old"),
                    warning=bool(node.get("warning")),
                )
            )
        if found:
            self.notes[docname] = found
        # The table names a verifying block by the section it stands in.
        sections: dict[str, str] = {}
        titles: dict[str, nodes.Element] = {}
        for block in document.findall(nodes.literal_block):
            section = enclosing(block, nodes.section)
            if section is not None and section.children:
                title = section[0]
                for label in block["ids"]:
                    sections[label] = title.astext()
                    if isinstance(title, nodes.Element):
                        titles[label] = detached(title)
        if sections:
            self.sections[docname] = sections
            self.titles[docname] = titles

    # The links the post-transforms below make (OwnRolesDomain.resolve_xref dispatches).

    def _resolve_row_xref(self, xref: Xref) -> nodes.reference | None:
        """A note's row in the table that lists its page (``node["notedoc"]``)."""
        table_doc = table_of(self.env, xref.node["notedoc"])
        if table_doc is None:
            return None
        return self._link(xref, table_doc, row_anchor(xref.target))

    def _resolve_place_xref(self, xref: Xref) -> nodes.reference:
        """``docname#anchor``: a note, a verifying block (:func:`place`)."""
        todoc, _sep, anchor = xref.target.partition("#")
        return self._link(xref, todoc, anchor)

    @staticmethod
    def _link(xref: Xref, todoc: str, anchor: str) -> nodes.reference:
        # All the node's children: Sphinx passes only the first as ``contnode``, and a title
        # with code in it is several.
        children = (child.deepcopy() for child in xref.node.children)
        reference = link(xref.builder, xref.fromdocname, todoc, anchor, *children)
        reference["classes"] += xref.node["classes"]
        return reference


def _domain(env: BuildEnvironment) -> NotesDomain:
    domain = env.domains[NotesDomain.name]
    assert isinstance(domain, NotesDomain), "setup() adds the domain under its name"
    return domain


def table_docnames(env: BuildEnvironment) -> list[str]:
    """The documents that hold an ``update-notes-table``, sorted."""
    return sorted(_domain(env).tables)


def table_of(env: BuildEnvironment, docname: str) -> str | None:
    """The table that lists this page's notes: the nearest one up its directories."""
    return _chapters.nearest(table_docnames(env), docname)


def outdated_tables(
    app: Sphinx, env: BuildEnvironment, added: Set[str], changed: Set[str], removed: Set[str]
) -> list[str]:
    """Read the tables again when pages come or go (an edited page's table is
    :func:`tables_changed`'s)."""
    return table_docnames(env) if added or removed else []


def tables_changed(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """The tables that list the notes of a page read since they were written, written again:
    each is made as it is written (:class:`BuildTables`), so it need not be read again."""
    return _chapters.written_before_their_chapter(app, env, table_docnames(env))


# -- resolving ---------------------------------------------------------------


def rows(env: BuildEnvironment, *, table_doc: str | None = None, warn: bool = False) -> list[Row]:
    """One row per note id, numbered in reading order; optionally warns about bad ids.

    With ``table_doc``, only the notes that table lists (its chapter's).
    """
    rank = {docname: i for i, docname in enumerate(_chapters.reading_order(env))}
    occurrences = sorted(
        (
            note
            for docname, found in env.domaindata[NotesDomain.name]["notes"].items()
            if table_doc is None or _chapters.covers(table_doc, docname)
            for note in found
        ),
        key=lambda note: (rank.get(note.docname, len(rank)), note.position),
    )
    by_id: dict[str, Row] = {}
    for note in occurrences:
        row = by_id.setdefault(note.id, Row(id=note.id, number=0, notes=[]))
        row.notes.append(note)
        if note.point is not None:
            if row.point is None:
                row.point = note
            elif warn:
                warn_at(
                    note,
                    "update note %r has a point in two places; give the point once and "
                    "leave the other occurrences without an argument",
                )
    # Numbered where the reader first meets the note, wherever its point is given.
    for number, row in enumerate(by_id.values(), start=1):
        row.number = number
        if row.point is None and warn:
            warn_at(row.notes[0], "update note %r has no point: give one occurrence an argument")
    return list(by_id.values())


def warn_at(note: Note, message: str, *args: Any) -> None:
    """A warning at the note, about its id (the message's first %r)."""
    logger.warning(message, note.id, *args, location=note.location, type="jaxbook", subtype="notes")


def check_notes(app: Sphinx, env: BuildEnvironment) -> None:
    """Warn once per build about ids without a point or with two, and unknown labels."""
    std = env.domains.standard_domain
    for row in rows(env, warn=True):
        for label in row.labels:
            if label not in std.anonlabels:
                note = next(n for n in row.notes if label in n.verified_by)
                warn_at(note, "update note %r: no label %r for its verifying block", label)


def section_label(env: BuildEnvironment, docname: str) -> str:
    """A page as a table names it: its section number ("1.2", Sphinx's), or its title."""
    return _chapters.page_number(env, docname) or _chapters.numbered_title(env, docname)


def row_anchor(note_id: str) -> str:
    """The anchor of the row of the note ``note_id`` on its table's page."""
    return f"update-row-{note_id}"


def link(builder: Builder, fromdoc: str, todoc: str, anchor: str, *children: nodes.Node):
    """A link to ``anchor`` on ``todoc``, right in any builder (one file per page or one)."""
    node = make_refnode(builder, fromdoc, todoc, anchor, list(children))
    if node.get("refuri", "").startswith("#"):  # the book is one page (single HTML)
        del node["refuri"]
        node["refid"] = anchor
    return node


# What of a title the table's cell keeps as it is: its text and its inline code, emphasis
# and the like; anything else (a link, say) as its text.
TITLE_PARTS = (nodes.Text, nodes.literal, nodes.emphasis, nodes.strong, nodes.inline)


def title_parts(title: nodes.Element) -> list[nodes.Node]:
    """A section's title as a cell names it: a name of code in it stays code ("1.5
    ``jax.random.key`` and ...", set in the code face on paper too), without its targets
    and index entries."""
    parts: list[nodes.Node] = []
    for child in title.children:
        if isinstance(child, (nodes.target, addnodes.index)):
            continue
        parts.append(
            child.deepcopy() if isinstance(child, TITLE_PARTS) else nodes.Text(child.astext())
        )
    return parts


def page_title(env: BuildEnvironment, docname: str) -> list[nodes.Node]:
    """A page's title with its number ("1.5 Arrays"), as :func:`title_parts` keeps it."""
    title = env.titles.get(docname)
    if title is None:
        return [nodes.Text(_chapters.numbered_title(env, docname))]
    number = _chapters.page_number(env, docname)
    return [*([nodes.Text(f"{number} ")] if number else []), *title_parts(title)]


def _cell(*children: nodes.Node) -> nodes.entry:
    para = nodes.paragraph()
    for i, child in enumerate(children):
        if i:
            # Translators: Between two items in one cell of the update notes' table.
            para += nodes.Text(_("; "))
        para += child
    return nodes.entry("", para)


def place(docname: str, anchor: str, *children: nodes.Node) -> addnodes.pending_xref:
    """A link to ``anchor`` on ``docname`` (a note, a verifying block), which the domain
    resolves with the builder (:meth:`NotesDomain.resolve_xref`)."""
    return addnodes.pending_xref(
        "", *children, refdomain=NotesDomain.name, reftype="place", reftarget=f"{docname}#{anchor}"
    )


def build_table(env: BuildEnvironment, table_doc: str) -> nodes.table:
    std = env.domains.standard_domain
    columns = [column for column in env.events.emit("update-notes-columns", table_doc) if column]
    headers = [
        # Translators: The header of the update notes' table's column of note numbers.
        _("No."),
        # Translators: The header of the update notes' table's column of the notes' points.
        _("Note"),
        # Translators: The header of the update notes' table's column of the sections that
        # show each note.
        _("See"),
    ]
    reading = _chapters.reading_order(env)
    headers += [column.header for column in columns]
    widths = (NARROW_WIDTHS if columns else WIDTHS) + [column.width for column in columns]
    table = nodes.table(classes=["jb-update-notes", "colwidths-given"])
    tgroup = nodes.tgroup(cols=len(headers))
    table += tgroup
    for width in widths:
        tgroup += nodes.colspec(colwidth=width)
    head = nodes.thead()
    head += nodes.row("", *(nodes.entry("", nodes.paragraph("", h)) for h in headers))
    tgroup += head
    body = nodes.tbody()
    tgroup += body
    for row in rows(env, table_doc=table_doc):
        point = row.point.point if row.point else None
        point_para = nodes.paragraph("", "", *(point.deepcopy().children if point else []))
        if any(note.warning for note in row.notes):
            # The row of a warning says so, as its box in the text does.
            # Translators: Before the point of a row of the update notes' table whose note warns.
            point_para.insert(0, nodes.Text(_("Warning: ")))
            point_para["classes"].append("jb-note-warning")
        # The number links to the note in the text; "See" names each section that shows
        # it, by number and title ("1.2 Difference 3: Execution model"), linked to the
        # section's first verifying example, then any other page the note stands on.
        first_notes = list({note.docname: note for note in reversed(row.notes)}.values())[::-1]
        shown_in: dict[str, tuple[str, nodes.Node]] = {}
        whole_pages: set[str] = set()
        domain = _domain(env)
        for label in row.labels:
            target = std.anonlabels.get(label)
            if target is None:
                continue
            docname, anchor = target
            section = domain.sections.get(docname, {}).get(anchor)
            title = domain.titles.get(docname, {}).get(anchor)
            page = section_label(env, docname)
            if not section:
                # Before the page's first section: the page, by its whole title (dropped
                # below where a section of the page is named: one place per page is enough).
                name = _chapters.numbered_title(env, docname)
                whole_pages.add(name)
                shown = page_title(env, docname)
            elif section.startswith(page):  # the page's own title: "1.1 ..."
                name = section
                shown = title_parts(title) if title is not None else [nodes.Text(name)]
            else:
                name = f"{page} {section}"
                shown = [nodes.Text(f"{page} ")]
                shown += title_parts(title) if title is not None else [nodes.Text(section)]
            if name not in shown_in:
                shown_in[name] = (docname, place(docname, anchor, *shown))
        for name in whole_pages:
            docname = shown_in[name][0]
            if any(d == docname and n != name for n, (d, _node) in shown_in.items()):
                del shown_in[name]
        # In reading order, whatever order :verified-by: names them in.
        rank = {doc: i for i, doc in enumerate(reading)}
        checks = [
            node for _docname, node in sorted(shown_in.values(), key=lambda s: rank.get(s[0], 0))
        ]
        checked_pages = {docname for docname, _node in shown_in.values()}
        for note in first_notes:
            if note.docname not in checked_pages:
                # The page named in full ("1.5 Arrays"), as the other places are.
                whole = page_title(env, note.docname)
                checks.append(place(note.docname, note.anchor, *whole))
        first = first_notes[0]
        number = place(first.docname, first.anchor, nodes.Text(str(row.number)))
        row_node = nodes.row(ids=[row_anchor(row.id)])
        row_node += nodes.entry("", nodes.paragraph("", "", number))
        row_node += nodes.entry("", point_para)
        row_node += _cell(*checks)
        for column in columns:
            row_node += nodes.entry("", column.cell(row))
        body += row_node
    # The cells repeat text that is translated where the notes stand.
    for node in table.findall(nodes.TextElement):
        node["translatable"] = False
    return table


class NumberNotes(SphinxPostTransform):
    """Each note numbered as its table numbers it: a note's title links to its row ("Update
    note 5"), and a repeat becomes a pointer to the occurrence that gives its point ("See
    update note 5."). Before the references are resolved: the links are the domain's."""

    default_priority = 5
    formats = ("latex",)  # where a warning's title draws its sign (the web's theme draws it)

    def apply(self, **kwargs: Any) -> None:
        number_notes(self.env, self.document, sign=self.is_supported())


def number_notes(env: BuildEnvironment, doctree: nodes.Node, *, sign: bool) -> None:
    """The notes of ``doctree`` numbered (see :class:`NumberNotes`); ``sign``: a warning's
    title begins with its sign."""
    numbers: dict[str, dict[str, int]] = {}  # table -> note id -> its number there
    for note in list(doctree.findall(update_note)):
        table_doc = table_of(env, note["docname"])
        if table_doc is None:
            continue
        if table_doc not in numbers:
            numbers[table_doc] = {row.id: row.number for row in rows(env, table_doc=table_doc)}
        number = numbers[table_doc].get(note["note_id"])
        if number is None:
            continue
        title = next(iter(note.findall(nodes.title)))
        if len(note.children) == 1:  # a repeat: no point, no body
            # Translators: In running text, a link to an update note by its number: "See update
            # note 5."
            named = nodes.Text(_("update note %s") % number)
            # Not replace_self(), which would give the pointer the note's classes.
            note.parent.replace(note, _pointer(env, table_doc, note, named))
            continue
        # A warning's title is "Warning · Update note 5" (a label, as a correction's
        # "Update note 5" is); a pointer in running text says "update note 5".
        # Translators: The title of an update note's box in the text, with its number: "Update note
        # 5".
        named = nodes.Text(_("Update note %s") % number)
        # Its row in the table, linked by the domain (``row``).
        backlink = addnodes.pending_xref(
            "",
            named,
            refdomain=NotesDomain.name,
            reftype="row",
            reftarget=note["note_id"],
            notedoc=note["docname"],
            classes=["jb-note-backlink"],
        )
        if note.get("warning"):
            kind = title.children[:]
            title.clear()
            if sign:  # the web's theme draws the sign itself
                kind.insert(0, nodes.Text("⚠ "))
            # Each language joins the two labels its own way (注意（更新说明 5）).
            # Translators: The title of a warning's box: the label "Warning", then "Update note 5".
            title += sentence(str(_("%(kind)s · %(note)s")), kind=kind, note=backlink)
        else:
            title += backlink


def _pointer(
    env: BuildEnvironment, table_doc: str, repeat: update_note, named: nodes.Text
) -> nodes.paragraph:
    """A repeat of a note, as a pointer to the occurrence that gives its point."""
    [row] = [row for row in rows(env, table_doc=table_doc) if row.id == repeat["note_id"]]
    first = row.point or row.notes[0]
    target = place(first.docname, first.anchor, named)
    para = nodes.paragraph("", "", classes=["jb-note-pointer"], ids=repeat["ids"])
    # Translators: A pointer to an update note given earlier: "See update note 5."
    para += sentence(str(_("See %(note)s.")), note=target)
    return para


class LongTables(SphinxPostTransform):
    """In the PDF a table is longer than a page: LaTeX breaks it and repeats its header."""

    default_priority = 4
    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        for placeholder in self.document.findall(update_notes_table):
            placeholder["longtable"] = True


class BuildTables(SphinxPostTransform):
    """Each table in place of its placeholder, before the references are resolved (its links
    are the domain's) and before the theme's post-transforms: on the web furo wraps it (at
    500) as it wraps every table, so that on a phone it scrolls sideways inside its own box
    instead of widening the page. The site and the PDF have the table, other builders
    nothing."""

    default_priority = 5
    formats = ("html", "latex")

    def apply(self, **kwargs: Any) -> None:
        shown = self.is_supported()
        for placeholder in list(self.document.findall(update_notes_table)):
            if not shown:
                placeholder.parent.remove(placeholder)
                continue
            table = build_table(self.env, placeholder["docname"])
            if placeholder.get("longtable"):
                table["classes"].append("longtable")
            placeholder.replace_self(table)


def visit_note_html(self: Any, node: update_note) -> None:
    if node.get("warning"):
        self.visit_admonition(node)
    else:  # a correction of the course: text with its number, not a warning box
        self.body.append(self.starttag(node, "div", CLASS="jb-update-note-plain"))


def depart_note(self: Any, node: update_note) -> None:
    if node.get("warning"):
        self.depart_admonition(node)
    else:
        self.body.append("</div>\n")


def visit_note_latex(self: Any, node: update_note) -> None:
    # A warning box, as the theme draws it on the web; a correction a lighter one. The
    # title (label and number) is the box's title.
    kind = "warning" if node.get("warning") else "note"
    self.body.append("\n" + self.hypertarget_to(node) + rf"\begin{{sphinxadmonition}}{{{kind}}}")
    self.no_latex_floats += 1


def depart_note_latex(self: Any, node: update_note) -> None:
    self.depart_admonition(node)


def visit_point_latex(self: Any, node: update_note_point) -> None:
    # The point is the note's headline, in bold as on the web, set as a heading (jaxbook.sty).
    self.body.append(r"{\jbheadline")
    self.visit_paragraph(node)
    self.body.append(r"\textbf{")


def depart_point_latex(self: Any, node: update_note_point) -> None:
    # It goes over with the first lines it heads (jaxbook.sty).
    self.body.append(r"}\par}")
    self.depart_paragraph(node)
    self.body.append(r"\jbkeepwithnextlines" + "\n")


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    app.add_event("update-notes-columns")
    app.add_node(
        update_note,
        html=(visit_note_html, depart_note),
        latex=(visit_note_latex, depart_note_latex),
        **PASSTHROUGH,
    )
    app.add_node(update_note_point, latex=(visit_point_latex, depart_point_latex))
    app.add_node(update_notes_table)
    app.add_domain(NotesDomain)
    app.add_directive("update-note", UpdateNoteDirective)
    app.add_directive("update-notes-table", UpdateNotesTableDirective)
    app.connect("env-get-outdated", outdated_tables)
    app.connect("env-get-updated", tables_changed)
    app.connect("env-check-consistency", check_notes)
    app.add_post_transform(NumberNotes)
    app.add_post_transform(LongTables)
    app.add_post_transform(BuildTables)
    # What the domain keeps is versioned by its data_version.
    return {"version": "1.0", "env_version": NotesDomain.data_version, **PARALLEL_SAFE}
