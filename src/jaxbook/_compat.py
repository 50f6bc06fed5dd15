"""Every use of another project's private names, each with its way out.

The package reaches into the internals of Python's standard library, Sphinx
and JAX only here (``tests/test_compat.py`` keeps it so: no other module of
``jaxbook`` reads an underscored name of another project). Each function's
docstring says why it is needed, the upstream project and behavior behind it,
the release in ``uv.lock`` it was written against, and when it can go. An
upgrade that breaks one of them breaks it here, in one line.

Sphinx and the doctest builder are imported inside the functions that need
them, so that importing this module costs no more than the standard library.
"""

from __future__ import annotations

import doctest
import gettext
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.domains.std import StandardDomain
    from sphinx.environment import BuildEnvironment

#: The pattern by which doctest recognises an expected output that is a traceback.
#:
#: Why: the doctest runner of ``jaxbook.doctest`` compares outputs as Sphinx's doctest
#: builder does, and that builder relies on ``doctest.DocTestParser`` for it.
#: Upstream: CPython's ``doctest`` keeps it as the class attribute ``_EXCEPTION_RE``;
#: only its result is public (``doctest.Example.exc_msg``).
#: Written against: Python 3.12 and 3.13 (``.python-version``: 3.13).
#: Remove when: CPython makes the pattern public, or the book copies it (at the
#: cost of no longer following CPython's changes to it).
DOCTEST_EXCEPTION_RE: re.Pattern[str] = doctest.DocTestParser._EXCEPTION_RE  # type: ignore[attr-defined]  # noqa: SLF001


def doctest_condition(test_doctest_blocks: bool) -> Callable[[nodes.Node], bool]:
    """Which nodes Sphinx's doctest builder tests: its own condition for the setting
    ``doctest_test_doctest_blocks``.

    Why: the book's runner must test exactly the nodes the builder tests, and what
    the builder counts as a ``>>>`` block depends on the docutils release.
    Upstream: Sphinx's ``sphinx.ext.doctest`` keeps them as the module-private
    functions ``_condition_default`` and ``_condition_with_doctest``.
    Written against: Sphinx 9.1.1 and 9.2.0.
    Remove when: Sphinx exposes the builder's node condition publicly.
    """
    from sphinx.ext import doctest as sphinx_doctest

    if test_doctest_blocks:
        return sphinx_doctest._condition_with_doctest  # noqa: SLF001
    return sphinx_doctest._condition_default  # noqa: SLF001


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
