"""Run each page's code once, while the page is read; keep what it did in the environment.

MyST-NB's model, for ``sphinx.ext.doctest``'s blocks: a ``doctree-read`` handler
(:func:`run_at_read`) runs the page in the kernel (:mod:`pagerun.kernel`), never in the
build's own process, and keeps its record in :class:`RunsDomain`, from which every
builder renders; a failure is a warning at its page line. Adds the ``verdict`` builder
and replaces the ``doctest`` one. pagerun's README says what a user sees of it.

Config values:

- ``pagerun_run`` (``True``): run every page read; ``False``, none; a list, those pages.
- ``pagerun_where`` (``"pagerun.kernel:where"``): the function that says where a page
  that shows a measurement ran.
- ``pagerun_input_modules`` (``[]``): modules whose code changes what the pages print.
- ``pagerun_environment`` (``[]``): prefixes of more variables that reach the pages' code.
- ``pagerun_environment_ignored`` (``[]``): those that change only the pages' speed.
- ``pagerun_run_inputs`` (computed, never set): what outside the pages changes what
  their code prints (:func:`run_inputs`).
- ``pagerun_figure_dpi`` (``None``: matplotlib's): the ``testplot`` figures' resolution.
- ``pagerun_exclusive_devices`` (the TPU chips): glob patterns of the device files one
  process at a time may open (:mod:`pagerun.devices`).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import platform
import re
import sysconfig
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from sphinx.builders.dummy import DummyBuilder
from sphinx.domains import Domain
from sphinx.util import logging

from pagerun import _compat, devices, engine, kernel, pages, verdict
from pagerun.pages import PageRecord, doctest_nodes_of
from pagerun.sphinxext import PARALLEL_SAFE, measured_value, pages_read_at, written_before

if TYPE_CHECKING:
    from collections.abc import Set

    from docutils.nodes import Element
    from sphinx import addnodes
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["DoctestBuilder", "RunsDomain", "VerdictBuilder", "run_inputs", "setup"]

logger = logging.getLogger(__name__)

# The builders that show no output: they read pages without running them.
NOT_RUN_BY = frozenset({"gettext", "linkcheck"})
# Variables that reach the pages' code whatever the project: Python's own, matplotlib's,
# threads, the locale and the kernel's time limit (a project adds its libraries' with
# pagerun_environment).
ENVIRONMENT_PREFIXES = ("PYTHON", "MPL", "OMP_", "LC_", "LANG", "TZ", kernel.TIMEOUT)
# testplot's figures are PNGs in <doctreedir>/figures/, registered as the page's images.
FIGURES = "figures"
# The page runs after every other doctree-read handler (Sphinx's default priority is 500):
# its doctest nodes are final (the snippets' staging, the backend tabs' conditions).
RUN_PRIORITY = 900


class VerdictBuilder(DummyBuilder):
    """Read what is out of date, running its code, and write nothing: the environment holds
    the verdict (``make doctest``)."""

    name = "verdict"
    epilog = "The verdict is in the environment: make doctest prints it."

    def get_outdated_docs(self) -> set[str]:
        return set()

    def write_documents(self, docnames: Set[str]) -> None:
        """Nothing to write, and so nothing to resolve."""


class DoctestBuilder(VerdictBuilder):
    """``sphinx-build -b doctest``, answered from the kept runs: it reads what is out of
    date, running it as every build does, then reports every page's run as Sphinx's own
    doctest builder would (each failure a warning at its line, the totals, exit status 1 on
    a failure). Sphinx's ``doctest`` builder would run every page again in the build's own
    process, a second way of running page code beside the kernel; this one replaces it."""

    name = "doctest"
    epilog = "Each page's code ran once, while it was read; the verdict is above."
    failed = False  # what finish found: the build's exit status (failed_doctests)

    def finish(self) -> None:
        kept = pages.records(self.env)
        runs = [kept[docname].run for docname in sorted(kept)]
        for docname in sorted(kept):
            warn(self.confdir, docname, kept[docname])
        if unrun := len(_domain(self.env).unrun):
            logger.info("%d page(s) read without their run (pagerun_run)", unrun)
        tally = verdict.Tally.of(runs)
        self.failed = tally.failed > 0

        def s(count: int) -> str:
            return "" if count == 1 else "s"

        # Sphinx's doctest builder's summary, on the terminal and in output.txt.
        summary = (
            f"Doctest summary\n===============\n{tally.tries:5} test{s(tally.tries)}\n"
            f"{tally.failures:5} failure{s(tally.failures)} in tests\n"
            f"{tally.setup_failures:5} failure{s(tally.setup_failures)} in setup code\n"
            f"{tally.cleanup_failures:5} failure{s(tally.cleanup_failures)} in cleanup code\n"
        )
        logger.info("\n%s", summary)
        self.outdir.mkdir(parents=True, exist_ok=True)
        reports = "".join(f"{verdict.text(report)}\n" for run in runs for report in run.reports)
        (self.outdir / "output.txt").write_text(reports + "\n" + summary, encoding="utf-8")


def failed_doctests(app: Sphinx, exception: Exception | None) -> None:
    """``-b doctest`` exits with status 1 when a page's run failed, as Sphinx's does."""
    if isinstance(app.builder, DoctestBuilder) and app.builder.failed:
        _compat.fail_the_build(app)


@cache
def _packages() -> str:
    """Every installed release, by the names of the environment's ``.dist-info`` directories
    (``numpy-2.5.5.dist-info``): a listing, where reading each one's metadata took 0.2 s."""
    paths = sysconfig.get_paths()
    folders = {Path(paths[name]) for name in ("purelib", "platlib")}
    names = sorted(
        entry.name
        for folder in folders
        if folder.is_dir()
        for entry in os.scandir(folder)
        if entry.name.endswith(".dist-info")
    )
    return hashlib.sha256("\n".join(names).encode()).hexdigest()


