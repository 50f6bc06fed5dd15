"""Numbers, alike in every edition: sections "1.5", figures, tables and code listings
"图 1-2" / "Figure 1-2", and the book's references that name a section by its number.

This extension puts ``ChapterNumbering`` in place of Sphinx's toctree collector, to number
per chapter as LaTeX's counters do in the PDF (``texinputs/jaxbook.sty``); names the numbers
in the build's language (``numfig_format``, on ``config-inited``); switches the PDF's section
numbers on for the pages the web numbers (``SectionNumbersOnPaper``); and adds the ``book``
domain, whose ``:book:sec:`label``` and ``:book:secnum:`label``` write "“Data placement” in
section 1.6" and "section 1.6".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from sphinx import addnodes
from sphinx.environment.collectors.toctree import TocTreeCollector
from sphinx.roles import XRefRole
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import docname_join, logging
from sphinx.util.nodes import clean_astext, make_refnode

from jaxbook._compat import (
    disable_sphinx_toctree_collector,
    renumber_section_nodes,
    replace_figure_numbers,
    replace_section_numbers,
)
from jaxbook.sphinxext import PARALLEL_SAFE, OwnRolesDomain, Xref, _chapters
from jaxbook.sphinxext._artwork import without_emoji
from jaxbook.sphinxext._locale import _, add_catalog, gettext_noop

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)


# -- Figures, tables and listings: their names ---------------------------------------------

# Between a figure's chapter and its number within the chapter ("图 1-2", "Listing 1-2"), as
# jaxbook.sty has LaTeX write it.
NUMBER_SEPARATOR = "-"


def configure_numbering(config: Config) -> None:
    """Every edition numbers a captioned figure, table and code listing, and a ``numref``
    to one names it by its number, in these words: the PDF through LaTeX's counters, the
    website and the EPUB through Sphinx's numfig, per chapter as the PDF numbers them
    (``ChapterNumbering``)."""
    # conf.py sets numfig (and numfig_secnum_depth = 0: the numbers per chapter are
    # ChapterNumbering's); the words are the build's language's.
    if not config.numfig:
        logger.warning(
            "numfig is off: no figure, table or listing is numbered",
            type="jaxbook",
            subtype="numbering",
        )
    config.numfig_format = {
        # Translators: The caption of a code listing and a reference to it, with its number
        # ("Listing 1-3"), on the website, in the PDF and in the EPUB.
        "code-block": str(_("Listing %s")),
        # Translators: The caption of a table and a reference to it, with its number
        # ("Table 1-3").
        "table": str(_("Table %s")),
        # Translators: The caption of a figure and a reference to it, with its number
        # ("Figure 1-3").
        "figure": str(_("Figure %s")),
        # Translators: A reference to a section, with its number ("Section 1.3").
        "section": str(_("Section %s")),
        **config.numfig_format,
    }


# -- The numbering: Sphinx's toctree collector, per chapter --------------------------------


def writes_numbers(builder: Builder) -> bool:
    """Whether ``builder`` writes figure numbers: one that writes documents, not one that
    reads pages and writes none, as ``make doctest``'s ``verdict`` builder."""
    # Sphinx's own signal: Builder.format is "the builder's output format, or '' if no
    # document output is produced". In Sphinx 9.2 it is '' for dummy (and so pagerun's
    # verdict and doctest, which are dummies), sphinx.ext.doctest's, gettext's, linkcheck
    # and changes; "html" for html, dirhtml, singlehtml, epub and the serializing and help
    # builders (all HTML's subclasses), and latex, text, man, texinfo, xml, pseudoxml.
    return bool(builder.format)


