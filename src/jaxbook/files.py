"""Writing the build's state so that a process killed at any moment leaves no half of it."""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from pathlib import Path


def write_text_atomically(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all: a reader never sees a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.parent / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}"
    # Not mkstemp, which makes the file private (0600): 0o666 less the umask, as open() gives.
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        if path.exists():
            os.chmod(temporary, stat.S_IMODE(path.stat().st_mode))  # the file keeps its mode
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def exclusive(lock: Path, on_wait: Callable[[], None]) -> Iterator[None]:
    """Hold ``lock`` (an advisory file lock) for the block; ``on_wait`` once if another holds it.

    The kernel releases the lock when its holder exits, however it exits, so a
    killed run never leaves the next one waiting.
    """
    lock.parent.mkdir(parents=True, exist_ok=True)
    with lock.open("a") as file:
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            on_wait()
            fcntl.flock(file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(file, fcntl.LOCK_UN)


def holding(doctrees: Path) -> contextlib.AbstractContextManager[None]:
    """One build at a time in a doctree directory, which the site, the PDF, the EPUB and the
    doctests of a language share: two would write its environment at once."""

    def waiting() -> None:
        print(f"{doctrees}: another build is reading into it; waiting for it", flush=True)

    return exclusive(doctrees.parent / f"{doctrees.name}.lock", waiting)