def _accelerators() -> list[str]:
    """The accelerators the machine shows (NVIDIA GPUs, TPU chips), which with the installed
    plugins may decide where a library runs the pages. Found without starting one: a
    process that forks the readers of pages (``sphinx-build -j``) must not have started it."""
    found = ("nvidia[0-9]*", "accel[0-9]*", "vfio/[0-9]*")
    return sorted(path.name for pattern in found for path in Path("/dev").glob(pattern))


def _digest(module: str) -> str:
    """A digest of ``module``'s code: its syntax tree without docstrings, so that a comment,
    a docstring or a change of layout runs no page again, and any change to what it does
    runs every one (a module that cannot be parsed is digested as its bytes)."""
    spec = importlib.util.find_spec(module)
    origin = Path(spec.origin) if spec and spec.origin else None
    if origin is None or not origin.is_file():
        return _code_digest(b"")
    # Parsed once per version of the file in a process that starts many applications (the
    # tests, the live preview): about 8 ms a module.
    status = origin.stat()
    return _file_digest(origin, status.st_mtime_ns, status.st_size)


@cache
def _file_digest(path: Path, mtime_ns: int, size: int) -> str:
    return _code_digest(path.read_bytes())


def _code_digest(data: bytes) -> str:
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return hashlib.sha256(data).hexdigest()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return hashlib.sha256(ast.dump(tree).encode()).hexdigest()