def changed_pages(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The pages whose numbers differ between two numberings of the book: to write again."""
    return sorted(
        page for page in before.keys() | after.keys() if before.get(page) != after.get(page)
    )


def _with_chapter(number: Any, chapter: int) -> Any:
    return [chapter, *number] if number and chapter else number


class ChapterNumbering(TocTreeCollector):
    """Sphinx's toctree collector, numbering per chapter: sections "1.5", figures, tables
    and listings "1-2". Sphinx numbers (through each chapter's ``:numbered: 1`` toctree,
    through the book), then the chapter's number goes in; the pages to write again are
    those whose numbers per chapter differ from the environment's, the numbers of the last
    build (a page moved to another chapter, a figure added before others). In place of the
    built-in collector (``setup``).

    A collector, because Sphinx numbers in its toctree collector, which also names the pages
    to write again. This relies on Sphinx 9.2's ``TocTreeCollector``
    (``tests/sphinxext/test_numbering.py`` checks it and the version):
    ``assign_section_numbers`` and ``assign_figure_numbers`` number afresh into new
    ``env.toc_secnumbers`` and ``env.toc_fignumbers`` and new ``secnumber`` lists on the
    nodes of ``env.tocs`` and ``env.titles``, where the writers read them.
    """

    def get_updated_docs(self, app: Sphinx, env: BuildEnvironment) -> list[str]:
        """Sphinx's numbering, but for a builder that writes no numbers: its figures are not
        numbered again. Sphinx's figure numbering unpickles every page's doctree after any
        page is read, after a one-page edit of a book of 16 chapters several times the cost
        of running that page (dev/performance.md). The figure numbers stay those of the
        last build that wrote them (less those of the pages read, which Sphinx forgot when
        it read them again), and the next build that writes numbers compares with them: it
        writes again every page whose numbers changed since."""
        sections = self.assign_section_numbers(env)
        if not writes_numbers(app.builder):
            return sections
        return sections + self.assign_figure_numbers(env)

    def assign_section_numbers(self, env: BuildEnvironment) -> list[str]:
        """Number a chapter's pages "1.1", "1.2", as the PDF does. A chapter's page lists its
        sections in a ``:numbered: 1`` toctree, which Sphinx numbers from 1 in each chapter;
        here the chapter's number (its place in the root page's toctree) goes before each,
        in ``env.toc_secnumbers`` and on the nodes of the contents and the titles that
        Sphinx gave them to, so the HTML and EPUB writers print "1.5 " before the title, in
        the sidebar and in the links to the page. The chapter's own page and the back
        matter (a summary, a quiz, in an unnumbered toctree) have none."""
        before = env.toc_secnumbers
        super().assign_section_numbers(env)
        chapters = _chapters.chapter_numbers(env)
        renumbered: dict[str, dict[str, tuple[int, ...]]] = {}
        for docname, anchors in env.toc_secnumbers.items():
            chapter = chapters.get(docname, 0)
            renumbered[docname] = {
                anchor: tuple(_with_chapter(number, chapter)) for anchor, number in anchors.items()
            }
            # Sphinx numbered these nodes afresh (one list for the title and its entry in the
            # contents): each gets a list of its own.
            renumber_section_nodes(env, docname, partial(_with_chapter, chapter=chapter))
        replace_section_numbers(env, renumbered)
        return changed_pages(before, renumbered)

    def assign_figure_numbers(self, env: BuildEnvironment) -> list[str]:
        """Number the figures, tables and listings per chapter, "1-1", "1-2", "2-1", as the
        PDF does. Sphinx numbers each kind through the book, in reading order (1, 2, 3),
        whatever the sections' numbers (``numfig_secnum_depth`` 0); they are counted again
        per chapter, the chapter being the page's entry in the root page's toctree. A
        number here is one string, which Sphinx's writers write as it is."""
        before = env.toc_fignumbers
        super().assign_figure_numbers(env)
        chapters = _chapters.chapter_numbers(env)
        found = sorted(
            (numbers, docname, kind, figure_id)
            for docname, kinds in env.toc_fignumbers.items()
            for kind, ids in kinds.items()
            for figure_id, numbers in ids.items()
        )
        counted: Counter[tuple[str, int]] = Counter()
        renumbered: dict[str, dict[str, dict[str, Any]]] = {}
        for _numbers, docname, kind, figure_id in found:
            chapter = chapters.get(docname, 0)
            counted[kind, chapter] += 1
            number = f"{chapter}{NUMBER_SEPARATOR}{counted[kind, chapter]}"
            renumbered.setdefault(docname, {}).setdefault(kind, {})[figure_id] = (number,)
        replace_figure_numbers(env, renumbered)
        return changed_pages(before, renumbered)


def configure(app: Sphinx, config: Config) -> None:
    configure_numbering(config)


# -- Sections on paper, and references to a section ----------------------------------------


class SectionNumbersOnPaper(SphinxPostTransform):
    """LaTeX numbers the PDF's sections itself (jaxbook.sty: a chapter's pages are its
    ``\\section``\\ s, "1.5", and nothing below them is numbered). Each page's start says
    whether its sections are numbered: those the web numbers ("1.5"), and not the back
    matter (the summary, the quiz), whose ``\\section`` is then unnumbered, in the contents,
    the bookmarks and the running head without a number, as ``\\section*`` with its line in
    the contents."""

    builders = ("latex",)
    default_priority = 945

    def run(self, **kwargs: Any) -> None:
        for page in self.document.findall(addnodes.start_of_file):
            numbered = bool(_chapters.page_number(self.env, page["docname"]))
            depth = nodes.raw("", rf"\jbsectionnumbers{{{int(numbered)}}}" + "\n", format="latex")
            page.insert(0, depth)


