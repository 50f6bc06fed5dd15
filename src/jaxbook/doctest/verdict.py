"""One verdict from many units: the failure reports, a line per language, ``N passed, N failed``.

``make doctest`` prints it for the units it ran or found cached, and
``jaxbook doctest-merge`` prints it for the JSON verdicts of the CI shards;
both print the same thing for the same results.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jaxbook.doctest.results import UnitResult
from jaxbook.files import write_text_atomically

FAILURE_HEADER = re.compile(
    r'^File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<group>.+)$', re.MULTILINE
)
SEPARATOR = "*" * 70
# The last line of an "Exception raised:" traceback that is a warning.
UNEXPECTED_WARNING = re.compile(
    r"Exception raised:\n(?:.*\n)*?\s+(?:[\w.]+\.)?(?P<category>\w*Warning): (?P<message>.*)\Z",
)


def report_failures(text: str, language: str) -> None:
    """Print each failure of doctest's report as ``docs/<page>.rst:<line>: ...``
    (``.md`` for a MyST page) and its detail."""
    for block in text.split(SEPARATOR):
        header = FAILURE_HEADER.search(block)
        if not header:
            continue
        source = header["file"]
        path = source if source.startswith("<") else f"docs/{source}"
        what = "setup code failed" if "(setup code)" in header["group"] else "doctest failed"
        warned = UNEXPECTED_WARNING.search(block.rstrip())
        if warned:
            # jaxbook.doctest.runtime raises every warning; say which, not only "failed".
            what = f"unexpected {warned['category']}: {warned['message']}"
        print(f"{path}:{header['line']}: {what} [{language}]")
        print(block.strip("\n"))
        print()


@dataclass
class Verdict:
    """What a run (or one CI shard of it) found."""

    languages: list[str]
    units: list[UnitResult] = field(default_factory=list)
    # Problems outside any unit: a language that could not be read, a warning while reading.
    errors: list[str] = field(default_factory=list)
    # Every unit of the whole run; a shard runs only some of them.
    planned: list[tuple[str, str]] = field(default_factory=list)
    shard: str = ""
    backend: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "languages": self.languages,
            "shard": self.shard,
            "backend": self.backend,
            "planned": [list(unit) for unit in self.planned],
            "errors": self.errors,
            "units": [unit.to_json() for unit in self.units],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Verdict:
        return cls(
            languages=data["languages"],
            units=[UnitResult.from_json(unit) for unit in data["units"]],
            errors=data["errors"],
            planned=[tuple(unit) for unit in data["planned"]],
            shard=data.get("shard", ""),
            backend=data.get("backend", ""),
        )

    def write(self, path: Path) -> None:
        write_text_atomically(path, json.dumps(self.to_json(), ensure_ascii=False, indent=1))

    @classmethod
    def read(cls, path: Path) -> Verdict:
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")))

    def print(self, *, check_equal_counts: bool = True) -> bool:
        """Print the verdict; return whether everything passed."""
        failed = 0
        for error in self.errors:
            print(error)
            failed += 1
        passed = 0
        tries_by_language: dict[str, int] = {}
        order = {language: i for i, language in enumerate(self.languages)}
        units = sorted(self.units, key=lambda u: (order.get(u.language, 99), u.docname))
        for language in self.languages:
            mine = [unit for unit in units if unit.language == language]
            if not mine:
                continue
            for unit in mine:
                report_failures(unit.report, language)
                if unit.warnings:
                    print(f"docs: {unit.docname} [{language}] warned while it was tested:")
                    print(unit.warnings.rstrip())
                    failed += 1
            tries = sum(unit.tries for unit in mine)
            broken = sum(unit.broken for unit in mine)
            unit_failures = sum(unit.failures for unit in mine)
            tries_by_language[language] = tries
            passed += tries - unit_failures
            failed += broken
            print(f"{language}: {tries - unit_failures} passed, {broken} failed")
            cached = [unit for unit in mine if unit.cached]
            if cached:
                ran = len(mine) - len(cached)
                print(
                    f"{language}: {ran} page{'s' * (ran != 1)} run, {len(cached)} cached "
                    f"({sum(u.tries for u in cached)} examples that passed with the same inputs)"
                )
        if check_equal_counts and len(set(tries_by_language.values())) > 1:
            counts = ", ".join(f"{lang} {n}" for lang, n in tries_by_language.items())
            print(
                f"docs: the languages ran different numbers of examples ({counts}); "
                "a translated block lost or gained a doctest"
            )
            failed += 1
        print(f"{passed} passed, {failed} failed")
        return failed == 0
