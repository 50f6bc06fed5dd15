"""pagerun's tests build small projects of their own (``tests/pagerun/roots``): plain Python
pages, and matplotlib for ``testplot``; nothing of the book, no JAX."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def rootdir() -> Path:
    return Path(__file__).parent / "roots"
