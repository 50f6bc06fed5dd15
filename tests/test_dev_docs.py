"""The README and the developer documentation name only what exists.

Every ``jaxbook.…``, ``jaxbook_lab.…`` and ``pagerun.…`` name in ``README.md`` and
``dev/*.md`` is a module of the packages or an attribute defined in one; every path under
``src/``, ``tests/``, ``docs/``, ``tools/``, ``dev/`` or ``packages/`` that they, ``conf.py``
and the guides (``guides/``: their pages and their ``conf.py``) cite exists in the repository
(``<name>`` and ``*`` stand for any name: at least one file must match; a page's line,
``:42``, is left off; a path in a chapter the book does not have, ``docs/ch02`` or
``test_ch02_…``, is an example of what an author adds); every relative link leads
to a file, and every ``#anchor`` to a heading; every ``make <target>`` in code
is a target of the Makefile. The README stays short.
"""

from __future__ import annotations

import ast
import importlib.machinery
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "dev").glob("*.md"))]
# What else cites the project's paths: the configuration and the guides (their sources; a
# translation's catalog follows its source, and make check-po holds its code spans to it).
CITING = [
    *DOCUMENTS,
    ROOT / "conf.py",
    ROOT / "guides" / "conf.py",
    *sorted((ROOT / "guides").glob("*.rst")),
]
README_MAX_LINES = 160

MODULE = re.compile(r"(?<![\w./-])(?:jaxbook(?:_lab)?|pagerun)(?:\.\w+)+")
PATH = re.compile(r"(?<![\w./<>-])(?:src|tests|docs|tools|dev|packages)/[^\s`'\"()\[\],;|]*")
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
CODE_SPAN = re.compile(r"`([^`]+)`")
MAKE = re.compile(r"(?<![\w$(-])make((?:[ \t]+[a-z][\w-]*(?![\w=/.-]))+)")


