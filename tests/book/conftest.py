"""A chapter's exercises as its pages hold them, for the tests of the book's self-checks.

An exercise ``E1`` of chapter ``docs/ch02`` has, as the author's guide lays it out, a
self-check beside its pages (``docs/ch02/_selfcheck_e1.py``) that two pages name: the
exercises page, after the reader's answer area (``selfcheck``), and the answers page, after
the reference answer, a cell that begins ``# 参考答案 E1`` (``selfcheck`` with
``:doctest:``). Each page's first cell imports what its code uses.

- ``each_selfcheck``: a test that takes this argument runs once for every self-check of
  every chapter (``tests/book/test_selfchecks.py``), ``each_chapter_with_selfchecks`` once
  for every chapter that has one;
- ``exercise``: the fixture a chapter's own test of wrong answers uses,
  ``exercise("ch02", "E1")`` (``tests/book/test_ch01_exercises.py``).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import io
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import pytest

from jaxbook import project
from jaxbook.i18n import parsers

DOCS = Path(__file__).resolve().parents[2] / "docs"
SELFCHECK_FILE = re.compile(r"_selfcheck_(e\d+)\.py")


@dataclass(frozen=True)
class Cell:
    """A ``testcode`` cell or a ``selfcheck`` of a page, where the page has it."""

    page: Path
    line: int
    kind: str  # "testcode" or "selfcheck"
    code: str  # the cell's code; a self-check's file name
    doctest: bool = False  # a self-check with ``:doctest:``


def cells(page: Path) -> list[Cell]:
    """The page's ``testcode`` cells and ``selfcheck`` directives, in its order."""
    return _cells(page, page.stat().st_mtime_ns)


@functools.cache
def _cells(page: Path, _stamp: int) -> list[Cell]:
    text = page.read_text(encoding="utf-8")
    lines = text.splitlines()
    found = []
    for block in parsers.located(text, markdown=page.suffix == ".md"):
        if block.name == "testcode":
            body = "\n".join(lines[block.body - 1 : block.body - 1 + block.lines])
            found.append(Cell(page, block.line, "testcode", textwrap.dedent(body).strip("\n")))
        elif block.name == "selfcheck":
            name = re.split(r"::|\}", lines[block.line - 1], maxsplit=1)[1].strip()
            options = lines[block.line : block.body - 1]
            doctest = any(option.strip() == ":doctest:" for option in options)
            found.append(Cell(page, block.line, "selfcheck", name, doctest))
    return found


def pages(chapter: Path) -> list[Path]:
    return sorted(p for p in chapter.iterdir() if p.suffix in project.SOURCE_SUFFIX)


