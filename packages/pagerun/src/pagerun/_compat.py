"""Every use of another project's private names in :mod:`pagerun`, each with its way out.

The package reaches into the internals of Python's ``doctest`` and of Sphinx only here
(a scan of its syntax trees keeps it so). Each function's docstring says why it is needed,
the upstream project and behavior behind it, the release it was written against, and when
it can go. Sphinx is imported inside the functions that need it: the engine imports this
module where only the standard library is installed.
"""

from __future__ import annotations

import contextlib
import doctest
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.environment import BuildEnvironment

#: The pattern by which doctest recognises an expected output that is a traceback.
#:
#: Why: the engine (``pagerun.engine``) compares outputs as Sphinx's doctest
#: builder does, and that builder relies on ``doctest.DocTestParser`` for it.
#: Upstream: CPython's ``doctest`` keeps it as the class attribute ``_EXCEPTION_RE``;
#: only its result is public (``doctest.Example.exc_msg``).
#: Written against: Python 3.12 and 3.13 (``.python-version``: 3.13).
#: Remove when: CPython makes the pattern public, or pagerun copies it (at the
#: cost of no longer following CPython's changes to it).
DOCTEST_EXCEPTION_RE: re.Pattern[str] = doctest.DocTestParser._EXCEPTION_RE  # type: ignore[attr-defined]  # noqa: SLF001


@contextlib.contextmanager
def doctest_compiles_with(compile_: Callable[..., Any]) -> Iterator[None]:
    """Have ``doctest`` compile its examples with ``compile_`` while the context lasts.

    Why: doctest compiles every example as ``single``; the engine (``pagerun.engine``)
    compiles a ``testcode`` block as ``exec``, as Sphinx's doctest builder does.
    Upstream: ``doctest.DocTestRunner`` calls the ``compile`` it finds in its module's
    globals and has no hook for the mode; ``sphinx.ext.doctest`` shadows it the same way
    (``doctest.compile = self.compile`` in its builder's ``init``).
    Written against: Python 3.12 and 3.13 (``.python-version``: 3.13); Sphinx 9.1.1.
    Remove when: doctest lets a runner choose how an example is compiled.
    """
    before = doctest.__dict__.get("compile")
    doctest.compile = compile_  # type: ignore[attr-defined]
    try:
        yield
    finally:
        if before is None:
            del doctest.compile  # type: ignore[attr-defined]
        else:
            doctest.compile = before  # type: ignore[attr-defined]


def run_as_doctest_directive(directive: Any, name: str) -> None:
    """Have ``directive``, a subclass of one of Sphinx's doctest directives registered under
    a name of its own, make the nodes of Sphinx's directive ``name`` ("testcode",
    "testoutput").

    Why: ``sphinx.ext.doctest`` tells its kinds of block apart by the directive's name, not
    its class: the node's kind and the options it reads follow ``self.name``, so a
    ``testplot`` or ``measured-output`` block would be a block of no kind.
    Upstream: ``sphinx.ext.doctest.TestDirective.run`` reads ``self.name``.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: ``TestDirective`` takes its kind from its class (an attribute a subclass
    inherits).
    """
    directive.name = name


def doctest_condition(test_doctest_blocks: bool) -> Callable[[nodes.Node], bool]:
    """Which nodes Sphinx's doctest builder tests: its own condition for the setting
    ``doctest_test_doctest_blocks``.

    Why: the engine must run exactly the nodes the builder tests, and what
    the builder counts as a ``>>>`` block depends on the docutils release.
    Upstream: Sphinx's ``sphinx.ext.doctest`` keeps them as the module-private
    functions ``_condition_default`` and ``_condition_with_doctest``.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx exposes the builder's node condition publicly.
    """
    from sphinx.ext import doctest as sphinx_doctest

    if test_doctest_blocks:
        return sphinx_doctest._condition_with_doctest  # noqa: SLF001
    return sphinx_doctest._condition_default  # noqa: SLF001


@contextlib.contextmanager
def doctest_output_copied(
    runner: doctest.DocTestRunner, copy: Callable[[str], object]
) -> Iterator[None]:
    """While in the block, also give ``copy`` each piece of text that the examples
    ``runner`` runs print.

    Why: the engine (``pagerun.engine``) records what a block printed (the output the
    extensions show), whether or not doctest found
    it right.
    Upstream: ``doctest.DocTestRunner.run`` points ``sys.stdout`` at the runner's private
    ``_fakeout`` while the examples run, and hands a hook (``report_failure``) only a
    failing example's output; Sphinx's doctest builder shares one runner's ``_fakeout``
    with its others the same way.
    Written against: Python 3.12 and 3.13 (``.python-version``: 3.13).
    Remove when: doctest hands every example's output to its runner.
    """
    spoof = runner._fakeout  # type: ignore[attr-defined]  # noqa: SLF001
    real_write = spoof.write

    def tee(text: str) -> int:
        copy(text)
        written: int = real_write(text)
        return written

    spoof.write = tee
    try:
        yield
    finally:
        spoof.write = real_write


def pages_read_at(env: BuildEnvironment) -> dict[str, int]:
    """When each page of the environment was last read: docname -> nanoseconds since the
    epoch, to compare with a file's ``st_mtime_ns``.

    Why: a page made as it is written from other pages (a chapter's tables, a run's
    figures) is written again when one of those was read since it was written, also by
    another builder of the same doctrees.
    Upstream: Sphinx's ``BuildEnvironment.all_docs`` maps each read page to the time it
    was read, in microseconds (``time.time_ns() // 1000``); only its keys are documented
    in use (the pages read).
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx tells an extension when a page was read, or which pages a
    builder has not written since.
    """
    return {docname: read_at * 1000 for docname, read_at in env.all_docs.items()}


