from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
sys.path.insert(0, str(ROOT / "tools"))


@pytest.fixture(scope="session")
def rootdir() -> Path:
    return Path(__file__).parent / "roots"
