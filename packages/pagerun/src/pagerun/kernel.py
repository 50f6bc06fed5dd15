"""Run pages' code in a process of its own, the kernel, as MyST-NB runs a notebook's.

Each build process starts one long-lived kernel (``python -m pagerun.kernel``) on its
first request and sends it every page (:func:`run_page`); the kernel runs it with
:func:`pagerun.engine.run` and answers the result, its figures and where it ran. A
page that crashes or hangs the kernel fails on its own and the next page starts a
fresh kernel. :func:`ask` calls a function in the kernel, so the build need not
import the library the pages use.

This module imports only the standard library and the engine, not Sphinx.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import io
import os
import pickle
import platform
import queue
import select
import signal
import struct
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from pagerun import devices, engine

__all__ = [
    "TIMEOUT",
    "AskFailed",
    "ask",
    "main",
    "processor",
    "release",
    "run_page",
    "timeout_s",
    "where",
]

TIMEOUT = "PAGERUN_PAGE_TIMEOUT"
TIMEOUT_S = 300.0
# How long a kernel told to stop may take before it is killed.
STOP_S = 5.0
_HEADER = struct.Struct("!Q")


@dataclass
class Request:
    """A page to run, and what to keep of its run besides the engine's result."""

    page: engine.Page
    settings: engine.Settings
    names: list[str] = field(default_factory=list)  # the :measured: variables
    plots: list[int] = field(default_factory=list)  # the testplot blocks
    figures: str = ""  # where their figures go: a path to which "-<n>.png" is added
    dpi: int | None = None  # their resolution (pagerun_figure_dpi); None: matplotlib's
    # Where the page ran, if it is to be said: "module:function", called in the kernel
    # after the run, its answer a dict of plain strings ("" says nothing).
    where: str = ""
    unit: str = ""  # engine.run's unit (the run log's)
    cwd: str = ""
    path: list[str] = field(default_factory=list)
    environ: dict[str, str] = field(default_factory=dict)


@dataclass
class Ask:
    """A question for the kernel's process: ``function`` of ``module``, called with ``args``
    (plain values, as its answer must be)."""

    module: str
    function: str
    args: tuple[object, ...] = ()
    cwd: str = ""
    path: list[str] = field(default_factory=list)
    environ: dict[str, str] = field(default_factory=dict)


@dataclass
class Answer:
    run: engine.PageRun
    figures: dict[int, list[str]] = field(default_factory=dict)  # block -> image files
    where: dict[str, str] = field(default_factory=dict)  # the answer of the request's where


# -- frames ----------------------------------------------------------------------------------


def _send(fd: int, message: object) -> None:
    """Write ``message`` as one frame: its length, then its pickle.

    Frames travel over two pipes of the kernel's own, passed as file descriptors, so
    nothing the page's code prints can get into them."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


class _Frames:
    """The frames arriving on ``fd``, each read by a deadline (None: wait as long as it takes)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()

    def _fill(self, size: int, deadline: float | None) -> None:
        while len(self.buffer) < size:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                    raise TimeoutError
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                raise EOFError
            self.buffer += chunk

    def read(self, deadline: float | None = None) -> Any:
        self._fill(_HEADER.size, deadline)
        (size,) = _HEADER.unpack_from(self.buffer)
        self._fill(_HEADER.size + size, deadline)
        data = bytes(self.buffer[_HEADER.size : _HEADER.size + size])
        del self.buffer[: _HEADER.size + size]
        return pickle.loads(data)


# -- the build's side ------------------------------------------------------------------------


