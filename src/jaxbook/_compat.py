"""Every use of another project's private names, each with its way out.

The package reaches into the internals of Python's standard library, Sphinx
and JAX only here (``tests/test_compat.py`` keeps it so: no other module of
``jaxbook`` reads an underscored name of another project, or one of the names of
Sphinx's that its documentation does not offer and the test lists, such as
``app.registry``). Each function's docstring says why it is needed, the upstream
project and behavior behind it, the release in ``uv.lock`` it was written against,
and when it can go. An upgrade that breaks one of them breaks it here, in one line.

What changes another project's output and cannot live here (a template's text that a Jinja
extension rewrites, a translator's method, a page's script) says the same four things in
its own docstring, which the same test reads: ``chrome.LiteralLabels`` and
``chrome.translate_navigation`` (furo's and sphinx-copybutton's labels),
``search_index.SNIPPETS_SCRIPT`` (Sphinx's search snippets) and
``html_translator.BookHTMLTranslator.visit_Text`` (where a table cell breaks inline code).

Sphinx and the doctest builder are imported inside the functions that need
them, so that importing this module costs no more than the standard library.
"""

from __future__ import annotations

import contextlib
import gettext
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.domains.std import StandardDomain
    from sphinx.environment import BuildEnvironment


def doctest_node(kind: str, code: str, *, hidden: bool) -> nodes.TextElement:
    """A node that Sphinx's doctest builder (and ``pagerun``) tests as a block of
    ``kind`` (``testsetup``, ``testcode``, ``testoutput``, ``testcleanup``, ``doctest``)
    in the group ``default``, as the directive of that name makes it: hidden (a comment)
    or shown (a literal block).

    Why: the book adds code of its own to a page's tests (a snippet's run, its setup and
    cleanup, a self-check's file), which no directive of the page writes.
    Upstream: ``sphinx.ext.doctest``'s ``TestDirective`` marks an ordinary docutils node
    with the attributes ``testnodetype``, ``groups``, ``options`` and ``language``, and
    its builder finds the nodes to test by them (``pagerun._compat.doctest_condition``);
    neither the attributes nor a way to make such a node is documented.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx documents its test nodes or offers a function that makes one.
    """
    from docutils import nodes

    node_class = nodes.comment if hidden else nodes.literal_block
    node = node_class(code, code, testnodetype=kind, groups=["default"], options={})
    language = {"doctest": "pycon", "testcode": "python", "testoutput": "none"}.get(kind)
    if language is not None:
        node["language"] = language
    return node


def is_translated_message(document: nodes.document) -> bool:
    """Whether ``document`` is one Sphinx parses a translated message into (to put its
    nodes into the page), not a page.

    Why: a parser reads the translation of a literal block, which Sphinx hands it as
    reStructuredText whatever the page's markup (``jaxbook.sphinxext.myst_i18n``).
    Upstream: ``sphinx.transforms.i18n.publish_msgstr`` names the document
    ``<page file>:<line>:<translated>``; neither the name nor another mark of such a
    document is documented.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx marks the documents of its translated messages, or parses a
    message with the page's own markup.
    """
    return str(document.get("source", "")).endswith(TRANSLATED_SUFFIX)


def page_file_of(source: str) -> str:
    """The page file a node's ``source`` names: ``source`` itself, or the page's file
    where it is a translated message's document (``is_translated_message``).

    Why: a role reads a file beside its page, also where a translation is parsed.
    Upstream: as ``is_translated_message``: the document's name starts with the page's
    file, followed by ``:<line>:<translated>``.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: as ``is_translated_message``.
    """
    if source.endswith(TRANSLATED_SUFFIX):
        return source.rsplit(":", 2)[0]
    return source


#: The end of the name Sphinx gives the document of a translated message
#: (``is_translated_message``).
#:
#: Why: as ``is_translated_message``.
#: Upstream: as ``is_translated_message``.
#: Written against: Sphinx 9.1.1 and 9.2.0.
#: Remove when: as ``is_translated_message``.
TRANSLATED_SUFFIX = ":<translated>"