@dataclass(frozen=True)
class Exercise:
    """One exercise of a chapter, found by its self-check's file."""

    chapter: Path  # docs/chNN
    name: str  # "E1"

    def __str__(self) -> str:
        return f"{self.chapter.name}-{self.name}"

    @property
    def file(self) -> Path:
        return self.chapter / f"_selfcheck_{self.name.lower()}.py"

    @cached_property
    def code(self) -> str:
        return self.file.read_text(encoding="utf-8")

    def place(self, doctest: bool) -> tuple[list[Cell], Cell]:
        """The cells of the page that names the self-check (with ``:doctest:``: the answers
        page; without: the exercises page) up to it, and the self-check."""
        found = []
        for page in pages(self.chapter):
            page_cells = cells(page)
            for i, cell in enumerate(page_cells):
                named = cell.kind == "selfcheck" and cell.code == self.file.name
                if named and cell.doctest == doctest:
                    found.append((page_cells[:i], cell))
        where = "the answers page, with :doctest:" if doctest else "the exercises page"
        assert len(found) == 1, (
            f"{self.file.name} is named {len(found)} times on {where} of {self.chapter.name}; "
            "the author's guide has it named once there"
        )
        return found[0]

    def imports(self, doctest: bool = False) -> str:
        """The first cell of the page: what the page's code imports."""
        before, check = self.place(doctest)
        codes = [cell for cell in before if cell.kind == "testcode"]
        assert codes, f"{check.page}: no cell before the self-check imports what it uses"
        return codes[0].code

    @property
    def reference_answer(self) -> str:
        """The answers page's cell that begins ``# 参考答案 E1``, the last before the
        self-check."""
        before, check = self.place(doctest=True)
        marker = f"# 参考答案 {self.name}"
        answers = [c for c in before if c.kind == "testcode" and c.code.startswith(marker)]
        assert answers, f"{check.page}: no cell that begins {marker!r} before {self.file.name}"
        return answers[-1].code

    def defined_by(self, code: str, answers_page: bool = False) -> dict[str, object]:
        """What ``code`` defines after the page's imports (what it prints left out)."""
        namespace: dict[str, object] = {}
        with contextlib.redirect_stdout(io.StringIO()):
            exec(self.imports(doctest=answers_page), namespace)
            exec(code, namespace)
        return namespace

    def run(
        self, answer: str | dict[str, object], code: str | None = None, answers_page: bool = False
    ) -> str:
        """What the self-check (or ``code``, its translation) prints after the exercises
        page's imports (or the answers page's) and ``answer``: a reader's code, or the
        objects it defines by name. What it raises, it raises."""
        namespace: dict[str, object] = {}
        with contextlib.redirect_stdout(io.StringIO()):
            exec(self.imports(doctest=answers_page), namespace)
            if isinstance(answer, str):
                exec(answer, namespace)
            else:
                namespace.update(answer)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(self.code if code is None else code, namespace)
        return printed.getvalue()

    def rejects(self, answer: str | dict[str, object], message: str) -> None:
        """The self-check raises an AssertionError that says ``message`` (a part of it)."""
        with pytest.raises(AssertionError) as raised:
            self.run(answer)
        assert message in str(raised.value), f"it said: {raised.value}"

    @cached_property
    def messages(self) -> list[str]:
        """The constant text of each explanation the self-check gives: each assert's message
        and each AssertionError it raises (an f-string's text without its values)."""

        def text(node: ast.AST) -> str:
            return "".join(
                n.value
                for n in ast.walk(node)
                if isinstance(n, ast.Constant) and isinstance(n.value, str)
            )

        found = []
        for node in ast.walk(ast.parse(self.code)):
            if isinstance(node, ast.Assert) and node.msg is not None:
                found.append(text(node.msg))
            elif (
                isinstance(node, ast.Raise)
                and isinstance(node.exc, ast.Call)
                and getattr(node.exc.func, "id", None) == "AssertionError"
            ):
                found.append(text(node.exc))
        return found

    def each_message_met(self, said: list[str]) -> None:
        """Every explanation of the self-check is one that a wrong answer met: ``said`` are
        the parts of the messages that the wrong answers are rejected with."""
        unmet = [m for m in self.messages if not any(part in m for part in said)]
        assert not unmet, f"no wrong answer is rejected with {unmet}"

    @cached_property
    def needed(self) -> list[str]:
        """The names the answer must define: those the self-check tries first, in the
        ``try:`` whose ``except NameError:`` says what to do."""
        for node in ast.walk(ast.parse(self.code)):
            if isinstance(node, ast.Try) and any(
                isinstance(h.type, ast.Name) and h.type.id == "NameError" for h in node.handlers
            ):
                return [
                    n.id for stmt in node.body for n in ast.walk(stmt) if isinstance(n, ast.Name)
                ]
        return []


def exercises(docs: Path = DOCS) -> list[Exercise]:
    """Every exercise of every chapter that has a self-check, in the chapters' order."""
    return [
        Exercise(path.parent, SELFCHECK_FILE.fullmatch(path.name)[1].upper())
        for path in sorted(
            docs.glob("ch*/_selfcheck_e*.py"), key=lambda p: (p.parent, len(p.name), p.name)
        )
        if SELFCHECK_FILE.fullmatch(path.name)
    ]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    found = exercises()
    if "each_selfcheck" in metafunc.fixturenames:
        metafunc.parametrize("each_selfcheck", found, ids=[str(e) for e in found])
    if "each_chapter_with_selfchecks" in metafunc.fixturenames:
        chapters = sorted({e.chapter for e in found})
        ids = [chapter.name for chapter in chapters]
        metafunc.parametrize("each_chapter_with_selfchecks", chapters, ids=ids)


@pytest.fixture
def exercise() -> Callable[[str, str], Exercise]:
    """``exercise("ch02", "E1")``: the book's exercise E1 of chapter 2."""

    def of(chapter: str, name: str) -> Exercise:
        found = Exercise(DOCS / chapter, name)
        assert found.file.is_file(), f"no self-check {found.file}"
        return found

    return of
