"""The live preview: one long-lived Sphinx application, rebuilt on each save; the browser reloads.

    jaxbook livehtml [--language en] [--port 8000] [--builddir _build]

A fresh ``sphinx-build`` per change (as sphinx-autobuild runs) starts Python, imports
Sphinx and the extensions and loads the pickled environment each time. Here the
application stays alive and builds again incrementally, in the same process, on a change
under ``docs/``, ``locale/`` or ``snippets/``. Each build runs the pages it reads
(:mod:`pagerun.sphinxext.run`) and prints their verdicts, so an author reads a page's
verdict at about the cost of running that page. The site is served with sphinx-autobuild's
server parts, which reload the browser when a build finishes.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path

from jaxbook import project
from jaxbook.doctest import environment
from jaxbook.sphinxapp import LiveApplication


class LiveBuilder(LiveApplication):
    """An HTML build of one language of the book that can be brought up to date again and again.

    With ``doctests``, each build after the first prints the verdict of the pages it
    read (and ran), once they are read and before they are written::

        doctest: ch01/quiz [zh_CN]: 12 passed, 0 failed (0.41 s)

    (the seconds since the watcher saw the change); each failure is among the build's
    warnings, at its ``file:line``. The pages run in the build's kernel
    (:mod:`pagerun.kernel`), so one that hangs or crashes fails at its line while the
    preview goes on.
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
        super().__init__(
            root / "docs",
            root,
            outdir,
            doctreedir,
            "html",
            language,
            status=io.StringIO() if quiet else sys.stdout,
        )
        self.language = language
        self.doctests = doctests
        self.built = False
        self.started = time.perf_counter()
        self.app.connect("env-updated", self._print_verdicts)

    def build(self, started: float | None = None) -> str:
        """Build what changed since the last build (seen at ``started``, a perf_counter
        time, from which the verdict's seconds count); return the warnings of this build."""
        self.started = time.perf_counter() if started is None else started
        warnings = super().build()
        self.built = True
        return warnings

    def _print_verdicts(self, app, env) -> None:
        if not (self.doctests and self.built):
            return
        from pagerun.pages import records
        from pagerun.verdict import Tally

        kept = records(env)
        for docname in sorted(set(self.read) & kept.keys()):
            tally = Tally.of([kept[docname].run])
            took = time.perf_counter() - self.started
            print(f"doctest: {docname} [{self.language}]: {tally} ({took:.2f} s)", flush=True)


class Rebuilds:
    """The watcher's requests to build, carried out one by one in the main thread."""

    def __init__(self, builder: LiveBuilder) -> None:
        self.builder = builder
        self.requests: queue.Queue[tuple[list[Path], float, Future[None]]] = queue.Queue()

    def request(self, changed: list[Path], seen: float) -> Future[None]:
        """From the server's thread: build after ``changed`` (seen at ``seen``)."""
        done: Future[None] = Future()
        self.requests.put((changed, seen, done))
        return done

    def serve_forever(self, running: threading.Thread) -> None:
        """In the main thread, while the server runs: each request's build."""
        while running.is_alive():
            try:
                changed, seen, done = self.requests.get(timeout=0.5)
            except queue.Empty:
                continue
            try:
                self.rebuild(changed, seen)
            finally:
                done.set_result(None)

    def rebuild(self, changed_paths: Sequence[Path], seen: float | None = None) -> None:
        start = time.perf_counter()
        warnings = self.builder.build(seen)
        if warnings:
            print(warnings, end="", flush=True)
        names = ", ".join(str(p.name) for p in changed_paths)
        print(f"rebuilt in {time.perf_counter() - start:.2f} s after {names}", flush=True)


def serve(builder: LiveBuilder, watch: list[Path], outdir: Path, host: str, port: int) -> None:
    """Serve ``outdir`` with sphinx-autobuild's server parts (a websocket and a script
    injected into each page) in a thread of its own, and build in the main thread on each
    change under ``watch``; the server keeps running whatever a build warns."""
    import uvicorn
    from sphinx_autobuild.filter import IgnoreFilter
    from sphinx_autobuild.middleware import JavascriptInjectorMiddleware
    from sphinx_autobuild.server import RebuildServer
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import Mount, WebSocketRoute
    from starlette.staticfiles import StaticFiles

    rebuilds = Rebuilds(builder)

    class InProcessRebuildServer(RebuildServer):
        """sphinx-autobuild's watcher, asking the main thread of this process to build
        instead of starting a new process."""

        async def watch(self) -> None:
            import watchfiles

            async for changes in watchfiles.awatch(
                *self.paths, watch_filter=lambda _, path: not self.ignore(path), step=20
            ):
                seen = time.perf_counter()
                changed = [Path(path).resolve() for _, path in changes]
                await asyncio.wrap_future(rebuilds.request(changed, seen))
                self.flag.set()

    # Sphinx writes the .mo files next to the catalogs; they are output, not edits.
    ignore = IgnoreFilter([str(outdir)], [r".*\.mo$", r".*~$", r".*\.swp$", r".*/\.#.*"])
    watcher = InProcessRebuildServer(watch, ignore, change_callback=rebuilds.rebuild)
    app = Starlette(
        routes=[
            WebSocketRoute("/websocket-reload", watcher, name="reload"),
            Mount("/", app=StaticFiles(directory=outdir, html=True), name="static"),
        ],
        middleware=[Middleware(JavascriptInjectorMiddleware, ws_url=f"{host}:{port}")],
        lifespan=watcher.lifespan,
    )
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    running = threading.Thread(target=server.run, name="server", daemon=True)
    # Stopped by a signal (a process manager's, a test's), it stops as on Ctrl+C: the processes
    # the build started (sphinx-sitemap's queue manager, through the fork server) exit with it.
    # From before it says it serves, which is when a caller may stop it.
    signal.signal(signal.SIGTERM, interrupted)
    try:
        running.start()
        print(f"serving http://{host}:{port}/ (Ctrl+C stops)", flush=True)
        rebuilds.serve_forever(running)
    except KeyboardInterrupt:
        server.should_exit = True
        if running.is_alive():
            running.join(timeout=5)


def interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--language", default=project.SOURCE_LANGUAGE)
    parser.add_argument("--builddir", type=Path, default=Path("_build"))
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)


def run(args: argparse.Namespace) -> int:
    root = project.root()
    builddir = args.builddir.resolve()
    # The pages' code runs here, as they are read, before JAX is imported; with a
    # compilation cache of its own, which a `make html` beside it does not write.
    os.environ.setdefault("JAX_COMPILATION_CACHE_DIR", str(builddir / "live" / "jax-cache"))
    environment.apply(root, args.language)
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