class SectionReference(XRefRole):
    """``:book:sec:`label``` names a section by its page's number and its title, in the
    build's language: "1.6 节“数据放置”", "“Data placement” in section 1.6";
    ``:book:secnum:`label``` by the number alone: "1.6 节", "section 1.6". The target is a
    label (of a section, or of anything on a page: its page's number) or a page. An explicit
    text may hold ``{number}`` and ``{name}``: ``:book:sec:`{number} 节的对照示例 <label>```."""


class BookDomain(OwnRolesDomain):
    """The book's own cross-references: sections named by their numbers (``:any:`` finds a
    section through the std domain's labels).

    ``:numref:`` is not enough: a reference to a subsection must name its page's number,
    while Sphinx gives a label below the numbered depth no number, and Sphinx's numbers lack
    the chapter's.
    """

    name = "book"
    label = "Book"
    roles: ClassVar[dict[str, Any]] = {
        "sec": SectionReference(warn_dangling=True),
        "secnum": SectionReference(warn_dangling=True),
    }
    dangling_warnings: ClassVar[dict[str, str]] = {
        "sec": "undefined label: %(target)r",
        "secnum": "undefined label: %(target)r",
    }

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        # No data of its own: a parallel read's process has nothing to give back.
        pass

    def _resolve_sec_xref(self, xref: Xref) -> nodes.reference | None:
        env, target, node = self.env, xref.target, xref.node
        found = section_target(env, target, node.get("refdoc", xref.fromdocname))
        if found is None:
            return None
        docname, labelid, title = found
        # In words, as the PDF's bookmarks and the EPUB's contents have a title: "补充：查看
        # jaxpr", not "🔍 补充：查看 jaxpr".
        name = without_emoji(title)
        number = _chapters.page_number(env, docname)
        if not number:
            logger.warning(
                "a section reference to %r, on a page without a number (%s)",
                target,
                docname,
                location=node,
                type="jaxbook",
                subtype="numbering",
            )
            return None
        explicit = xref.contnode.astext() if node.get("refexplicit") else None
        text = section_text(xref.typ, number, name, explicit)
        inner = nodes.inline(text, text, classes=["xref", "std", "std-ref"])
        # No title on the link: as a :ref:'s, its text names the target.
        return make_refnode(xref.builder, xref.fromdocname, docname, labelid, inner)

    # The number alone: section_text tells the two apart by the role's type.
    _resolve_secnum_xref = _resolve_sec_xref


def section_target(env: BuildEnvironment, target: str, refdoc: str) -> tuple[str, str, str] | None:
    """A section reference's target: its page, its label's id ("" for a page) and its
    title as the page has it (an emoji and all, as its catalog has it too); None where
    there is no such target."""
    std = env.domains.standard_domain
    if target.lower() in std.anonlabels:
        docname, labelid = std.anonlabels[target.lower()]
        name = std.labels.get(target.lower(), ("", "", ""))[2]
    else:
        docname = docname_join(refdoc, target)
        if docname not in env.titles:
            return None
        labelid, name = "", clean_astext(env.titles[docname])
    return docname, labelid, name


def section_text(
    typ: str,
    number: str,
    name: str,
    explicit: str | None,
    words: Callable[[str], str] = lambda message: str(_(message)),
) -> str:
    """What a section reference says: its explicit text with ``{number}`` and ``{name}``
    filled, else the number alone (``secnum``) or the title and the number, in ``words``
    (the build's language; the parallel text gives the other language's)."""
    if explicit is not None:
        return explicit.format(number=number, name=name)
    if typ == "secnum":
        return words(SECTION) % {"number": number}
    return words(NAMED_SECTION) % {"number": number, "name": name}


# Translators: A reference to a section by its number alone: "see section 1.6".
SECTION = gettext_noop("section %(number)s")
# Translators: A reference to a section by its number and its title: "see “Data placement”
# in section 1.6". The number is its page's.
NAMED_SECTION = gettext_noop("“%(name)s” in section %(number)s")


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    # Before Sphinx completes numfig_format with its own names (800).
    app.connect("config-inited", configure, priority=750)
    # Sphinx's toctree collector, which numbers sections and figures, numbering per chapter:
    # the built-in one gives way to it.
    disable_sphinx_toctree_collector(app)
    app.add_env_collector(ChapterNumbering)
    app.add_post_transform(SectionNumbersOnPaper)
    app.add_domain(BookDomain)
    # env_version: the environment's figure numbers are per chapter ("1-2"), one string
    # each, and its section numbers begin with the chapter's ("1.2"); 3 since the book
    # domain no longer keeps Sphinx's own beside them. Raised when that changes.
    return {"version": "1.0", "env_version": 3, **PARALLEL_SAFE}
