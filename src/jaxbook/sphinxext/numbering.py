"""Numbers, as a reader of every edition sees them: sections "1.5", figures, tables and code
listings "图 1-2" / "Figure 1-2", and the book's references that name a section by its number.

The website, the EPUB and the PDF number alike, and ``:numref:`` and ``:book:sec:`` write
the same numbers the titles and captions show:

- **Figures, tables and listings** are numbered per chapter, as LaTeX's counters number
  them in the PDF (``texinputs/jaxbook.sty``): Sphinx's numfig for every builder that
  writes numbers (``writes_numbers``: not ``make doctest``'s verdict builder), with one
  set of names for them in the build's language (``configure_numbering``), numbers through
  the book (``numfig_secnum_depth`` 0), and ``number_per_chapter`` counts them again per
  chapter, the chapter being the page's entry in the root page's toctree.
- **Sections.** A chapter's page lists its sections' pages in a ``:numbered: 1`` toctree;
  Sphinx numbers each such toctree from 1 and knows nothing of the chapter above it, so
  its numbers are "5", not "1.5". ``number_sections_in_chapter`` puts the chapter's
  number first, in ``env.toc_secnumbers`` and on the title and contents nodes Sphinx gave
  the number to, and the HTML and EPUB writers print "1.5 " before the title, in the
  sidebar and in links. The chapter's own page and the back matter (a summary, a quiz,
  listed in an unnumbered toctree) have no number. On paper LaTeX numbers the sections
  itself; ``SectionNumbersOnPaper`` switches its numbers on for exactly the pages the
  web numbers (``\\jbsectionnumbers``, which ``jaxbook.sty`` defines with the chapter's
  layout).
- **References to a section** are the ``book`` domain's (``BookDomain``):
  ``:book:sec:`label``` writes "1.6 节“数据放置”" / "“Data placement” in section 1.6",
  ``:book:secnum:`label``` "1.6 节" / "section 1.6". ``:numref:`` is not enough: a
  section's number is its page's (``:numbered: 1``), so a reference to a subsection
  must name its page's number, while Sphinx gives a label below the numbered depth no
  number at all (``:numref:`` to it fails); and Sphinx's numbers lack the chapter's.
  ``book:sec`` takes the number of the target's page (``_chapters.page_number``) and the
  title from the target.

What this relies on in Sphinx (9.2; ``tests/sphinxext/test_numbering.py`` checks it and
the version): the toctree collector, on ``env-get-updated`` (priority 500), numbers
sections and figures afresh at every build (``assign_section_numbers``,
``assign_figure_numbers``), sets new ``secnumber`` lists on the nodes of ``env.tocs`` and
``env.titles``, and names the pages to write again by comparing its new numbers with
``env.toc_secnumbers`` and ``env.toc_fignumbers`` as it finds them. So before it runs
(priority 400) its own numbers of the last build are put back there
(``sphinx_numbers_back``, ``sphinx_secnumbers_back``); otherwise every numbered page would
differ from the numbers per chapter and be written at every build. After it (600) the
numbers are rewritten per chapter, and the pages whose numbers per chapter changed (a
page moved to another chapter) are written again (``changed_pages``). Sphinx's own numbers
and those the pages were written with are kept between builds in the ``book`` domain's
data (``BookDomain.initial_data``); each change to Sphinx's numbers and nodes is a
function of ``jaxbook._compat``. For a builder that writes no numbers, ``numfig`` is off
while the collector runs (its figure numbering, which unpickles every page's doctree,
numbers nothing), and the numbers of the last build that wrote them stay, Sphinx's own
kept too: the next build that writes numbers compares with those.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from sphinx import addnodes
from sphinx.roles import XRefRole
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import docname_join, logging
from sphinx.util.nodes import clean_astext, make_refnode

from jaxbook._compat import (
    pause_figure_numbering,
    renumber_section_nodes,
    replace_figure_numbers,
    replace_section_numbers,
    resume_figure_numbering,
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


# -- Figures, tables and listings, numbered ------------------------------------------------

# Between a figure's chapter and its number within the chapter ("图 1-2", "Listing 1-2"), as
# jaxbook.sty has LaTeX write it.
NUMBER_SEPARATOR = "-"


def configure_numbering(config: Config) -> None:
    """Every edition numbers a captioned figure, table and code listing, and a ``numref``
    to one names it by its number, in these words: the PDF through LaTeX's counters, the
    website and the EPUB through Sphinx's numfig, per chapter as the PDF numbers them
    (``number_per_chapter``)."""
    # conf.py sets numfig (and numfig_secnum_depth = 0: the numbers per chapter are
    # number_per_chapter's); the words are the build's language's.
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


# Sphinx's own numbers of the last build (through the book), in the book domain's data:
# Sphinx compares this build's with them to know the pages to write again.
SPHINX_NUMBERS = "sphinx_fignumbers"
# And the numbers per chapter the pages were written with.
NUMBERS_SHOWN = "chapter_fignumbers"


def kept(env: BuildEnvironment) -> dict[str, Any]:
    """The numbers this extension keeps between builds: the book domain's data."""
    data: dict[str, Any] = env.domains[BookDomain.name].data
    return data


def writes_numbers(builder: Builder) -> bool:
    """Whether ``builder`` writes figure numbers: not one that writes no page and resolves no
    reference, as ``make doctest``'s ``verdict`` builder (its ``writes_numbers`` attribute
    says so, ``pagerun.sphinxext.run``)."""
    return bool(getattr(builder, "writes_numbers", True))


