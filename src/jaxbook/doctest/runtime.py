"""What the doctest global setup imports: backend flags, warnings as errors, checked keys.

Every page's doctests start with ``from jaxbook.doctest.runtime import *``
(see ``doctest_global_setup`` in ``conf.py``), which gives:

``BACKEND``, ``ON_CPU``, ``ON_GPU``, ``ON_TPU``
   The backend JAX chose (its platform name), and a flag per backend the book
   knows (:mod:`jaxbook.backends`), for the ``:skipif:`` conditions that pick
   per-backend expected outputs. ``JAXBOOK_BACKEND=<name>`` in the environment
   makes the conditions see another name: a test uses it to run the pages as a
   backend the book has no record for.
``unrecorded_here(backends)``
   The condition ``jaxbook.sphinxext.backend_tabs`` gives a cell whose expected
   outputs are per backend: on a backend none of them was recorded for, the
   cell is skipped, saying so, instead of being compared with nothing.
``unrecorded_on(backend, reason)``
   A ``:skipif:`` condition for a block whose output on ``backend`` differs
   from the recorded one and has not yet been produced by a real run there.
   It prints the reason whenever it skips, so a skip never goes unexplained.
   With ``JAXBOOK_RUN_UNRECORDED=1`` in the environment it never skips: the
   blocks run and fail with what they print on that backend, which is how
   their output for it gets recorded from a real run.
``other_python(reason)``
   A ``:skipif:`` condition for a block that prints the Python version: its
   output was recorded on ``RECORDED_PYTHON`` (the minor version of
   ``.python-version``), so on another minor version it is skipped, saying
   why. Outputs never depend on the patch version (``3.13...``).

On a GPU, float32 matrix products default to TF32; the GPU outputs were
recorded with full float32, so the setup asks for it explicitly there. A TPU
keeps its default (bfloat16 passes for float32 matrix products), so its
outputs are what a reader's TPU prints; a page that means full precision asks
for it in its own code.

A warning is output: between ``watch_warnings()`` and ``unwatch_warnings()``
(the global setup and cleanup) every warning a page's code emits, of any
category (``DeprecationWarning`` and ``FutureWarning`` included, which Python
hides by default), is raised as an exception, so the example that emitted it
fails at its line with the warning's class and message. A cell that expects a
warning catches it (``warnings.catch_warnings(record=True)``) and prints it,
so the warning is part of the output the page shows and the doctest compares.

Keys are checked: between ``check_key_reuse()`` and ``stop_checking_key_reuse()``
(the global setup and cleanup) JAX's key-reuse checker (``jax_debug_key_reuse``)
is on, so a cell that draws twice from one typed key fails with JAX's
``KeyReuseError`` at its line. A cell that shows reuse on purpose catches the
error and prints it.

A page leaves the process's settings as it found them: ``keep_settings()`` (first in the
global setup) notes JAX's configuration and NumPy's print options (which JAX's arrays print
with), and ``settings_left_as_found()`` (last in the global cleanup) fails the page, naming
each setting it left changed, and puts them back. The next page runs in the same process,
and would print with them; what must start changed runs as a snippet, in a new process.

A page leaves no figure behind: ``close_figures()`` (the global cleanup)
closes every pyplot figure the page opened. A process runs many pages, and
pyplot keeps each figure until it is closed; at the 21st open figure it
warns, and the warning would fail the page that opened it.

Where a page that shows a measurement ran, the build asks its kernel with ``where()``
(``pagerun_where`` in ``conf.py``): JAX's backend, its device (the CPU's model on a CPU)
and release, which the measured outputs' label shows.

Config values: none (this module is not a Sphinx extension).
"""

from __future__ import annotations

import os
import sys
import warnings
from typing import Any

import jax
import numpy

from pagerun.kernel import processor