def note_image(env: BuildEnvironment, docname: str, path: str) -> None:
    """Have every builder copy the image file ``path`` (absolute) as one of page
    ``docname``'s, and forget it with the page's others when the page is read again.

    Why: a page's run draws its figures (``testplot``) into files that no image directive
    of the page names when it is read.
    Upstream: Sphinx's ``ImageCollector`` notes a page's images in ``BuildEnvironment.images``
    (a ``FilenameUniqDict``), whose ``add_file`` the builders' copy of images reads; neither
    is documented.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx documents a way for an extension to add a page's image file.
    """
    env.images.add_file(docname, path)


# -- The attributes of Sphinx's doctest nodes ----------------------------------------------
#
# ``sphinx.ext.doctest``'s directives mark an ordinary docutils node (a literal block, or a
# comment where the block is hidden) with attributes its builder reads back: what the node
# is, the text it tests where that differs from the text shown, its groups and doctest
# options. Sphinx documents the directives, not these attributes; every module of pagerun
# and of the book reads and writes them through the functions below.


def doctest_kind(node: nodes.Element) -> str | None:
    """What the doctest directive that made ``node`` made it: ``testsetup``, ``testcode``,
    ``testoutput``, ``testcleanup`` or ``doctest``; None where no doctest directive made it
    (a plain ``>>>`` block, which the builder tests as a ``doctest``: ``tested_kind``).

    Why: the engine, the checks and the writers treat a block of code, its expected output
    and its setup differently.
    Upstream: ``sphinx.ext.doctest``'s ``TestDirective`` sets the undocumented node
    attribute ``testnodetype`` to the directive's name; its builder's node condition
    (``doctest_condition``) and its test collection read it.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx documents the attributes of its test nodes or gives them a class.
    """
    kind: str | None = node.get("testnodetype")
    return kind


def tested_kind(node: nodes.Element) -> str:
    """What Sphinx's doctest builder tests ``node`` as: its ``doctest_kind``, and
    ``doctest`` for a ``>>>`` block no directive made.

    Why: the engine runs each node as the builder would.
    Upstream: as ``doctest_kind``; the builder reads ``node.get('testnodetype', 'doctest')``.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: as ``doctest_kind``.
    """
    kind: str = node.get("testnodetype", "doctest")
    return kind


def doctest_code(node: nodes.Element) -> str:
    """The text the doctest builder tests for ``node``: the code it runs, or the output it
    expects, which may differ from the text the page shows (``set_doctest_code``).

    Why: the engine runs, and the book digests, what the builder would test.
    Upstream: ``sphinx.ext.doctest``'s ``TestDirective`` keeps the text to test in the
    undocumented node attribute ``test`` where it differs from the text shown (a
    ``doctest`` whose ``<BLANKLINE>`` markers or option flags the page leaves out), and
    its builder reads ``node['test'] if 'test' in node else node.astext()``.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: as ``doctest_kind``.
    """
    code: str = node["test"] if "test" in node else node.astext()
    return code


def set_doctest_code(node: nodes.Element, text: str) -> None:
    """Have the doctest builder (and pagerun's engine) test ``text`` for ``node`` in place
    of the text the page shows.

    Why: the book compares an output recorded on another machine with the machine's name
    as a wildcard, and shows the name itself.
    Upstream: as ``doctest_code``: the attribute ``test``, which ``TestDirective`` sets
    for the same purpose.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: as ``doctest_kind``.
    """
    node["test"] = text


def doctest_groups(node: nodes.Element, test_doctest_blocks: str) -> list[str]:
    """The groups the doctest builder runs ``node`` in (``*``: every group); a ``>>>``
    block no directive made is in the group the setting ``doctest_test_doctest_blocks``
    (``test_doctest_blocks``) names.

    Why: the engine groups the blocks of a page as the builder does.
    Upstream: ``TestDirective`` sets the undocumented node attribute ``groups`` from the
    directive's argument; the builder reads ``node.get('groups', [setting])``.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: as ``doctest_kind``.
    """
    groups: list[str] = node.get("groups", [test_doctest_blocks])
    return groups


def doctest_options(node: nodes.Element) -> dict[int, bool]:
    """The doctest option flags the directive that made ``node`` turned on or off (its
    ``:options:``, and ``SKIP`` where its ``:pyversion:`` does not hold): flag -> on.

    Why: the engine runs each example with the options the builder would.
    Upstream: ``TestDirective`` sets the undocumented node attribute ``options`` (doctest
    flag -> bool); the builder hands it to ``doctest`` as each example's options.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: as ``doctest_kind``.
    """
    options: dict[int, bool] = node.get("options", {})
    return options


def fail_the_build(app: Any) -> None:
    """Make ``sphinx-build`` exit with status 1 though no error was raised.

    Why: pagerun's ``doctest`` builder, in place of ``sphinx.ext.doctest``'s, fails the
    build on a failed example as that builder does.
    Upstream: ``Sphinx.statuscode``, which ``build_main`` returns; Sphinx's doctest builder
    sets it (through its private ``_app``); no extension API sets it.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx gives builders a way to report failure without a warning.
    """
    app.statuscode = 1