def parse_as_page(app: Sphinx, docname: str, text: str, settings: Any) -> nodes.document:
    """``text`` parsed as the source of page ``docname`` is (its file's markup, reST or
    MyST, with the roles of Sphinx's domains), into a document of its own named
    ``<page file>:<parallel>``, whose warnings go to Sphinx's log.

    Why: the parallel text (``jaxbook.sphinxext.parallel_text``) parses a catalog's
    message of a page beside the page's own parse.
    Upstream: Sphinx makes a page's parser with ``SphinxComponentRegistry.create_source_parser``
    (``app.registry``), parses inside ``sphinx.util.docutils.sphinx_domains`` and reports
    through ``sphinx.util.docutils.LoggingReporter``; none of the three is documented, and
    ``SphinxDirective.parse_text_to_nodes``, which is, parses reStructuredText only, and
    only inside a directive.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx documents a way to parse a text as a given page's source.
    """
    import docutils.utils
    from sphinx.util import get_filetype
    from sphinx.util.docutils import LoggingReporter, sphinx_domains

    source = str(app.env.doc2path(docname))
    document = docutils.utils.new_document(f"{source}:<parallel>", settings)
    document.reporter = LoggingReporter.from_reporter(document.reporter)
    parser = app.registry.create_source_parser(
        get_filetype(app.config.source_suffix, source), config=app.config, env=app.env
    )
    with sphinx_domains(app.env):  # the roles of Sphinx's domains (:ref:, :doc:)
        parser.parse(text, document)
    return document


def theme_directories(app: Sphinx) -> list[Path]:
    """The directories of the HTML theme the build names (``html_theme``), its parents'
    and Sphinx's ``basic`` among them, as Sphinx finds them.

    Why: the theme's messages are extracted from its templates (``make gettext``,
    ``jaxbook.sphinxext.interface``), which a build of another builder does not load.
    Upstream: ``sphinx.theming.HTMLThemeFactory``, made with the application's registry,
    finds a theme and its parents; neither is documented.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx documents a way to find a theme's directories.
    """
    from sphinx.theming import HTMLThemeFactory

    factory = HTMLThemeFactory(
        confdir=Path(app.confdir), app=app, config=app.config, registry=app.registry
    )
    return [Path(d) for d in factory.create(app.config.html_theme).get_theme_dirs()]


def forget_gettext_files() -> None:
    """Drop every catalog file Python's ``gettext`` has loaded, so that the next
    ``gettext.translation`` reads the file again.

    Why: the book recompiles a catalog (``.mo``) during a process that already read
    it (the live server, the tests, a stale ``.mo`` compiled again).
    Upstream: CPython's ``gettext`` caches each file by path in the module-private
    dict ``_translations``, with no public way to clear it.
    Written against: Python 3.12 and 3.13.
    Remove when: CPython offers a way to reload a translation (or ``translation``
    takes a flag to skip its cache).
    """
    gettext._translations.clear()  # type: ignore[attr-defined]  # noqa: SLF001


def reload_sphinx_catalogs(app: Sphinx) -> None:
    """Have Sphinx load its own and the theme's catalogs again for ``app``'s language.

    Why: the theme's catalog (domain ``sphinx``) is loaded before any extension, so
    an extension that compiles it again must have Sphinx read it again.
    Upstream: Sphinx's private ``Sphinx._init_i18n``; Sphinx keeps its catalogs for
    the process (sphinx-doc/sphinx#12130, #13448).
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx offers a public way to reload its catalogs, or lets an
    extension compile catalogs before it loads them.
    """
    app._init_i18n()  # noqa: SLF001


def set_in_conf_py(config: Config, name: str) -> bool:
    """Whether ``conf.py`` itself assigned ``name`` (whatever the value).

    Why: the editions' defaults give way to the book's own configuration, as
    Sphinx's defaults do, even when conf.py sets the value Sphinx defaults to.
    Upstream: Sphinx's ``Config`` keeps conf.py's namespace in the private
    attribute ``_raw_config`` and has no public way to ask this.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx's ``Config`` tells where a value came from.
    """
    return name in config._raw_config  # noqa: SLF001


