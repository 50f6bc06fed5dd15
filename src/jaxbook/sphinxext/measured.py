"""Measured outputs: what a timing cell printed when the page was built, labelled.

A timing or a speed-up differs from one machine and one run to the next, so its
expected output can only be checked with ``...`` wildcards; but the reader
should see the figures, not the wildcards. For such a cell, write the expected
output with ``measured-output`` instead of ``testoutput``::

    .. testcode::

       print(f"dispatch only: {t_dispatch * 1e3:.3f} ms")
       assert t_dispatch * 10 < t_real  # the lesson's claim, with a wide margin

    .. measured-output::

       dispatch only: ... ms

For ``make doctest`` it is a ``testoutput`` like any other (same options, same
count). When an HTML page that holds one is written, the page's code runs once
as ``make doctest`` runs it (:mod:`jaxbook.doctest.engine`), as far as the
last measured cell; what each measured cell printed replaces its wildcards on the
page, under a label that says where it was measured: the JAX backend, the
device (the CPU model on a CPU) and the JAX version. The real output must still
match the expected one, wildcards and all; if it does not, or the code fails,
the build warns at the cell. So the figures on the page are from a real run of
the code on the page, made by the build that last wrote the page (a clean
build measures every page; an incremental one only the pages it rewrites, so
that editing another page stays quick). The PDF is measured the same way, page
by page, when it is built; the EPUB is written by an HTML writer and measured
as the site is.

A figure in the prose that the run produces comes from the run too. The role
``:measured:`name``` or ``:measured:`name:spec``` shows the value that the
variable ``name`` holds once the page's code has run as far as its last
measured cell, formatted with the format spec ``spec``::

    On this machine dispatch took :measured:`t_dispatch_ms:.3f` ms.

Only a variable is read, never an expression evaluated, so a translation,
which must keep the role as it is, cannot run code through it. A name the run
does not define, or a value the spec cannot format, is a warning at the role.
Builders that do not measure (doctest, gettext) show the role's text.

Config values: none.
"""

from __future__ import annotations

import platform
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from sphinx import addnodes
from sphinx.ext.doctest import TestoutputDirective
from sphinx.util import logging
from sphinx.util.docutils import SphinxRole

from jaxbook.doctest.pages import run_part
from jaxbook.sphinxapp import doctest_nodes_of
from jaxbook.sphinxext._locale import _, add_catalog

if TYPE_CHECKING:
    from collections.abc import Sequence

    from docutils.nodes import Node
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

MEASURED_VALUE = re.compile(r"(?P<name>[A-Za-z_]\w*)(?::(?P<spec>[^{}]*))?")


class measured_value(nodes.inline):
    """A figure in running text that the page's run fills in."""


class MeasuredRole(SphinxRole):
    """``:measured:`name:spec```: the value of ``name`` after the page's run."""

    def run(self) -> tuple[list[Node], list[nodes.system_message]]:
        match = MEASURED_VALUE.fullmatch(self.text.strip())
        if match is None:
            message = self.inliner.reporter.error(
                f"measured: {self.text!r} is not a variable name with an optional "
                "format spec, such as ratio:.0f",
                line=self.lineno,
            )
            return [self.inliner.problematic(self.rawtext, self.rawtext, message)], [message]
        node = measured_value(
            self.rawtext,
            self.text,
            classes=["jb-measured-value"],
            variable=match["name"],
            spec=match["spec"] or "",
        )
        self.set_source_info(node)
        return [node], []


class MeasuredOutputDirective(TestoutputDirective):
    """A ``testoutput`` whose page shows the output of the build's own run."""

    option_spec: ClassVar = TestoutputDirective.option_spec

    def run(self) -> list[Node]:
        # sphinx.ext.doctest keys the node's kind (and its :options:) on the name.
        self.name = "testoutput"
        result = super().run()
        for node in result:
            if isinstance(node, nodes.literal_block):
                node["jaxbook_measured"] = True
        return result


@cache
def processor() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                return " ".join(line.split(":", 1)[1].split())
    return platform.processor() or platform.machine()


def where() -> str:
    import jax  # only a build that shows a measured cell needs JAX

    backend = jax.default_backend()
    device = processor() if backend == "cpu" else jax.devices()[0].device_kind
    return _("%(backend)s backend, %(device)s, JAX %(version)s") % {
        "backend": backend.upper(),
        "device": device,
        "version": jax.__version__,
    }


