"""Nodes shared by the extensions."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypedDict

from docutils import nodes


def detached[E: nodes.Element](node: E) -> E:
    """A copy of ``node`` to keep in the environment, without its document.

    docutils gives every node of a tree its document (``setup_child``), and ``deepcopy``
    copies that reference, so a copy kept in a domain's data would pickle the whole page
    with it, into the environment that every build loads first
    (``test_no_domain_keeps_a_whole_page`` in ``tests/sphinxext/test_parallel_build.py``).
    The copy is looked at and copied again when a page is written, never as part of its
    page."""
    copy = node.deepcopy()
    for part in copy.findall():
        part.document = None  # type: ignore[assignment]  # docutils's default, typed as never None
    return copy


class chrome(nodes.paragraph, nodes.Invisible):
    """A paragraph of site chrome (download and edit links, notices) added at build time.

    It renders as a paragraph; being ``Invisible``, it is left out of what
    describes the page (the ``description`` meta tag and OpenGraph's).
    """


def _pass(self: Any, node: nodes.Element) -> None:
    pass


_Visitors = tuple[Callable[..., None], Callable[..., None]]


class _Passthrough(TypedDict):
    text: _Visitors
    man: _Visitors
    texinfo: _Visitors


# The visitors of a node that the builders other than HTML and LaTeX show as its children.
PASSTHROUGH = _Passthrough(text=(_pass, _pass), man=(_pass, _pass), texinfo=(_pass, _pass))


def ancestors(node: nodes.Node) -> Iterator[nodes.Element]:
    """The elements that hold ``node``, the nearest first."""
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def enclosing[T: nodes.Element](node: nodes.Node, kind: type[T]) -> T | None:
    """The nearest element of ``kind`` that holds ``node``, if any."""
    return next((a for a in ancestors(node) if isinstance(a, kind)), None)


def section_title(section: nodes.section) -> nodes.title:
    title = section.next_node(nodes.title)
    assert title is not None, "docutils gives every section a title"
    return title


def after_title(section: nodes.section) -> int:
    """The index in ``section`` just after its title and the title's words in the other
    language (:mod:`jaxbook.sphinxext.parallel_text`'s, class ``jb-parallel``): where a
    notice or link goes."""
    index = section.index(section_title(section)) + 1
    while index < len(section) and is_parallel_text(section[index]):
        index += 1
    return index


def is_parallel_text(node: nodes.Node) -> bool:
    """Whether ``node`` is the other language's words that the website shows beside a
    passage (:mod:`jaxbook.sphinxext.parallel_text`, class ``jb-parallel``)."""
    return isinstance(node, nodes.Element) and "jb-parallel" in node["classes"]