def run_inputs(config: Config) -> dict[str, Any]:
    """``pagerun_run_inputs``: what outside the pages can change what their code prints."""
    prefixes = (*ENVIRONMENT_PREFIXES, *config.pagerun_environment)
    ignored = set(config.pagerun_environment_ignored)
    return {
        "python": platform.python_version(),
        "packages": _packages(),
        "accelerators": _accelerators(),
        "processor": kernel.processor(),
        "doctest": [
            config.doctest_default_flags,
            config.doctest_global_setup,
            config.doctest_global_cleanup,
            config.doctest_test_doctest_blocks,
        ],
        "code": [
            _digest(module)
            for module in (engine.__name__, kernel.__name__, *config.pagerun_input_modules)
        ],
        "environment": sorted(
            (name, value)
            for name, value in os.environ.items()
            if name.startswith(prefixes) and name not in ignored
        ),
    }


def runs(app: Sphinx, docname: str) -> bool:
    if app.builder.name in NOT_RUN_BY:
        return False
    chosen = app.config.pagerun_run
    return chosen if isinstance(chosen, bool) else docname in chosen


class RunsDomain(Domain):
    """The run of each page, made at the end of its reading (:func:`run_at_read`), and the
    runs of the pages being read again, until each is read. It has no directives or roles:
    its data is the store, in the environment, of what every builder renders. It makes no
    reference, and says so to an ``:any:`` reference (which Sphinx would otherwise ask it
    role by role, warning)."""

    name = pages.RUNS
    label = "Page runs"
    initial_data: ClassVar[dict[str, Any]] = {"records": {}, "kept": {}, "unrun": set()}
    # The shape of the data (a PageRecord, the three collections); a new shape takes the
    # next number, so that Sphinx reads, and runs, every page again instead of taking back
    # data it cannot read.
    data_version = 2

    @property
    def records(self) -> dict[str, PageRecord]:
        """docname -> the record of the page's run."""
        return self.data["records"]

    @property
    def kept(self) -> dict[str, PageRecord]:
        """docname -> the passing run of a page being read again, until it is read."""
        return self.data["kept"]

    @property
    def unrun(self) -> set[str]:
        """The pages with code read without their run (``pagerun_run``, a builder that runs
        nothing): :func:`unrun_outdated` reads them again for the first build that runs them."""
        return self.data["unrun"]

    def clear_doc(self, docname: str) -> None:
        self.unrun.discard(docname)
        record = self.records.pop(docname, None)
        if (
            record is not None
            and record.key
            and not record.failed
            and docname in self.env.found_docs  # Sphinx clears a page that is gone, too
        ):
            # A page read again for its prose alone (its translation, the glossary, the text
            # shown beside it) takes this run back if its tested code is the same.
            self.kept[docname] = record

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        theirs = otherdata["records"]
        for docname in docnames:
            # The reader took the page's kept run back or ran the page again: either way the
            # run kept when the page was cleared (here, in the main process) is spent.
            self.kept.pop(docname, None)
            if docname in theirs:
                self.records[docname] = theirs[docname]
            if docname in otherdata.get("unrun", ()):
                self.unrun.add(docname)

    def resolve_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        typ: str,
        target: str,
        node: addnodes.pending_xref,
        contnode: Element,
    ) -> None:
        return None

    def resolve_any_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        target: str,
        node: addnodes.pending_xref,
        contnode: Element,
    ) -> list[tuple[str, nodes.reference]]:
        return []


def _domain(env: BuildEnvironment) -> RunsDomain:
    domain = env.domains[RunsDomain.name]
    assert isinstance(domain, RunsDomain), "setup() adds the domain under its name"
    return domain


