"""What the doctest global setup imports: backend flags, skip conditions and page guards.

Every page's doctests start with ``from jaxbook.doctest.runtime import *`` (see
``doctest_global_setup`` in ``conf.py``). It gives the backend flags and the ``:skipif:``
conditions that pick an expected output per backend or Python version, and the setup and
cleanup calls that fail a page that emits a warning, reuses a random key, leaves a setting
changed or leaves a figure open.
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

# The backend JAX chose, and a flag per backend the book knows (jaxbook.backends), for the
# :skipif: conditions. JAXBOOK_BACKEND=<name> makes them see another name: a test uses it to
# run the pages as a backend the book has no record for.
BACKEND = os.environ.get("JAXBOOK_BACKEND") or jax.default_backend()
ON_CPU = BACKEND == "cpu"
ON_GPU = BACKEND == "gpu"
ON_TPU = BACKEND == "tpu"
RUN_UNRECORDED = os.environ.get("JAXBOOK_RUN_UNRECORDED") == "1"
# The minor version of .python-version, on which the outputs were recorded.
RECORDED_PYTHON = (3, 13)

# On a GPU float32 matrix products default to TF32, but the GPU outputs were recorded with
# full float32. A TPU keeps its default (bfloat16 passes), so its outputs are what a reader's
# TPU prints; a page that means full precision asks for it in its own code.
if jax.default_backend() == "gpu":
    jax.config.update("jax_default_matmul_precision", "float32")


def unrecorded_on(backend: str, reason: str) -> bool:
    """Skip a block whose output on ``backend`` differs from the recorded one and has not yet
    been recorded from a real run there; it prints the reason, so no skip goes unexplained.

    With ``JAXBOOK_RUN_UNRECORDED=1`` it never skips: the block fails with what it prints on
    that backend, which is how its output for it gets recorded.
    """
    if backend != BACKEND:
        return False
    if RUN_UNRECORDED:
        print(f"run on {backend} to record its output: {reason}", file=sys.stderr)
        return False
    print(f"skipped on {backend}: {reason}", file=sys.stderr)
    return True


def unrecorded_here(backends: tuple[str, ...]) -> bool:
    """The condition :mod:`jaxbook.sphinxext.backend_tabs` gives a cell with an output per
    backend: on a backend none was recorded for, the cell is skipped, saying so, instead of
    being compared with nothing."""
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
    """Skip a block that prints the Python version on any minor version but
    ``RECORDED_PYTHON``, saying why (outputs never depend on the patch version)."""
    if sys.version_info[:2] == RECORDED_PYTHON:
        return False
    major, minor = sys.version_info[:2]
    print(f"skipped on Python {major}.{minor}: {reason}", file=sys.stderr)
    return True


_watching: list[warnings.catch_warnings] = []


def watch_warnings() -> None:
    """Raise every warning a page's code emits, of any category (``DeprecationWarning`` and
    ``FutureWarning`` included, which Python hides), until ``unwatch_warnings()``.

    The example that emitted it fails at its line. A cell that expects a warning catches it
    (``warnings.catch_warnings(record=True)``) and prints it, so the doctest compares it.
    """
    guard = warnings.catch_warnings()
    guard.__enter__()
    warnings.simplefilter("error")
    _watching.append(guard)


def unwatch_warnings() -> None:
    while _watching:
        _watching.pop().__exit__(None, None, None)


def close_figures() -> None:
    """Close the pyplot figures left open (without importing pyplot where no page did).

    Pages share a process, and pyplot keeps each figure until it is closed: at the 21st it
    warns, and the warning would fail whichever page opened it.
    """
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
    """Note the settings (first in the global setup) for ``settings_left_as_found()``."""
    _settings_at_start[:] = [settings()]


def settings_left_as_found() -> None:
    """Fail the page (last in the global cleanup) that left a setting changed, naming each,
    and put them back.

    The next page runs in the same process and would print with them; code that must start
    with settings changed runs as a snippet, in a new process.
    """
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
    """Turn on JAX's key-reuse checker: a cell that draws twice from one typed key fails with
    ``KeyReuseError`` at its line. A cell that shows reuse on purpose catches and prints it."""
    jax.config.update("jax_debug_key_reuse", True)


def stop_checking_key_reuse() -> None:
    jax.config.update("jax_debug_key_reuse", False)


def where() -> dict[str, str]:
    """Where this process runs JAX: its backend, device and release (not a page's name:
    the kernel calls it after a page that shows a measurement; ``pagerun_where`` in
    ``conf.py``). The measured outputs' label shows it."""
    backend = jax.default_backend()
    device = processor() if backend == "cpu" else jax.devices()[0].device_kind
    return {"backend": backend, "device": device, "version": jax.__version__}