class Kernel:
    """One kernel process, and the pipes to it, owned by the process that started it, taking
    turns at the devices ``exclusive`` matches (absolute glob patterns).

    Where a device only one process may open is present (a TPU chip), the kernel takes the
    machine's lock (:mod:`pagerun.devices`) before it runs anything and holds it for its
    life, so kernels of builds side by side take turns at the device. Waiting for the lock
    does not count toward the page's time limit; the build says once on stderr that it
    waits, and for which process."""

    def __init__(self, exclusive: Sequence[str]) -> None:
        self.exclusive = tuple(exclusive)
        requests_in, self.requests = os.pipe()
        answers, answers_out = os.pipe()
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pagerun.kernel",
                str(requests_in),
                str(answers_out),
                *self.exclusive,
            ],
            stdin=subprocess.DEVNULL,
            pass_fds=(requests_in, answers_out),
        )
        os.close(requests_in)
        os.close(answers_out)
        self.answers = _Frames(answers)
        self.owner = os.getpid()
        # One exchange at a time: the frames of two would interleave.
        self.exchanging = threading.Lock()
        self.holds_device = False  # it took the lock of pagerun.devices

    @staticmethod
    def _say_waiting(found: list[str], pid: int | None) -> None:
        """Once, on stderr (the kernel waits once in its life): why nothing runs meanwhile."""
        holder = f" (process {pid})" if pid else ""
        print(
            f"pagerun: waiting for {', '.join(found)}, which another build's kernel"
            f" holds{holder}: one process at a time may open it",
            file=sys.stderr,
            flush=True,
        )

    def _exchange(self, request: Request | Ask, timeout_s: float, at: list) -> tuple[str, Any]:
        """Send ``request``; the kernel's answer (its kind, "done" or "failed", and what it
        holds), what the kernel prints written here meanwhile, and in ``at`` the file and line
        it last said it ran. TimeoutError past ``timeout_s``; EOFError or BrokenPipeError when
        the kernel ended. The time counts from when the kernel holds the device it waited
        for, if it did."""
        sys.stdout.flush()  # what the build printed comes before what the page prints
        sys.stderr.flush()
        deadline: float | None = time.monotonic() + timeout_s
        with self.exchanging:
            _send(self.requests, request)
            while True:
                kind, *message = self.answers.read(deadline)
                if kind == "waiting":
                    self._say_waiting(*message)
                    deadline = None  # waiting for the device is not the page's time
                elif kind == "holding":
                    self.holds_device = True
                    deadline = time.monotonic() + timeout_s  # the page's time begins now
                elif kind == "at":
                    at[:] = message
                elif kind == "printed":
                    stream = sys.stdout if message[0] == 1 else sys.stderr
                    stream.write(message[1])
                    stream.flush()
                else:
                    return kind, message[0]

    def _ended(self) -> str:
        self.stop()  # it is ending: its exit status says how
        status = self.process.returncode
        return f"signal {-status}" if status < 0 else f"exit status {status}"

    def run(self, request: Request, timeout_s: float) -> Answer:
        """The kernel's answer; a failed run, the kernel stopped, where it died or hung.

        The kernel says before each test where it is, so a page that crashes or never
        answers fails at the line that was running, with one sentence saying why."""
        where: list = []
        try:
            return self._exchange(request, timeout_s, where)[1]
        except TimeoutError:
            self.stop(kill=True)
            why = f"the page's code did not finish within {timeout_s:g} s"
        except (EOFError, BrokenPipeError):
            why = f"the page's code stopped the process running it: {self._ended()}"
        at: tuple[str, int] | None = (where[0], where[1]) if where else None
        blocks = request.page["blocks"]
        if at is None and blocks:
            at = (blocks[0]["file"], blocks[0]["line"] or 0)
        file, line = at or ("<global_setup>", 0)
        report = engine.Report(file, line, why, "The next page runs in a new process.\n")
        return Answer(engine.PageRun(failures=1, reports=[report]))

    def ask(self, question: Ask, timeout_s: float) -> Any:
        """The kernel's answer to ``question``; AskFailed where the call raised, or the kernel
        died or hung (stopped, the next question starts a fresh one)."""
        asked = f"{question.module}.{question.function}{question.args!r}"
        try:
            kind, answer = self._exchange(question, timeout_s, [])
        except TimeoutError:
            self.stop(kill=True)
            raise AskFailed(f"the kernel did not answer {asked} within {timeout_s:g} s") from None
        except (EOFError, BrokenPipeError):
            raise AskFailed(f"the kernel ended ({self._ended()}), asked {asked}") from None
        if kind == "failed":
            raise AskFailed(f"{asked} failed in the kernel:\n{answer}")
        return answer

    def alive(self) -> bool:
        return self.process.returncode is None and self.process.poll() is None

    def stop(self, kill: bool = False) -> None:
        """Close its pipe, which ends it; kill it if it does not end (or at once)."""
        if kill:
            self.process.kill()
        for fd in (self.requests, self.answers.fd):
            with contextlib.suppress(OSError):  # closed already
                os.close(fd)
        try:
            self.process.wait(timeout=STOP_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_kernel: Kernel | None = None


def timeout_s() -> float:
    """A page's time limit: ``PAGERUN_PAGE_TIMEOUT`` seconds, default 300. The build
    enforces it, so it holds whatever thread the page's code hangs in."""
    return float(os.environ.get(TIMEOUT) or TIMEOUT_S)


class AskFailed(RuntimeError):
    """A question the kernel could not answer: the call raised, or the kernel died or hung."""


def _this_kernel(exclusive: Sequence[str] | None) -> Kernel:
    """This process's kernel, started on the first request and again after one died or hung,
    or when a request names other devices to take turns at (``exclusive``; None: whichever
    the running kernel takes turns at, or the default patterns for a new one)."""
    global _kernel
    wanted = None if exclusive is None else tuple(exclusive)
    running = _kernel
    # A forked process (a parallel build's reader) starts its own: the one it inherited is
    # its parent's.
    if running is not None and running.owner == os.getpid() and running.alive():
        if wanted is None or running.exclusive == wanted:
            return running
        running.stop()
    if _kernel is None:
        atexit.register(_stop)
    _kernel = Kernel(devices.DEFAULT_PATTERNS if wanted is None else wanted)
    return _kernel


# Not PEP 695's syntax: a runner of exported pages imports this module on Pythons 3.9 to
# 3.11 (those an old release of the library a book teaches needs), which cannot parse it.
R = TypeVar("R", Request, Ask)


def _from_here(request: R) -> R:  # noqa: UP047
    """``request`` with this process's directory, path and environment, which the kernel
    takes before it runs or asks anything: as if it ran in this process."""
    request.cwd = os.getcwd()
    request.path = list(sys.path)
    request.environ = dict(os.environ)
    return request


def run_page(request: Request, exclusive: Sequence[str] | None = None) -> Answer:
    """Run a page in this process's kernel: one that takes turns at the devices ``exclusive``
    matches (a build's ``pagerun_exclusive_devices``), or, without it, the kernel running now
    (a new one takes turns at :data:`pagerun.devices.DEFAULT_PATTERNS`)."""
    return _this_kernel(exclusive).run(_from_here(request), timeout_s())


def ask(module: str, function: str, *args: object, exclusive: Sequence[str] | None = None) -> Any:
    """``function`` of ``module`` called with ``args`` in this process's kernel, where the
    pages run, and its answer: how the build asks about a library it never imports itself.
    Arguments and answer are plain values; the caller keeps the answers it needs again.
    The kernel running now answers, whichever devices it takes turns at, unless
    ``exclusive`` names others."""
    return _this_kernel(exclusive).ask(_from_here(Ask(module, function, args)), timeout_s())


def _stop() -> None:
    """At exit, stop the kernel first where this process can (its pipe closing would do)."""
    if _kernel is not None and _kernel.owner == os.getpid():
        _kernel.stop()


def release() -> None:
    """Stop this process's kernel if it holds the device lock: a process that lives on
    between builds (a server that answers the next build) calls it after each, so that the
    device is free meanwhile. The next request starts a kernel that waits for it again."""
    if _kernel is not None and _kernel.owner == os.getpid() and _kernel.holds_device:
        _kernel.stop()


# -- the kernel's side -----------------------------------------------------------------------


@cache
def processor() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                return " ".join(line.split(":", 1)[1].split())
    return platform.processor() or platform.machine()


def where() -> dict[str, str]:
    """Where this process runs, as far as Python knows: the processor and the Python release
    (the default of ``pagerun_where``; a project names a function of its own that says more,
    such as the device its library ran the page on)."""
    return {"processor": processor(), "python": f"Python {platform.python_version()}"}


def called(name: str) -> Callable[..., Any]:
    """The function (or other attribute) ``name`` names, ``"module:function"``."""
    module, _, function = name.partition(":")
    return getattr(importlib.import_module(module), function)


def plain(value: object) -> object:
    """A value as the build can keep it: a NumPy (or NumPy-like) scalar as Python's, else
    text."""
    if getattr(value, "shape", None) == () and hasattr(value, "item"):
        value = value.item()
    return value if isinstance(value, (bool, int, float, complex, str)) else str(value)


def figure_saver(request: Request, figures: dict[int, list[str]]) -> engine.After:
    """After each ``testplot`` cell: every pyplot figure open and not saved after an earlier
    one, saved as the page's image."""
    shown: set[int] = set()
    # Another page's figures are not this page's (a global cleanup may close them, too).
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        pyplot.close("all")

    def save(block: int, namespace: dict) -> None:
        if block not in request.plots:
            return
        from matplotlib import pyplot

        figures[block] = []
        for number in pyplot.get_fignums():
            if number in shown:
                continue
            shown.add(number)
            path = Path(f"{request.figures}-{len(shown)}.png")
            path.parent.mkdir(parents=True, exist_ok=True)
            pyplot.figure(number).savefig(path, dpi=request.dpi or "figure")
            figures[block].append(str(path))

    return save


def take(request: Request | Ask) -> None:
    """Take the build's directory, path and environment, which the request carries."""
    if os.environ != request.environ:
        os.environ.clear()
        os.environ.update(request.environ)
    if sys.path != request.path:
        sys.path[:] = request.path
    if request.cwd:
        os.chdir(request.cwd)


def answer(request: Request, started: engine.Started) -> Answer:
    """Run the page, in this process, as the build asked."""
    take(request)
    figures: dict[int, list[str]] = {}
    after = figure_saver(request, figures) if request.plots else None
    run = engine.run(request.page, request.settings, request.names, after, request.unit, started)
    run.values = {name: plain(value) for name, value in run.values.items()}
    return Answer(run, figures, called(request.where)() if request.where else {})


def reply(question: Ask) -> tuple[str, object]:
    """("done", what the function asked returns) or ("failed", the traceback of its error)."""
    take(question)
    try:
        function = getattr(importlib.import_module(question.module), question.function)
        return "done", function(*question.args)
    except Exception:
        return "failed", traceback.format_exc()


class _Printed(io.TextIOBase):
    """What the page's code writes to ``sys.stdout`` or ``sys.stderr``, sent to the build,
    which writes it to its own: where a page run in the build's process wrote it."""

    encoding = "utf-8"

    def __init__(self, send: Callable[[object], None], fd: int) -> None:
        self.send = send
        self.fd = fd

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text:
            self.send(("printed", self.fd, text))
        return len(text)

    def fileno(self) -> int:
        return self.fd  # code that writes below Python (faulthandler) writes to the real one


def main(argv: list[str]) -> None:
    """The kernel: ``python -m pagerun.kernel REQUESTS_FD ANSWERS_FD [DEVICE_PATTERN...]``
    (:func:`run_page` and :func:`ask` start it).

    Requests are read in a thread of their own, so when the build's process ends, however
    it ends (its pipe closes), the kernel exits at once, even in the middle of a page."""
    requests, answers = _Frames(int(argv[0])), int(argv[1])
    sending = threading.Lock()  # the page's threads print, too

    def send(message: object) -> None:
        with sending:
            _send(answers, message)

    sys.stdout = _Printed(send, 1)
    sys.stderr = _Printed(send, 2)
    # A signal the build's process group gets (Ctrl-C) is the build's to handle: the kernel
    # ends when the build's end closes its pipe.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    incoming: queue.Queue[Request | Ask] = queue.Queue()

    def listen() -> None:
        try:
            while True:
                incoming.put(requests.read())
        except (EOFError, OSError):
            os._exit(0)  # the build ended, or stopped this kernel: so does the page

    threading.Thread(target=listen, name="requests", daemon=True).start()
    # Before anything runs; kept open, and so held, until this process ends.
    held = devices.take(argv[2:], lambda found, pid: send(("waiting", found, pid)))
    if held is not None:
        send(("holding",))
    while True:
        request = (
            incoming.get()
        )  # pages run in the main thread, as signals (and some libraries) like
        if isinstance(request, Ask):
            kind, result = reply(request)
            try:
                send((kind, result))
            except (pickle.PicklingError, TypeError, AttributeError):  # not a plain value
                send(("failed", traceback.format_exc()))
            continue
        done = answer(request, lambda file, line: send(("at", file, line)))
        send(("done", done))


if __name__ == "__main__":
    # As the module of its name, not __main__: the classes of its answers are the ones the
    # build unpickles them as.
    from pagerun import kernel

    kernel.main(sys.argv[1:])
