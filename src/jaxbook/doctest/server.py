"""A long-lived doctest server: ``make doctest`` without the start-up, for an author at work.

    jaxbook doctest-server [--builddir _build] [--jobs auto|N] [--sphinxopts "..."] zh_CN [en ...]

A ``make doctest`` process starts Python, imports Sphinx and JAX in a parent
and its workers, loads each language's environment and starts JAX's backend
before it runs a line of a page: seconds, against a fraction of a second for
the page an author just edited. The server pays that once. It keeps:

- one reader process per language, holding that language's Sphinx application
  (the dummy builder), which re-reads only what changed, as ``sphinx-build``
  would (a saved ``.po`` included: the loaded catalogs are dropped first),
  and pickles its environment when the server stops rather than after each run;
- the pool of worker processes, each keeping its Sphinx doctest application
  per language and JAX started; a unit takes its page's doctree as last read.

``jaxbook doctest`` (``make doctest``) hands its run to the server when one is
listening for its build directory (``jaxbook.doctest.client``) and prints what
the server printed: the same verdict, the same result cache, the same exit
status. ``--no-server`` runs without it.

The server refuses a run, and ``jaxbook doctest`` then runs it itself, when the
run asks for another checkout, build directory, ``SPHINXOPTS`` or language, or
when the code it has loaded is no longer what is on disk: the shared part of
the result cache's key (the extensions and doctest code, ``conf.py``,
``uv.lock``, the Python version, the backend, the doctest environment of the
run) differs from the one it started with, or the request itself is not a
``jaxbook.doctest.request.RunRequest`` of the format this server reads. It
then stops, so that the next ``make doctest-server`` starts from the new
code. Ctrl+C stops it too.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import io
import json
import multiprocessing
import os
import signal
import socket
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from jaxbook import project
from jaxbook.doctest import cache, client, runner
from jaxbook.doctest.environment import doctest_environment
from jaxbook.doctest.request import RequestError, RunRequest
from jaxbook.doctest.units import read_language, save_kept, start_worker

STOPS = "it stops now; start it again with make doctest-server"


def _noop() -> None:
    return None


class DoctestServer:
    def __init__(
        self, root: Path, builddir: Path, languages: list[str], jobs: str, sphinxopts: str
    ) -> None:
        self.root, self.builddir, self.languages = root, builddir, languages
        self.sphinxopts = sphinxopts
        self.environment = doctest_environment(os.environ, root)
        self.spec = runner.spec_from_sphinxopts(root, builddir, sphinxopts)
        context = multiprocessing.get_context("spawn")
        self.readers = {
            language: concurrent.futures.ProcessPoolExecutor(
                max_workers=1,
                mp_context=context,
                initializer=start_worker,
                initargs=(self.environment,),
            )
            for language in languages
        }
        self.size = runner.worker_count(jobs, 1 << 16)
        self.pool = self._new_pool()
        first = [self.read(self.spec, language).result() for language in languages]
        self.backend = " ".join(sorted({read["backend"] for read in first}))
        self.fingerprint = cache.shared_key(root, self.environment, self.backend)

    def _new_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        return concurrent.futures.ProcessPoolExecutor(
            max_workers=self.size,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=start_worker,
            initargs=(self.environment,),
        )

    def read(self, spec, language: str) -> concurrent.futures.Future:
        return self.readers[language].submit(read_language, spec, language, True)

    def refusal(self, request: RunRequest) -> tuple[str, bool]:
        """Why this server must not make this run (empty when it may), and whether to stop."""
        if request.root != self.root or request.builddir != self.builddir:
            return f"it serves {self.root} with the build directory {self.builddir}", False
        if request.sphinxopts.split() != self.sphinxopts.split():
            return f"it was started with SPHINXOPTS={self.sphinxopts!r}", False
        other = sorted(set(request.languages) - set(self.languages))
        if other:
            return f"it was not started for {', '.join(other)}", False
        if cache.shared_key(self.root, request.environment, self.backend) != self.fingerprint:
            return (
                "the extensions or other code of the jaxbook package, conf.py, uv.lock or the "
                f"doctest environment changed since it started ({STOPS})"
            ), True
        return "", False

    def run(self, request: RunRequest) -> tuple[str, int]:
        executors = runner.Executors(read=self.read, pool=self.pool, size=self.size)
        output = io.StringIO()
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            status = runner.run_with(request, executors)
        try:
            self.pool.submit(_noop).result()
        except BrokenProcessPool:
            # A page's code killed a worker: the pool is gone, the next run gets a new one.
            self.pool = self._new_pool()
        return output.getvalue(), status

    def shutdown(self) -> None:
        """Save what the readers read, then stop the workers and readers; none is left behind."""
        for language, reader in self.readers.items():
            try:
                reader.submit(save_kept).result()
            except (BrokenProcessPool, OSError) as error:
                print(
                    f"doctest server: the {language} environment was not saved ({error}); "
                    "the next run reads the pages edited since the server started again",
                    flush=True,
                )
        for executor in [self.pool, *self.readers.values()]:
            executor.shutdown(wait=True, cancel_futures=True)


def send(stream, **reply: Any) -> None:
    stream.write(json.dumps(reply, ensure_ascii=False) + "\n")
    stream.flush()


def already_served(path: Path) -> bool:
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
    except OSError:
        return False
    finally:
        probe.close()
    return True


def serve(server: DoctestServer, path: Path) -> None:
    # A socket left by a server that was killed answers no one; replace it.
    path.unlink(missing_ok=True)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    os.chmod(path, 0o600)
    listener.listen()
    print(f"doctest server: listening for {server.builddir} (Ctrl+C stops)", flush=True)
    try:
        while True:
            connection, _ = listener.accept()
            try:
                if handle(server, connection):
                    return
            except (BrokenPipeError, ConnectionResetError):
                print("doctest server: the asking process went away before the answer", flush=True)
    finally:
        listener.close()
        path.unlink(missing_ok=True)


def handle(server: DoctestServer, connection: socket.socket) -> bool:
    """Answer one request; True when the server must stop."""
    with connection, connection.makefile("rw", encoding="utf-8") as stream:
        line = stream.readline()
        if not line.strip():
            return False
        try:
            request = RunRequest.from_json(json.loads(line))
        except ValueError as error:
            # A request of another shape comes from another version of the package: the
            # code on disk is no longer the code this server loaded.
            stop = isinstance(error, RequestError)
            reason = f"{error} ({STOPS})" if stop else f"the run request is not JSON ({error})"
            send(stream, refused=reason)
            print(f"doctest server: refused a run: {reason}", flush=True)
            return stop
        reason, stop = server.refusal(request)
        if reason:
            send(stream, refused=reason)
            print(f"doctest server: refused a run: {reason}", flush=True)
            return stop
        start = time.perf_counter()
        try:
            output, status = server.run(request)
        except Exception as error:  # the run here failed: the client runs it itself
            send(stream, refused=f"it failed: {type(error).__name__}: {error}")
            print(f"doctest server: a run failed: {error!r}", flush=True)
            return False
        send(stream, output=output)
        send(stream, exit=status)
        last = output.rstrip().splitlines()[-1:] or [""]
        took = time.perf_counter() - start
        print(f"doctest server: {last[0]} ({took:.2f} s)", flush=True)
        return False


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("languages", nargs="+")
    parser.add_argument("--builddir", type=Path, default=Path("_build"))
    parser.add_argument("--sphinxopts", default="", help="extra sphinx-build options (-D, -t)")
    parser.add_argument(
        "--jobs", type=runner.jobs_value, default="auto", help="worker processes (default: auto)"
    )


def stop_on_sigterm(signum: int, frame: object) -> None:
    # As Ctrl+C does: leave serve() through its cleanup, then shut the pools down.
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    signal.signal(signal.SIGTERM, stop_on_sigterm)
    root = project.root()
    builddir = args.builddir.resolve()
    start = time.perf_counter()
    path = client.socket_path(builddir)
    if already_served(path):
        print(f"a doctest server already serves {builddir} (at {path})", file=sys.stderr)
        return 1
    server = DoctestServer(root, builddir, list(args.languages), args.jobs, args.sphinxopts)
    print(
        f"doctest server: read {', '.join(args.languages)} in {time.perf_counter() - start:.1f} s",
        flush=True,
    )
    try:
        serve(server, path)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
    return 0
