"""The book as the lab's report in the guides sees it: its sources, its places, its site.

The guides are a Sphinx project apart from the book, built after it in the same
language; :mod:`jaxbook.sphinxext.guides`, which this extension sets up, says
where the book is (``jaxbook_book_srcdir``, ``jaxbook_book_html``,
``jaxbook_book_places``, ``jaxbook_book_site``). The report shows what the
book's pages hold, which only the book's build has read: that build writes it
beside its doctrees (not into the site it publishes), in
``book-places.json`` (:mod:`jaxbook.sphinxext.places`), a
:class:`jaxbook.formats.BookPlaces` that :func:`of` reads and checks against its
schema (once per change of the file). A page that shows the report depends on
the file (:func:`depend`), so it is read and written again when the book's
places change.

The guides' site needs the file: a build of theirs (not the catalogs') stops at
its start, with :class:`BookPlacesError`, where the file is missing ("make html,
then make guides") or does not fit its format, naming the file and what is
wrong in it.

:func:`pending` makes a link to a page of the book, from the post-transform that
makes a report; the lab's domain (:class:`BookLinks`) makes it for the builder,
on the book's site (:func:`link`), as the book's rule for extensions says
(:mod:`jaxbook.sphinxext`): a transform has no builder.
"""

from __future__ import annotations

import functools
import posixpath
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from sphinx import addnodes
from sphinx.errors import SphinxError
from sphinx.transforms.post_transforms import SphinxPostTransform

from jaxbook.formats import BookPlaces, FormatError, Inline, NoteRow, read_checked
from jaxbook.sphinxext import PARALLEL_SAFE, LinksDomain, Xref, guides
from jaxbook.sphinxext.drift_report import Place

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata


class BookPlacesError(SphinxError):
    """The book's places cannot be read: ``str()`` starts with the file."""

    category = "The book's places"


@dataclass(frozen=True)
class Book:
    """The book's pages, examples and update notes, as its build published them."""

    places: BookPlaces

    @functools.cached_property
    def titles(self) -> dict[str, str]:
        return {page["docname"]: page["title"] for page in self.places["pages"]}

    def title(self, docname: str) -> str:
        return self.titles[docname]

    def examples(self, chapter: str) -> list[Place]:
        """The examples of the pages in ``chapter`` and below ("": every page), in reading
        order."""
        return [
            Place(docname=page["docname"], **example)
            for page in self.places["pages"]
            if _covers(chapter, page["chapter"])
            for example in page["examples"]
        ]

    def rows(self, table: str) -> list[NoteRow]:
        """The rows of the update-notes table on page ``table``, in order (none without it)."""
        return self.places["update notes"].get(table, [])


def _covers(chapter: str, directory: str) -> bool:
    return not chapter or directory == chapter or directory.startswith(chapter + "/")


def srcdir(env: BuildEnvironment) -> Path:
    """The book's source directory."""
    return Path(env.srcdir, env.config.jaxbook_book_srcdir).resolve()


def places_file(srcdir: str | Path, config: Config) -> Path:
    """The book's places, which its build of this language keeps beside its doctrees."""
    return Path(srcdir, config.jaxbook_book_places).resolve()


def of(env: BuildEnvironment) -> Book:
    """The book's places, as its build of this language published them."""
    path = places_file(env.srcdir, env.config)
    if not path.is_file():
        raise BookPlacesError(
            f"{path}: the lab's report shows the book's places, which the book's build writes; "
            f"it is not built in {env.config.language} (make html, then make guides)"
        )
    places = read_checked("places", path)
    if isinstance(places, FormatError):
        raise BookPlacesError(str(places))
    return Book(places)


def depend(env: BuildEnvironment) -> None:
    """The page being read shows the book's places: it is read again when they change."""
    path = places_file(env.srcdir, env.config)
    if path.is_file():
        env.note_dependency(str(path))


def need_the_places(app: Sphinx) -> None:
    """A site of the guides shows the book's places: they are there, and they fit."""
    if app.builder.name != "gettext":  # the catalogs need no book
        of(app.env)


def uri(builder: Builder, fromdoc: str, todoc: str) -> str:
    """Where the book's page ``todoc`` is from ``fromdoc``, a page of the guides: on the
    book's site (``jaxbook_book_site``)."""
    site = builder.config.jaxbook_book_site.rstrip("/")
    if "://" not in site:
        up = posixpath.relpath(".", posixpath.dirname(fromdoc) or ".")
        site = posixpath.normpath(posixpath.join(up, site))
    return f"{site}/{todoc}{getattr(builder, 'link_suffix', '.html')}"


def link(
    builder: Builder, fromdoc: str, todoc: str, anchor: str, *children: nodes.Node
) -> nodes.reference:
    """A link to ``anchor`` on the book's page ``todoc``, from ``fromdoc``."""
    refuri = f"{uri(builder, fromdoc, todoc)}#{anchor}"
    return nodes.reference("", "", *children, refuri=refuri, internal=False)


def pending(todoc: str, anchor: str, *children: nodes.Node) -> addnodes.pending_xref:
    """A link to ``anchor`` on the book's page ``todoc``, for :class:`BookLinks` to make
    once the references are resolved (:func:`link`)."""
    return addnodes.pending_xref(
        "",
        *children,
        refdomain=BookLinks.name,
        reftype="page",
        reftarget=f"{todoc}#{anchor}",
        refexplicit=True,
        refwarn=False,
    )


class BookLinks(LinksDomain):
    """The links of the lab's reports to the book's pages (:func:`pending`), made for the
    builder that writes the page, which a post-transform cannot reach; it keeps no data."""

    name = "jaxbook_lab"
    label = "The lab's links to the book"

    def _resolve_page_xref(self, xref: Xref) -> nodes.reference:
        """``docname#anchor`` on the book's site."""
        todoc, _sep, anchor = xref.target.partition("#")
        # All the node's children: Sphinx passes only the first as ``contnode``, and an update
        # note's point is several (text and code).
        children = (child.deepcopy() for child in xref.node.children)
        return link(xref.builder, xref.fromdocname, todoc, anchor, *children)


INLINE: dict[str, type[nodes.TextElement]] = {
    "literal": nodes.literal,
    "emphasis": nodes.emphasis,
    "strong": nodes.strong,
}


def point(pieces: list[Inline]) -> list[nodes.Node]:
    """An update note's point, as its page sets it."""
    return [
        INLINE[piece["kind"]]("", piece["text"])
        if piece["kind"] in INLINE
        else nodes.Text(piece["text"])
        for piece in pieces
    ]


class DropFromCatalogs(SphinxPostTransform):
    """A report's node (``dropped``) out of the catalogs: they hold no report, so that they
    never wait on the lab's data or the book's build."""

    default_priority = 4  # before the reports are built (5), which read the book's places
    builders = ("gettext",)
    dropped: ClassVar[type[nodes.Element]]

    def run(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(self.dropped)):
            node.replace_self([])


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension(guides.__name__)
    app.connect("builder-inited", need_the_places)
    app.add_domain(BookLinks)
    return {"version": "1.0", "env_version": BookLinks.data_version, **PARALLEL_SAFE}
