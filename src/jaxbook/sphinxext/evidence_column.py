"""The update-notes table's "Changed in" column, from the release evidence file.

A note that says how an older JAX release behaved names the probes that
check it on real releases, ``:evidence: device-method`` (comma-separated;
see ``jaxbook.releases.probes``), and, where the claim is about one old
output, that output: ``:old: dot-value=10.811179161071777``
(``jaxbook.sphinxext.notes`` reads both options with the note). This
extension adds a "Changed in" column to every ``update-notes-table`` which
says in plain sentences, from the evidence file that ``jaxbook evidence``
writes, since which release each row's behavior holds and what held before,
that nothing changed in any checked release, or that no release gives the
old output (``jaxbook.sphinxext._eras``); a row that names no probe shows
"—", and a row whose cell would repeat an earlier row's points to it.

The column is added through ``jaxbook.sphinxext.notes``'s
``update-notes-columns`` event; it reads the notes through
:func:`jaxbook.sphinxext.notes.rows` and keeps nothing in the environment.
The file is read once per change of its modification time, so a long-lived
preview builder sees a new one.

The build warns, at the note, about an ``:evidence:`` probe that the file
lacks, about a note whose point speaks of an older release ("不再", "已移除",
"no longer", …) but names no probe, and about an era of a probe for whose
answer the file has no phrase. These warnings are of type ``jaxbook`` and
subtype ``evidence_column`` (``suppress_warnings =
["jaxbook.evidence_column"]`` silences them); a file of another format or
shape is one warning at the file, and the table then has no "Changed in"
column.

Config values:

``jaxbook_release_evidence``
   The evidence file, relative to the source directory (default ``""``: no
   "Changed in" column, and no warning of this extension). It is a
   :class:`jaxbook.formats.Evidence`.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.util import logging

from jaxbook.formats import FormatError, read_evidence
from jaxbook.sphinxext import _eras, notes
from jaxbook.sphinxext._locale import _, add_catalog, sentence

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

# Words with which a point says that an older release behaved otherwise.
CHANGE_WORDS = re.compile(r"不再|已移除|旧接口|no longer|removed|legacy", re.IGNORECASE)
WIDTH = 34  # of 100: the three columns of jaxbook.sphinxext.notes take their narrow widths


@functools.lru_cache(maxsize=4)
def _read(path: Path, stamp: float | None) -> dict[str, Any] | FormatError:
    if stamp is None:
        return {"probes": {}}
    try:
        return dict(read_evidence(path))
    except FormatError as error:
        return error


def load_evidence(app: Sphinx) -> dict[str, Any] | FormatError | None:
    """The evidence file's data, or what is wrong with it; None without a file configured."""
    name = app.config.jaxbook_release_evidence
    if not name:
        return None
    path = Path(app.srcdir, name)
    return _read(path, path.stat().st_mtime if path.exists() else None)


def _warn(note: notes.Note, message: str, *args: Any) -> None:
    """A warning at the note, about its id (the message's first %r)."""
    logger.warning(
        message,
        note.id,
        *args,
        location=(note.docname, note.line),
        type="jaxbook",
        subtype="evidence_column",
    )


def check_evidence(app: Sphinx, env: BuildEnvironment) -> None:
    """Warn once per build: a file that does not fit, probes it lacks, claims without one."""
    evidence = load_evidence(app)
    if isinstance(evidence, FormatError):
        logger.warning(
            evidence.sentence,
            location=evidence.location,
            type="jaxbook",
            subtype="evidence_column",
        )
        return
    if evidence is None:
        return
    for row in notes.rows(env):
        where = row.point or row.notes[0]
        point = row.point.point.astext() if row.point and row.point.point else ""
        if not row.probes and CHANGE_WORDS.search(point):
            _warn(where, "update note %r speaks of an older release but names no :evidence: probe")
        for probe in row.probes:
            if probe not in evidence["probes"]:
                _warn(
                    where,
                    "update note %r: the evidence file has no probe %r; run 'make evidence'",
                    probe,
                )
        for probe, key in _missing_phrases(evidence, row):
            _warn(
                where,
                "update note %r: the evidence has no sentence for probe %r answering %r",
                probe,
                key,
            )


def _missing_phrases(evidence: dict[str, Any], row: notes.Row) -> list[tuple[str, str]]:
    missing: list[tuple[str, str]] = []
    _eras.cell(evidence, row.probes, row.old, None, lambda p, k: missing.append((p, k)))
    return list(dict.fromkeys(missing))


def depend_on_evidence(app: Sphinx, doctree: nodes.document) -> None:
    """A page with the table is read again when the evidence file changes (make evidence)."""
    name = app.config.jaxbook_release_evidence
    if name and any(True for _node in doctree.findall(notes.update_notes_table)):
        app.env.note_dependency(str(Path(app.srcdir, name)))


def column(app: Sphinx, table_doc: str) -> notes.Column | None:
    """The "Changed in" column of the table on ``table_doc``, when there is evidence."""
    evidence = load_evidence(app)
    if evidence is None or isinstance(evidence, FormatError):
        return None
    language = app.config.language
    # The first row of each set of probes (and old outputs): a row with the same says so.
    first_with: dict[tuple[Any, ...], notes.Row] = {}

    def cell(row: notes.Row) -> nodes.paragraph:
        sentences = _eras.cell(evidence, row.probes, row.old, language, lambda p, k: None)
        if not sentences:  # no probe, or none the file has (a warning says so)
            return nodes.paragraph("", "—")
        said = sentences[0]
        for following in sentences[1:]:
            # Sentences follow each other as the language writes them (Chinese: no space).
            said = sentence(_("%(sentence)s %(next)s"), sentence=said, next=following)
        para = nodes.paragraph("", "", *said)
        first = first_with.setdefault((*row.probes, *sorted(row.old.items())), row)
        if first is not row:
            number = nodes.Text(str(first.number))
            to_row = nodes.reference("", "", number, internal=True, refid=f"update-row-{first.id}")
            return nodes.paragraph("", "", *sentence(_("As in row %(row)s."), row=to_row))
        return para

    return notes.Column(header=_("Changed in"), width=WIDTH, cell=cell)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("jaxbook.sphinxext.notes")
    add_catalog(app)
    app.add_config_value("jaxbook_release_evidence", "", "env", types=frozenset({str}))
    app.connect("update-notes-columns", column)
    app.connect("doctree-read", depend_on_evidence)
    app.connect("env-check-consistency", check_evidence)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