def add_term_name(std: StandardDomain, name: str, node_id: str, location: nodes.Element) -> None:
    """Let ``:term:`name``` resolve to the glossary term at ``node_id`` too.

    Why: a translated glossary entry also answers to its source term.
    Upstream: Sphinx's private ``StandardDomain._note_term`` (sphinx-doc/sphinx#8740
    calls it internal; the request for synonyms of a term is sphinx-doc/sphinx#152).
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx's glossary supports a term's synonyms.
    """
    std._note_term(name, node_id, location=location)  # noqa: SLF001


def search_index_entries(env: BuildEnvironment) -> dict[str, Any]:
    """The environment's dict of index entries per page that Sphinx's search index
    reads (docname -> entries), to read, prune and fill.

    Why: an incremental HTML build keeps the index entries of the pages it does not
    write again; Sphinx never prunes a removed page's entries from it.
    Upstream: Sphinx's ``IndexBuilder`` keeps them in the private attribute
    ``BuildEnvironment._search_index_index_entries``, with no public way to read or
    add them (sphinx-doc/sphinx#8152).
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx keeps a page's index entries across incremental builds.
    """
    entries: dict[str, Any] = env._search_index_index_entries  # noqa: SLF001
    return entries


def frozen_search_index(builder: Any) -> dict[str, Any] | None:
    """The search index an HTML builder wrote last time, as it loads it; None where the
    builder searches nothing or has written none.

    Why: ``search_index.restore_entries`` takes back from it the index entries of the pages
    the builder does not write again.
    Upstream: ``StandaloneHTMLBuilder`` keeps its index's file name, format and encoding in
    the attributes ``search``, ``searchindex_filename``, ``indexer_format`` and
    ``indexer_dumps_unicode``, which Sphinx's documentation does not offer extensions.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx keeps a page's index entries across incremental builds
    (sphinx-doc/sphinx#12599), as ``search_index_entries``.
    """
    if not builder.search:
        return None
    path = builder.outdir / builder.searchindex_filename
    if not path.is_file():
        return None
    if builder.indexer_dumps_unicode:
        with open(path, encoding="utf-8") as text:
            frozen: dict[str, Any] = builder.indexer_format.load(text)
    else:
        with open(path, "rb") as binary:
            frozen = builder.indexer_format.load(binary)
    return frozen


def template_environment(builder: Any) -> Any | None:
    """The Jinja environment that renders a builder's templates; None for a builder
    without templates (LaTeX, gettext).

    Why: ``chrome.LiteralLabels`` is a Jinja extension, and Jinja takes an extension
    through the environment that renders the templates.
    Upstream: ``StandaloneHTMLBuilder.templates``, Sphinx's ``BuiltinTemplateLoader``,
    keeps its Jinja environment in the attribute ``environment``; neither is in Sphinx's
    documentation, and the ``template_bridge`` setting replaces the whole loader.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx lets an extension add a Jinja extension to its templates.
    """
    return getattr(getattr(builder, "templates", None), "environment", None)


def gettext_catalogs(builder: Any) -> dict[str, Any]:
    """The catalogs the gettext builder fills, by domain (``book`` for ``book.pot``): each
    ``add(text, origin)`` puts a message in one, and each is a template the build writes.

    Why: ``book_texts`` puts the texts of the book's settings (its title, its credit) in a
    template beside its pages' messages, and ``interface`` removes the templates of pages
    that are gone: those the build did not write.
    Upstream: ``MessageCatalogBuilder.catalogs``, a dict of ``Catalog`` by domain that
    Sphinx's documentation does not offer extensions.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx offers an event or an API to add a message to a catalog.
    """
    catalogs: dict[str, Any] = builder.catalogs
    return catalogs


def jax_deprecations(module: object) -> dict[str, Any]:
    """The names a JAX module has deprecated: name -> (message, the object or None).

    Why: the book flags an API name on its pages that JAX deprecated, before JAX
    removes it.
    Upstream: JAX's ``jax._src.deprecations`` installs a module ``__getattr__`` fed by
    each module's private dict ``_deprecations``; JAX has no public list of them.
    Written against: JAX 0.12.0.1.
    Remove when: JAX publishes its deprecations (a module attribute or a table).
    """
    found: dict[str, Any] = getattr(module, "_deprecations", {})
    return found


