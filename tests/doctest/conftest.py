"""The doctest tools' tests run on ``tests/roots/test-book``, a book whose pages print."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from jaxbook.doctest import runner


@dataclass
class Verdict:
    ok: bool
    output: str
    record: dict

    @property
    def last(self) -> str:
        return self.output.strip().splitlines()[-1]


@pytest.fixture
def book(rootdir: Path, tmp_path: Path) -> Path:
    """A copy of the tiny book to change."""
    return Path(shutil.copytree(rootdir / "test-book", tmp_path / "book"))


@pytest.fixture
def doctest(capsys) -> Callable[..., Verdict]:
    """``make doctest`` on a book, its languages one after the other in this process, or
    side by side in processes of their own as ``make doctest`` runs them."""

    def run(
        root: Path,
        *languages: str,
        force: bool = False,
        only: tuple[str, ...] = (),
        side_by_side: bool = False,
    ):
        spec = runner.Spec(root, root / "_build", force=force, only=only)
        capsys.readouterr()
        ok = runner.check(spec, list(languages or ("zh_CN", "en")), side_by_side=side_by_side)
        output = capsys.readouterr().out
        record = json.loads((root / "_build/doctest/record.json").read_text(encoding="utf-8"))
        return Verdict(ok, output, record)

    return run


def replace_once(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture
def edit() -> Callable[[Path, str, str], None]:
    """``edit(path, old, new)``: replace the one ``old`` in a file."""
    return replace_once