def sphinx_numbers_back(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Before Sphinx numbers the figures again: its own numbers of the last build in their
    place, for it to compare with (the numbers per chapter would differ from its own on
    every page that has one, and each such page would be written at every build).

    For a builder that writes no numbers Sphinx numbers nothing: its numbering unpickles
    every page's doctree after any page is read, after a one-page edit of a book of 16
    chapters several times the cost of running that page (dev/performance.md). The
    numbers stay those of the last build that wrote them, and so does what the next one
    compares with: it writes again every page whose numbers changed since."""
    if not writes_numbers(app.builder):
        pause_figure_numbering(env.config)
        return []
    replace_figure_numbers(env, kept(env)[SPHINX_NUMBERS])
    return []


def changed_pages(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The pages whose numbers differ between two numberings of the book: to write again."""
    return sorted(
        page for page in before.keys() | after.keys() if before.get(page) != after.get(page)
    )


def number_per_chapter(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Number the figures, tables and listings per chapter, "1-1", "1-2", "2-1", as the PDF
    does. Sphinx has numbered each kind through the book, in reading order (1, 2, 3),
    whatever the sections' numbers (``numfig_secnum_depth`` 0); a number here is
    one string, which Sphinx writes as it is. The pages to write again are those whose
    numbers per chapter changed while Sphinx's did not (a page moved to another chapter).
    For a builder that writes no numbers Sphinx numbered nothing (``sphinx_numbers_back``):
    the numbers of the last build that wrote them go back in their place."""
    if not writes_numbers(app.builder):
        resume_figure_numbering(env.config)
        replace_figure_numbers(env, kept(env)[NUMBERS_SHOWN])
        return []
    before = kept(env)[NUMBERS_SHOWN]
    kept(env)[SPHINX_NUMBERS] = env.toc_fignumbers
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
    kept(env)[NUMBERS_SHOWN] = renumbered
    return changed_pages(before, renumbered)


def configure(app: Sphinx, config: Config) -> None:
    configure_numbering(config)


# -- Sections, numbered --------------------------------------------------------------------

# Sphinx's own section numbers of the last build, and those the pages were written with, in
# the book domain's data (as the figures' above).
SPHINX_SECNUMBERS = "sphinx_secnumbers"
SECNUMBERS_SHOWN = "chapter_secnumbers"


def sphinx_secnumbers_back(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Before Sphinx numbers the sections again: its own numbers of the last build in their
    place, for it to compare with (as ``sphinx_numbers_back`` does for the figures)."""
    replace_section_numbers(env, kept(env)[SPHINX_SECNUMBERS])
    return []


def _with_chapter(number: Any, chapter: int) -> Any:
    return [chapter, *number] if number and chapter else number


def number_sections_in_chapter(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Number a chapter's pages "1.1", "1.2", as the PDF does. A chapter's page lists its
    sections in a ``:numbered: 1`` toctree, which Sphinx numbers from 1 in each chapter;
    here the chapter's number (its place in the root page's toctree) goes before each, in
    Sphinx's own ``toc_secnumbers`` and on the nodes of the contents and the titles that
    Sphinx gave them to, so the HTML and EPUB writers print "1.5 " before the title, in the
    sidebar and in the links to the page. The pages to write again are those whose numbers
    changed while Sphinx's did not (a chapter moved)."""
    before = kept(env)[SECNUMBERS_SHOWN]
    kept(env)[SPHINX_SECNUMBERS] = env.toc_secnumbers
    chapters = _chapters.chapter_numbers(env)
    renumbered: dict[str, dict[str, tuple[int, ...]]] = {}
    for docname, anchors in env.toc_secnumbers.items():
        chapter = chapters.get(docname, 0)
        renumbered[docname] = {
            anchor: tuple(_with_chapter(number, chapter)) for anchor, number in anchors.items()
        }
        # Sphinx numbered these nodes afresh in this build (one list for the title and its
        # entry in the contents): each gets a list of its own.
        renumber_section_nodes(env, docname, partial(_with_chapter, chapter=chapter))
    replace_section_numbers(env, renumbered)
    kept(env)[SECNUMBERS_SHOWN] = renumbered
    return changed_pages(before, renumbered)


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
    section through the std domain's labels)."""

    name = "book"
    label = "Book"
    # The numbers ``number_per_chapter`` and ``number_sections_in_chapter`` keep between
    # builds: Sphinx's own of the last build and those the pages were written with. They
    # are the whole book's, made after every page is read: no page's to clear or merge.
    initial_data: ClassVar[dict[str, Any]] = {
        SPHINX_NUMBERS: {},
        NUMBERS_SHOWN: {},
        SPHINX_SECNUMBERS: {},
        SECNUMBERS_SHOWN: {},
    }
    # Sphinx discards an environment whose domain data is of another version, and reads
    # every page again: a new shape of the data above takes the next number.
    data_version = 1
    roles: ClassVar[dict[str, Any]] = {
        "sec": SectionReference(warn_dangling=True),
        "secnum": SectionReference(warn_dangling=True),
    }
    dangling_warnings: ClassVar[dict[str, str]] = {
        "sec": "undefined label: %(target)r",
        "secnum": "undefined label: %(target)r",
    }

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
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
    # Around Sphinx's toctree collector (500), which numbers them through the book: its own
    # last numbers put back before it, for it to compare with; ours after it.
    for back, ours in (
        (sphinx_numbers_back, number_per_chapter),
        (sphinx_secnumbers_back, number_sections_in_chapter),
    ):
        app.connect("env-get-updated", back, priority=400)
        app.connect("env-get-updated", ours, priority=600)
    app.add_post_transform(SectionNumbersOnPaper)
    app.add_domain(BookDomain)
    # env_version: the environment's figure numbers are per chapter ("1-2"), one string
    # each, and its section numbers begin with the chapter's ("1.2"); the book domain keeps
    # Sphinx's own beside both (its data_version says where). Raised when that changes.
    return {"version": "1.0", "env_version": 2, **PARALLEL_SAFE}
