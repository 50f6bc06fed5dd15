"""A page's code as the engine runs it, and what each of its blocks printed.

:class:`Page` (a document's :class:`Block`, in order) is what :mod:`pagerun.engine`
runs and :class:`RecordedBlock` what it records of a test; :mod:`pagerun.pages`
makes pages of the nodes Sphinx read, and the kernel carries them. Plain typed
dicts, so that a page can be written to JSON and run elsewhere.

The standard library only, and Python 3.9 and newer: the engine runs without Sphinx,
on older Pythons too.
"""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = ["Block", "Kind", "Page", "RecordedBlock"]

# What a block is: the name of the doctest directive that made it.
Kind = Literal["testsetup", "testcleanup", "doctest", "testcode", "testoutput"]


class Block(TypedDict):
    """One doctest directive of a page, as ``sphinx.ext.doctest`` collected it."""

    type: Kind
    code: str
    file: str  # relative to the project, as messages name it
    line: int | None
    options: dict[str, bool]  # doctest option flag name -> on or off
    groups: list[str]
    skipif: str | None  # the condition, evaluated where the page runs


class Page(TypedDict):
    docname: str
    blocks: list[Block]


class _RecordedDetail(TypedDict, total=False):
    failed_at: str  # the line of its code that raised, when an assert failed


class RecordedBlock(_RecordedDetail):
    """What one testcode or doctest block printed where it ran."""

    file: str
    line: int | None
    code: str  # the block's code, as the page's language has it
    want: str | None  # the page's expected output (None for a doctest block)
    got: str
    passed: bool
    exception: str | None  # the last line of an exception it raised
