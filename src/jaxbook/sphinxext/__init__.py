"""The course's own Sphinx extensions, one module per feature; ``conf.py`` lists them all.

- :mod:`jaxbook.sphinxext.api_names`: the JAX names and variables in the prose, current.
- :mod:`jaxbook.sphinxext.backend_tabs`: each backend's outputs (CPU, GPU, TPU) as tabs.
- :mod:`jaxbook.sphinxext.book_index`: the general index, from where the prose mentions things.
- :mod:`jaxbook.sphinxext.book_texts`: title, author and credit in each language, from catalogs.
- :mod:`jaxbook.sphinxext.chrome`: the theme's interface in the page's language.
- :mod:`jaxbook.sphinxext.cjk`: no stray spaces where Chinese prose breaks a line.
- :mod:`jaxbook.sphinxext.discovery`: sitemap, 404 page, descriptions, cards, dates, links.
- :mod:`jaxbook.sphinxext.drift_report`: the releases a chapter's note names, from its drift data.
- :mod:`jaxbook.sphinxext.editions`: the PDF and EPUB editions (a package: a module to each part).
- :mod:`jaxbook.sphinxext.evidence_column`: the update-notes table's "Changed in" column.
- :mod:`jaxbook.sphinxext.facts`: the `:fact:` and `:course:` roles, each fact from one place.
- :mod:`jaxbook.sphinxext.fonts`: the fonts matplotlib draws with, found through fontconfig.
- :mod:`jaxbook.sphinxext.glossary`: the readers' glossary and first-use links.
- :mod:`jaxbook.sphinxext.guides`: the guides' own site (loaded by ``guides/conf.py``),
  linking the book's. The lab's report among them is the lab's (:mod:`jaxbook_lab.sphinxext`).
- :mod:`jaxbook.sphinxext.guards`: build-time checks that keep every code cell honest.
- :mod:`jaxbook.sphinxext.html_translator`: scrolling regions the keyboard reaches, code heights.
- :mod:`jaxbook.sphinxext.interface`: the templates of the theme's and the extensions' labels.
- :mod:`jaxbook.sphinxext.languages`: language switcher, hreflang and canonical links.
- :mod:`jaxbook.sphinxext.latex_translator`: the PDF's LaTeX translator, a mixin per feature.
- :mod:`jaxbook.sphinxext.mathml`: math rendered to MathML at build time.
- :mod:`jaxbook.sphinxext.myst_i18n`: translated code blocks on MyST Markdown pages stay code.
- :mod:`jaxbook.sphinxext.notebooks`: each page as a runnable notebook in its language.
- :mod:`jaxbook.sphinxext.notes`: ⚠️ update notes and the generated update-notes table.
- :mod:`jaxbook.sphinxext.numbering`: sections "1.5" and figures "图 1-2" per chapter; `:book:sec:`.
- :mod:`jaxbook.sphinxext.parallel_text`: 中英对照 / "Parallel text", each passage by its
  translation.
- :mod:`jaxbook.sphinxext.pairs`: the ❌ outdated / ✅ recommended pair directives.
- :mod:`jaxbook.sphinxext.pinyin_index`: the Chinese general index in pinyin order.
- :mod:`jaxbook.sphinxext.places`: ``book-places.json``, the book's places for the lab's report.
- :mod:`jaxbook.sphinxext.search_index`: a rebuild keeps the index entries of pages it skips.
- :mod:`jaxbook.sphinxext.search_terms`: the glossary as a jieba dictionary for Chinese search.
- :mod:`jaxbook.sphinxext.selfcheck`: exercise self-checks in the notebooks, not on the pages.
- :mod:`jaxbook.sphinxext.snippets`: show a ``snippets/`` script and stage it for its doctest.
- :mod:`jaxbook.sphinxext.terms`: the `:zh:` role for deliberate Chinese term mentions.
- :mod:`jaxbook.sphinxext.translation_status`: notices of what is not translated, and drafts.

``conf.py`` lists too the extensions that run each page once, while it is read, and show
that run (``pagerun.sphinxext.run``, ``measured``, ``testplot``): they are :mod:`pagerun`'s,
a package of its own, which the book configures (``pagerun_*`` in ``conf.py``).

Modules whose names begin with ``_`` are shared helpers, not extensions, and the book's
alone. Another package's extensions (the lab's report in the guides) use the public modules
only: the extensions whose data they show (:mod:`jaxbook.sphinxext.drift_report`,
:func:`jaxbook.sphinxext.evidence_column.sentences`, :mod:`jaxbook.sphinxext.places`), and
:mod:`jaxbook.sphinxext.interface` for their labels (its ``__all__``: their catalog, and the
helpers that write a translated sentence or list); an import-linter contract in
``pyproject.toml`` forbids the lab every private module of the book.

A change to the resolved tree is a ``SphinxPostTransform``: ``builders`` or ``formats``
say where it applies and ``default_priority`` orders it. Sphinx 9 gives a transform no
public way to reach the builder (``SphinxTransform.app`` is deprecated,
sphinx-doc/sphinx#14136), which a link needs; so a transform that makes links makes
``pending_xref`` nodes of its extension's domain before the references are resolved
(priority below 10), and the domain's ``resolve_xref``, which Sphinx hands the builder,
makes each link, as Sphinx's own domains do (the update notes', the editions' links of
:mod:`~jaxbook.sphinxext.languages`). A setting that only the application knows is read
where it is (``config-inited``) into a config value that the transform reads (the
checkout that the page links of :mod:`~jaxbook.sphinxext.discovery` start from,
``jaxbook_repo_root``, which :mod:`~jaxbook.sphinxext.facts` resolves). What an extension
keeps from the pages it read is its domain's data (``clear_doc``, ``merge_domaindata`` and
a ``data_version``), never the pages' ``env.metadata``, which the templates see as
``meta``. A ``doctree-resolved`` handler runs after every post-transform, and reads the
finished page or writes a file from it (the PDF's glyphs, the notebooks, which add their
download link too); the one that still changes the page, the parallel text, must come after
the notebooks' handler and parse with the application's parsers, as its docstring says.

An extension's warnings are of type ``jaxbook`` and of its module's name as
subtype, so ``suppress_warnings = ["jaxbook.pairs"]`` silences one kind
(``jaxbook`` alone silences them all). An extension that keeps state on the
build environment says so with an ``env_version`` in its ``setup()``
metadata, which Sphinx compares with the pickled environment's. Every
extension reads and writes pages in parallel (``sphinx-build -j``): what it keeps on the
environment merges from the reader processes, and nothing a forked writer does is needed
after it (a file of the whole book is written in the main process: at
``doctree-resolved``, in ``write_doc_serialized`` or at ``build-finished``). Its
metadata says so with ``PARALLEL_SAFE``, and ``tests/sphinxext/test_parallel_build.py``
builds every extension of ``conf.py`` (the book's, and the guides' ``guides/conf.py``)
with ``-j 2`` and ``-j 1`` to hold it.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from sphinx.domains import Domain

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx import addnodes
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

PARALLEL_SAFE: ExtensionMetadata = {"parallel_read_safe": True, "parallel_write_safe": True}

# The extensions' templates, beside their modules: the sidebar's language switcher
# (languages), the editions' downloads and subtitle, the EPUB's cover page and documents and
# LaTeX's long table (editions).
TEMPLATES = Path(__file__).parent / "templates"


def add_templates(app: Sphinx) -> None:
    """Put the extensions' templates (:data:`TEMPLATES`) in ``templates_path``, after the
    book's own, for the book's settings to name them (``html_sidebars``, ``epub_cover``):
    from the ``setup()`` of each extension whose templates they are; once is enough."""
    app.connect("config-inited", _extend_templates_path)


def _extend_templates_path(app: Sphinx, config: Config) -> None:
    if str(TEMPLATES) not in config.templates_path:
        config.templates_path = [*config.templates_path, str(TEMPLATES)]


@dataclass(frozen=True)
class Xref:
    """A reference Sphinx asks a domain to make: ``resolve_xref``'s arguments, handed whole
    to the method of its role (the environment is the domain's own, ``Domain.env``)."""

    fromdocname: str
    builder: Builder
    typ: str
    target: str
    node: addnodes.pending_xref
    contnode: nodes.Element


class OwnRolesDomain(Domain):
    """A domain whose references are made by its own roles alone: ``:any:`` finds none.

    Sphinx asks every domain what an ``:any:`` reference could name, and one that has no
    answer is asked role by role through ``resolve_xref``, with a warning
    for a domain outside Sphinx; this one answers that it names nothing.

    A reference of the role type ``typ`` is made by the domain's method
    ``_resolve_<typ>_xref(xref)``, as Sphinx's ``StandardDomain`` dispatches to
    ``_resolve_ref_xref`` and the like; a type without one resolves to nothing.
    """

    def resolve_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        typ: str,
        target: str,
        node: addnodes.pending_xref,
        contnode: nodes.Element,
    ) -> nodes.reference | None:
        resolver = getattr(self, f"_resolve_{typ}_xref", None)
        if resolver is None:
            return None
        return resolver(Xref(fromdocname, builder, typ, target, node, contnode))

    def resolve_any_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        target: str,
        node: addnodes.pending_xref,
        contnode: nodes.Element,
    ) -> list[tuple[str, nodes.reference]]:
        return []


class LinksDomain(OwnRolesDomain):
    """A domain that only makes links, for the builder that writes the page (which a
    post-transform cannot reach): its references are ``pending_xref`` nodes that its roles'
    methods resolve; it keeps no data."""

    initial_data: ClassVar[dict[str, Any]] = {}
    data_version = 1

    def clear_doc(self, docname: str) -> None:
        pass

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        pass
