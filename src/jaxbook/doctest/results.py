"""What a doctest run finds, page by page: the results that pass between its parts.

Nothing here imports Sphinx or JAX, so that what only reads results (the
cache, the verdict, ``jaxbook doctest-merge`` over the CI shards) starts at
once.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class UnitResult:
    """The verdict on one page in one language (JSON-friendly)."""

    language: str
    docname: str
    tries: int = 0
    failures: int = 0
    setup_failures: int = 0
    cleanup_failures: int = 0
    report: str = ""  # the doctest builder's output for this page
    warnings: str = ""
    seconds: float = 0.0
    key: str = ""
    cached: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def broken(self) -> int:
        return self.failures + self.setup_failures + self.cleanup_failures

    @property
    def clean(self) -> bool:
        return self.broken == 0 and not self.warnings

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> UnitResult:
        return cls(**data)
