"""The general index, made from the prose: where the text discusses each API, option and term.

On the pages ``jaxbook_glossary_pages`` names, the first block of a page that mentions a JAX
API, config option, environment variable or glossary term becomes that name's index entry,
under the page's title (:class:`IndexMentions`). Pages still add entries by hand with the
``index`` directive. :func:`check_one_place` warns (``jaxbook.book_index``) where a subentry
has two places. What the installed JAX has is asked of the build's kernel
(:func:`pagerun.kernel.ask`): the build process never imports JAX. No config values.
"""

from __future__ import annotations

import re
from fnmatch import fnmatch
from functools import cache
from typing import TYPE_CHECKING, TypeGuard

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.index_entries import split_index_msg

from jaxbook.sphinxext import PARALLEL_SAFE, _chapters, glossary
from jaxbook.sphinxext._nodes import ancestors
from jaxbook.sphinxext.api_names import JAX_NAMES, NAME, VARIABLE
from pagerun import kernel

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

OPTION = re.compile(r"jax_[a-z0-9_]+")
# ``x.at[0].set(1)``, ``random_array.devices()``: an attribute written on an array; the
# text also names a method without its array (``.block_until_ready()``).
ON_ARRAY = re.compile(r"^([a-z_][a-z0-9_]*)?\.([a-z_][a-z0-9_]*)")
# Modules the pages import from JAX under a short name (``from jax import random``).
JAX_MODULES = {"random": "jax.random", "lax": "jax.lax"}
MODULES = {"np", "numpy", "jnp", "jax", "lax", "random", "math", "os", "sys", "plt", "time"}
# The pages' name for a NumPy array (``np_arr.copy()``): its methods are NumPy's.
NUMPY_ARRAY = "np_"
QUESTION = "jb-question"
BLOCKS = (nodes.paragraph, nodes.title, nodes.term, nodes.rubric)


def api_names(text: str) -> list[str]:
    """What an inline literal names, as the index lists it."""
    if match := VARIABLE.match(text):
        return [match[0]]
    found = []
    # ``jax.__version__`` is a value to print, not something a reader looks up.
    if (match := NAME.match(text)) and "__" not in match[0]:
        found.append(_option_of(match[0]) or match[0])
    found += [option for option in OPTION.findall(text) if option in _options()]
    match = ON_ARRAY.match(text)
    if found or not match:
        return found
    owner, name = match[1] or "", match[2]
    if owner in JAX_MODULES and _module_attribute(JAX_MODULES[owner], name):
        found.append(f"{JAX_MODULES[owner]}.{name}")  # ``random.normal(key)``
    elif owner not in MODULES and not owner.startswith(NUMPY_ARRAY) and _array_attribute(name):
        found.append(f"jax.Array.{name}")
    return found


# What JAX has, asked of the build's kernel (jaxbook.doctest.jax_names): the build's process
# never imports JAX. Each answer is kept for the process.


@cache
def _module_attribute(module: str, name: str) -> bool:
    return kernel.ask(JAX_NAMES, "module_attribute", module, name)


@cache
def _option_of(name: str) -> str | None:
    return kernel.ask(JAX_NAMES, "option_of", name)


@cache
def _options() -> set[str]:
    return kernel.ask(JAX_NAMES, "options")


@cache
def _array_attribute(name: str) -> bool:
    return kernel.ask(JAX_NAMES, "array_attribute", name)


class IndexMentions(SphinxTransform):
    """Index each page's first mention of an API, an option or a glossary term.

    The first paragraph, list item, table cell or title that mentions it becomes its entry:

    - a JAX API in an inline literal (``jnp.array(...)`` is ``jnp.array``), or a
      ``jax.Array`` method or attribute used on an array (``x.at[idx].set(v)`` is
      ``jax.Array.at``; not a method of ``np_arr``, the pages' NumPy array);
    - a JAX config option (an option's context manager is indexed as the option) or a JAX or
      XLA environment variable; an ``:old-name:`` is not indexed;
    - a glossary term, found as :mod:`jaxbook.sphinxext.glossary` links its first use.

    Not indexed: quiz answer options (a wrong one may name an API that does not exist);
    contents tables; what the page indexes by hand, which would add a bare page number
    ("27, **27**"). Entries are made after translation, so each language's index is in its
    own words, and they are not catalog messages.
    """

    # After the i18n transform (20) translates the page, before Sphinx collects the
    # page's index entries (SphinxDomains, 850).
    default_priority = 840

    def apply(self, **kwargs: object) -> None:
        docname = self.env.current_document.docname
        patterns = self.config.jaxbook_glossary_pages
        if not any(fnmatch(docname, pattern) for pattern in patterns):
            return
        rules, shown = glossary.use_rules(self.env.srcdir, self.config)
        title = self.document.next_node(nodes.title)
        page = " ".join(title.astext().split()) if title is not None else docname
        # What the page indexes by hand is named there already, in the page's own words.
        seen: set[str] = _own_headwords(self.document)
        for block in [node for node in self.document.findall() if _is_block(node)]:
            keys = [key for key in _mentions(block, rules, shown) if key not in seen]
            if not keys:
                continue
            seen.update(keys)
            _add_entries(self, block, [f"{key}; {page}" for key in keys])


