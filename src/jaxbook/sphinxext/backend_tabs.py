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
GPU run.

Config values: none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes

from jaxbook.sphinxext._locale import _, add_catalog

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

BACKENDS = {"not ON_CPU": "CPU", "not ON_GPU": "GPU"}


class backend_tabs(nodes.General, nodes.Element):
    """The expected outputs of one cell, one per backend."""


def _backend_output(node: nodes.Node) -> str | None:
    if isinstance(node, nodes.literal_block) and node.get("testnodetype") == "testoutput":
        return BACKENDS.get(str(node.get("skipif", "")).strip())
    return None


def group_outputs(app: Sphinx, doctree: nodes.document) -> None:
    for parent in list(doctree.findall(nodes.Element)):
        children = parent.children
        i = 0
        while i < len(children):
            run = []
            while i + len(run) < len(children) and _backend_output(children[i + len(run)]):
                run.append(children[i + len(run)])
            if len(run) > 1:
                tabs = backend_tabs(classes=["jb-backend-tabs"])
                tabs.source, tabs.line = run[0].source, run[0].line
                for output in run:
                    parent.remove(output)
                    tabs += output
                parent.insert(i, tabs)
            i += 1


def visit_backend_tabs_html(self: Any, node: backend_tabs) -> None:
    group = f"jb-backend-{id(node)}"
    self.body.append(self.starttag(node, "div", CLASS=""))
    for index, output in enumerate(node.children):
        label = _backend_output(output)
        tab_id = f"{group}-{label.lower()}"
        checked = " checked" if index == 0 else ""
        self.body.append(
            f'<input type="radio" class="jb-tab-input" name="{group}" id="{tab_id}"{checked}>'
            f'<label class="jb-tab-label" for="{tab_id}">{label}</label>'
        )


def depart_backend_tabs_html(self: Any, node: backend_tabs) -> None:
    self.body.append("</div>\n")


def label_outputs(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Where tabs cannot switch (PDF, EPUB), show both outputs, each under its label."""
    if app.builder.name == "html":
        return
    for tabs in list(doctree.findall(backend_tabs)):
        shown: list[nodes.Node] = []
        # The outputs themselves move, not copies: a copy lacks the uid by which the
        # gettext builder collects a message, and the templates would lose them.
        for output in list(tabs.children):
            label = nodes.strong("", _("Output on %s:") % _backend_output(output))
            tabs.remove(output)
            shown += [nodes.paragraph("", "", label, classes=["jb-backend-label"]), output]
        tabs.replace_self(shown)


def _passthrough(self: Any, node: nodes.Element) -> None:
    pass


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    app.add_node(
        backend_tabs,
        html=(visit_backend_tabs_html, depart_backend_tabs_html),
        latex=(_passthrough, _passthrough),
        text=(_passthrough, _passthrough),
    )
    # Before the guards look at testcode/testoutput pairs.
    app.connect("doctree-read", group_outputs, priority=400)
    app.connect("doctree-resolved", label_outputs)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
