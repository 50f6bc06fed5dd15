"""The environment every run of the pages' code uses: the outputs on the pages depend on it.

Every tool that starts a build of the book (``jaxbook html``, ``editions``,
``doctest``, ``refresh``, ``livehtml``, the bench) gives its Sphinx process
this environment, so that their builds of one language agree on
``pagerun_run_inputs`` (:mod:`pagerun.sphinxext.run`) and share one
doctree directory without reading a page again.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

DETERMINISTIC = "--xla_gpu_deterministic_ops=true"


def doctest_environment(
    base: Mapping[str, str], root: Path, language: str | None = None
) -> dict[str, str]:
    """``base`` with the doctest environment; applying it twice changes nothing more.

    With ``language``, JAX's compilation cache is the language's own: JAX writes an
    entry without a lock or a rename, and a build of another language, running the
    same page at the same time, would read it half-written (a warning, which fails
    the page).
    """
    env = dict(base)
    # A child process that starts JAX while this one holds the GPU's default
    # 75 % preallocation can run out of memory.
    env["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
    env["MPLBACKEND"] = "Agg"
    # XLA:GPU autotuning can pick another kernel on each compile, and with it
    # another last digit of a float; deterministic ops also turn it off.
    flags = env.get("XLA_FLAGS", "").split()
    env["XLA_FLAGS"] = " ".join(flags if DETERMINISTIC in flags else [*flags, DETERMINISTIC])
    # JAX's persistent compilation cache: a second run skips most XLA compiles
    # (make bench measures it). An explicit JAX_COMPILATION_CACHE_DIR wins; an empty
    # one turns the cache off.
    cache = env.setdefault("JAX_COMPILATION_CACHE_DIR", str(root / "_build" / "jax-cache"))
    if language and cache and Path(cache).name != language:
        env["JAX_COMPILATION_CACHE_DIR"] = str(Path(cache) / language)
    env.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0")
    return env


def apply(root: Path, language: str | None = None) -> None:
    """Put the doctest environment into this process (for tools that run the code themselves)."""
    os.environ.update(doctest_environment(os.environ, root, language))