def _own_headwords(document: nodes.document) -> set[str]:
    """The headwords of the page's own entries, in the page's language: a main entry
    (``!single: 纯函数``), an entry (``single: 环境变量``) or an entry's subentry
    (``single: 设备; 放置`` is 设备's)."""
    return {
        value.split(";")[0].strip()
        for index in document.findall(addnodes.index)
        for kind, value, *_rest in index["entries"]
        if kind == "single"
    }


def _is_block(node: nodes.Node) -> TypeGuard[nodes.Element]:
    if not isinstance(node, BLOCKS) or isinstance(node.parent, nodes.term):
        return False
    return not any(
        isinstance(parent, glossary.SKIP) or _is_option(parent) or _is_contents(parent)
        for parent in ancestors(node)
    )


# What a cell may hold beside its reference: an index entry, a link target.
REFERENCE_MARKS = (addnodes.index, nodes.target)


def _is_contents(node: nodes.Node) -> bool:
    """A contents table: each row of its body opens with a cell that is a reference alone
    (``:book:sec:``, ``:doc:``), unresolved while the page is read."""
    if not isinstance(node, nodes.table):
        return False
    rows = [row for body in node.findall(nodes.tbody) for row in body.findall(nodes.row)]

    def reference_alone(row: nodes.row) -> bool:
        first = row.next_node(nodes.entry)
        shown = [c for c in first.children if not isinstance(c, REFERENCE_MARKS)] if first else []
        if len(shown) != 1 or not isinstance(shown[0], nodes.paragraph):
            return False
        words = [c for c in shown[0].children if not isinstance(c, REFERENCE_MARKS)]
        return len(words) == 1 and isinstance(words[0], (addnodes.pending_xref, nodes.reference))

    return bool(rows) and all(reference_alone(row) for row in rows)


def _is_option(node: nodes.Node) -> bool:
    """The list of a quiz question's answer options."""
    section = node.parent
    return (
        isinstance(node, nodes.enumerated_list)
        and isinstance(section, nodes.section)
        and QUESTION in section["classes"]
    )


def _mentions(block: nodes.Element, rules, shown: dict[str, str]) -> list[str]:
    keys: list[str] = []
    for child in block.findall(lambda n: isinstance(n, nodes.literal | nodes.Text)):
        if child is not block and isinstance(child.parent, BLOCKS) and child.parent is not block:
            continue  # a nested block is indexed on its own
        if isinstance(child, nodes.literal):
            if not child.get("jaxbook_old_name"):
                keys += api_names(child.astext())
        elif not any(isinstance(parent, glossary.SKIP) for parent in ancestors(child)):
            keys += [shown[key] for _start, _end, key in glossary.uses(str(child), rules)]
    return list(dict.fromkeys(keys))


def _add_entries(transform: SphinxTransform, block: nodes.Element, keys: list[str]) -> None:
    holder: nodes.Element
    if isinstance(block, nodes.title) and isinstance(block.parent, nodes.section):
        target_id = block.parent["ids"][0]
        holder, position = block.parent, block.parent.index(block) + 1
    else:
        target_id = f"index-{transform.env.new_serialno('index')}"
        block["ids"].append(target_id)
        holder, position = block.parent, block.parent.index(block)
    entries = [("single", key, target_id, "", None) for key in keys]
    index = addnodes.index(entries=entries, inline=False)
    # The PDF drops the page's title from these entries: a page number names the place.
    index["jaxbook_mentions"] = True
    # Made in the page's language: no messages for the catalogs, which take the pages' own
    # entries (``gettext_additional_targets``' "index"). Sphinx's gettext build reads an
    # index node's untranslated entries from ``raw_entries`` where it has them.
    index["raw_entries"] = []
    index.source, index.line = block.source, block.line
    holder.insert(position, index)


def subentries(kind: str, value: str) -> list[tuple[str, str]]:
    """The (entry, subentry) pairs an index entry lists, as Sphinx's index lists them."""
    try:
        parts = split_index_msg(kind, value)
    except ValueError:
        return []  # Sphinx's index says so
    if kind == "single":
        return [(parts[0], parts[1])] if len(parts) == 2 else []
    if kind == "pair":
        first, second = parts
        return [(first, second), (second, first)]
    if kind == "triple":
        first, second, third = parts
        return [
            (first, f"{second} {third}"),
            (second, f"{third}, {first}"),
            (third, f"{first} {second}"),
        ]
    return []  # "see" and "see also" lead nowhere


def check_one_place(app: Sphinx, env: BuildEnvironment) -> None:
    """Warn at each place of a subentry after its first: the web's index numbers it "[1]".

    An entry without a subentry may lead to several pages (the web's index names each by
    its title, ``jaxbook.sphinxext.pinyin_index``); a subentry names one place."""
    first: dict[tuple[str, str], str] = {}
    for docname in _chapters.reading_order(env):
        for kind, value, _target, _main, _key in env.domains.index_domain.entries.get(docname, []):
            for pair in subentries(kind, value):
                if pair not in first:
                    first[pair] = docname
                    continue
                logger.warning(
                    "index entry %r is also indexed on %s: the web's index would number this "
                    "place [1]; give each place a subentry of its own",
                    "; ".join(pair),
                    first[pair],
                    location=docname,
                    type="jaxbook",
                    subtype="book_index",
                )


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension(glossary.__name__)
    app.add_transform(IndexMentions)
    app.connect("env-check-consistency", check_one_place)
    # env_version: raised whenever the entries a read page keeps change, so that an
    # environment of another version reads every page again.
    return {"version": "1.0", "env_version": 6, **PARALLEL_SAFE}
