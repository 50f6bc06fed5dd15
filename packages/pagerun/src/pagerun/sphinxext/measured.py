"""Measured outputs: what a timing cell printed when the page was built, labeled.

Adds the ``measured-output`` directive, a ``testoutput`` that the site, PDF and EPUB
show as what the cell printed in the page's single run (:mod:`pagerun.sphinxext.run`),
under a label saying where it was measured; and the ``:measured:`name:spec``` role, the
value of a variable after the page's run, formatted with ``spec``. This extension only
renders; it runs nothing. Its warnings are ``pagerun.measured``; its HTML classes
(``pagerun-``) are documented in pagerun's README.

Config values:

``pagerun_measured_label``
   The ``"module:function"`` that writes the label from what ``pagerun_where`` said
   (default ``"pagerun.sphinxext.measured:label"``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from sphinx.ext.doctest import TestoutputDirective
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxRole

from pagerun._compat import run_as_doctest_directive
from pagerun.kernel import called
from pagerun.pages import TreeRuns
from pagerun.sphinxext import PARALLEL_SAFE, measured_value, run

if TYPE_CHECKING:
    from docutils.nodes import Node
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["setup"]

logger = logging.getLogger(__name__)

MEASURED_VALUE = re.compile(r"(?P<name>[A-Za-z_]\w*)(?::(?P<spec>[^{}]*))?")


class MeasuredRole(SphinxRole):
    """``:measured:`name:spec```: the value of ``name`` after the page's run (at the end of
    its group, before cleanup), formatted with ``spec``: ``:measured:`t_dispatch_ms:.3f```.

    Only a variable is read, never an expression, so a translation cannot run code through
    it. An undefined name or a value the spec cannot format is a warning at the role;
    builders that show no measurement (doctest, gettext) show the role's text."""

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
            classes=["pagerun-measured-value"],
            variable=match["name"],
            spec=match["spec"] or "",
        )
        self.set_source_info(node)
        return [node], []


class MeasuredOutputDirective(TestoutputDirective):
    """A ``testoutput`` whose page shows the output of the build's own run.

    A timing differs between machines and runs, so its expected output needs ``...``
    wildcards, but readers should see figures::

        .. testcode::

           print(f"dispatch only: {t_dispatch * 1e3:.3f} ms")

        .. measured-output::

           dispatch only: ... ms

    For ``make doctest`` it is an ordinary ``testoutput`` (same options, same count). The
    real output must still match; a mismatch or failing code is a warning at the cell, and
    the page keeps its expected output. Outputs built from one doctree directory show the
    same run."""

    option_spec: ClassVar = TestoutputDirective.option_spec

    def run(self) -> list[Node]:
        run_as_doctest_directive(self, "testoutput")
        result = super().run()
        for node in result:
            if isinstance(node, nodes.literal_block):
                node["pagerun_measured"] = True
        return result


def label(place: dict[str, str]) -> str:
    """The label over a measured output: where it was measured, as ``pagerun_where`` said."""
    return "Measured on: " + ", ".join(place.values())


class ShowMeasurements(SphinxPostTransform):
    """Each measured output and figure of the resolved tree, as its page's run gave it."""

    # After Sphinx's own post-transforms (the last, linkcheck's, is 800): before every
    # reader of the resolved tree (the notebooks), so they see the figures.
    default_priority = 900
    formats = ("html", "latex")

    def run(self, **kwargs: Any) -> None:
        doctree = self.document
        measured = [n for n in doctree.findall(nodes.literal_block) if n.get("pagerun_measured")]
        values = list(doctree.findall(measured_value))
        if not (measured or values):
            return
        runs = TreeRuns(self.env, doctree)
        # Pages whose code this build read without running it (pagerun_run) keep the roles' text.
        with_code = {runs.page(n) for n in doctree.findall(nodes.Element) if "pagerun_block" in n}
        labelled = called(self.config.pagerun_measured_label)
        for node in measured:
            ran = runs.cell(node)
            if ran is None:
                continue  # not run by this build (pagerun_run): the expected output stays
            record, block = ran
            if block in record.run.skipped:
                # Its :skipif: says why it does not run here (say, another Python): the page
                # keeps the expected output, marked as not measured.
                node["classes"].append("pagerun-not-measured")
                continue
            outcome = record.run.output_of(block)
            if outcome is not None and outcome.passed:
                show_output(node, outcome.got.rstrip("\n"), labelled(record.where))
        for value in values:
            page_run = runs.record(value)
            if page_run is not None:
                show_value(value, page_run.run.values)
            elif runs.page(value) not in with_code:
                logger.warning(
                    "measured: the page has no code to run",
                    location=value,
                    type="pagerun",
                    subtype="measured",
                )


def show_output(node: nodes.Element, text: str, where: str) -> None:
    shown = node.deepcopy()
    # rawsource equal to the text: otherwise the writer takes it for a parsed
    # literal and skips the highlighting box every other output has.
    shown.clear()
    shown += nodes.Text(text)
    shown.rawsource = text
    box = nodes.container(classes=["pagerun-measured"])
    box += nodes.paragraph("", where, classes=["pagerun-measured-label"])
    box += shown
    node.replace_self(box)


def show_value(value: measured_value, variables: dict[str, object]) -> None:
    name = value["variable"]
    if name not in variables:
        logger.warning(
            "measured: the page's code does not define %r",
            name,
            location=value,
            type="pagerun",
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
            type="pagerun",
            subtype="measured",
        )
        return
    value.clear()
    value += nodes.Text(text)
    value["pagerun_value"] = variables[name]  # for who shows the value another way


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension(run.__name__)  # the run it shows
    app.add_config_value(
        "pagerun_measured_label", f"{__name__}:label", "html", types=frozenset({str})
    )
    app.add_directive("measured-output", MeasuredOutputDirective)
    app.add_role("measured", MeasuredRole())
    app.add_node(measured_value)
    app.add_post_transform(ShowMeasurements)
    # The doctrees hold the role's nodes with their classes; version 2 (the classes became
    # pagerun's own) has an environment of version 1 read again, and its pages written again
    # for the stylesheet that names the new classes.
    return {"version": "1.0", "env_version": 2, **PARALLEL_SAFE}
