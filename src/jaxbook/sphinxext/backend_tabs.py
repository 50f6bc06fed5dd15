"""Show a cell's CPU and GPU expected outputs side by side, as tabs.

When a ``testcode`` is answered by one ``testoutput`` per backend, written as

.. code-block:: rst

   .. testoutput::
      :skipif: not ON_CPU

      [CpuDevice(id=0)]

   .. testoutput::
      :skipif: not ON_GPU

      [CudaDevice(id=0)]

the doctest on each backend checks its own output (the other is skipped), and
the page shows both under CPU / GPU tabs instead of one after the other. The
tabs are radio buttons and CSS: no script. Write a GPU output only from a real
GPU run (``jaxbook record``), and say where it ran:

``jaxbook_recorded_on``
   Per backend label ("GPU"), where its outputs were recorded: ``device``,
   ``cuda``, ``python``, ``jax`` and the ISO ``date``, e.g. ``{"device":
   "NVIDIA H200", "cuda": "13", "python": "3.12", "jax": "0.12.0.1",
   "date": "2026-11-29"}``. Each such tab shows them above the output, in the
   page's language: "NVIDIA H200、CUDA 13、…、2026 年 11 月 29 日" (default ``{}``).
``jaxbook_machine_names``
   Per backend label, the texts in its recorded outputs that name the one
   machine they ran on (``["NVIDIA H200"]``). The page shows them as
   recorded; the doctest compares each as a ``...`` wildcard, so a run on
   another GPU of the same backend passes where only the name differs
   (default ``{}``).
"""

from __future__ import annotations

import datetime
import re
from typing import TYPE_CHECKING, Any

from babel.dates import format_date
from docutils import nodes

from jaxbook.chinese import HAN_RANGES
from jaxbook.sphinxext._locale import _, add_catalog

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

BACKENDS = {"not ON_CPU": "CPU", "not ON_GPU": "GPU"}


class backend_tabs(nodes.General, nodes.Element):
    """The expected outputs of one cell, one per backend."""


# Digits and Chinese are spaced as the book spaces them: "2026 年 11 月 29 日".
DIGIT_BESIDE_HAN = re.compile(rf"(?<=\d)(?=[{HAN_RANGES}])|(?<=[{HAN_RANGES}])(?=\d)")


def recorded_where(facts: dict[str, str], language: str) -> str:
    """Where a backend's outputs were recorded, in ``language``."""
    day = datetime.date.fromisoformat(facts["date"])
    date = DIGIT_BESIDE_HAN.sub(" ", format_date(day, "long", locale=language))
    parts = [
        facts["device"],
        f"CUDA {facts['cuda']}",
        f"Python {facts['python']}",
        f"JAX {facts['jax']}",
        date,
    ]
    return str(_(", ")).join(parts)


def _backend_output(node: nodes.Node) -> str | None:
    if isinstance(node, nodes.literal_block) and node.get("testnodetype") == "testoutput":
        return BACKENDS.get(str(node.get("skipif", "")).strip())
    return None


def compare_machine_names(app: Sphinx, output: nodes.literal_block) -> None:
    """Let the doctest read each machine name of a recorded output as a wildcard."""
    names = app.config.jaxbook_machine_names.get(_backend_output(output) or "", [])
    text = output.astext()
    test = text
    for name in names:
        test = test.replace(name, "...")
    if test != text:
        output["test"] = test


def group_outputs(app: Sphinx, doctree: nodes.document) -> None:
    for output in doctree.findall(nodes.literal_block):
        if _backend_output(output):
            compare_machine_names(app, output)
    groups = 0
    for parent in list(doctree.findall(nodes.Element)):
        children = parent.children
        i = 0
        while i < len(children):
            run: list[nodes.Node] = []
            while i + len(run) < len(children) and _backend_output(children[i + len(run)]):
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


def _label_of(tab: nodes.Node) -> str | None:
    """The backend of a tab: its output, or the box that holds it under its record."""
    if isinstance(tab, nodes.container):
        return tab.get("jaxbook_backend")
    return _backend_output(tab)


def visit_backend_tabs_html(self: Any, node: backend_tabs) -> None:
    group = node["group"]
    self.body.append(self.starttag(node, "div", CLASS=""))
    for index, output in enumerate(node.children):
        label = _label_of(output)
        assert label is not None, "group_outputs puts only backend outputs in tabs"
        tab_id = f"{group}-{label.lower()}"
        checked = " checked" if index == 0 else ""
        self.body.append(
            f'<input type="radio" class="jb-tab-input" name="{group}" id="{tab_id}"{checked}>'
            f'<label class="jb-tab-label" for="{tab_id}">{label}</label>'
        )


def depart_backend_tabs_html(self: Any, node: backend_tabs) -> None:
    self.body.append("</div>\n")


def label_outputs(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Label each recorded tab with where it ran; where tabs cannot switch (PDF, EPUB),
    show both outputs one after the other, each under its label."""
    recorded = app.config.jaxbook_recorded_on
    for tabs in list(doctree.findall(backend_tabs)):
        if app.builder.name == "html":
            for output in list(tabs.children):
                facts = recorded.get(_backend_output(output) or "")
                if facts:
                    assert isinstance(output, nodes.literal_block), "only an output has a backend"
                    where = recorded_where(facts, app.config.language)
                    box = nodes.container(
                        classes=["jb-recorded"], jaxbook_backend=_backend_output(output)
                    )
                    output.replace_self(box)
                    box += nodes.paragraph(
                        "", _("Recorded on: %s") % where, classes=["jb-recorded-label"]
                    )
                    box += output
            continue
        shown: list[nodes.Node] = []
        # The outputs themselves move, not copies: a copy lacks the uid by which the
        # gettext builder collects a message, and the templates would lose them.
        for output in list(tabs.children):
            backend = _backend_output(output)
            facts = recorded.get(backend or "")
            text = (
                _("Output on %s (recorded on %s):")
                % (backend, recorded_where(facts, app.config.language))
                if facts
                else _("Output on %s:") % backend
            )
            tabs.remove(output)
            label = nodes.strong("", text)
            shown += [nodes.paragraph("", "", label, classes=["jb-backend-label"]), output]
        tabs.replace_self(shown)


def _passthrough(self: Any, node: nodes.Element) -> None:
    pass


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    app.add_config_value("jaxbook_recorded_on", {}, "env", types=frozenset({dict}))
    app.add_config_value("jaxbook_machine_names", {}, "env", types=frozenset({dict}))
    app.add_node(
        backend_tabs,
        html=(visit_backend_tabs_html, depart_backend_tabs_html),
        latex=(_passthrough, _passthrough),
        text=(_passthrough, _passthrough),
    )
    # Before the guards look at testcode/testoutput pairs.
    app.connect("doctree-read", group_outputs, priority=400)
    app.connect("doctree-resolved", label_outputs)
    return {
        "version": "1.0",
        "env_version": 1,  # 1: each group of tabs keeps its name in the doctree
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
