"""The few facts about MyST Markdown source that the lab's recording reads lines by: fences.

A fence opens with three or more backticks, tildes or colons, optionally a
directive name in braces and an argument (```` ```{testoutput} ````,
``:::{update-note} title``, ```` ```python ````), and closes with a line of
the same mark at least as long. A directive's options follow its opening
line, as ``:name: value`` lines or a ``---`` YAML block.

Only :mod:`jaxbook_lab.record` reads fences by lines, to write a run's outputs back
into a page; the book's tools locate a page's directives with
:func:`jaxbook.i18n.parsers.located`, on markdown-it.
"""

from __future__ import annotations

import re

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,}|:{3,})\s*(?:\{([\w-]+)\})?\s*(.*?)\s*$")
OPTION = re.compile(r"^\s*:([\w-]+):( |$)")


def fence_end(lines: list[str], i: int, fence: str) -> int:
    """The index of the line that closes the fence opened at ``i`` (or the end)."""
    close = re.compile(rf"^\s*{re.escape(fence[0])}{{{len(fence)},}}\s*$")
    j = i + 1
    while j < len(lines) and not close.match(lines[j]):
        j += 1
    return j


def fence_body(lines: list[str], i: int) -> int:
    """The first line of a fenced directive's body, after its options."""
    j = i + 1
    if j < len(lines) and lines[j].strip() == "---":
        j += 1
        while j < len(lines) and lines[j].strip() != "---":
            j += 1
        return j + 1
    while j < len(lines) and OPTION.match(lines[j]):
        j += 1
    return j
