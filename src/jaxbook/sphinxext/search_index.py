"""Keep the search index's index entries when a rebuild does not write every page.

On ``write-started`` this extension restores, from the previous ``searchindex.js``, the index
entries of the pages an incremental HTML build does not write again, which Sphinx loses
(sphinx-doc/sphinx#12599). On the search page it adds a script that leaves the elements
marked ``no-search`` out of the results' snippets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.util import logging

from jaxbook._compat import frozen_search_index, search_index_entries
from jaxbook.sphinxext import PARALLEL_SAFE

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)


def kept_entries(frozen: dict[str, Any], keep: Set[str]) -> dict[str, list[tuple[str, str, str]]]:
    """The index entries a frozen index holds for the pages in ``keep``, as the builder keeps
    them: docname -> sorted (entry, target id, ``"main"`` or ``""``)."""
    docnames = frozen["docnames"]
    entries: dict[str, set[tuple[str, str, str]]] = {}
    for entry, hits in frozen.get("indexentries", {}).items():
        for index, target, main in hits:
            if docnames[index] in keep:
                entries.setdefault(docnames[index], set()).add((entry, target, "main" * main))
    return {docname: sorted(found) for docname, found in entries.items()}


def restore_entries(app: Sphinx, builder: Builder) -> None:
    """Before the builder writes: the entries of the previous index, where the builder's
    index keeps them. A page written again is indexed again, its entries replaced.

    An incremental build feeds the index only the pages it writes again, and Sphinx 9.2
    (sphinx-doc/sphinx#12599, open) restores the others' titles and words from the file but
    not their index entries, nor does the pickled environment hold them: an unchanged book's
    ``make html`` would lose every entry, the glossary's terms among them, which the search
    ranks above a word's mere mention. The entries of pages removed since are dropped, which
    matters in a long-lived application (``make livehtml``).
    """
    if not isinstance(builder, StandaloneHTMLBuilder):
        return
    env = builder.env
    # Sphinx's IndexBuilder keeps its index entries in a private dict of the environment
    # (see jaxbook._compat). Sphinx never prunes it: a page removed since would break the
    # index's freezing.
    entries_of = search_index_entries(env)
    for docname in set(entries_of).difference(env.all_docs):
        del entries_of[docname]
    try:
        frozen = frozen_search_index(builder)
        if frozen is None or frozen.get("envversion") != env.version:
            return  # Sphinx refuses an index of another version, and indexes anew
        entries_of.update(kept_entries(frozen, set(env.all_docs)))
    except (OSError, AttributeError, ValueError, KeyError, IndexError, TypeError) as error:
        # Sphinx reads the same file and indexes anew what it cannot read; saying so shows
        # where a change of Sphinx's format left the entries to that.
        logger.info("search index entries not restored: %s", error)


#: The search page's snippets leave out what is hidden from search (``.no-search``): Sphinx's
#: ``Search`` is a global constant of ``searchtools.js`` (on the search page only), and its
#: snippets come from ``Search.htmlToText``, given each fetched page after the page loads.
#:
#: Why: Sphinx's snippets are a fetched page's text, the parallel text's hidden passages
#: included; its setting ``html_search_options`` says nothing of them.
#: Upstream: ``Search.htmlToText`` of Sphinx's ``searchtools.js``.
#: Written against: Sphinx 9.1.1 and 9.2.0.
#: Remove when: Sphinx leaves ``.no-search`` elements out of its snippets, or lets a project
#: name what a snippet leaves out.
SNIPPETS_SCRIPT = """document.addEventListener("DOMContentLoaded", function () {
  if (typeof Search === "undefined" || !Search.htmlToText) return;
  var toText = Search.htmlToText;
  Search.htmlToText = function (html, anchor) {
    var page = new DOMParser().parseFromString(html, "text/html");
    page.querySelectorAll(".no-search").forEach(function (element) { element.remove(); });
    return toText(page.documentElement.outerHTML, anchor);
  };
});"""


def add_snippets_script(app: Sphinx, pagename: str, *args: Any) -> None:
    """On the search page, ``SNIPPETS_SCRIPT``: a Chinese result then does not quote the
    parallel text's English beside it, or a self-check."""
    if pagename == "search":
        app.add_js_file(None, body=SNIPPETS_SCRIPT)


def setup(app: Sphinx) -> ExtensionMetadata:
    # Before the builder makes its index and loads the previous one (prepare_writing).
    app.connect("write-started", restore_entries)
    app.connect("html-page-context", add_snippets_script)
    return {"version": "1.0", **PARALLEL_SAFE}
