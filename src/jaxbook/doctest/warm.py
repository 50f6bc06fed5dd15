"""A warm ``make doctest``: each language's verdict process stays alive to answer the next run.

As Gradle's daemon and mypy's dmypy do, each language's process listens on a Unix socket,
``<builddir>/doctest/<language>.sock``, for ``JAXBOOK_DOCTEST_WARM_IDLE`` seconds (600)
after it answers; the next ``jaxbook doctest`` of the same book asks it (:func:`runs`)
instead of starting Python, Sphinx, JAX and the environment again, and prints the same
verdict, line for line. A server that died or hangs never holds the client, which runs
that language cold. The servers are off where ``JAXBOOK_DOCTEST_WARM=0`` or ``CI`` is
set; ``jaxbook doctest --stop`` stops them.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import pickle
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

import jaxbook
from jaxbook.doctest.runner import LanguageRun, Spec, language_run
from pagerun import kernel

KNOB = "JAXBOOK_DOCTEST_WARM"  # "0": no warm processes
IDLE = "JAXBOOK_DOCTEST_WARM_IDLE"  # seconds a server waits for the next run
IDLE_S = 600
# The client's waits: to connect; for a server's first answer (it answers at once unless
# it is building for another run); for a sign of life while it builds (a heartbeat a
# second); for a new server's socket.
CONNECT_S = 2.0
ANSWER_S = 10.0
SILENCE_S = 30.0
HEARTBEAT_S = 1.0
START_S = 60.0
# A Unix socket's path is at most 107 bytes on Linux.
SOCKET_PATH_MAX = 100
# Variables that change from one shell or make to the next and reach no page's code; and the
# knobs of the warm processes themselves.
VOLATILE = frozenset(
    {
        "_",
        "OLDPWD",
        "PWD",
        "SHLVL",
        "MAKEFLAGS",
        "MFLAGS",
        "MAKELEVEL",
        "MAKE_TERMOUT",
        "MAKE_TERMERR",
        "SSH_CLIENT",
        "SSH_CONNECTION",
        "SSH_TTY",
        "WINDOWID",
        KNOB,
        IDLE,
    }
)

# The servers this process started: the tests wait for them once stopped.
started: list[subprocess.Popen[bytes]] = []


def enabled(environ: Mapping[str, str]) -> bool:
    """Whether runs may be answered, and processes left, warm: not under CI, not turned off
    (``JAXBOOK_DOCTEST_WARM=0``: ``make doctest WARM=0``, ``make test``, the test suite)."""
    return environ.get(KNOB, "1") != "0" and not environ.get("CI")


def socket_path(builddir: Path, language: str) -> Path:
    return builddir / "doctest" / f"{language}.sock"


def address(path: Path) -> str | None:
    """The name to bind or connect ``path`` by (relative when that is short enough), or None
    when the path is too long for a Unix socket."""
    names = [str(path)]
    with contextlib.suppress(ValueError):
        names.append(os.path.relpath(path))
    name = min(names, key=len)
    return name if len(os.fsencode(name)) <= SOCKET_PATH_MAX else None


def fingerprint(spec: Spec, language: str, environ: Mapping[str, str]) -> str:
    """What a server started with, which must be what the client would start with.

    A client whose fingerprint differs tells the server so; the server exits and the
    client starts a new one, which builds as a new process does."""
    digest = hashlib.sha256()
    package = Path(jaxbook.__file__).parent
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(package).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    for path in (spec.root / "conf.py", spec.root / "uv.lock"):
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes() if path.is_file() else b"\0missing")
    settings = {
        "python": sys.executable,
        "cwd": os.getcwd(),
        "root": str(spec.root),
        "builddir": str(spec.builddir),
        "language": language,
        "confoverrides": spec.confoverrides,
        "tags": spec.tags,
        "environment": sorted((k, v) for k, v in environ.items() if k not in VOLATILE),
    }
    digest.update(json.dumps(settings, sort_keys=True).encode())
    return digest.hexdigest()


# -- the client ------------------------------------------------------------------------


class NoServer(Exception):
    """No server listens on the socket."""


class Stale(Exception):
    """The server started with another fingerprint; it stops itself."""


class Failed(Exception):
    """The server died or did not answer in time."""


def runs(
    spec: Spec, languages: list[str], variables: dict[str, dict[str, str]]
) -> dict[str, LanguageRun]:
    """The runs the warm processes answered (starting them where none is), side by side;
    a language missing from the answer is left to a cold run."""
    answered: dict[str, LanguageRun] = {}
    printing = threading.Lock()

    def ask_one(language: str) -> None:
        run = ask(spec, language, variables[language], printing)
        if run is not None:
            answered[language] = run

    # Daemon threads: Ctrl+C ends the run at once (the servers finish their builds alone).
    threads = [
        threading.Thread(target=ask_one, args=(language,), daemon=True) for language in languages
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answered


def ask(
    spec: Spec, language: str, variables: dict[str, str], printing: threading.Lock
) -> LanguageRun | None:
    """``language``'s run from its warm process, started if need be; None: run it cold.

    A server that died, or gives no sign of life for :data:`SILENCE_S` while it builds,
    never holds the client: it says so on stderr in one line and runs the language cold."""
    path = socket_path(spec.builddir, language)
    name = address(path)
    if name is None:
        notice(f"{path}: too long a path for a warm process's socket; running {language} cold")
        return None
    request = {
        "fingerprint": fingerprint(spec, language, variables),
        "only": list(spec.only),
        "force": spec.force,
    }
    try:
        return answer(name, request, printing)
    except NoServer:
        pass
    except Stale:
        # It was started with other sources or settings, and now stops. Its socket file
        # goes first, so that the new server's is the only one to wait for.
        path.unlink(missing_ok=True)
        notice(f"doctest: the {language} sources or settings changed; a new warm process")
    except Failed as failed:
        notice(f"doctest: the warm {language} process {failed}; running {language} cold")
        return None
    if not start(spec, language, variables, path):
        notice(f"doctest: the warm {language} process did not start; running {language} cold")
        return None
    try:
        return answer(name, request, printing)
    except (NoServer, Stale, Failed) as failed:
        what = failed if isinstance(failed, Failed) else "did not answer"
        notice(f"doctest: the warm {language} process {what}; running {language} cold")
        return None


def notice(line: str) -> None:
    # On stderr: the verdict on stdout is exactly a cold run's.
    print(line, file=sys.stderr, flush=True)


def answer(name: str, request: dict[str, Any], printing: threading.Lock) -> LanguageRun:
    """Send ``request`` to the server at ``name``; its run, its printed output forwarded."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.settimeout(CONNECT_S)
        try:
            connection.connect(name)
        except (FileNotFoundError, ConnectionRefusedError) as error:
            if isinstance(error, ConnectionRefusedError):
                # A socket file its server left behind (killed): the next server's place.
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(name)
            raise NoServer from error
        except OSError as error:
            raise Failed(f"could not be reached ({error})") from error
        connection.sendall(json.dumps(request).encode() + b"\n")
        lines = connection.makefile("rb")
        connection.settimeout(ANSWER_S)
        first = read_line(lines, "is busy or hung")
        if "stale" in first:
            raise Stale
        pid = int(first["pid"])
        connection.settimeout(SILENCE_S)
        try:
            done = read_line(lines, "stopped answering", heartbeats=True)
        except Failed:
            # Hung: it would hold the doctree directory the cold run needs. Its session's
            # process group (start) holds the processes it started too.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
            raise
    with printing:
        sys.stdout.write(done["stdout"])
        sys.stdout.flush()
        sys.stderr.write(done["stderr"])
        sys.stderr.flush()
    run = pickle.loads(base64.b64decode(done["run"]))
    assert isinstance(run, LanguageRun)
    return run