def owner_of(node: nodes.Element) -> addnodes.start_of_file | None:
    owner = node.parent
    while owner is not None and not isinstance(owner, addnodes.start_of_file):
        owner = owner.parent
    return owner


def page_of(node: nodes.Element) -> int:
    return id(owner_of(node))


def pages_of(doctree: nodes.Element, config) -> list[list[nodes.Element]]:
    """The test nodes of each page in ``doctree``, in order.

    An HTML or EPUB doctree is one page. The LaTeX builder resolves one tree
    for the whole book, each page's nodes under its ``start_of_file``; each
    page runs in its own namespace, as in ``make doctest``.
    """
    pages: dict[int, list[nodes.Element]] = {}
    for node in doctest_nodes_of(doctree, config):
        pages.setdefault(page_of(node), []).append(node)
    return list(pages.values())


def show_measurements(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if app.builder.format not in ("html", "latex"):
        return
    values: dict[int, list[measured_value]] = {}
    for value in doctree.findall(measured_value):
        values.setdefault(page_of(value), []).append(value)
    if not values and not any(
        n.get("jaxbook_measured") for n in doctree.findall(nodes.literal_block)
    ):
        return
    for page in pages_of(doctree, app.config):
        measured = [n for n in page if n.get("jaxbook_measured")]
        shown = values.pop(page_of(page[0]), [])
        if measured or shown:
            owner = owner_of(page[0])
            show_page_measurements(
                app, owner["docname"] if owner else docname, page, measured, shown
            )
    for orphans in values.values():
        for value in orphans:
            logger.warning(
                "measured: the page has no code to run",
                location=value,
                type="jaxbook",
                subtype="measured",
            )


def show_page_measurements(
    app: Sphinx,
    docname: str,
    page: list[nodes.Element],
    measured: list[nodes.Element],
    values: Sequence[measured_value] = (),
) -> None:
    result, _nodes = run_part(
        app,
        docname,
        page,
        until=measured[-1] if measured else None,
        names={value["variable"] for value in values},
    )
    for value in values:
        show_value(value, result.values)
    label = _("Measured on: %s") % where()
    for node in measured:
        index = next(i for i, n in enumerate(page) if n is node)
        if index in result.skipped:
            # Its :skipif: says why it does not run here (say, another Python): the page
            # keeps the expected output, marked as not measured.
            node["classes"].append("jb-not-measured")
            continue
        outcome = result.output_of(index)
        if outcome is None:
            logger.warning(
                "measured output: its code did not run",
                location=node,
                type="jaxbook",
                subtype="measured",
            )
            continue
        if not outcome.passed:
            logger.warning(
                "measured output does not match the expected output:\n%s",
                outcome.shown,
                location=node,
                type="jaxbook",
                subtype="measured",
            )
            continue
        shown = node.deepcopy()
        text = outcome.got.rstrip("\n")
        # rawsource equal to the text: otherwise the writer takes it for a parsed
        # literal and skips the highlighting box every other output has.
        shown.clear()
        shown += nodes.Text(text)
        shown.rawsource = text
        box = nodes.container(classes=["jb-measured"])
        box += nodes.paragraph("", label, classes=["jb-measured-label"])
        box += shown
        node.replace_self(box)


def show_value(value: measured_value, variables: dict[str, object]) -> None:
    name = value["variable"]
    if name not in variables:
        logger.warning(
            "measured: the page's code does not define %r by its last measured cell",
            name,
            location=value,
            type="jaxbook",
            subtype="measured",
        )
        return
    try:
        text = format(variables[name], value["spec"])
    except (TypeError, ValueError) as error:
        logger.warning(
            "measured: cannot format %r with %r: %s",
            name,
            value["spec"],
            error,
            location=value,
            type="jaxbook",
            subtype="measured",
        )
        return
    value.clear()
    value += nodes.Text(text)
    value["jaxbook_value"] = variables[name]  # the parallel text formats it its own way


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("sphinx.ext.doctest")
    app.add_directive("measured-output", MeasuredOutputDirective)
    app.add_role("measured", MeasuredRole())
    app.add_node(measured_value)
    add_catalog(app)
    # Before the notebooks and any other reader of the resolved tree, so they see the figures.
    app.connect("doctree-resolved", show_measurements, priority=400)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
