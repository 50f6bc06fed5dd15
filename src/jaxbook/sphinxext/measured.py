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
the code on the page. The PDF's pages are measured the same way, page by page;
the EPUB is written by an HTML writer and measured as the site is.

One edition, one set of figures: where ``jaxbook_measurements`` names a
directory (``make html``, ``pdf`` and ``epub`` give each language's
``<builddir>/measured/<language>``), the first build to measure a page keeps
what it measured there, and every later build of any format shows that record
for as long as the page's code, the JAX release and the machine are the same.
So the site, the PDF and the EPUB of one build directory print the same
timings; ``make clean`` measures again.

A figure in the prose that the run produces comes from the run too. The role
``:measured:`name``` or ``:measured:`name:spec``` shows the value that the
variable ``name`` holds once the page's code has run as far as its last
measured cell, formatted with the format spec ``spec``::

    On this machine dispatch took :measured:`t_dispatch_ms:.3f` ms.

Only a variable is read, never an expression evaluated, so a translation,
which must keep the role as it is, cannot run code through it. A name the run
does not define, or a value the spec cannot format, is a warning at the role.
Builders that do not measure (doctest, gettext) show the role's text.

Config values: ``jaxbook_measurements`` (a directory; empty, the default,
measures at every build).
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
from dataclasses import asdict, dataclass, field
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from sphinx import addnodes
from sphinx.ext.doctest import TestoutputDirective
from sphinx.util import logging
from sphinx.util.docutils import SphinxRole

from jaxbook.doctest.pages import page_of as blocks_of
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


def where() -> dict[str, str]:
    """Where this process runs JAX: its backend, device and release."""
    import jax  # only a build that measures a page needs JAX

    backend = jax.default_backend()
    device = processor() if backend == "cpu" else jax.devices()[0].device_kind
    return {"backend": backend, "device": device, "version": jax.__version__}


def label(place: dict[str, str]) -> str:
    return _("Measured on: %s") % (
        _("%(backend)s backend, %(device)s, JAX %(version)s")
        % {**place, "backend": place["backend"].upper()}
    )


@dataclass
class Measurement:
    """What one run of a page's code showed: each measured cell's output and the figures."""

    where: dict[str, str]
    outputs: dict[int, str] = field(default_factory=dict)  # block index -> what it printed
    skipped: list[int] = field(default_factory=list)  # measured blocks that its :skipif: left out
    values: dict[str, object] = field(default_factory=dict)


def record_key(app: Sphinx, docname: str, page: list[nodes.Element], names: set[str]) -> str:
    """What a kept measurement depends on: the page's code, the names shown, JAX and machine."""
    blocks = blocks_of(docname, page, app.config, app.confdir, app.env.doc2path(docname))
    # What runs, not where it is written: prose added above a cell moves it, and a build
    # reads the page's file under the path it was given.
    ran = [
        {k: v for k, v in block.items() if k not in ("file", "line")} for block in blocks["blocks"]
    ]
    text = json.dumps(
        [
            ran,
            sorted(names),
            version("jax"),
            processor(),
            os.environ.get("JAX_PLATFORMS", ""),
        ],
        sort_keys=True,
    )
    return hashlib.sha256(text.encode()).hexdigest()


def kept(app: Sphinx, docname: str, key: str) -> Measurement | None:
    if not app.config.jaxbook_measurements:
        return None
    path = Path(app.config.jaxbook_measurements) / f"{docname}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if data.get("key") != key:
        return None
    return Measurement(
        where=data["where"],
        outputs={int(i): text for i, text in data["outputs"].items()},
        skipped=data["skipped"],
        values=data["values"],
    )


def keep(app: Sphinx, docname: str, key: str, measurement: Measurement) -> None:
    if not app.config.jaxbook_measurements:
        return
    try:
        text = json.dumps({"key": key, **asdict(measurement)}, ensure_ascii=False, indent=1)
    except TypeError:
        return  # a figure JSON cannot hold: such a page is measured at every build
    write_whole(Path(app.config.jaxbook_measurements) / f"{docname}.json", text.encode())