def run_at_read(app: Sphinx, doctree: nodes.document) -> None:
    """Run the page just read, or take its earlier run back if its tested code is the same
    (``doctree-read``, after every other handler: the page's doctest nodes are final)."""
    env = app.env
    docname = env.docname
    domain = _domain(env)
    tested = doctest_nodes_of(doctree, app.config)
    if not tested:
        domain.kept.pop(docname, None)  # the page has no code any more
        return
    for index, node in enumerate(tested):
        node["pagerun_block"] = index  # how the builders find the node's outcome
    key = code_key(app.config, doctree, tested, app.srcdir)
    earlier = domain.kept.pop(docname, None)
    if earlier is not None and earlier.key == key and figures_kept(earlier):
        # The same code, perhaps moved by the prose above it: the run, at the blocks' lines.
        for recorded, outcome in zip(earlier.run.printed, earlier.run.outcomes, strict=True):
            recorded["line"] = tested[outcome.block].line
        domain.records[docname] = earlier
        for paths in earlier.figures.values():
            for path in paths:
                _compat.note_image(env, docname, path)  # cleared with the page's other images
        return
    if not runs(app, docname):
        domain.unrun.add(docname)  # read, not run: the next build that runs it reads it again
        return
    record = run_page(app, docname, doctree, tested)
    record.key = key
    domain.records[docname] = record
    if record.failed:
        env.note_reread()  # every build reports it until it is fixed
        if not isinstance(app.builder, VerdictBuilder):
            warn(app.confdir, docname, record)


def unrun_outdated(
    app: Sphinx, env: BuildEnvironment, added: Set[str], changed: Set[str], removed: Set[str]
) -> list[str]:
    """The pages read without their run that this build runs: read, and run, again
    (``env-get-outdated``). A build that would not run them either reads nothing again."""
    return sorted(doc for doc in _domain(env).unrun if doc in env.found_docs and runs(app, doc))


