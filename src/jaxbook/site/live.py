"""The live preview: one long-lived Sphinx application, rebuilt on each save; the browser reloads.

    jaxbook livehtml [--language en] [--port 8000] [--builddir _build]

Each rebuild also runs the doctests of the pages it read again, with the one
engine (:mod:`jaxbook.doctest.engine`) in this process, where Sphinx and JAX
are already loaded, and prints their verdict before it writes the pages::

    doctest: ch01/quiz [zh_CN]: 12 passed, 0 failed (0.41 s)

(the seconds since the watcher saw the change), with each failure as ``make
doctest`` prints it (``file:line``, expected and actual output). So an author
who edits a page reads its verdict at about the cost of running that page;
``make doctest`` (the result cache runs only what changed) gives the whole
book's.

A fresh ``sphinx-build`` per edit pays about 1.4 s before it does anything
(start Python, import Sphinx and the extensions, load the pickled
environment); sphinx-autobuild starts one per change. Here the application
stays alive: on a change under ``docs/``, ``locale/`` or ``snippets/`` it
builds again incrementally in the same process. A saved ``.po`` is compiled
to its ``.mo`` by Sphinx as usual, but gettext caches the catalogs it has
loaded (Python's ``gettext._translations`` and Sphinx's
``sphinx.locale.translators``, which would keep the old one as the primary
catalog and the new one as a mere fallback), so the page catalogs are
dropped from both caches before each build
(:func:`jaxbook.sphinxapp.forget_page_catalogs`, which ``make doctest`` calls
too). Only the changed page (and the pages that list it) are read and
written again.

The site is served with sphinx-autobuild's server parts (a websocket and a
script injected into each HTML page), so the browser reloads when a build
finishes. The build's warnings are printed; the server keeps running.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from jaxbook import project
from jaxbook.doctest import environment
from jaxbook.sphinxapp import application, doctest_nodes_of, forget_page_catalogs


class LiveBuilder:
    """An HTML build of one language of the book that can be brought up to date again and again.

    With ``doctests``, a build after the first runs the doctests of the pages it read
    again, once they are read and before they are written, and prints their verdict.
    """

    def __init__(
        self,
        root: Path,
        language: str,
        outdir: Path,
        doctreedir: Path,
        *,
        quiet: bool = True,
        doctests: bool = False,
    ) -> None:
        self.warnings = io.StringIO()
        self.app = application(
            root / "docs",
            root,
            outdir,
            doctreedir,
            "html",
            language,
            status=io.StringIO() if quiet else sys.stdout,
            warning=self.warnings,
        )
        self.language = language
        self.doctests = doctests
        self.built = False
        self.read: list[str] = []
        self.started = time.perf_counter()
        self.app.connect("env-before-read-docs", self._reading)
        self.app.connect("env-updated", self._run_doctests)

    def build(self, started: float | None = None) -> str:
        """Build what changed since the last build (seen at ``started``, a perf_counter
        time, from which the verdict's seconds count); return the warnings of this build."""
        self.started = time.perf_counter() if started is None else started
        start = self.warnings.tell()
        forget_page_catalogs(self.app)
        self.app.build()
        self.built = True
        self.warnings.seek(start)
        return self.warnings.read()

    def _reading(self, app, env, docnames: list[str]) -> None:
        self.read = list(docnames)

    def _run_doctests(self, app, env) -> None:
        if not (self.doctests and self.built):
            return
        from jaxbook.doctest import pages
        from jaxbook.doctest.runner import headline

        for docname in sorted(self.read):
            page_nodes = doctest_nodes_of(env.get_doctree(docname), app.config)
            if not page_nodes:
                continue
            result, _nodes = pages.run_part(app, docname, page_nodes)
            for report in result.reports:
                print(headline(report, self.language))
                print(report.partition("\n")[2])
            took = time.perf_counter() - self.started
            print(
                f"doctest: {docname} [{self.language}]: {result.tries - result.failures} passed, "
                f"{result.broken} failed ({took:.2f} s)",
                flush=True,
            )


def serve(builder: LiveBuilder, watch: list[Path], outdir: Path, host: str, port: int) -> None:
    import uvicorn
    from sphinx_autobuild.filter import IgnoreFilter
    from sphinx_autobuild.middleware import JavascriptInjectorMiddleware
    from sphinx_autobuild.server import RebuildServer
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import Mount, WebSocketRoute
    from starlette.staticfiles import StaticFiles

    def rebuild(changed_paths: Sequence[Path], seen: float | None = None) -> None:
        start = time.perf_counter()
        warnings = builder.build(seen)
        if warnings:
            print(warnings, end="", flush=True)
        names = ", ".join(str(p.name) for p in changed_paths)
        print(f"rebuilt in {time.perf_counter() - start:.2f} s after {names}", flush=True)

    class InProcessRebuildServer(RebuildServer):
        """sphinx-autobuild's watcher, building in this process instead of a new one."""

        async def watch(self) -> None:
            import watchfiles

            async for changes in watchfiles.awatch(
                *self.paths, watch_filter=lambda _, path: not self.ignore(path), step=20
            ):
                seen = time.perf_counter()
                changed = [Path(path).resolve() for _, path in changes]
                await asyncio.to_thread(rebuild, changed, seen)
                self.flag.set()

    # Sphinx writes the .mo files next to the catalogs; they are output, not edits.
    ignore = IgnoreFilter([str(outdir)], [r".*\.mo$", r".*~$", r".*\.swp$", r".*/\.#.*"])
    watcher = InProcessRebuildServer(watch, ignore, change_callback=rebuild)
    app = Starlette(
        routes=[
            WebSocketRoute("/websocket-reload", watcher, name="reload"),
            Mount("/", app=StaticFiles(directory=outdir, html=True), name="static"),
        ],
        middleware=[Middleware(JavascriptInjectorMiddleware, ws_url=f"{host}:{port}")],
        lifespan=watcher.lifespan,
    )
    print(f"serving http://{host}:{port}/ (Ctrl+C stops)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--language", default=project.SOURCE_LANGUAGE)
    parser.add_argument("--builddir", type=Path, default=Path("_build"))
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)


def run(args: argparse.Namespace) -> int:
    root = project.root()
    # The pages' code runs here (the doctests, the measured outputs), before JAX is imported.
    environment.apply(root)
    builddir = args.builddir.resolve()
    outdir = builddir / "live" / args.language
    # Its own doctrees: a preview left running must not race `make html` or `make doctest`.
    doctrees = builddir / "live" / "doctrees" / args.language
    builder = LiveBuilder(root, args.language, outdir, doctrees, doctests=True)
    start = time.perf_counter()
    warnings = builder.build()
    print(warnings, end="")
    print(f"built {args.language} in {time.perf_counter() - start:.1f} s", flush=True)
    # conf.py is read when the application starts: restart the preview after editing it.
    watch = [root / "docs", root / "locale", root / "snippets"]
    serve(builder, [path for path in watch if path.exists()], outdir, args.host, args.port)
    return 0
