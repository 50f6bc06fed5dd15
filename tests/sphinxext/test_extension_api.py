"""Each extension's contract with Sphinx, as one application with all of them registers it:
its config values (default and what a change rebuilds), its nodes (the builders it gives
visitors, and those that can write them), its domains, builders and translators, the order
of its handlers where it matters, and its parallel safety. Removing a config value or a
visitor, or adding one undeclared, fails here.

That no module reads another's private names is ruff's ``SLF001`` (``make lint``);
that every extension keeping state on ``env`` declares an ``env_version`` is
``tests/sphinxext/test_warning_kinds.py``'s.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import shutil

import pytest
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.domains import Domain

import jaxbook.sphinxext
from jaxbook.sphinxext import drift_report as drift
from jaxbook.sphinxext import (
    html_translator,
    languages,
    latex_translator,
    notes,
    numbering,
    translation_status,
)
from jaxbook.sphinxext.editions.epub import BookEpubBuilder
from pagerun.sphinxext import run

EXTENSIONS = [
    module.name
    for module in pkgutil.iter_modules(jaxbook.sphinxext.__path__)
    if not module.name.startswith("_")
]
# Each extension's config values, and what a change of one makes Sphinx do again: "env"
# reads every page, "html" (or "epub") writes them, "" nothing. Their defaults are the
# extensions' own, read from the application.
CONFIG: dict[str, dict[str, str]] = {
    "backend_tabs": {"jaxbook_recorded_on": "env"},
    "book_texts": {
        "jaxbook_basename": "env",
        "jaxbook_credit": "html",
        "jaxbook_publisher": "epub",
        "jaxbook_name_in_text": "epub",
        "jaxbook_scope": "env",
        "jaxbook_description": "epub",
        "jaxbook_keywords": "epub",
        "jaxbook_translators": "epub",
    },
    "discovery": {
        "jaxbook_repo_branch": "html",
        "jaxbook_social_card_fonts": "html",
    },
    "drift_report": {"jaxbook_pinned_release": "env"},
    "editions": {
        "jaxbook_symbol_font": "env",
        "jaxbook_font_cache": "",
        "jaxbook_editions": "html",
        "jaxbook_edition": "env",
        "jaxbook_edition_date": "env",
        "jaxbook_book_url": "env",
    },
    "evidence_column": {"jaxbook_release_evidence": "env"},
    "facts": {"jaxbook_course_url": "env", "jaxbook_repo_root": "env"},
    "fonts": {"jaxbook_fonts": "env"},
    "glossary": {"jaxbook_glossary_pages": "env"},
    "guides": {
        "jaxbook_book_srcdir": "env",
        "jaxbook_book_build": "env",
        "jaxbook_book_site": "env",
        "jaxbook_book_html": "env",
        "jaxbook_book_places": "env",
        "jaxbook_book_root": "env",
    },
    "languages": {"jaxbook_languages": "html", "jaxbook_site_url": "html"},
    "notebooks": {
        "jaxbook_notebook_requirements": "html",
        "jaxbook_notebook_gpu_extra": "html",
        "jaxbook_notebook_tpu_extra": "html",
        "jaxbook_repo_url": "html",
        "jaxbook_notebooks_branch": "html",
    },
    "parallel_text": {"jaxbook_parallel_languages": "env"},
    "search_terms": {
        "jaxbook_glossary": "html",
        "jaxbook_search_terms": "html",
    },
    "snippets": {"jaxbook_snippets_dir": "env"},
    "translation_status": {"jaxbook_draft_languages": "html"},
}

# The builders a page is written by: the site, the EPUB (HTML's visitors), the PDF, text.
WRITERS = ("html", "epub", "latex", "text")
EVERY = frozenset({"html", "latex", "text", "man", "texinfo"})
ALL = frozenset(WRITERS)
NONE: frozenset[str] = frozenset()
SITE = frozenset({"html", "epub"})
# Each node class of the package: the extension that registers it (None: a subclass of a
# docutils node that every writer writes), the builders it has visitors of its own for,
# and the builders that can write it (its own visitors, or a writer's for a class it
# derives from). A node no builder writes never reaches one: it is replaced first.
NODES: dict[str, tuple[str | None, frozenset[str], frozenset[str]]] = {
    "backend_tabs": ("backend_tabs", EVERY, ALL),
    "chrome": (None, NONE, ALL),  # a paragraph
    "drift_placeholder": ("drift_report", NONE, NONE),  # the unseen examples, once resolved
    "edition_reference": ("languages", NONE, NONE),  # a link or words, once resolved
    "notebook_address": ("notebooks", NONE, NONE),  # a link or words, once resolved
    "page_reference": ("editions", frozenset({"latex"}), frozenset({"latex"})),  # the PDF's
    "pair": ("pairs", EVERY, ALL),
    "pair_half": ("pairs", EVERY, ALL),
    # The other language's words, read for every builder and shown on the site only (the
    # EPUB's and the PDF's take them out; a link's and a figure's become words first).
    "parallel_figure": ("parallel_text", NONE, NONE),
    "parallel_heading": ("parallel_text", frozenset({"html"}), SITE),
    "parallel_link": ("parallel_text", NONE, NONE),
    "parallel_toggle": ("parallel_text", frozenset({"html"}), SITE),  # added for the site only
    "parallel_source": ("parallel_text", frozenset({"html"}), SITE),
    "parallel_text": ("parallel_text", frozenset({"html"}), SITE),
    "selfcheck": ("selfcheck", EVERY, ALL),  # every writer skips it
    "update_note": ("notes", EVERY, ALL),
    "update_note_point": ("notes", frozenset({"latex"}), ALL),  # a paragraph elsewhere
    "update_notes_table": ("notes", NONE, NONE),  # a table, once resolved
    "zh_term": ("terms", frozenset({"html"}), ALL),  # an inline elsewhere
}
DOMAINS = {
    "jaxbook_notes": ("notes", notes.NotesDomain),
    "jaxbook_drift": ("drift_report", drift.DriftDomain),
    "book": ("numbering", numbering.BookDomain),  # section references by their numbers
    "jaxbook_editions": ("languages", languages.EditionsDomain),  # links to other editions
    "jaxbook_translation": ("translation_status", translation_status.TranslationDomain),
}
BUILDERS = {"epub": BookEpubBuilder}
TRANSLATORS = {
    **dict.fromkeys(("html", "dirhtml", "singlehtml", "epub"), html_translator.BookHTMLTranslator),
    "latex": latex_translator.BookLaTeXTranslator,
}


# The registrations whose caller is noted: the key's kind, and the name it registers.
KINDS = {
    "add_config_value": "config",
    "add_node": "node",
    "add_enumerable_node": "node",
    "add_domain": "domain",
}


@pytest.fixture(scope="module")
def registered(rootdir, tmp_path_factory, monkeypatch_module):
    """The application with every extension, and which module registered each config
    value, node and domain (the package's module that called ``add_config_value``, ...)."""
    from sphinx.testing.util import SphinxTestApp

    callers: dict[tuple[str, str], str] = {}

    def noting(method: str):
        original = getattr(Sphinx, method)

        def register(self, what, *args, **kwargs):
            # The caller's frame alone: inspect.stack() reads every frame's source lines
            # (about 15 s for the hundreds of registrations).
            frame = inspect.currentframe()
            assert frame is not None
            assert frame.f_back is not None
            caller = frame.f_back.f_globals["__name__"]
            name = what if isinstance(what, str) else what.__name__
            if caller.startswith("jaxbook."):
                callers.setdefault((KINDS[method], name), caller.rpartition(".")[2])
            return original(self, what, *args, **kwargs)

        return register

    for method in KINDS:
        monkeypatch_module.setattr(Sphinx, method, noting(method))
    srcdir = tmp_path_factory.mktemp("extension-api") / "root"
    shutil.copytree(rootdir / "test-extension-api", srcdir)
    app = SphinxTestApp("html", srcdir=srcdir)
    yield app, callers
    app.cleanup()


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def test_each_extension_registers_its_config_values_with_their_defaults(registered):
    app, callers = registered
    found = {
        name: (callers.get(("config", name)), option.rebuild)
        for name, option in app.config.values.items()
        if name.startswith("jaxbook_")
    }
    assert found == {
        name: (module, rebuild)
        for module, values in CONFIG.items()
        for name, rebuild in values.items()
    }
    # Each default, as the extension gives it, is of a type it declares (a callable default is
    # computed from the other values when the config is read).
    for name in found:
        option = app.config.values[name]
        if not callable(option.default) and option.valid_types:
            assert isinstance(option.default, tuple(option.valid_types)), name


def package_nodes() -> dict[str, type[nodes.Node]]:
    """Every node class defined in the package's modules, those of an extension that is a
    package (``editions``) among them."""
    found: dict[str, type[nodes.Node]] = {}
    for module in pkgutil.walk_packages(jaxbook.sphinxext.__path__, "jaxbook.sphinxext."):
        imported = importlib.import_module(module.name)
        for name, value in vars(imported).items():
            if (
                inspect.isclass(value)
                and issubclass(value, nodes.Node)
                and value.__module__ == imported.__name__
            ):
                found[name] = value
    return found


def writes(app: Sphinx, builder: str, node: type[nodes.Node]) -> bool:
    """Whether ``builder``'s translator has a visitor for ``node``: one registered for it
    (Sphinx looks under the builder's name, then its format), or its own for a class
    ``node`` derives from (``SphinxTranslator.dispatch_visit`` walks the classes)."""
    builder_class = app.registry.builders[builder]
    handlers = app.registry.translation_handlers.get(builder)
    if handlers is None:
        handlers = app.registry.translation_handlers.get(builder_class.format, {})
    translator = app.registry.translators.get(builder, builder_class.default_translator_class)
    return node.__name__ in handlers or any(
        hasattr(translator, f"visit_{cls.__name__}") for cls in node.__mro__
    )


def test_each_node_has_the_visitors_its_extension_declares(registered):
    app, callers = registered
    found = package_nodes()
    assert sorted(found) == sorted(NODES)
    for name, node in found.items():
        module, own, written = NODES[name]
        assert callers.get(("node", name)) == module, name
        visitors = {b for b, h in app.registry.translation_handlers.items() if name in h}
        assert visitors == own, name
        assert {b for b in WRITERS if writes(app, b, node)} == written, name


def test_each_domain_builder_and_translator_is_the_extensions(registered):
    app, callers = registered
    domains = {
        name: (callers.get(("domain", domain.__name__)), domain)
        for name, domain in app.registry.domains.items()
        if domain.__module__.startswith("jaxbook.")
    }
    assert domains == DOMAINS
    for name, (_module, domain) in DOMAINS.items():
        # A domain keeps its data on the environment, merged from parallel readers (Sphinx's
        # own merge_domaindata refuses them). The editions' only makes links, for the
        # builder, and the book's resolves its section references through the standard
        # domain's labels and the environment's section numbers: both keep nothing.
        assert domain.name == name
        assert domain.initial_data or name in {"jaxbook_editions", "book"}, name
        assert domain.merge_domaindata is not Domain.merge_domaindata, name
    builders = {
        name: builder
        for name, builder in app.registry.builders.items()
        if builder.__module__.startswith("jaxbook.")
    }
    assert builders == BUILDERS
    assert dict(app.registry.translators) == TRANSLATORS


@pytest.mark.parametrize("name", EXTENSIONS)
def test_every_extension_is_parallel_safe(registered, name):
    app, _callers = registered
    extension = app.extensions[f"jaxbook.sphinxext.{name}"]
    assert extension.parallel_read_safe is True
    assert extension.parallel_write_safe is True


def test_links_are_pending_before_resolving_and_the_pdf_layout_comes_last(registered):
    """The notes' and the drift report's links are their domain's ``pending_xref`` nodes,
    made before Sphinx resolves references; the PDF's layout reads the page after every
    other post-transform of the package's has changed it, and is no handler; nor are the
    page links, the notices and the editions' links, which change the page."""
    from sphinx.transforms.post_transforms import ReferencesResolver

    app, _callers = registered
    ours = {
        transform.__name__: transform
        for transform in app.registry.get_post_transforms()
        if transform.__module__.startswith("jaxbook.")
    }
    for name in ("NumberNotes", "BuildTables", "UnseenExamples", "PendingEditions"):
        assert ours[name].default_priority < ReferencesResolver.default_priority, name
    layout = ours.pop("PaperLayout")
    assert layout.builders == ("latex",)
    later = {n for n, t in ours.items() if t.default_priority >= layout.default_priority}
    # The EPUB's and the site's, which the PDF never runs: the site's page links, then the
    # notices of a translated page, which go above them, and the parallel text.
    assert later == {"NameThePreface", "AddPageLinks", "AddNotices", "ShowParallelText"}
    assert ours["AddPageLinks"].default_priority < ours["AddNotices"].default_priority
    # The module under jaxbook.sphinxext ("editions.latex": the editions are a package).
    handlers = {
        (listener.handler.__module__.removeprefix("jaxbook.sphinxext."), listener.handler.__name__)
        for listener in app.events.listeners["doctree-resolved"]
        if listener.handler.__module__.removeprefix("jaxbook.sphinxext.").split(".")[0]
        in {"notes", "editions", "discovery", "languages", "translation_status"}
    }
    assert handlers == {("editions.latex", "write_glyphs")}


def test_a_page_runs_after_every_other_handler_has_read_it(registered):
    """The page's run is a plain ``doctree-read`` handler (its records are its domain's data,
    no collector's), after every other one: the snippets' staging and the backend tabs'
    conditions have finished the page's doctest nodes. Pages that another builder of the
    doctree directory read are written again (``env-get-updated``). The packages' one
    collector is the numbering's, Sphinx's toctree collector numbering per chapter."""
    from sphinx.environment.collectors import EnvironmentCollector

    app, _callers = registered
    reading = {(one.handler, one.priority) for one in app.events.listeners["doctree-read"]}
    assert (run.run_at_read, 900) in reading
    others = {priority for handler, priority in reading if handler is not run.run_at_read}
    assert others
    assert max(others) < 900
    updating = {one.handler for one in app.events.listeners["env-get-updated"]}
    assert run.written_again in updating
    ours = {
        one.handler
        for listeners in app.events.listeners.values()
        for one in listeners
        if getattr(one.handler, "__module__", "").startswith(("jaxbook.", "pagerun."))
    }
    assert run.run_at_read in ours
    collectors = {
        type(h.__self__)
        for h in ours
        if isinstance(getattr(h, "__self__", None), EnvironmentCollector)
    }
    assert collectors == {numbering.ChapterNumbering}
