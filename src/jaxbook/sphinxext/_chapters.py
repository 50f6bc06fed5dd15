"""Chapters and reading order, as the generated pages (update notes, other releases) see them.

A chapter is a directory of the source: a page that lists the chapter's
notes or examples speaks of the pages in its own directory and below, so a
book of many chapters has one such page per chapter, whatever builder
writes it (one file per page, or the whole book as one document). Such a page is written
again, never read again, when a page it is made from was read since
(:func:`written_before_their_chapter`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pagerun.sphinxext import pages_read_at, written_before

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


def book_order(env: BuildEnvironment) -> list[str]:
    """The pages of the reader's book, those the root page's toctrees reach, in the order a
    reader meets them (the PDF and the EPUB hold these, and no other)."""
    order: list[str] = []

    def walk(docname: str) -> None:
        if docname in order:
            return
        order.append(docname)
        for child in env.toctree_includes.get(docname, []):
            walk(child)

    walk(env.config.root_doc)
    return order


def chapter_numbers(env: BuildEnvironment) -> dict[str, int]:
    """Each page of the reader's book and the number of its chapter, as the PDF counts
    chapters: the root page's toctree entries, from 1, with the pages below each; the root
    page itself is 0."""
    numbers = {env.config.root_doc: 0}

    def walk(docname: str, number: int) -> None:
        if docname in numbers:
            return
        numbers[docname] = number
        for child in env.toctree_includes.get(docname, []):
            walk(child, number)

    for number, chapter in enumerate(env.toctree_includes.get(env.config.root_doc, []), 1):
        walk(chapter, number)
    return numbers


def page_number(env: BuildEnvironment, docname: str) -> str:
    """A page's number as its title shows it ("1.5", from the chapter's ``:numbered:``
    toctree; jaxbook.sphinxext.numbering puts the chapter's number first), or "" for a page
    without one (a chapter's page, the back matter)."""
    return ".".join(map(str, env.toc_secnumbers.get(docname, {}).get("", ())))


def numbered_title(env: BuildEnvironment, docname: str) -> str:
    """A page's title as a reader sees it, with its number: "1.5 使用 JAX 数组"."""
    title = env.titles[docname].astext() if docname in env.titles else docname
    number = page_number(env, docname)
    return f"{number} {title}" if number else title


def reading_order(env: BuildEnvironment) -> list[str]:
    """Documents in the order a reader meets them through the toctrees (the rest sorted)."""
    order = book_order(env)
    order.extend(sorted(set(env.found_docs) - set(order)))
    return order


def directory(docname: str) -> str:
    """The chapter a page belongs to: its directory ("" at the top)."""
    return docname.rpartition("/")[0]


def covers(page: str, docname: str) -> bool:
    """Whether the chapter page ``page`` speaks of ``docname`` (same directory or below)."""
    chapter = directory(page)
    return not chapter or docname.startswith(chapter + "/")


def nearest(pages: list[str], docname: str) -> str | None:
    """Of the chapter pages, the one that speaks of ``docname``: the deepest that covers it."""
    covering = [page for page in pages if covers(page, docname)]
    return max(covering, key=lambda page: page.count("/")) if covering else None


def written_before_their_chapter(
    app: Sphinx, env: BuildEnvironment, pages: Iterable[str]
) -> list[str]:
    """Of the chapter ``pages``, those that a page of their chapter was read since this
    builder last wrote them (:func:`pagerun.sphinxext.written_before`)."""
    read_at = pages_read_at(env)
    last_read = {
        page: max((at for doc, at in read_at.items() if covers(page, doc)), default=0)
        for page in pages
    }
    return written_before(app, last_read)
