"""A page Sphinx read, as the engine's blocks, and what its run recorded in the environment.

:func:`doctest_nodes_of` finds the nodes the doctest builder would test, and
:func:`page_of` turns them (translated, with their options, groups and ``:skipif:``
conditions) into a :class:`pagerun.blocks.Page`; block ``i`` is node ``i``, so a
caller maps the engine's outcomes back to its nodes. A build sends that page to its
kernel (:mod:`pagerun.kernel`), which runs it with the engine (:mod:`pagerun.engine`);
:func:`run` runs it with the engine in this process.

A build runs each page once, while it reads it (the extension
:mod:`pagerun.sphinxext.run`), and keeps a :class:`PageRecord` of the run
in its environment, one per page with code: the data of the extension's domain,
which :func:`records` reads, and :class:`TreeRuns` for the nodes of a resolved tree.
The verdict and the extensions that show outputs read it; nothing runs the page again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from docutils import nodes
from sphinx import addnodes

from pagerun import engine
from pagerun._compat import doctest_code as doctest_code
from pagerun._compat import doctest_condition, doctest_groups, doctest_options
from pagerun._compat import doctest_kind as doctest_kind
from pagerun._compat import set_doctest_code as set_doctest_code
from pagerun._compat import tested_kind as tested_kind
from pagerun.blocks import Kind

# Public beside this module's own names: doctest_kind, tested_kind, doctest_code and
# set_doctest_code, which read and write what Sphinx's doctest directives record on their
# nodes (what each node is, the text it tests) and Sphinx does not document; pagerun._compat
# holds them, each with its way out. For pagerun's modules, and for a project that shows or
# changes a page's tested code.
__all__ = [
    "RUNS",
    "PageRecord",
    "TreeRuns",
    "doctest_code",
    "doctest_kind",
    "doctest_nodes_of",
    "kept_records",
    "page_of",
    "records",
    "run",
    "set_doctest_code",
    "tested_kind",
]


def doctest_nodes_of(doctree: nodes.Element, config: Any) -> list[nodes.Element]:
    """Every node the doctest builder tests under ``doctree``: the test nodes, and the
    ``>>>`` blocks too when ``doctest_test_doctest_blocks`` says so."""
    # The builder's own condition: what it counts as a ``>>>`` block depends on docutils.
    condition = doctest_condition(config.doctest_test_doctest_blocks)
    # Every node either condition accepts is an Element (a literal block, comment or
    # doctest block).
    return [node for node in doctree.findall(nodes.Element) if condition(node)]


def block_of(node: nodes.Element, config, confdir: Path, fallback: Path) -> engine.Block:
    source = Path(node.source or fallback)
    # docutils gives included text a source relative to the directory the page was read
    # in (utils.relative_path), usually the project's root; this process may run
    # elsewhere (a build started from another directory).
    if not source.is_absolute() and (Path(confdir) / source).is_file():
        source = Path(confdir) / source
    source = source.resolve()
    try:
        file = source.relative_to(Path(confdir).resolve()).as_posix()
    except ValueError:
        file = source.as_posix()
    options = doctest_options(node)  # doctest option flag -> on or off
    return {
        # A directive's name (Sphinx's doctest directives are the only ones that set it).
        "type": cast("Kind", tested_kind(node)),
        "code": doctest_code(node),
        "file": file,
        "line": node.line,
        "options": {engine.FLAG_NAMES[flag]: value for flag, value in options.items()},
        "groups": doctest_groups(node, config.doctest_test_doctest_blocks),
        "skipif": node.get("skipif"),
    }


def page_of(
    docname: str, page_nodes: Iterable[nodes.Element], config, confdir: Path, source: Path
) -> engine.Page:
    """The blocks of ``page_nodes``, in order; ``source`` names a node without one."""
    return {
        "docname": docname,
        "blocks": [block_of(node, config, confdir, source) for node in page_nodes],
    }


def run(
    app,
    docname: str,
    doctree: nodes.document | None = None,
    names: Iterable[str] = (),
    after: engine.After | None = None,
    unit: str = "",
) -> tuple[engine.PageRun, list[nodes.Element]]:
    """Run the doctest nodes of ``docname`` (of ``doctree``, if given, else the pickled one)
    as the doctest builder would; the run, and the nodes its blocks came from."""
    if doctree is None:
        doctree = app.env.get_doctree(docname)
    page_nodes = doctest_nodes_of(doctree, app.config)
    page = page_of(docname, page_nodes, app.config, app.confdir, app.env.doc2path(docname))
    settings = engine.Settings.of(app.config)
    return engine.run(page, settings, names, after, unit), page_nodes


@dataclass
class PageRecord:
    """What the one run of a page did, as the build keeps it."""

    run: engine.PageRun  # counts, outcomes, reports, what each test printed, the values
    where: dict[str, str] = field(default_factory=dict)  # where it ran (pagerun_where)
    figures: dict[int, list[str]] = field(default_factory=dict)  # block -> image files
    key: str = ""  # what ran: the page's tested code and the run's inputs (code_key)

    @property
    def failed(self) -> bool:
        return self.run.broken > 0 or bool(self.run.reports)


# The domain of the extension (``RunsDomain`` of :mod:`pagerun.sphinxext.run`) whose
# data, in ``env.domaindata``, holds the records: Sphinx pickles it with the environment,
# and discards an environment whose data is of another ``data_version``.
RUNS = "pagerun"


def records(env: Any) -> dict[str, PageRecord]:
    """The build environment's record of each page's run, by docname (the runs domain's)."""
    return env.domaindata[RUNS]["records"]


def kept_records(env: Any) -> dict[str, PageRecord]:
    """The runs of the pages being read again, by docname, until each is read: a page whose
    tested code is unchanged takes its run back instead of running again."""
    return env.domaindata[RUNS]["kept"]


def owners(doctree: nodes.Element, docname: str) -> dict[int, str]:
    """The page each element of a resolved ``doctree`` is from, by the element's ``id()``.

    An HTML or EPUB doctree is the one page ``docname``. The LaTeX builder
    resolves one tree for the whole book, each page under its ``start_of_file``;
    the tree is walked from the top, since Sphinx sets a page's children there
    without their ``parent`` (``sphinx.util.nodes.inline_all_toctrees``).
    """
    found: dict[int, str] = {}
    stack: list[tuple[nodes.Element, str]] = [(doctree, docname)]
    while stack:
        node, page = stack.pop()
        if isinstance(node, addnodes.start_of_file):
            page = node["docname"]
        found[id(node)] = page
        stack += [(child, page) for child in node.children if isinstance(child, nodes.Element)]
    return found


class TreeRuns:
    """The runs of the pages a resolved tree holds, for the extensions that show what a run
    did: an HTML or EPUB tree is one page, the LaTeX tree the whole book (:func:`owners`)."""

    def __init__(self, env: Any, doctree: nodes.Element) -> None:
        self._page_of = owners(doctree, env.docname)
        self._records = records(env)

    def page(self, node: nodes.Element) -> str:
        """The page ``node`` is from."""
        return self._page_of[id(node)]

    def record(self, node: nodes.Element) -> PageRecord | None:
        """The run of the page ``node`` is from; None where this build ran none
        (``pagerun_run``)."""
        return self._records.get(self.page(node))

    def cell(self, node: nodes.Element) -> tuple[PageRecord, int] | None:
        """The run of the code cell ``node``, and the cell's block in it; None where this
        build did not run the cell."""
        record, block = self.record(node), node.get("pagerun_block")
        return None if record is None or block is None else (record, block)
