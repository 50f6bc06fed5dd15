"""The lab's report of a chapter's drift data, on a page of the guides.

``.. drift-report:: ch01/release-drift.json`` (relative to the page, as if it
stood among the book's pages: ``guides/lab.rst`` names a chapter's data as
``<chapter>/release-drift.json``) shows what ran where and when, with how many
examples did what; the examples the data has not seen yet; a table of the
examples that differ on some release; and every difference, folded per release
on the web. Before ``make release-report`` has run the chapter it says so; a
path that cannot be a chapter's data (another file name, or a directory that
holds no page of the book) is a warning at the directive instead, which would
otherwise read as a chapter not run yet.

The data (:class:`jaxbook.formats.DriftData`) is read, and an example of it
found on the pages, as the book's own note on other releases does it
(:mod:`jaxbook.sphinxext.drift_report`, which this extension sets up): a file
that does not fit is one warning at the file, and data older than the pages is
said, never a warning. The pages' examples, their titles and where they are come
from the places the book's build published (:mod:`jaxbook_lab.sphinxext.book`),
and each example links its place on the book's site. The warnings are of type
``jaxbook`` and subtype ``drift_report``.
"""

from __future__ import annotations

import datetime
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel.dates import format_date
from docutils import nodes
from packaging.version import Version
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective

from jaxbook import project
from jaxbook.chinese import spaced
from jaxbook.formats import OUTCOMES, FormatError
from jaxbook.sphinxext import PARALLEL_SAFE, drift_report
from jaxbook.sphinxext.drift_report import CHAPTER_FILE, Place, load, read, warn
from jaxbook.sphinxext.interface import join_list, sentence
from jaxbook_lab.sphinxext import book
from jaxbook_lab.sphinxext._locale import N_, _, ngettext, setup_catalog

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata

VARIES = "varies"
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


class drift_report_placeholder(nodes.General, nodes.Element):
    """Replaced, once every page is read, by the lab's report of ``file``."""


class drift_fold(nodes.General, nodes.Element):
    """Content folded on the web under ``node['label']``."""


class DriftReportDirective(SphinxDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        # Relative to the page, as if it stood among the book's pages (the guides, a project
        # of their own, show the book's chapters).
        sources = book.srcdir(self.env)
        relative = Path(self.env.relfn2path(self.arguments[0])[1]).relative_to(self.env.srcdir)
        path = sources / relative
        if problem := self.not_a_chapters_data(path):
            # Shown, it would say that no release has run the chapter: a wrong path would
            # read as a chapter not run yet.
            warn(
                "drift-report: %s %s; the path is relative to this page as if it stood among "
                "the book's pages: <chapter>/%s on a page at the top (guides/lab.rst)",
                self.arguments[0],
                problem,
                CHAPTER_FILE,
                location=self.get_location(),
            )
            return []
        load(self.env, path)
        book.depend(self.env)
        return [drift_report_placeholder(file=str(path))]

    def not_a_chapters_data(self, path: Path) -> str | None:
        """Why ``path`` cannot be a chapter's drift data, which may not exist yet: it is
        ``release-drift.json`` in a directory of the book's pages."""
        if path.name != CHAPTER_FILE:
            return f"is not a chapter's {CHAPTER_FILE}"
        srcdir = book.srcdir(self.env)
        if path.parent == srcdir or not path.parent.is_relative_to(srcdir):
            return "is in no chapter's directory"
        chapter = path.parent.relative_to(srcdir).as_posix()
        if not any(next((srcdir / chapter).rglob(f"*{s}"), None) for s in project.SOURCE_SUFFIX):
            return f"is in {chapter}/, which holds no page"
        return None


# -- writing ----------------------------------------------------------------------------


class BuildDriftReports(SphinxPostTransform):
    """Each report in place of its placeholder, before the references are resolved (10):
    its links to the book's examples are the lab's domain's (:func:`book.pending`)."""

    default_priority = 5

    def run(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(drift_report_placeholder)):
            path = Path(node["file"])
            data = read(path)
            if isinstance(data, FormatError):
                node.replace_self([])  # a warning said why
            elif data and data["releases"]:
                chapter = path.parent.relative_to(book.srcdir(self.env)).as_posix()
                the_book = book.of(self.env)
                shown = Shown(self.config, self.env.current_document.docname, the_book)
                node.replace_self(shown.report(data, the_book.examples(chapter.removeprefix("."))))
            else:
                none = _("No other JAX release has run this chapter's examples yet.")
                node.replace_self(nodes.paragraph("", none, classes=["jb-drift-none"]))


class DropDriftReports(book.DropFromCatalogs):
    dropped = drift_report_placeholder


class UnfoldDifferences(SphinxPostTransform):
    """Off the web, each fold of differences is its label as a heading, then what it
    holds: in another format than HTML (:class:`UnfoldInEpub` does an EPUB's)."""

    default_priority = 6  # after the reports are built (5)
    formats = ("html",)

    def apply(self, **kwargs: Any) -> None:
        if not self.is_supported():
            unfold(self.document)


class UnfoldInEpub(SphinxPostTransform):
    """An EPUB's differences unfolded, as in another format (:class:`UnfoldDifferences`)."""

    default_priority = 6
    builders = ("epub",)

    def run(self, **kwargs: Any) -> None:
        unfold(self.document)


def unfold(doctree: nodes.Node) -> None:
    for fold in list(doctree.findall(drift_fold)):
        fold.replace_self(nodes.container("", nodes.rubric("", fold["label"]), *fold.children))


class Shown:
    """What the report shows of a chapter's data, in the build's language."""

    def __init__(self, config: Config, fromdoc: str, the_book: book.Book) -> None:
        self.config, self.book, self.fromdoc = config, the_book, fromdoc
        self.language = config.language

    def caption(self, place: Place) -> nodes.Node:
        """An example named by its section, as the update-notes table names one, linked."""
        named = nodes.Text(drift_report.example_name(place, self.book.title(place.docname)))
        return book.pending(place.docname, place.anchor, named)

    def unseen(self, data: dict[str, Any], places: list[Place]) -> list[nodes.Node]:
        said = _(
            "The data has not seen these examples yet: they have changed since the last "
            "``make release-report``, which runs them again: %(examples)s."
        )
        return drift_report.said_unseen(said, data, places, self.caption, self.language)

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
        out += self.unseen(data, places)
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
            ) % {"release": f"JAX {self.config.jaxbook_pinned_release}"}
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
        page's language): folded on the web, under a heading elsewhere
        (:class:`UnfoldDifferences`)."""
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


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension(drift_report.__name__)
    app.setup_extension(book.__name__)
    setup_catalog(app)
    app.add_node(drift_report_placeholder)
    app.add_node(drift_fold, html=(visit_fold_html, depart_fold_html))
    app.add_directive("drift-report", DriftReportDirective)
    app.add_post_transform(DropDriftReports)
    app.add_post_transform(BuildDriftReports)
    app.add_post_transform(UnfoldDifferences)
    app.add_post_transform(UnfoldInEpub)
    return {"version": "1.0", **PARALLEL_SAFE}