def where(document: Path, text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    return f"{document.relative_to(ROOT)}:{line}"


def mentions(
    pattern: re.Pattern[str], documents: list[Path] = DOCUMENTS
) -> list[tuple[str, re.Match[str]]]:
    """Every match of ``pattern`` in the documents, with ``file:line``."""
    found = []
    for document in documents:
        text = document.read_text(encoding="utf-8")
        found += [(where(document, text, m.start()), m) for m in pattern.finditer(text)]
    return found


def top_level_names(module: str) -> set[str]:
    """What a module defines or imports at its top, read from its source (nothing runs)."""
    spec = module_spec(module)
    assert spec is not None
    assert spec.origin is not None
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def module_spec(name: str) -> importlib.machinery.ModuleSpec | None:
    """The module's spec, found without running it or any module but its packages."""
    # find_spec("a.b.c") imports a.b, and a module may have effects on import
    # (jaxbook.doctest.runtime imports JAX, jaxbook_lab.releases.probes sets XLA_FLAGS).
    parent = name.rpartition(".")[0]
    if parent:
        spec = module_spec(parent)
        if spec is None or spec.submodule_search_locations is None:
            return None
    return importlib.util.find_spec(name)


def is_module(name: str) -> bool:
    return module_spec(name) is not None


def names_something(dotted: str) -> bool:
    if is_module(dotted):
        return True
    module, _, attribute = dotted.rpartition(".")
    return is_module(module) and attribute in top_level_names(module)


def heading_anchors(document: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown file."""
    text = FENCE.sub("", document.read_text(encoding="utf-8"))
    titles = re.findall(r"^#+\s+(.+)$", text, re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", t.strip().lower()).replace(" ", "-") for t in titles}


def make_targets() -> set[str]:
    targets = set()
    for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines():
        rule = re.match(r"^([\w./ -]+?)\s*:(?!=)", line)
        if rule and not line.startswith((".", "\t")):
            targets |= set(rule.group(1).split())
        elif line.startswith(".PHONY:"):
            targets |= set(line.split(":", 1)[1].split())
    return targets


def code(text: str) -> list[tuple[int, str]]:
    """The fenced blocks and the code spans of a Markdown text, with their offsets."""
    pieces = [(m.start(), m.group()) for m in FENCE.finditer(text)]
    prose = FENCE.sub(lambda m: " " * len(m.group()), text)
    # A code span may be wrapped over lines; a fenced block's lines are commands of their own.
    spans = [(m.start(1), m.group(1).replace("\n", " ")) for m in CODE_SPAN.finditer(prose)]
    return pieces + spans


def test_every_jaxbook_name_is_a_module_or_defined_in_one():
    missing = [f"{at}: {m.group()}" for at, m in mentions(MODULE) if not names_something(m.group())]
    assert not missing, "\n".join(missing)


# A chapter's number in a path (docs/ch02, test_ch02_exercises.py, test_chNN_...).
CHAPTER_IN_PATH = re.compile(r"ch(\d\d|NN)(?![\d])")


def is_an_example(path: str) -> bool:
    """Whether ``path`` names a chapter the book does not have: what an author would add."""
    return any(
        not (ROOT / "docs" / f"ch{number}").is_dir() for number in CHAPTER_IN_PATH.findall(path)
    )


def test_every_cited_path_exists():
    missing = []
    for at, m in mentions(PATH, CITING):
        path = re.sub(r":\d+$", "", m.group().rstrip(".:）。，、"))
        if is_an_example(path):
            continue
        pattern = re.sub(r"<[^>]*>", "*", path)
        if not (ROOT / path).exists() and not any(ROOT.glob(pattern.rstrip("/"))):
            missing.append(f"{at}: {path}")
    assert not missing, "\n".join(missing)


def test_every_relative_link_leads_somewhere():
    broken = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        for m in LINK.finditer(text):
            target, _, anchor = m.group(1).partition("#")
            if re.match(r"[a-z]+:", target):
                continue
            path = (document.parent / target).resolve() if target else document
            if not path.exists():
                broken.append(f"{where(document, text, m.start())}: {m.group(1)}")
            elif anchor and anchor not in heading_anchors(path):
                broken.append(f"{where(document, text, m.start())}: no heading #{anchor}")
    assert not broken, "\n".join(broken)


def test_every_make_target_in_code_exists():
    targets = make_targets()
    unknown = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        for offset, piece in code(text):
            for m in MAKE.finditer(piece):
                for target in m.group(1).split():
                    if target not in targets:
                        at = where(document, text, offset + m.start())
                        unknown.append(f"{at}: make {target}")
    assert not unknown, "\n".join(unknown)


@pytest.mark.parametrize(
    ("snippet", "pattern"),
    [
        ("`jaxbook.doctest.runner`", MODULE),
        ("see src/jaxbook/cli.py.", PATH),
        ("`make doctest FORCE=1`", MAKE),
    ],
)
def test_the_patterns_find_what_the_documents_cite(snippet, pattern):
    # A pattern that matched nothing would make its test above pass on any text.
    assert pattern.search(snippet)


def test_the_readme_is_short():
    lines = len((ROOT / "README.md").read_text(encoding="utf-8").splitlines())
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; move detail into dev/"


def test_makefile_targets_are_read():
    assert {"html", "test", "pdf", "epub", "publish-notebooks", "help"} <= make_targets()


LAYOUT_ROW = re.compile(r"^(?P<folder>[\w./-]+/)[ \t]{2,}(?P<says>.*)$", re.MULTILINE)
FILE_NAME = re.compile(r"(?<![\w/.-])[\w-]+\.(?:py|mjs|js|md|json|csv|rst|txt|toml)\b")


def test_the_layout_names_only_files_that_exist():
    """A row of the README's layout that lists files of its folder lists real ones."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    rows = list(LAYOUT_ROW.finditer(layout))
    assert rows, "the README has no layout rows"
    missing = [
        f"README.md layout: {row['folder']}{name}"
        for row in rows
        for name in FILE_NAME.findall(row["says"])
        if not (ROOT / row["folder"] / name).exists()
    ]
    assert not missing, "\n".join(missing)
