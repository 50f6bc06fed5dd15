"""Devices one process at a time may open (a TPU chip), which kernels take turns at.

A TPU chip is opened by one process at a time: a second process that starts
JAX's TPU backend while another holds it fails at once. Where such a device is
present (a file matching one of the ``pagerun_exclusive_devices`` patterns), a
kernel (:mod:`pagerun.kernel`) takes one lock for the whole machine and user
(:func:`lock_path`, an ``fcntl.flock``) before it runs anything, and holds it for
its life: the builds side by side (a Sphinx process per language, the readers of
``sphinx-build -j``) take turns at the device instead of failing. The operating
system frees the lock however the kernel ends (its exit, a crash, a kill). Where
none is present, nothing is locked and the kernels run side by side.

A process that forks readers (``sphinx-build -j``) must not start a kernel before they read
(a :func:`pagerun.kernel.ask` in the main process): that kernel would hold the lock until
the build ends, and the readers' kernels would wait for it forever.

Standard library only, and Python 3.11 syntax: it is proven on the machine with
the device, whose Python may be older than pagerun's.
"""

from __future__ import annotations

import fcntl
import glob
import os
import tempfile
from collections.abc import Callable, Sequence

__all__ = ["DEFAULT_PATTERNS", "held", "holder", "lock_path", "present", "take"]

# The TPU chips: /dev/vfio/N on a TPU v5e, /dev/accelN on older TPU VMs.
DEFAULT_PATTERNS = ["/dev/vfio/[0-9]*", "/dev/accel[0-9]*"]


def present(patterns: Sequence[str]) -> list[str]:
    """The files that match ``patterns`` (absolute glob patterns), sorted."""
    return sorted({path for pattern in patterns for path in glob.glob(pattern)})


def lock_path() -> str:
    """The lock file of this machine and user (in the temporary directory, so ``TMPDIR``
    moves it)."""
    return os.path.join(tempfile.gettempdir(), f"pagerun-exclusive-devices-{os.getuid()}.lock")


def holder(fd: int) -> int | None:
    """The process that wrote its ID into the lock file last (the holder), if it did."""
    try:
        return int(os.pread(fd, 32, 0).split()[0])
    except (OSError, ValueError, IndexError):
        return None


def held(path: str | None = None) -> bool:
    """Whether a process holds the lock (``path``, by default :func:`lock_path`) now."""
    try:
        fd = os.open(path or lock_path(), os.O_RDWR)
    except FileNotFoundError:
        return False  # no kernel has taken it on this machine
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # and with it the lock, where this process took it
    return False


def take(
    patterns: Sequence[str], waiting: Callable[[list[str], int | None], None] = lambda *_: None
) -> int | None:
    """Where a device matching ``patterns`` is present, wait for the machine's lock and take
    it: its file descriptor, to keep open for as long as the device may be used (closing it,
    or the process's end, frees it). ``waiting(devices, holder)`` is called once before a
    wait, with the holder's process ID if the lock file records it. None where no such
    device is present: nothing to take turns at."""
    devices = present(patterns)
    if not devices:
        return None
    # Not inherited by a program the page's code starts (Python's default), which would
    # otherwise hold the lock after the kernel ended.
    fd = os.open(lock_path(), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        waiting(devices, holder(fd))
        fcntl.flock(fd, fcntl.LOCK_EX)
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd
