"""The environment every run of the pages' code uses: the outputs on the pages depend on it."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def doctest_environment(base: Mapping[str, str], root: Path) -> dict[str, str]:
    env = dict(base)
    # A child process that starts JAX while this one holds the GPU's default
    # 75 % preallocation can run out of memory.
    env["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
    env["MPLBACKEND"] = "Agg"
    # XLA:GPU autotuning can pick another kernel on each compile, and with it
    # another last digit of a float; deterministic ops also turn it off.
    env["XLA_FLAGS"] = " ".join(
        filter(None, [env.get("XLA_FLAGS"), "--xla_gpu_deterministic_ops=true"])
    )
    # JAX's persistent compilation cache: a second run skips most XLA compiles
    # (make bench measures it). An explicit JAX_COMPILATION_CACHE_DIR wins.
    env.setdefault("JAX_COMPILATION_CACHE_DIR", str(root / "_build" / "jax-cache"))
    env.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0")
    return env


def apply(root: Path) -> None:
    """Put the doctest environment into this process (for tools that run the code themselves)."""
    os.environ.update(doctest_environment(os.environ, root))
