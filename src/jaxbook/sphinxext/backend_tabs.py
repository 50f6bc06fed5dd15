"""A cell's expected outputs per backend: tabs on the web, labeled outputs in print.

A ``testcode`` that prints something else on another backend is followed by one
``testoutput`` per recorded output, each naming the backends it holds on
(``:skipif: not (ON_CPU or ON_GPU)``, ``:skipif: not ON_TPU``; :mod:`jaxbook.backends`).
This extension adds the ``backend_tabs`` node that groups them (on ``doctree-read``), a
post-transform that shows them as tabs in HTML and one after the other, labeled, elsewhere,
and :func:`measured_label` for ``pagerun_measured_label`` in ``conf.py``. Write an
accelerator's outputs only from a real run there (``jaxbook-lab record``).

Config values:

``jaxbook_recorded_on``
   Default ``{}``. Per backend other than the CPU (``"gpu"``, ``"tpu"``), where its outputs
   were recorded: ``device``, ``platform`` (``"CUDA 13"``), ``python``, ``jax``, ISO ``date``.
"""

from __future__ import annotations

import datetime
import html
from typing import TYPE_CHECKING, Any

from babel.dates import format_date
from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from jaxbook.backends import backends_of, chip, ordered
from jaxbook.chinese import spaced
from jaxbook.sphinxext import PARALLEL_SAFE
from jaxbook.sphinxext._locale import _, add_catalog, join_list
from jaxbook.sphinxext._nodes import PASSTHROUGH
from pagerun.pages import doctest_kind, doctest_nodes_of, set_doctest_code, tested_kind

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata


class backend_tabs(nodes.General, nodes.Element):
    """The expected outputs of one cell, one per recorded output.

    It holds what a cell printed, so pagerun's ``testplot`` puts a figure after it
    (``pagerun_printed_nodes`` in ``conf.py``).
    """


def recorded_where(facts: dict[str, Any], language: str) -> dict[str, str]:
    """Where and when a backend's outputs were recorded, in ``language``: the device, the
    software that ran them, and the day."""
    day = datetime.date.fromisoformat(facts["date"])
    software = [facts["platform"], f"Python {facts['python']}", f"JAX {facts['jax']}"]
    return {
        "device": chip(facts["device"]),
        # Translators: Between the items of a list of software ("Linux, Python 3.13, JAX 0.12") in
        # a sentence on where an output was recorded.
        "software": str(_(", ")).join(software),
        "date": spaced(format_date(day, "long", locale=language)),
    }


def _backends(node: nodes.Node) -> frozenset[str] | None:
    """The backends an expected output holds on, if it is one of a cell's per-backend outputs."""
    if isinstance(node, nodes.literal_block) and doctest_kind(node) == "testoutput":
        return backends_of(node.get("skipif"))
    return None


def _label(backends: frozenset[str] | list[str], language: str) -> str:
    return spaced(join_list([b.upper() for b in ordered(backends)], language))


def compare_machine_names(app: Sphinx, output: nodes.literal_block) -> None:
    """Let the doctest read the recorded device's name in an output as a wildcard.

    The name is shown as recorded, and a run on another chip of the same backend passes
    where only the name differs.
    """
    recorded = app.config.jaxbook_recorded_on
    names = [recorded[b]["device"] for b in _backends(output) or () if b in recorded]
    text = output.astext()
    test = text
    for name in names:
        test = test.replace(name, "...")
    if test != text:
        set_doctest_code(output, test)


def skip_where_nothing_is_recorded(doctree: nodes.document, config: Config) -> None:
    """Give each cell with per-backend outputs the condition that skips it elsewhere.

    On a backend none of its outputs names, ``unrecorded_here`` of
    :mod:`jaxbook.doctest.runtime` skips the cell, saying why: a cell is never compared
    with nothing.
    """
    code: nodes.Element | None = None
    covered: set[str] = set()

    def close() -> None:
        if code is not None and covered:
            names = tuple(ordered(covered))
            condition = f"unrecorded_here({names!r})"
            own = code.get("skipif")
            code["skipif"] = f"({own}) or {condition}" if own else condition

    for node in doctest_nodes_of(doctree, config):
        kind = tested_kind(node)
        if kind == "testoutput" and (backends := _backends(node)) is not None:
            covered |= backends
        elif kind in ("testcode", "doctest"):
            close()
            code, covered = (node if kind == "testcode" else None), set()
    close()


def group_outputs(app: Sphinx, doctree: nodes.document) -> None:
    for output in doctree.findall(nodes.literal_block):
        if _backends(output):
            compare_machine_names(app, output)
    skip_where_nothing_is_recorded(doctree, app.config)
    groups = 0
    for parent in list(doctree.findall(nodes.Element)):
        children = parent.children
        i = 0
        while i < len(children):
            run: list[nodes.Node] = []
            while i + len(run) < len(children) and _backends(children[i + len(run)]):
                run.append(children[i + len(run)])
            if len(run) > 1:
                groups += 1
                # Named by its place in the page, so that a page is written the same each time.
                tabs = backend_tabs(classes=["jb-backend-tabs"], group=f"jb-backend-{groups}")
                tabs.source, tabs.line = run[0].source, run[0].line
                for node in run:
                    parent.remove(node)
                    tabs += node
                parent.insert(i, tabs)
            i += 1


