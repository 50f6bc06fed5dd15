"""The "other JAX releases" page: which cells print differently there, and why.

``.. drift-report::`` is replaced by one section per release recorded in the
drift file (``jaxbook drift --save``): the environment it ran in, how many
cells came out the same, and a table of every cell that did not, in the
language being built, with what changed (the diff or the exception from the
real run) and a link to the update note whose verifying block it is.

A cell is matched to a note through its label: the target right before a
``testcode`` block (``.. _check-device-property:``) that a note names in
``:verified-by:``. Labels are collected while reading, in the shape of
``sphinx.ext.todo`` (collect, purge, merge, replace the placeholder).

Config values:

``jaxbook_release_drift``
   The drift file, relative to the source directory (default ``""``: the
   directive shows nothing but a warning).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from packaging.version import Version
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from jaxbook.sphinxext import notes
from jaxbook.sphinxext._locale import _, add_catalog

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
        return [node]


def _cells(env: BuildEnvironment) -> dict[str, dict[str, list]]:
    if not hasattr(env, "jaxbook_labelled_cells"):
        env.jaxbook_labelled_cells = {}
    return env.jaxbook_labelled_cells


def collect_labels(app: Sphinx, doctree: nodes.document) -> None:
    """Remember which labelled code cell stands at which source line."""
    found: dict[str, list] = {}
    for target in doctree.findall(nodes.target):
        cell = target.next_node(nodes.literal_block, siblings=True, descend=False)
        if cell is None or cell.get("testnodetype") != "testcode" or not target.get("refid"):
            continue
        source = Path(cell.source or "").resolve()
        try:
            where = source.relative_to(Path(app.confdir).resolve()).as_posix()
        except ValueError:
            continue
        found[f"{where}:{cell.line}"] = target["refid"]
    docname = app.env.current_document.docname
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
        data = json.loads(Path(app.srcdir, name).read_text(encoding="utf-8"))
        return {
            cell["file"]
            for entry in data["releases"].values()
            for cells in entry["cells"].values()
            for cell in cells
        }
    except (OSError, ValueError, KeyError, TypeError):
        return None


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
    for table_doc in sorted(notes._tables(env)):
        for row in notes.rows(env, table_doc=table_doc):
            for note in row["notes"]:
                for label in note["verified_by"]:
                    by_label.setdefault(label, []).append((table_doc, row))
    return by_label


def _cell_heading(app: Sphinx, fromdoc: str, cell: dict[str, Any], labels, explained, names):
    """One cell's line: where it is (linked), what happened, and the note that explains it."""
    env, builder = app.env, app.builder
    where = f"{cell['file']}:{cell['line']}"
    page = cell["file"].removeprefix("docs/").removesuffix(".rst")
    label = labels.get(where)
    text = _("line %s") % cell["line"]
    para = nodes.paragraph(classes=["jb-drift-cell"])
    if page in env.found_docs:
        uri = builder.get_relative_uri(fromdoc, page) + (f"#{label}" if label else "")
        para += nodes.reference("", text, internal=True, refuri=uri)
    else:
        para += nodes.literal("", where)
    para += nodes.Text(" · ")
    para += nodes.strong("", names[cell["outcome"]])
    for table_doc, row in explained.get(label or "", []):
        para += nodes.Text(" · ")
        para += nodes.reference(
            "",
            _("update note #%s") % row["number"],
            internal=True,
            refuri=builder.get_relative_uri(fromdoc, table_doc) + f"#update-row-{row['id']}",
        )
    return para


def _page_of(env: BuildEnvironment, file: str) -> str:
    """The title of the page a cell's file belongs to (an included file has none of its own)."""
    page = file.removeprefix("docs/").removesuffix(".rst")
    return env.titles[page].astext() if page in env.titles else file


def build_report(app: Sphinx, fromdoc: str, data: dict[str, Any]) -> list[nodes.Node]:
    env = app.env
    language = app.config.language
    labels = {where: label for found in _cells(env).values() for where, label in found.items()}
    explained = _explained_by(env)
    names = outcome_names()
    result: list[nodes.Node] = []
    for release in sorted(data["releases"], key=Version):
        entry = data["releases"][release]
        counts = entry["counts"].get(language, {})
        section = nodes.section(ids=[f"jax-{release.replace('.', '-')}"])
        section += nodes.title("", f"JAX {release}")
        # The list separator is the language's own: "，" in Chinese text.
        # Data saved before drift told warnings apart does not list its outcomes; it
        # cannot say "0 warns".
        outcomes = entry.get("outcomes") or [key for key in names if key != "warns"]
        summary = _(", ").join(
            f"{counts.get(key, 0)} {name}" for key, name in names.items() if key in outcomes
        )
        section += nodes.paragraph(
            "", _("Measured in: %s. Cells: %s.") % (entry["environment"], summary)
        )
        cells = entry["cells"].get(language, [])
        if not cells:
            section += nodes.paragraph("", _("Every cell prints what the pages show."))
        current_page = None
        for cell in cells:
            page = _page_of(env, cell["file"])
            if page != current_page:
                section += nodes.rubric("", page)
                current_page = page
            section += _cell_heading(app, fromdoc, cell, labels, explained, names)
            detail = cell.get("detail", "")
            section += nodes.literal_block(detail, detail, language="diff")
        result.append(section)
    for node in result:
        for text in node.findall(nodes.TextElement):
            text["translatable"] = False
    return result


def resolve(app: Sphinx, doctree: nodes.document, fromdoc: str) -> None:
    for placeholder in list(doctree.findall(drift_report)):
        name = app.config.jaxbook_release_drift
        path = Path(app.srcdir, name) if name else None
        if path is None or not path.exists():
            logger.warning(
                "drift-report: no drift file %r; run 'make release-report'",
                name,
                location=placeholder,
                type="jaxbook",
            )
            placeholder.replace_self([])
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
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
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
