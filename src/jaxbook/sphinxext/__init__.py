"""The book's own Sphinx extensions, one module per feature; ``conf.py`` loads them all.

- :mod:`jaxbook.sphinxext.api_names`: the JAX names and variables in the prose, kept current.
- :mod:`jaxbook.sphinxext.backend_tabs`: each backend's outputs (CPU, GPU, TPU) as tabs.
- :mod:`jaxbook.sphinxext.book_index`: the general index, from where the prose mentions things.
- :mod:`jaxbook.sphinxext.book_texts`: title, author and credit in each language.
- :mod:`jaxbook.sphinxext.chrome`: the theme's interface in the page's language.
- :mod:`jaxbook.sphinxext.cjk`: no stray spaces where Chinese prose breaks a line.
- :mod:`jaxbook.sphinxext.discovery`: sitemap, 404 page, descriptions, cards, dates, links.
- :mod:`jaxbook.sphinxext.drift_report`: the releases a chapter's note names, from drift data.
- :mod:`jaxbook.sphinxext.editions`: the PDF and EPUB editions (a package).
- :mod:`jaxbook.sphinxext.evidence_column`: the update-notes table's "Changed in" column.
- :mod:`jaxbook.sphinxext.facts`: the ``:fact:`` and ``:course:`` roles.
- :mod:`jaxbook.sphinxext.fonts`: the fonts matplotlib draws with, found through fontconfig.
- :mod:`jaxbook.sphinxext.glossary`: the readers' glossary and first-use links.
- :mod:`jaxbook.sphinxext.guides`: the guides' own site (loaded by ``guides/conf.py``).
- :mod:`jaxbook.sphinxext.guards`: build-time checks that keep every code cell honest.
- :mod:`jaxbook.sphinxext.html_translator`: keyboard-reachable scrolling regions, code heights.
- :mod:`jaxbook.sphinxext.interface`: the templates of the theme's and extensions' labels.
- :mod:`jaxbook.sphinxext.languages`: language switcher, hreflang and canonical links.
- :mod:`jaxbook.sphinxext.latex_translator`: the PDF's LaTeX translator, a mixin per feature.
- :mod:`jaxbook.sphinxext.mathml`: math rendered to MathML at build time.
- :mod:`jaxbook.sphinxext.myst_i18n`: translated code blocks on MyST pages stay code.
- :mod:`jaxbook.sphinxext.notebooks`: each page as a runnable notebook in its language.
- :mod:`jaxbook.sphinxext.notes`: ⚠️ update notes and the generated update-notes table.
- :mod:`jaxbook.sphinxext.numbering`: per-chapter section and figure numbers; ``:book:sec:``.
- :mod:`jaxbook.sphinxext.parallel_text`: 中英对照, each passage beside its translation.
- :mod:`jaxbook.sphinxext.pairs`: the ❌ outdated / ✅ recommended pair directives.
- :mod:`jaxbook.sphinxext.pinyin_index`: the Chinese general index in pinyin order.
- :mod:`jaxbook.sphinxext.places`: ``book-places.json``, the book's places for the lab's report.
- :mod:`jaxbook.sphinxext.search_index`: a rebuild keeps the index entries of pages it skips.
- :mod:`jaxbook.sphinxext.search_terms`: the glossary as a jieba dictionary for Chinese search.
- :mod:`jaxbook.sphinxext.selfcheck`: exercise self-checks in the notebooks, not on the pages.
- :mod:`jaxbook.sphinxext.snippets`: show a ``snippets/`` script and stage it for its doctest.
- :mod:`jaxbook.sphinxext.terms`: the ``:zh:`` role for deliberate Chinese term mentions.
- :mod:`jaxbook.sphinxext.translation_status`: notices of what is not translated, and drafts.

``conf.py`` also loads :mod:`pagerun`'s extensions. Modules named ``_…`` are shared helpers;
the lab's report may use only the public modules (import-linter, ``pyproject.toml``).

Rules every extension follows:

- Changes to the resolved tree are ``SphinxPostTransform`` subclasses; a ``doctree-resolved``
  handler only reads the page or writes a file.
- Links are ``pending_xref`` nodes of the extension's domain (see :class:`LinksDomain`): a
  transform cannot reach the builder (sphinx-doc/sphinx#14136).
- Kept state is domain data with an ``env_version``, never ``env.metadata`` (seen as ``meta``).
- Work that needs the application's parsers runs in a ``doctree-read`` handler.
- Warnings have type ``jaxbook`` and the module's name as subtype.
- Every extension is parallel-safe (:data:`PARALLEL_SAFE`).
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

# Every extension's metadata: its state merges from parallel readers (domain data), and a
# whole-book file is written in the main process (``doctree-resolved``,
# ``write_doc_serialized``, ``build-finished``). tests/sphinxext/test_parallel_build.py builds
# both conf.py's extensions at -j 2 and -j 1 to hold it.
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
    methods resolve; it keeps no data.

    A post-transform makes the ``pending_xref`` (at a priority below 10, before Sphinx
    resolves references) because ``SphinxTransform.app`` is deprecated in Sphinx 9
    (sphinx-doc/sphinx#14136). A setting only the application knows is copied at
    ``config-inited`` into a config value (``jaxbook_repo_root``) for a transform to read.
    """

    initial_data: ClassVar[dict[str, Any]] = {}
    data_version = 1

    def clear_doc(self, docname: str) -> None:
        pass

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        pass
