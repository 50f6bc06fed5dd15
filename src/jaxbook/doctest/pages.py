"""A page's doctest nodes as the engine's blocks, and the engine run on a page Sphinx read.

:func:`page_of` turns the nodes the doctest builder would test (translated,
with their options, groups and ``:skipif:`` conditions) into a
:class:`jaxbook.doctest.engine.Page`; block ``i`` is node ``i``, so a caller
maps the engine's outcomes back to its nodes. The bundle writes these pages
to JSON; ``make doctest``, ``refresh``, the measured outputs, the figures of
``testplot`` and the bench floor run them at once with :func:`run_doctree`
or :func:`run_part`. :func:`printed` is what each test of a run printed, as
the bundle's records and ``make doctest``'s record hold it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from docutils import nodes

from jaxbook.doctest import engine
from jaxbook.sphinxapp import doctest_nodes_of


def block_of(node: nodes.Element, config, confdir: Path, fallback: Path) -> engine.Block:
    source = Path(node.source or fallback)
    # docutils gives included text a source relative to the directory the page was read
    # in (utils.relative_path), which `make` and `jaxbook` make the project's root; this
    # process may run elsewhere (a build started from another directory).
    if not source.is_absolute() and (Path(confdir) / source).is_file():
        source = Path(confdir) / source
    source = source.resolve()
    try:
        file = source.relative_to(Path(confdir).resolve()).as_posix()
    except ValueError:
        file = source.as_posix()
    options: dict[int, bool] = node.get("options", {})  # doctest option flag -> on or off
    return {
        "type": node.get("testnodetype", "doctest"),
        "code": node["test"] if "test" in node else node.astext(),
        "file": file,
        "line": node.line,
        "options": {engine.FLAG_NAMES[flag]: value for flag, value in options.items()},
        "groups": node.get("groups", [config.doctest_test_doctest_blocks]),
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


def printed(page: engine.Page, result: engine.PageRun) -> list[dict]:
    """What each test of ``result`` printed, where it is (``bundle.RecordedBlock``)."""
    blocks = page["blocks"]
    return [
        {
            "file": blocks[outcome.block]["file"],
            "line": blocks[outcome.block]["line"],
            "want": outcome.want,
            "got": outcome.got,
            "passed": outcome.passed,
            "exception": outcome.exception,
        }
        for outcome in result.outcomes
    ]


def run_part(
    app,
    docname: str,
    page_nodes: list[nodes.Element],
    until=None,
    names: Iterable[str] = (),
    after: engine.After | None = None,
) -> tuple[engine.PageRun, list[nodes.Element]]:
    """Run the doctest nodes ``page_nodes`` of ``docname``; ``until`` is one of them."""
    page = page_of(docname, page_nodes, app.config, app.confdir, app.env.doc2path(docname))
    stop = next(i for i, node in enumerate(page_nodes) if node is until) if until else None
    result = engine.run(page, engine.Settings.of(app.config), stop, names, after)
    result.printed = printed(page, result)
    return result, page_nodes


def run_doctree(app, docname: str) -> tuple[engine.PageRun, list[nodes.Element]]:
    """Run the page ``docname`` as the doctest builder would; the nodes its blocks came from."""
    doctree = app.env.get_doctree(docname)
    return run_part(app, docname, doctest_nodes_of(doctree, app.config))
