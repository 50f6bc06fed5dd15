"""Translated code blocks on MyST Markdown pages stay code blocks.

With ``gettext_additional_targets = ["literal-block"]``, Sphinx's ``Locale``
transform translates a literal block (a code fence, the content of a
``testcode``, ``testoutput``, ``doctest`` or ``snippet``) by wrapping the
translation in reStructuredText's literal-block syntax (``::``, a blank line,
the text indented by three spaces) and parsing that with the page's own
parser. MyST-Parser reads it as Markdown, a paragraph reading ``::``, so every
translated block of a MyST page showed ``::`` instead of its code and the
English doctests failed with a ``SyntaxError`` (MyST-Parser issue #444; the
transform speaks reST to every parser, Sphinx issue #8852).

This extension replaces MyST-Parser's Sphinx parser with a subclass that
recognises that string when Sphinx's translation step hands it over (the
document is named ``<page>:<line>:<translated>`` and the text starts with
``::`` and a blank line) and reads it with the reStructuredText parser it was
written for. The translated block then gets exactly the text it would get on a
reST page; everything else, and every reST page, is parsed as before.
``myst_i18n.patch`` beside this module is the same fix for MyST-Parser itself.

The fix relies on how these releases of Sphinx and MyST-Parser work, so it is
pinned to the versions in ``uv.lock``: with any other version the build stops
with one sentence saying so, and whoever upgrades checks it again with
``tests/sphinxext/test_myst_i18n.py`` (or drops it once MyST-Parser has the
fix). It loads ``myst_parser`` itself, so its place in ``extensions`` does not
matter.

Config values: none.
"""

from __future__ import annotations

from importlib.metadata import version
from typing import TYPE_CHECKING

from docutils.parsers.rst import Parser as RstParser
from myst_parser.parsers.sphinx_ import MystParser
from sphinx.errors import ExtensionError

from jaxbook.sphinxext import PARALLEL_SAFE

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

# uv.lock's versions: Sphinx is 9.2.0 on Python 3.13 and 9.1.1 on 3.12.
PINNED = {"sphinx": {"9.1.1", "9.2.0"}, "myst-parser": {"5.2.0"}}


def is_translated_literal(inputstring: str, document: nodes.document) -> bool:
    """Whether Sphinx's ``Locale`` transform is parsing the translation of a literal block."""
    source = str(document.get("source", ""))
    return source.endswith(":<translated>") and inputstring.startswith("::\n\n")


class TranslatableMystParser(MystParser):
    """MyST-Parser's Sphinx parser, reading Sphinx's translated literal blocks as reST."""

    def parse(self, inputstring: str, document: nodes.document) -> None:
        if is_translated_literal(inputstring, document):
            RstParser().parse(inputstring, document)
            return
        super().parse(inputstring, document)


def check_versions() -> None:
    """Stop the build unless the installed Sphinx and MyST-Parser are the pinned ones."""
    wrong = [f"{name} {version(name)}" for name in PINNED if version(name) not in PINNED[name]]
    if wrong:
        written_for = " and ".join(f"{name} {' or '.join(sorted(v))}" for name, v in PINNED.items())
        raise ExtensionError(
            f"jaxbook.sphinxext.myst_i18n was written for {written_for}, but "
            f"{' and '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} installed: "
            "check that translated MyST code blocks still work "
            "(tests/sphinxext/test_myst_i18n.py), then update PINNED"
        )


def setup(app: Sphinx) -> ExtensionMetadata:
    check_versions()
    # Loaded first, so that its own registration of the parser comes before the override.
    app.setup_extension("myst_parser")
    app.add_source_parser(TranslatableMystParser, override=True)
    return {"version": "1.0", **PARALLEL_SAFE}