def write_whole(path: Path, data: bytes) -> None:
    """Write ``path`` so that no reader sees it half-written: two builds of one language
    may keep a record at the same time."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    partial.write_bytes(data)
    partial.replace(path)


def docnames_of(doctree: nodes.Element, docname: str) -> dict[int, str]:
    """The page each element of ``doctree`` is from, by the element's ``id()``.

    An HTML or EPUB doctree is the one page ``docname``. The LaTeX builder
    resolves one tree for the whole book, each page under its ``start_of_file``;
    the tree is walked from the top, since Sphinx sets a page's children there
    without their ``parent`` (``sphinx.util.nodes.inline_all_toctrees``).
    """
    owners: dict[int, str] = {}
    stack: list[tuple[nodes.Element, str]] = [(doctree, docname)]
    while stack:
        node, page = stack.pop()
        if isinstance(node, addnodes.start_of_file):
            page = node["docname"]
        owners[id(node)] = page
        stack += [(child, page) for child in node.children if isinstance(child, nodes.Element)]
    return owners


def pages_of(doctree: nodes.Element, config, docname: str) -> dict[str, list[nodes.Element]]:
    """The test nodes of each page in ``doctree``, in order; each page runs in its own
    namespace, as in ``make doctest``."""
    owners = docnames_of(doctree, docname)
    pages: dict[str, list[nodes.Element]] = {}
    for node in doctest_nodes_of(doctree, config):
        pages.setdefault(owners[id(node)], []).append(node)
    return pages


def show_measurements(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if app.builder.format not in ("html", "latex"):
        return
    owners = docnames_of(doctree, docname)
    values: dict[str, list[measured_value]] = {}
    for value in doctree.findall(measured_value):
        values.setdefault(owners[id(value)], []).append(value)
    if not values and not any(
        n.get("jaxbook_measured") for n in doctree.findall(nodes.literal_block)
    ):
        return
    for page_name, page in pages_of(doctree, app.config, docname).items():
        measured = [n for n in page if n.get("jaxbook_measured")]
        shown = values.pop(page_name, [])
        if measured or shown:
            show_page_measurements(app, page_name, page, measured, shown)
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
    names = {value["variable"] for value in values}
    key = record_key(app, docname, page, names)
    measurement = kept(app, docname, key) or measure(app, docname, page, measured, names, key)
    for value in values:
        show_value(value, measurement.values)
    for node in measured:
        index = next(i for i, n in enumerate(page) if n is node)
        if index in measurement.skipped:
            # Its :skipif: says why it does not run here (say, another Python): the page
            # keeps the expected output, marked as not measured.
            node["classes"].append("jb-not-measured")
        elif index in measurement.outputs:
            show_output(node, measurement.outputs[index], label(measurement.where))


def measure(
    app: Sphinx,
    docname: str,
    page: list[nodes.Element],
    measured: list[nodes.Element],
    names: set[str],
    key: str,
) -> Measurement:
    """Run the page as far as its last measured cell; keep the record if every cell passed."""
    result, _nodes = run_part(
        app, docname, page, until=measured[-1] if measured else None, names=names
    )
    measurement = Measurement(where=where(), values=dict(result.values))
    complete = True
    for node in measured:
        index = next(i for i, n in enumerate(page) if n is node)
        if index in result.skipped:
            measurement.skipped.append(index)
            continue
        outcome = result.output_of(index)
        if outcome is None:
            complete = False
            logger.warning(
                "measured output: its code did not run",
                location=node,
                type="jaxbook",
                subtype="measured",
            )
        elif not outcome.passed:
            complete = False
            logger.warning(
                "measured output does not match the expected output:\n%s",
                outcome.shown,
                location=node,
                type="jaxbook",
                subtype="measured",
            )
        else:
            measurement.outputs[index] = outcome.got.rstrip("\n")
    if complete and names <= measurement.values.keys():
        keep(app, docname, key, measurement)
    return measurement


def show_output(node: nodes.Element, text: str, where: str) -> None:
    shown = node.deepcopy()
    # rawsource equal to the text: otherwise the writer takes it for a parsed
    # literal and skips the highlighting box every other output has.
    shown.clear()
    shown += nodes.Text(text)
    shown.rawsource = text
    box = nodes.container(classes=["jb-measured"])
    box += nodes.paragraph("", where, classes=["jb-measured-label"])
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
    app.add_config_value("jaxbook_measurements", "", "", types=frozenset({str}))
    add_catalog(app)
    # Before the notebooks and any other reader of the resolved tree, so they see the figures.
    app.connect("doctree-resolved", show_measurements, priority=400)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