def recorded_sentence(config: Config, backend: str) -> str | None:
    """Where ``backend``'s outputs were recorded, as one sentence; None for a backend
    ``jaxbook_recorded_on`` does not name (the CPU, which every doctest checks).

    The preface says it once (its ``:fact:`` roles, :mod:`jaxbook.sphinxext.facts`); on the
    web, where a reader may land on any page, a tab's label says it too, as its title.
    """
    recorded = config.jaxbook_recorded_on.get(backend)
    if recorded is None:
        return None
    return str(
        _("The %(backend)s outputs were recorded on %(date)s (device: %(device)s; %(software)s).")
        % {"backend": backend.upper(), **recorded_where(recorded, config.language)}
    )


def visit_backend_tabs_html(self: Any, node: backend_tabs) -> None:
    """One tab per backend, made of radio buttons and CSS: no script."""
    group = node["group"]
    self.body.append(self.starttag(node, "div", CLASS=""))
    for index, tab in enumerate(node.children):
        assert isinstance(tab, nodes.container), "label_outputs puts a box per backend"
        backend = tab["jaxbook_backend"]
        tab_id = f"{group}-{backend}"
        checked = " checked" if index == 0 else ""
        # A reader who lands on this page finds where the tab's outputs ran on its label.
        sentence = recorded_sentence(self.config, backend)
        title = f' title="{html.escape(sentence)}"' if sentence else ""
        self.body.append(
            f'<input type="radio" class="jb-tab-input" name="{group}" id="{tab_id}"{checked}>'
            f'<label class="jb-tab-label" for="{tab_id}"{title}>{backend.upper()}</label>'
        )


def depart_backend_tabs_html(self: Any, node: backend_tabs) -> None:
    self.body.append("</div>\n")


class LabelOutputs(SphinxPostTransform):
    """Tabs on the web; elsewhere (PDF, EPUB) each output once, under the backends it
    holds on."""

    # After the measured outputs and the figures (900, 910), before the other readers of
    # the resolved tree.
    default_priority = 920
    builders = ("html",)  # the builders that show tabs: every other one labels the outputs

    # apply, not run: the transform works for every builder (tabs for those in
    # ``builders``, labels for the rest), and is_supported() is Sphinx's public way to ask
    # which one this is (a transform has no public builder name in Sphinx 9).
    def apply(self, **kwargs: Any) -> None:
        config, doctree, as_tabs = self.config, self.document, self.is_supported()
        language = config.language
        for tabs in list(doctree.findall(backend_tabs)):
            outputs = [(child, _backends(child) or frozenset()) for child in tabs.children]
            for output, _backends_of_it in outputs:
                tabs.remove(output)
            if as_tabs:
                used: set[int] = set()
                for backend in ordered(set().union(*(b for _o, b in outputs))):
                    output = next(o for o, b in outputs if backend in b)
                    # One output can hold on several backends: each tab shows it. The node's
                    # own deepcopy copies it and its children; copy.deepcopy would follow its
                    # parent too and copy the whole page.
                    tab = output.deepcopy() if id(output) in used else output
                    used.add(id(output))
                    tabs += nodes.container("", tab, jaxbook_backend=backend)
                continue
            # The outputs themselves move, not copies: a copy lacks the uid by which the
            # gettext builder collects a message, and the templates would lose them.
            shown: list[nodes.Element] = []
            for output, backends in outputs:
                # Translators: The label above an output that a backend printed (several
                # backends' outputs follow each other on paper): "Output on GPU:".
                label = nodes.strong("", _("Output on %s:") % _label(backends, language))
                assert isinstance(output, nodes.Element)
                shown += [nodes.paragraph("", "", label, classes=["jb-backend-label"]), output]
            tabs.replace_self(shown)


def measured_label(place: dict[str, str]) -> str:
    """The label over a measured output (``pagerun_measured_label`` in ``conf.py``): where the
    page ran, as :func:`jaxbook.doctest.runtime.where` said, in the page's language."""
    # Translators: Under a measured speed-up, where it was measured: %s is the next message ("GPU
    # backend, NVIDIA A100, JAX 0.12.0.1").
    return _("Measured on: %s") % (
        # Translators: Where a measurement was made: the JAX backend (CPU, GPU, TPU), the device,
        # the JAX release.
        _("%(backend)s backend, %(device)s, JAX %(version)s")
        % {**place, "backend": place["backend"].upper()}
    )


def setup(app: Sphinx) -> ExtensionMetadata:
    # The cells are sphinx.ext.doctest's, found by its settings (doctest_test_doctest_blocks).
    app.setup_extension("sphinx.ext.doctest")
    add_catalog(app)
    app.add_config_value("jaxbook_recorded_on", {}, "env", types=frozenset({dict}))
    app.add_node(
        backend_tabs,
        html=(visit_backend_tabs_html, depart_backend_tabs_html),
        latex=PASSTHROUGH["text"],
        **PASSTHROUGH,
    )
    # Before the guards look at testcode/testoutput pairs.
    app.connect("doctree-read", group_outputs, priority=400)
    app.add_post_transform(LabelOutputs)
    # env_version: raised whenever what a read page keeps changes (a cell's condition
    # names the backends it has outputs for).
    return {"version": "1.0", "env_version": 2, **PARALLEL_SAFE}
