"""Keep the search index's index entries when a rebuild does not write every page.

An incremental HTML build loads the previous ``searchindex.js`` and feeds it
only the pages it writes again. Sphinx (9.2; sphinx-doc/sphinx#12599, open)
restores the titles and words of the other pages from that file but not their
index entries, and the environment it pickles before writing has none either:
after a plain ``make html`` on an unchanged book the index lost all 27 of the
Chinese site's entries, the glossary's terms among them, which the search
ranks above a word's mere mention. Once the file is loaded,
this module puts back the entries of the pages that are not written again,
from the same file. It also drops the entries of pages removed since: Sphinx
never prunes them, and in a long-lived application (``make livehtml``) the
entries of a removed page broke the next build's search index.

Config values: none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sphinx.builders.html import StandaloneHTMLBuilder

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


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


def restore_on_load(app: Sphinx) -> None:
    builder = app.builder
    if not isinstance(builder, StandaloneHTMLBuilder) or not builder.search:
        return
    load_indexer = builder.load_indexer

    def load_and_restore(docnames: Set[str]) -> None:
        load_indexer(docnames)
        indexer = builder.indexer
        assert indexer is not None, "prepare_writing makes the indexer before it loads it"
        # Sphinx's IndexBuilder has no public way to read or add index entries
        # (sphinx-doc/sphinx#8152): its private dicts are used here, and only here.
        # Sphinx never prunes them: a page removed since would break the index's freezing.
        entries_of = indexer._index_entries  # noqa: SLF001
        for docname in set(entries_of).difference(builder.env.all_docs):
            del entries_of[docname]
        # The pages whose titles Sphinx restored: none when it refused the old file.
        keep = set(indexer._titles).difference(docnames)  # noqa: SLF001
        path = builder.outdir / builder.searchindex_filename
        if not keep or not path.is_file():
            return
        try:
            if builder.indexer_dumps_unicode:
                with open(path, encoding="utf-8") as text:
                    frozen = builder.indexer_format.load(text)
            else:
                with open(path, "rb") as binary:
                    frozen = builder.indexer_format.load(binary)
            entries = kept_entries(frozen, keep)
        except (ValueError, KeyError, IndexError, TypeError):
            return  # Sphinx read the same file; what it could not, it indexes anew
        for docname, kept in entries.items():
            entries_of.setdefault(docname, kept)

    # Sphinx has no event between loading the old index and writing the pages
    # (sphinx-doc/sphinx#12599): this builder's own method is replaced, on purpose.
    builder.load_indexer = load_and_restore  # type: ignore[method-assign]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("builder-inited", restore_on_load)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
