"""Say since which JAX release each update note holds, from the release evidence file.

A note names the probes that check its claim on real releases (``:evidence: device-method``)
and, for a claim about one old output, that output (``:old: dot-value=10.81``); see
:mod:`jaxbook.sphinxext.notes`. From the file ``jaxbook-lab evidence`` writes, this extension
adds a "Changed in" column to the update-notes table (through the ``update-notes-columns``
event) and the role ``:changed-in:`PROBE ...``` for prose. Its warnings have type
``jaxbook``, subtype ``evidence_column``. The lab's report
(:mod:`jaxbook_lab.sphinxext.evidence_report`) uses :func:`load_evidence` and
:func:`sentences`.

Config values:

``jaxbook_release_evidence``
   The evidence file (a :class:`jaxbook.formats.Evidence`), relative to the source
   directory. Default ``""``: no column, and no warning of this extension.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from packaging.version import Version
from sphinx.util import logging
from sphinx.util.docutils import SphinxRole

from jaxbook.formats import FormatError, read_checked
from jaxbook.sphinxext import PARALLEL_SAFE, _eras, notes
from jaxbook.sphinxext._locale import _, add_catalog

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

# Words with which a point says that an older release behaved otherwise.
CHANGE_WORDS = re.compile(r"不再|已移除|旧接口|no longer|removed|legacy", re.IGNORECASE)
# Of 100: the three columns of jaxbook.sphinxext.notes take their narrow widths. A release
# ("since 0.11.0") or a dash: at 30 the column stood mostly empty beside a "See" cell
# of eight to ten lines in the English PDF.
WIDTH = 18


def load_evidence(app: Sphinx | BuildEnvironment) -> dict[str, Any] | FormatError | None:
    """The evidence file's data, or what is wrong with it; None without a file configured.

    The file is read once per change of its modification time, so a long-lived preview
    builder sees a new one.
    """
    name = app.config.jaxbook_release_evidence
    if not name:
        return None
    data: dict[str, Any] | FormatError | None = read_checked("evidence", Path(app.srcdir, name))
    return {"probes": {}} if data is None else data


def sentences(
    evidence: dict[str, Any], probes: list[str], old: dict[str, str], language: str | None
) -> list[list[nodes.Node]]:
    """A note's evidence in plain sentences in ``language``, each a list of nodes, in order
    (none where the file holds no
    answers of the note's probes): what the lab's report shows of each note,
    from the data :func:`load_evidence` gives. An answer the file has no phrase for is shown
    as it is; the book's build warns about it at the note (:func:`check_evidence`)."""
    return _eras.cell(evidence, probes, old, language, lambda _probe, _key: None)


def _warn(note: notes.Note, message: str, *args: Any) -> None:
    """A warning at the note, about its id (the message's first %r)."""
    logger.warning(
        message, note.id, *args, location=note.location, type="jaxbook", subtype="evidence_column"
    )


def check_evidence(app: Sphinx, env: BuildEnvironment) -> None:
    """Warn once per build: a file that does not fit, probes it lacks, claims without one.

    At the note: an ``:evidence:`` probe the file lacks, a point that speaks of an older
    release (``CHANGE_WORDS``) but names no probe, a probe's answer the file has no phrase
    for. A file of another format or shape is one warning at the file, and the table then
    has no "Changed in" column.
    """
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


def changed_in(
    evidence: dict[str, Any], probes: list[str], old: dict[str, str] | None = None
) -> tuple[list[str], bool]:
    """The releases since which the probes have given their present answers (those whose
    answer changed), and whether the file knows any of them.

    A probe with an old output (``:old:``) that some release gave has its answer since the
    release after the newest such; one that no release gave holds on every checked release,
    whatever else changed.
    """
    since, known = [], False
    for probe in probes:
        eras = evidence["probes"].get(probe, {}).get("eras") or []
        known = known or bool(eras)
        gave = [i for i, era in enumerate(eras) if era["key"] == (old or {}).get(probe)]
        if probe in (old or {}) and eras and not gave:
            return [], True  # the note's point: no checked release gives that output
        if gave and gave[-1] + 1 < len(eras):
            since.append(eras[gave[-1] + 1]["first"])
        elif not gave and len(eras) > 1:
            since.append(eras[-1]["first"])
    return since, known


def checked_since(evidence: dict[str, Any], probes: list[str]) -> str:
    """The release from which every one of ``probes`` that the file has was asked: the lowest
    of the range over which a note that never changed is known to hold."""
    firsts = [
        eras[0]["first"] for p in probes if (eras := evidence["probes"].get(p, {}).get("eras"))
    ]
    return max(firsts, key=Version)


def column(app: Sphinx, table_doc: str) -> notes.Column | None:
    """The "Changed in" column of the table on ``table_doc``, when there is evidence.

    A cell says "since 0.4.31" (the latest release in which one of the note's probes
    changed its answer), "no change since 0.4.13" where none changed (the first release its
    probes were asked of), or "—" where the note names no probe the file has.
    """
    evidence = load_evidence(app)
    if evidence is None or isinstance(evidence, FormatError):
        return None

    def cell(row: notes.Row) -> nodes.paragraph:
        # The note holds as a whole from the latest release any of its probes changed in, so a
        # note names as evidence only the probes of its main point: a side remark's release
        # goes in its prose (:changed-in:), where it does not date the note.
        releases, known = changed_in(evidence, row.probes, row.old)
        if not known:  # no probe, or none the file has (a warning says so)
            return nodes.paragraph("", "—")
        if not releases:
            since = {"release": checked_since(evidence, row.probes)}
            # Translators: A cell of the update notes' "Changed in" column: the point holds on
            # every release from the first one checked, "no change since 0.4.13", a JAX release.
            return nodes.paragraph("", _("no change since %(release)s") % since)
        # Translators: A cell of the update notes' "Changed in" column: "since 0.4.30", a JAX
        # release.
        return nodes.paragraph("", _("since %(release)s") % {"release": max(releases, key=Version)})

    # Translators: The header of the update notes' table's column that gives the JAX release where
    # each point changed.
    return notes.Column(header=_("Changed in"), width=WIDTH, cell=cell)


class ChangedInRole(SphinxRole):
    """``:changed-in:`PROBE ...```: the release since which the probes give their answers.

    The probes must agree: it warns about a probe the file lacks, one that never changed, or
    probes that changed in different releases.
    """

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        evidence = load_evidence(self.env)
        probes = self.text.split()
        releases, _known = (
            ([], False) if not isinstance(evidence, dict) else changed_in(evidence, probes)
        )
        if isinstance(evidence, dict):
            self.env.note_dependency(
                str(Path(self.env.srcdir, self.config.jaxbook_release_evidence))
            )
        if isinstance(evidence, FormatError):  # a warning at the file says what is wrong
            return [nodes.literal(self.rawtext, self.text)], []
        missing = [p for p in probes if isinstance(evidence, dict) and p not in evidence["probes"]]
        if missing:
            logger.warning(
                "changed-in: the evidence file has no probe %s; run 'make evidence'",
                ", ".join(map(repr, missing)),
                location=self.get_location(),
                type="jaxbook",
                subtype="evidence_column",
            )
            return [nodes.literal(self.rawtext, self.text)], []
        if len(releases) != len(probes) or len(set(releases)) != 1:
            logger.warning(
                "changed-in: %r did not all change, in one release, in the evidence file",
                self.text,
                location=self.get_location(),
                type="jaxbook",
                subtype="evidence_column",
            )
            return [nodes.literal(self.rawtext, self.text)], []
        return [nodes.inline(self.rawtext, releases[0], classes=["jb-evidence-release"])], []


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension(notes.__name__)
    add_catalog(app)
    app.add_config_value("jaxbook_release_evidence", "", "env", types=frozenset({str}))
    app.add_role("changed-in", ChangedInRole())
    app.connect("update-notes-columns", column)
    app.connect("doctree-read", depend_on_evidence)
    app.connect("env-check-consistency", check_evidence)
    # env_version: raised whenever what a read page keeps changes.
    return {"version": "2.0", "env_version": 2, **PARALLEL_SAFE}
