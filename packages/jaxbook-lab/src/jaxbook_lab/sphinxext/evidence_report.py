"""The lab's report of the evidence behind a chapter's update notes, on a page of the guides.

``.. evidence-report:: ch01/update-notes`` (the book's page of a chapter's
update-notes table, relative to this page as if it stood among the book's
pages) gives, for each note of that table that names probes, in plain
sentences (:func:`jaxbook.sphinxext.evidence_column.sentences`, the book's),
since when its behavior holds, what held before, and whether a release gives
its old output; each note is named by its number and point, and links its row
of the table on the book's site.

The notes, their numbers and points come from the places the book's build
published (:mod:`jaxbook_lab.sphinxext.book`), the evidence from the file the
book's table reads (``jaxbook_release_evidence``, through
:func:`jaxbook.sphinxext.evidence_column.load_evidence`, which this extension
sets up and which warns about a file that does not fit). The page is read again
when either changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import docname_join
from sphinx.util.docutils import SphinxDirective

from jaxbook.sphinxext import PARALLEL_SAFE, evidence_column
from jaxbook.sphinxext.interface import sentence
from jaxbook_lab.sphinxext import book
from jaxbook_lab.sphinxext._locale import _, setup_catalog

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


class evidence_report(nodes.General, nodes.Element):
    """Replaced by the detail of the notes of the table on ``node['table']``."""


class EvidenceReportDirective(SphinxDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        name = self.config.jaxbook_release_evidence
        if name:
            self.env.note_dependency(str(Path(self.env.srcdir, name)))
        book.depend(self.env)
        return [evidence_report(table=docname_join(self.env.docname, self.arguments[0]))]


class BuildEvidenceReports(SphinxPostTransform):
    """Each note of a table that names probes, with the sentences its evidence makes, in
    place of the placeholder; before the references are resolved (10): its links to the
    table's rows are the lab's domain's (:func:`book.pending`)."""

    default_priority = 5

    def run(self, **kwargs: Any) -> None:
        evidence = evidence_column.load_evidence(self.env)
        for node in list(self.document.findall(evidence_report)):
            if not isinstance(evidence, dict):
                node.replace_self([])
                continue
            node.replace_self(self.report(evidence, node["table"]))

    def report(self, evidence: dict[str, Any], table: str) -> nodes.Node:
        language = self.config.language
        items = nodes.definition_list(classes=["jb-evidence-report"])
        for row in book.of(self.env).rows(table):
            said = evidence_column.sentences(evidence, row["probes"], row["old"], language)
            if not said:
                continue
            # Translators: An update note named by its number ("Update note 5"), a link to its row
            # of the table.
            number = nodes.Text(_("Update note %s") % row["number"])
            to_row = book.pending(table, row["anchor"], number)
            point = book.point(row["point"])
            # Translators: An update note and its point, as a term of the report: "Update note 5:
            # x.device is a property".
            term = nodes.term("", "", *sentence(_("%(note)s: %(point)s"), note=to_row, point=point))
            sentences = said[0]
            for following in said[1:]:
                # Sentences follow each other as the language writes them (Chinese: no space).
                sentences = sentence(_("%(sentence)s %(next)s"), sentence=sentences, next=following)
            items += nodes.definition_list_item(
                "", term, nodes.definition("", nodes.paragraph("", "", *sentences))
            )
        for text in items.findall(nodes.TextElement):
            text["translatable"] = False
        return items


class DropEvidenceReports(book.DropFromCatalogs):
    dropped = evidence_report


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension(evidence_column.__name__)
    app.setup_extension(book.__name__)
    setup_catalog(app)
    app.add_node(evidence_report)
    app.add_directive("evidence-report", EvidenceReportDirective)
    app.add_post_transform(DropEvidenceReports)
    app.add_post_transform(BuildEvidenceReports)
    return {"version": "1.0", **PARALLEL_SAFE}