def jax_array_class() -> type:
    """The class of JAX's arrays: what attributes an array has, without making one.

    Why: the index names ``x.NAME`` where arrays have ``NAME``; the abstract ``jax.Array``
    lacks some of them, and making an array to ask starts a backend (a TPU, which one
    process at a time can hold) in a build that may run no code at all.
    Upstream: JAX's arrays are ``jax._src.array.ArrayImpl``; ``jax.Array`` is its abstract
    base, which declares fewer attributes.
    Written against: JAX 0.12.0.1.
    Remove when: ``jax.Array`` declares every attribute of its arrays.
    """
    from jax._src.array import ArrayImpl

    return ArrayImpl


# -- Sphinx's state, changed --------------------------------------------------------------
#
# Below, the places where the book changes what Sphinx keeps for itself (its environment's
# numbers, its builder's settings, its files, its process-wide catalogs) or reads it with a
# meaning Sphinx does not document: each in one named function, with its way out.


def disable_sphinx_toctree_collector(app: Sphinx) -> None:
    """Disconnect Sphinx's built-in toctree collector from ``app``, for a subclass of it to
    take its place (``app.add_env_collector``).

    Why: the book numbers sections ("1.5") and figures ("1-2") per chapter, where Sphinx's
    toctree collector numbers them and names the pages whose numbers changed
    (``jaxbook.sphinxext.numbering.ChapterNumbering``); both collectors connected, each
    would number the book, and the last one's numbers would stand.
    Upstream: the built-in extension ``sphinx.environment.collectors.toctree`` registers an
    instance of ``TocTreeCollector`` with ``app.add_env_collector``, which keeps no
    reference to it, and Sphinx has no way to replace or remove a collector. The instance
    is found as the owner of its bound ``get_updated_docs`` among the listeners of
    ``env-get-updated`` (``app.events.listeners``, undocumented); ``disable``, which
    ``EnvironmentCollector`` documents, disconnects it.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx lets an extension replace a built-in collector, or numbers sections
    and figures per chapter.
    """
    from sphinx.environment.collectors.toctree import TocTreeCollector
    from sphinx.errors import ExtensionError

    builtin = [
        collector
        for listener in app.events.listeners["env-get-updated"]
        if type(collector := getattr(listener.handler, "__self__", None)) is TocTreeCollector
    ]
    if len(builtin) != 1:
        msg = f"expected Sphinx's one toctree collector, found {len(builtin)}"
        raise ExtensionError(msg)
    builtin[0].disable(app)


def replace_figure_numbers(env: BuildEnvironment, numbers: dict[str, Any]) -> None:
    """Put ``numbers`` (docname -> kind -> figure id -> number) where Sphinx keeps its
    figure numbers, for the writers and for the next build to compare with.

    Why: the book numbers figures, tables and listings per chapter ("1-2"), as the PDF
    does (``jaxbook.sphinxext.numbering.ChapterNumbering``, a toctree collector).
    Upstream: Sphinx's ``TocTreeCollector.assign_figure_numbers`` sets
    ``BuildEnvironment.toc_fignumbers`` and names the pages whose numbers differ from the
    ones it found there; the writers read the numbers from it. numfig has no numbering per
    chapter.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx numbers figures per chapter, or lets an extension give the numbers.
    """
    env.toc_fignumbers = numbers


def replace_section_numbers(env: BuildEnvironment, numbers: dict[str, Any]) -> None:
    """Put ``numbers`` (docname -> anchor -> section number) where Sphinx keeps its
    section numbers, for the writers and for the next build to compare with.

    Why: a chapter's ``:numbered:`` toctree numbers its pages from 1; the book puts the
    chapter's number first ("1.5"; ``jaxbook.sphinxext.numbering.ChapterNumbering``).
    Upstream: Sphinx's ``TocTreeCollector.assign_section_numbers`` sets
    ``BuildEnvironment.toc_secnumbers`` and compares with what it found there; the writers
    read the numbers from it; a numbered toctree cannot start at another number.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: a numbered toctree can take its parent's number as a prefix.
    """
    env.toc_secnumbers = numbers