def written_again(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """The pages read since this builder last wrote them (by another builder of the same
    doctree directory): written again (``env-get-updated``). Sphinx's HTML builder writes a
    page again only when its source is newer than its output, so a page run again by another
    builder would keep its old outputs."""
    return written_before(app, pages_read_at(env))


def code_key(
    config: Config,
    doctree: nodes.document,
    tested: list[nodes.Element],
    srcdir: str | os.PathLike[str],
) -> str:
    """What a page's run depends on: each tested block (its kind, text, options and file,
    by its path from ``srcdir``: :func:`source_key`), the names its ``:measured:`` roles
    show, the run's inputs (``pagerun_run_inputs``) and, for a page that draws figures, their
    resolution (``pagerun_figure_dpi``). Not the blocks' lines: prose added
    above a cell moves it, and changes nothing it prints (a run taken back takes the blocks'
    new lines)."""
    blocks = [
        (
            node.tagname,
            node.astext(),
            source_key(node.source, srcdir),
            sorted((name, repr(value)) for name, value in node.attributes.items()),
        )
        for node in tested
    ]
    names = sorted(value["variable"] for value in doctree.findall(measured_value))
    # A figure's resolution is what a page with figures draws, not what the others print.
    dpi = config.pagerun_figure_dpi if any(node.get("pagerun_plot") for node in tested) else None
    return _digest_of(repr((blocks, names, sorted(config.pagerun_run_inputs.items()), dpi)))


def source_key(source: str | None, srcdir: str | os.PathLike[str]) -> str | None:
    """A block's file as its key holds it: the path from the source directory (with
    ``../`` to a file outside it, an included snippet), the same wherever the project is
    (another directory, another clone) or the build was started from, and one per file.

    Sphinx gives a page's nodes its absolute path; docutils gives an included file's a
    path relative to the working directory (``utils.relative_path``), which ``abspath``
    reads as such. A suffix after the file's name (``:docstring of f``, a translated
    block's ``:12:<translated>``) holds no separator, so it stays on the name."""
    if not source or source.startswith("<"):
        return source  # no file: text docutils read from a string ("<string>")
    try:
        return os.path.relpath(os.path.abspath(source), srcdir).replace(os.sep, "/")
    except ValueError:  # on another drive (Windows), no path leads there: the file's own
        return source


def _digest_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def figures_kept(record: PageRecord) -> bool:
    """Whether every figure an earlier run saved is still there to be shown."""
    return all(Path(path).is_file() for paths in record.figures.values() for path in paths)


def run_page(
    app: Sphinx, docname: str, doctree: nodes.document, tested: list[nodes.Element]
) -> PageRecord:
    """Run the page once, in this process's kernel (:mod:`pagerun.kernel`): its
    values for the ``:measured:`` roles, its figures after each ``testplot`` cell, and where
    it ran if it shows a measurement."""
    names = sorted({value["variable"] for value in doctree.findall(measured_value)})
    page = pages.page_of(docname, tested, app.config, app.confdir, app.env.doc2path(docname))
    request = kernel.Request(
        page,
        engine.Settings.of(app.config),
        names,
        plots=[i for i, node in enumerate(tested) if node.get("pagerun_plot")],
        figures=str(Path(app.doctreedir, FIGURES, image_stem(docname))),
        dpi=app.config.pagerun_figure_dpi,
        where=app.config.pagerun_where
        if names or any(node.get("pagerun_measured") for node in tested)
        else "",
        unit=str(app.doctreedir),
    )
    answer = kernel.run_page(request, exclusive=app.config.pagerun_exclusive_devices)
    for paths in answer.figures.values():
        for path in paths:
            _compat.note_image(app.env, docname, path)  # each builder copies it
    return PageRecord(answer.run, answer.where, answer.figures)


def image_stem(docname: str) -> str:
    """The figures of ``docname`` are ``<stem>-1.png``, ``<stem>-2.png``...: one name per page."""
    return f"figure-{re.sub(r'[^A-Za-z0-9]+', '-', docname)}"


def warn(confdir: str | os.PathLike[str], docname: str, record: PageRecord) -> None:
    for report in record.run.reports:
        if report.file.startswith("<"):  # the global setup or cleanup
            location: Any = (docname, None)
        else:
            location = f"{Path(confdir, report.file)}:{report.line}"
        logger.warning(
            "%s\n%s",
            verdict.title(report),
            report.detail.rstrip("\n"),
            location=location,
            type="pagerun",
            subtype="run",
        )


def settle_run_inputs(app: Sphinx, config: Config) -> None:
    """Work out ``pagerun_run_inputs`` once: Sphinx calls a callable default at every access,
    and each page's key reads it (packages listed, devices globbed, files hashed)."""
    config.pagerun_run_inputs = config.pagerun_run_inputs


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("sphinx.ext.doctest")
    app.add_config_value("pagerun_run", True, "", types=frozenset({bool, list, tuple}))
    app.add_config_value("pagerun_where", "pagerun.kernel:where", "env", types=frozenset({str}))
    sequence = frozenset({list, tuple})
    app.add_config_value("pagerun_input_modules", [], "env", types=sequence)
    app.add_config_value("pagerun_environment", [], "env", types=sequence)
    app.add_config_value("pagerun_environment_ignored", [], "env", types=sequence)
    app.add_config_value("pagerun_run_inputs", run_inputs, "env", types=frozenset({dict}))
    # A change reads every page again; only those with figures run again (their key holds it).
    app.add_config_value("pagerun_figure_dpi", None, "env", types=frozenset({int, type(None)}))
    # A list (not a tuple): -D splits a list's value at commas. Not an input of the runs:
    # taking turns changes when a page runs, not what it prints.
    app.add_config_value(
        "pagerun_exclusive_devices", list(devices.DEFAULT_PATTERNS), "", types=sequence
    )
    app.connect("config-inited", settle_run_inputs)
    app.connect("env-get-outdated", unrun_outdated)
    app.add_builder(VerdictBuilder)
    app.add_builder(DoctestBuilder, override=True)  # sphinx.ext.doctest's, which runs again
    app.connect("build-finished", failed_doctests)
    app.add_domain(RunsDomain)
    app.connect("doctree-read", run_at_read, priority=RUN_PRIORITY)
    app.connect("env-get-updated", written_again)
    # What the domain keeps is versioned by its data_version.
    return {"version": "1.0", "env_version": RunsDomain.data_version, **PARALLEL_SAFE}