def read_line(lines: IO[bytes], silent: str, heartbeats: bool = False) -> dict[str, Any]:
    """The server's next message; a heartbeat (an empty line) only says it is alive."""
    while True:
        try:
            line = lines.readline()
        except TimeoutError as error:
            raise Failed(silent) from error
        except OSError as error:
            raise Failed(f"died ({error})") from error
        if not line.endswith(b"\n"):
            raise Failed("died")
        if line.strip() or not heartbeats:
            message: dict[str, Any] = json.loads(line)
            return message


def start(spec: Spec, language: str, variables: dict[str, str], path: Path) -> bool:
    """Start ``language``'s server, in the language's environment and a session of its own
    (so that Ctrl+C on this run leaves it be); whether it listens."""
    path.parent.mkdir(parents=True, exist_ok=True)
    arguments = {
        "root": str(spec.root),
        "builddir": str(spec.builddir),
        "confoverrides": spec.confoverrides,
        "tags": spec.tags,
    }
    with (
        open(path.with_suffix(".out"), "wb") as out,
        open(path.with_suffix(".err"), "wb") as err,
    ):
        server = subprocess.Popen(
            [sys.executable, "-m", __name__, json.dumps(arguments), language],
            env=variables,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
    started.append(server)
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline and server.poll() is None:
        if path.exists():
            return True
        time.sleep(0.02)
    return False


def stop(builddir: Path, languages: list[str]) -> int:
    """Stop the warm processes of ``builddir`` (of ``languages``, or all): each exits once
    its socket file is gone, after the build it may be running."""
    sockets = sorted((builddir / "doctest").glob("*.sock"))
    stopped = 0
    for path in sockets:
        if languages and path.stem not in languages:
            continue
        name = address(path)
        if name is not None:
            with (
                contextlib.suppress(OSError),
                socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection,
            ):
                connection.settimeout(CONNECT_S)
                connection.connect(name)
                connection.sendall(b'{"stop": true}\n')
                connection.recv(100)
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
            stopped += 1
        print(f"doctest: stopped the warm {path.stem} process")
    return stopped


# -- the server ------------------------------------------------------------------------


def serve(spec: Spec, language: str, idle_s: float) -> None:
    """Listen for runs of ``language`` until idle for ``idle_s``, told to stop, or its socket
    file is gone (``make clean``)."""
    mine = fingerprint(spec, language, os.environ)  # first: what this process starts with
    path = socket_path(spec.builddir, language)
    name = address(path)
    assert name is not None
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    # Bound under another name and renamed once it listens: a client never finds the socket
    # file before it can be answered (and takes it for one left behind).
    binding = path.with_name(f".{os.getpid()}.sock")
    umask = os.umask(0o077)  # only its user may ask it to run code
    try:
        listener.bind(str(binding) if name == str(path) else os.path.relpath(binding))
    finally:
        os.umask(umask)
    listener.listen()
    binding.rename(path)
    inode = path.stat().st_ino
    listener.settimeout(1.0)
    kept = Kept(spec, language)
    last = time.monotonic()
    try:
        while time.monotonic() - last < idle_s and is_mine(path, inode):
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            with connection:
                going_on = kept.handle(connection, mine)
            last = time.monotonic()
            if not going_on:
                break
    finally:
        listener.close()
        kept.scope.close()
        if is_mine(path, inode):
            path.unlink()


def is_mine(path: Path, inode: int) -> bool:
    """Whether ``path`` is still the socket this server bound (not removed, not replaced)."""
    try:
        return path.stat().st_ino == inode
    except FileNotFoundError:
        return False


class Kept:
    """A server's application between runs, and whether the doctree directory is still as
    its last build left it.

    The kept application (:class:`jaxbook.sphinxapp.LiveApplication`, as the live preview
    uses) brings the doctrees up to date. When another build wrote the doctree directory
    since (``make html``, a run with ``--only`` or ``--force``), a new application starts
    from what is on disk."""

    def __init__(self, spec: Spec, language: str) -> None:
        self.spec = spec
        self.language = language
        self.built: Any = None  # the LiveApplication kept, if any
        self.left: tuple[int, ...] | None = None  # the environment pickle after its build
        # Sphinx registers an application's directives with docutils for the process: each
        # application here registers its own, and they go with it.
        self.scope = contextlib.ExitStack()

    def pickle_state(self) -> tuple[int, ...] | None:
        pickled = self.spec.builddir / "doctrees" / self.language / "environment.pickle"
        try:
            found = pickled.stat()
        except FileNotFoundError:
            return None
        return (found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns)

    def handle(self, connection: socket.socket, mine: str) -> bool:
        """Answer one client; whether to go on serving."""
        connection.settimeout(ANSWER_S)
        try:
            request = json.loads(connection.makefile("rb").readline())
        except (OSError, ValueError):
            return True
        if request.get("stop"):
            with contextlib.suppress(OSError):
                connection.sendall(b'{"stopped": true}\n')
            return False
        if request.get("fingerprint") != mine:
            with contextlib.suppress(OSError):
                connection.sendall(b'{"stale": true}\n')
            return False
        with contextlib.suppress(OSError):
            connection.sendall(json.dumps({"pid": os.getpid()}).encode() + b"\n")
        spec = replace(self.spec, only=tuple(request["only"]), force=bool(request["force"]))
        with heartbeats(connection) as send:
            run, out, err = self.run(spec)
            message = {
                "run": base64.b64encode(pickle.dumps(run)).decode(),
                "stdout": out,
                "stderr": err,
            }
            send(json.dumps(message).encode() + b"\n")
        return True

    def run(self, spec: Spec) -> tuple[LanguageRun, str, str]:
        """The run asked, with what it printed; the application kept for the next run when
        it is an ordinary one (neither ``--only`` nor ``--force``)."""
        ordinary = not spec.only and not spec.force
        if not (ordinary and self.built is not None and self.pickle_state() == self.left):
            from sphinx.util.docutils import docutils_namespace

            self.built = None
            self.scope.close()
            self.scope = contextlib.ExitStack()
            self.scope.enter_context(docutils_namespace())
        path = socket_path(spec.builddir, self.language)
        with printed((path.with_suffix(".out"), path.with_suffix(".err"))) as output:
            try:
                run, built = language_run(spec, self.language, self.built)
            finally:
                # The chip, if its kernel holds one, is free until the next run: a kernel
                # holds it for its life, so an idle server would keep the other language's
                # build, or another book's, waiting for minutes. Other kernels are kept, so
                # a page run again does not import JAX again.
                kernel.release()
        self.built = built if ordinary else None
        self.left = self.pickle_state()
        return run, *output()


@contextlib.contextmanager
def heartbeats(connection: socket.socket) -> Iterator[Callable[[bytes], None]]:
    """An empty line every :data:`HEARTBEAT_S` while the block runs: the server is alive."""
    lock = threading.Lock()
    done = threading.Event()

    def send(data: bytes) -> None:
        with lock, contextlib.suppress(OSError):  # the client gave up: the build goes on
            connection.sendall(data)

    def beat() -> None:
        while not done.wait(HEARTBEAT_S):
            send(b"\n")

    thread = threading.Thread(target=beat, daemon=True)
    thread.start()
    try:
        yield send
    finally:
        done.set()
        thread.join()


@contextlib.contextmanager
def printed(files: tuple[Path, Path]) -> Iterator[Callable[[], tuple[str, str]]]:
    """What this process writes during the block to its stdout and stderr, the ``files``
    its client opened for them."""
    sys.stdout.flush()
    sys.stderr.flush()
    starts = [os.lseek(fd, 0, os.SEEK_END) for fd in (1, 2)]
    texts: list[str] = []
    try:
        yield lambda: (texts[0], texts[1])
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        for path, offset in zip(files, starts, strict=True):
            with path.open("rb") as file:
                file.seek(offset)
                texts.append(file.read().decode("utf-8", "replace"))


def main(argv: list[str]) -> None:
    """``python -m jaxbook.doctest.warm SPEC_JSON LANGUAGE`` (started by the client)."""
    import multiprocessing

    # As jaxbook's command does: a process the build starts (sphinx-sitemap's queue
    # manager) comes from a fork server, not forked from a process that runs JAX.
    multiprocessing.set_start_method("forkserver", force=True)
    arguments = json.loads(argv[0])
    spec = Spec(
        Path(arguments["root"]),
        Path(arguments["builddir"]),
        tuple(tuple(pair) for pair in arguments["confoverrides"]),
        tuple(arguments["tags"]),
    )
    serve(spec, argv[1], float(os.environ.get(IDLE, IDLE_S)))


if __name__ == "__main__":
    main(sys.argv[1:])