__all__ = [
    "BACKEND",
    "ON_CPU",
    "ON_GPU",
    "ON_TPU",
    "check_key_reuse",
    "close_figures",
    "keep_settings",
    "other_python",
    "settings_left_as_found",
    "stop_checking_key_reuse",
    "unrecorded_here",
    "unrecorded_on",
    "unwatch_warnings",
    "watch_warnings",
]

BACKEND = os.environ.get("JAXBOOK_BACKEND") or jax.default_backend()
ON_CPU = BACKEND == "cpu"
ON_GPU = BACKEND == "gpu"
ON_TPU = BACKEND == "tpu"
RUN_UNRECORDED = os.environ.get("JAXBOOK_RUN_UNRECORDED") == "1"
# The minor version of .python-version, on which the outputs were recorded.
RECORDED_PYTHON = (3, 13)

if jax.default_backend() == "gpu":
    jax.config.update("jax_default_matmul_precision", "float32")


def unrecorded_on(backend: str, reason: str) -> bool:
    if backend != BACKEND:
        return False
    if RUN_UNRECORDED:
        print(f"run on {backend} to record its output: {reason}", file=sys.stderr)
        return False
    print(f"skipped on {backend}: {reason}", file=sys.stderr)
    return True


def unrecorded_here(backends: tuple[str, ...]) -> bool:
    if BACKEND in backends:
        return False
    if RUN_UNRECORDED:
        print(f"run on {BACKEND} to record its output", file=sys.stderr)
        return False
    print(
        f"skipped on {BACKEND}: the output depends on the backend and is recorded for "
        f"{', '.join(backends)} only",
        file=sys.stderr,
    )
    return True


def other_python(reason: str) -> bool:
    if sys.version_info[:2] == RECORDED_PYTHON:
        return False
    major, minor = sys.version_info[:2]
    print(f"skipped on Python {major}.{minor}: {reason}", file=sys.stderr)
    return True


_watching: list[warnings.catch_warnings] = []


def watch_warnings() -> None:
    guard = warnings.catch_warnings()
    guard.__enter__()
    warnings.simplefilter("error")
    _watching.append(guard)


def unwatch_warnings() -> None:
    while _watching:
        _watching.pop().__exit__(None, None, None)


def close_figures() -> None:
    """Close the pyplot figures left open (without importing pyplot where no page did)."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        pyplot.close("all")


Settings = tuple[dict[str, Any], dict[str, Any]]
_settings_at_start: list[Settings] = []


def settings() -> Settings:
    """What a page could change for the pages after it in the same process: JAX's
    configuration, and NumPy's print options."""
    return dict(jax.config.values), dict(numpy.get_printoptions())


def keep_settings() -> None:
    _settings_at_start[:] = [settings()]


def settings_left_as_found() -> None:
    if not _settings_at_start:
        return
    (config, options), (config_now, options_now) = _settings_at_start.pop(), settings()
    changed = sorted(
        f"{kind} {name} ({before.get(name)!r}, now {after.get(name)!r})"
        for kind, before, after in (
            ("jax.config", config, config_now),
            ("NumPy's print option", options, options_now),
        )
        for name in before.keys() | after.keys()
        if before.get(name) != after.get(name)
    )
    if changed:
        # Put back, so that the page that changed them fails alone.
        for name, value in config.items():
            if config_now.get(name) != value:
                jax.config.update(name, value)
        numpy.set_printoptions(**options)
        raise AssertionError(
            "the page left settings changed, which the next page in this process would "
            f"run with: {'; '.join(changed)}. Put them back in the page, or run the code "
            "as a snippet, in a new process."
        )


def check_key_reuse() -> None:
    jax.config.update("jax_debug_key_reuse", True)


def stop_checking_key_reuse() -> None:
    jax.config.update("jax_debug_key_reuse", False)


def where() -> dict[str, str]:
    """Where this process runs JAX: its backend, device and release (not a page's name:
    the kernel calls it after a page that shows a measurement)."""
    backend = jax.default_backend()
    device = processor() if backend == "cpu" else jax.devices()[0].device_kind
    return {"backend": backend, "device": device, "version": jax.__version__}
