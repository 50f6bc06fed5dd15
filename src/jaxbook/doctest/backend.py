"""Say which backend JAX runs on here, and fail if it is not the one expected.

    jaxbook backend [--expect gpu]

A GPU runner whose CUDA plugin failed to load falls back to the CPU without
an error; its doctests would then check the CPU outputs and pass. CI asks
this command first.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--expect", choices=["cpu", "gpu", "tpu"], help="fail unless this one")


def run(args: argparse.Namespace) -> int:
    import jax

    backend = jax.default_backend()
    print(backend, jax.devices())
    if args.expect and backend != args.expect:
        print(f"JAX runs on {backend}, not on {args.expect}: its plugin did not load")
        return 1
    return 0
