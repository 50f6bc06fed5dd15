"""pagerun is a distribution of its own: its tests need nothing of the project it was written
for, and its README documents the settings its extensions add.

import-linter keeps the package from importing that project, but sees neither the tests nor
the code they run in a child process or name in a test root's ``conf.py``; CI runs these
tests where only pagerun and its test group are installed, and this scan says which file
broke that before CI does.
"""

from __future__ import annotations

import re
from pathlib import Path

DISTRIBUTION = Path(__file__).resolve().parents[1]
# The project pagerun was written for: its book and its lab, and the book's prefix of HTML
# classes (pagerun's nodes carry its own, pagerun-, for a project's stylesheet).
PROJECT = re.compile(r"\bjaxbook(?:_lab)?\b|(?<![\w-])jb-\w")
SETTING = re.compile(r"\bpagerun_\w+")


def project_mentions(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path == Path(__file__).resolve() or "__pycache__" in path.parts:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if PROJECT.search(line):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return found


def test_no_file_of_the_distribution_names_the_book() -> None:
    assert project_mentions(DISTRIBUTION) == []


def test_the_scan_finds_a_test_that_imports_the_book(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text("import os\nfrom jaxbook.sphinxapp import x\n")
    (tmp_path / "measured.py").write_text('box = nodes.container(classes=["jb-measured"])\n')
    assert project_mentions(tmp_path) == [
        'measured.py:1: box = nodes.container(classes=["jb-measured"])',
        "tests/test_x.py:2: from jaxbook.sphinxapp import x",
    ]


def test_the_readme_documents_every_setting_the_extensions_add() -> None:
    sources = "\n".join(
        path.read_text(encoding="utf-8")
        for path in (DISTRIBUTION / "src" / "pagerun" / "sphinxext").glob("*.py")
    )
    added = set(re.findall(r"add_config_value\(\s*\"(pagerun_\w+)\"", sources))
    assert len(added) >= 8, added  # the pattern still finds them
    readme = (DISTRIBUTION / "README.md").read_text(encoding="utf-8")
    assert set(SETTING.findall(readme)) == added
