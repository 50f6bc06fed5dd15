"""The backends a cell's expected output can be recorded on, and how a page names them.

A cell whose output differs by backend has one ``testoutput`` per recorded
output, each with a ``:skipif:`` condition that names the backends it holds
on, in the two spellings ``sphinx.ext.doctest`` evaluates against the names
:mod:`jaxbook.doctest.runtime` defines::

    :skipif: not ON_TPU
    :skipif: not (ON_CPU or ON_GPU)

:func:`backends_of` reads such a condition (``None`` for any other), and
:func:`condition` writes one. The backends are JAX's platform names
(``jax.default_backend()``), in the order the book's tabs show them.
Standard library only: the doctest bundle imports this module where the book's
toolchain is not installed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

KNOWN = ("cpu", "gpu", "tpu")

# A chip as it is sold, for the device kind JAX reports for it where the two differ (as
# jax._src.tpu_info.chip_version_from_device_kind pairs them).
CHIPS = {
    "TPU v4 lite": "TPU v4i",
    "TPU v5 lite": "TPU v5e",
    "TPU v5": "TPU v5p",
    "TPU v6 lite": "TPU v6e",
}

_NAME = r"ON_(?P<name>[A-Z]+)"
_ONE = re.compile(rf"^not {_NAME}$")
_SEVERAL = re.compile(r"^not \((ON_[A-Z]+(?: or ON_[A-Z]+)+)\)$")


def chip(device_kind: str) -> str:
    """The product's name for a device kind: a book names "TPU v5e", JAX "TPU v5 lite"."""
    return CHIPS.get(device_kind, device_kind)


def flag(backend: str) -> str:
    """The runtime's name that is true on ``backend``: ``ON_TPU``."""
    return f"ON_{backend.upper()}"


def ordered(backends: Iterable[str]) -> list[str]:
    """``backends`` in the book's order (the known ones first, then by name)."""
    chosen = set(backends)
    return [b for b in KNOWN if b in chosen] + sorted(chosen - set(KNOWN))


def backends_of(skipif: object) -> frozenset[str] | None:
    """The backends an output with this ``:skipif:`` condition holds on, or None if the
    condition is not a backend condition (or there is none)."""
    text = " ".join(str(skipif or "").split())
    if match := _ONE.match(text):
        return frozenset({match["name"].lower()})
    if match := _SEVERAL.match(text):
        return frozenset(name[3:].lower() for name in match[1].split(" or "))
    return None


def condition(backends: Iterable[str]) -> str:
    """The ``:skipif:`` condition of an output that holds on ``backends``."""
    names = [flag(b) for b in ordered(backends)]
    if not names:
        raise ValueError("an output holds on at least one backend")
    return f"not {names[0]}" if len(names) == 1 else f"not ({' or '.join(names)})"