def renumber_section_nodes(
    env: BuildEnvironment, docname: str, renumber: Callable[[list[int]], list[int]]
) -> None:
    """Give each section number Sphinx set on ``docname``'s contents entries and title
    the new number ``renumber`` makes of it.

    Why: the HTML and EPUB writers print a title's number, in the sidebar and in links,
    from the nodes, not from ``toc_secnumbers`` (see ``replace_section_numbers``).
    Upstream: Sphinx's ``TocTreeCollector.assign_section_numbers`` sets a ``secnumber``
    list on the references of ``env.tocs`` and on the titles of ``env.titles``, afresh in
    every build (one list shared by a title and its entry: each gets a new one here).
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: as ``replace_section_numbers``.
    """
    from docutils import nodes

    toc = env.tocs.get(docname)
    for reference in toc.findall(nodes.reference) if toc is not None else ():
        if reference.get("secnumber"):
            reference["secnumber"] = renumber(reference["secnumber"])
    title = env.titles.get(docname)
    if title is not None and title.get("secnumber"):
        title["secnumber"] = renumber(title["secnumber"])


def use_code_formatter(builder: Any, formatter: type) -> None:
    """Have the HTML builder ``builder`` format its highlighted code with the Pygments
    formatter class ``formatter``.

    Why: the book's code blocks carry their number of lines (and, in the EPUB, each line
    as a block of its own), which Pygments' ``HtmlFormatter`` does not write.
    Upstream: Sphinx's ``PygmentsBridge`` takes its formatter class as the attribute
    ``formatter``, which ``StandaloneHTMLBuilder.init_highlighter`` makes with the class
    default; no setting or registry names it.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx lets an extension choose the Pygments formatter.
    """
    builder.highlighter.formatter = formatter


def forget_sphinx_catalogs(
    which: Callable[[str, str], bool] = lambda namespace, catalog: True,
) -> None:
    """Drop the catalogs Sphinx has loaded for this process whose ``(namespace, catalog)``
    ``which`` accepts (all of them by default), so that the next ``sphinx.locale.init``
    loads them again as the primary catalog.

    Why: the live preview and the warm ``make doctest`` keep one process across builds
    whose catalogs were compiled again, and the tests build several languages in one
    process.
    Upstream: Sphinx keeps its loaded catalogs process-wide in ``sphinx.locale.translators``
    and adds a catalog loaded later only as a fallback of the first
    (sphinx-doc/sphinx#12130, #13448); it has no public way to drop one.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx keeps catalogs per application, or offers a way to reload one.
    """
    from sphinx import locale

    for namespace, catalog in list(locale.translators):
        if which(namespace, catalog):
            del locale.translators[namespace, catalog]


#: The name of the backup of Sphinx's build info that Sphinx 9 keeps in an HTML output
#: directory when the settings changed.
#:
#: Why: the build info is a file of the build, not of the EPUB: the EPUB leaves out the
#: backup, which Sphinx's EPUB builder would pack as a file of unknown type.
#: Upstream: ``StandaloneHTMLBuilder`` writes ``.buildinfo`` and compares it with its
#: settings to know the pages to write again; Sphinx 9 keeps the last one as
#: ``.buildinfo.bak`` when they differ; neither name is public.
#: Written against: Sphinx 9.1.1 and 9.2.0.
#: Remove when: Sphinx keeps its build info outside the output directory.
BUILD_INFO_BACKUP = ".buildinfo.bak"


@contextlib.contextmanager
def docutils_markup_lookup(
    directive: Callable[..., Any], role: Callable[..., Any]
) -> Iterator[None]:
    """While in the block, have docutils find every directive with ``directive`` and every
    role with ``role`` (each called as docutils' own lookup function is).

    Why: the catalogs' checks parse a translated message as reStructuredText, where every
    directive and role is read generically, whatever the book's extensions register.
    Upstream: docutils looks a name up through the module functions
    ``docutils.parsers.rst.directives.directive`` and ``roles.role``, with no hook to
    replace them; Sphinx's ``sphinx.util.docutils.sphinx_domains`` swaps them the same way.
    Written against: docutils 0.22.4 (with Sphinx 9.1.1 and 9.2.0).
    Remove when: docutils lets a parser take its own directive and role lookups.
    """
    from docutils.parsers.rst import directives, roles

    saved = directives.directive, roles.role
    directives.directive = directive
    # types-docutils has a role function return only references; docutils takes any nodes.
    roles.role = role
    try:
        yield
    finally:
        directives.directive, roles.role = saved
