"""The update-notes table's "Changed in" column, from the release evidence file.

A note that says how an older JAX release behaved names the probes that
check it on real releases, ``:evidence: device-method`` (comma-separated;
see ``jaxbook.releases.probes``), and, where the claim is about one old
output, that output: ``:old: dot-value=10.811179161071777``
(``jaxbook.sphinxext.notes`` reads both options with the note). This
extension adds a "Changed in" column to every ``update-notes-table``, which
says, from the evidence file that ``jaxbook evidence`` writes, in which
release each row's behavior changed and what each era showed (the sentences
of ``jaxbook.sphinxext._eras``), or that the old output is not reproducible
on any release that installs; a row that names no probe shows "—".

The column is added through ``jaxbook.sphinxext.notes``'s
``update-notes-columns`` event, which this extension sets up first; it reads
the notes through :func:`jaxbook.sphinxext.notes.rows` and keeps nothing in
the environment (so it has no ``env_version``). The file is read once per
change of its modification time, so a long-lived preview builder sees a new
one.

The build warns, at the note, about an ``:evidence:`` probe that the file
lacks, about a note whose point speaks of an older release ("不再", "已移除",
"no longer", …) but names no probe, and about an era of a probe for whose
answer the file has no sentence. These warnings are of type ``jaxbook`` and
subtype ``evidence`` (``suppress_warnings = ["jaxbook.evidence"]`` silences
them); a file of another format or shape is one warning at the file, of
subtype ``format``, and the table then has no "Changed in" column.

Config values:

``jaxbook_release_evidence``
   The evidence file, relative to the source directory (default ``""``: no
   "Changed in" column, and no warning of this extension). It is a
   ``jaxbook.releases.evidence.Evidence`` of format ``evidence.FORMAT``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.util import logging

from jaxbook.doctest.formats import FormatError
from jaxbook.releases.evidence import read_evidence
from jaxbook.sphinxext import notes
from jaxbook.sphinxext._eras import era_nodes, span
from jaxbook.sphinxext._locale import _, add_catalog

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

# Words with which a point says that an older release behaved otherwise.
CHANGE_WORDS = re.compile(r"不再|已移除|旧接口|no longer|removed|legacy", re.IGNORECASE)
WIDTH = 34  # of 100: the five columns of jaxbook.sphinxext.notes take their narrow widths


def load_evidence(app: Sphinx) -> dict[str, Any] | None:
    """The evidence file's data; None without a file configured, or with one that does not fit."""
    name = app.config.jaxbook_release_evidence
    if not name:
        return None
    path = Path(app.srcdir, name)
    stamp = path.stat().st_mtime if path.exists() else None
    # Read once per change of the file: a file that does not fit is one warning, not one
    # per table.
    cached = getattr(app, "_jaxbook_evidence", None)
    if cached is None or cached[0] != stamp:
        app._jaxbook_evidence = (stamp, _read(path) if stamp else {"probes": {}})
    return app._jaxbook_evidence[1]


def _read(path: Path) -> dict[str, Any] | None:
    try:
        return read_evidence(path)
    except FormatError as error:
        logger.warning(
            error.sentence, location=error.location, type="jaxbook", subtype="evidence_column"
        )
        return None


def _warn(note: dict[str, Any], message: str, *args: Any) -> None:
    """A warning at the note, about its id (the message's first %r)."""
    logger.warning(
        message,
        note["id"],
        *args,
        location=(note["docname"], note["line"]),
        type="jaxbook",
        subtype="evidence_column",
    )


def evidence_of(row: dict[str, Any]) -> tuple[list[str], dict[str, str]]:
    """The row's probes, and the old answer it claims for some of them (``probe=answer``)."""
    probes = list(dict.fromkeys(p for note in row["notes"] for p in note["evidence"]))
    old = dict(
        note["old"].split("=", 1) for note in row["notes"] if note["old"] and "=" in note["old"]
    )
    return probes, old


def check_evidence(app: Sphinx, env: BuildEnvironment) -> None:
    """Warn once per build about probes the file lacks and claims about the past without one."""
    evidence = load_evidence(app)
    if evidence is None:
        return
    for row in notes.rows(env):
        probes, _old = evidence_of(row)
        where = row["point"] or row["notes"][0]
        point = row["point"]["point"].astext() if row["point"] else ""
        if not probes and CHANGE_WORDS.search(point):
            _warn(where, "update note %r speaks of an older release but names no :evidence: probe")
        for probe in probes:
            if probe not in evidence["probes"]:
                _warn(
                    where,
                    "update note %r: the evidence file has no probe %r; run 'make evidence'",
                    probe,
                )


def changed_in(
    evidence: dict[str, Any], probes: list[str], old: dict[str, str], note: dict[str, Any]
) -> nodes.paragraph:
    """The "Changed in" cell: the release of the change, and what held in each era."""
    para = nodes.paragraph()
    for probe in probes:
        entry = evidence["probes"].get(probe, {})
        eras = entry.get("eras", [])
        if not eras:
            continue
        if para.children and not para.astext().endswith("。"):
            para += nodes.Text(" ")  # between two sentences; Chinese needs no space after 。
        if probe in old and all(era["key"] != old[probe] for era in eras):
            para += nodes.strong("", _("%s: no release reproduces it") % old[probe])
            para += nodes.Text(_(" (%s): ") % span(eras[0]["first"], eras[-1]["last"]))
        elif len(eras) == 1:
            para += nodes.Text(
                _("The same on every release from %s to %s: ") % (eras[0]["first"], eras[0]["last"])
            )
        else:
            para += nodes.strong("", _("Changed in JAX %s") % eras[-1]["first"])
            para += nodes.Text(_(": "))
        for i, era in enumerate(eras):
            parts = era_nodes(entry, era)
            if parts is None:
                _warn(
                    note,
                    "update note %r: the evidence has no sentence for probe %r answering %r",
                    probe,
                    era["key"],
                )
                parts = [nodes.literal("", era["key"])]
            if i:
                para += nodes.Text(_("; "))
            if len(eras) > 1:
                para += nodes.Text(_("in %s, ") % span(era["first"], era["last"]))
            para += parts
        para += nodes.Text(_("."))
    return para


def depend_on_evidence(app: Sphinx, doctree: nodes.document) -> None:
    """A page with the table is read again when the evidence file changes (make evidence)."""
    name = app.config.jaxbook_release_evidence
    if name and any(True for _node in doctree.findall(notes.update_notes_table)):
        app.env.note_dependency(str(Path(app.srcdir, name)))


def column(app: Sphinx, fromdoc: str) -> notes.Column | None:
    """The "Changed in" column of the table on ``fromdoc``, when there is evidence."""
    evidence = load_evidence(app)
    if evidence is None:
        return None

    def cell(row: dict[str, Any]) -> nodes.paragraph:
        probes, old = evidence_of(row)
        if not probes:
            return nodes.paragraph("", "—")
        return changed_in(evidence, probes, old, row["notes"][0])

    return notes.Column(header=_("Changed in"), width=WIDTH, cell=cell)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("jaxbook.sphinxext.notes")
    add_catalog(app)
    app.add_config_value("jaxbook_release_evidence", "", "env", types=frozenset({str}))
    app.connect("update-notes-columns", column)
    app.connect("doctree-read", depend_on_evidence)
    app.connect("env-check-consistency", check_evidence)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
