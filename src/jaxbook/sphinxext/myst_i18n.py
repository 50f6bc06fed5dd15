"""Translated code blocks on MyST Markdown pages stay code blocks.

Sphinx's ``Locale`` transform hands a translated literal block to the page's parser in
reStructuredText syntax, which MyST-Parser would show as ``::`` instead of the code.
This extension replaces MyST-Parser's Sphinx parser with
:class:`TranslatableMystParser`, adds the :class:`AdoptTranslatedNodes` transform, and
warns (``jaxbook.myst_i18n``) when the installed Sphinx or MyST-Parser is not a
release in ``WRITTEN_FOR``. ``myst_i18n.patch`` beside this module is the same fix for
MyST-Parser itself.

Config values: none.
"""

from __future__ import annotations

from importlib.metadata import version
from typing import TYPE_CHECKING

from docutils import nodes
from docutils.parsers.rst import Parser as RstParser
from myst_parser.parsers.sphinx_ import MystParser
from sphinx.transforms import SphinxTransform
from sphinx.util import logging

from jaxbook._compat import is_translated_message
from jaxbook.sphinxext import PARALLEL_SAFE

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

# The releases the fix was written for and tested with: uv.lock's (Sphinx is 9.2.0 on
# Python 3.13 and 9.1.1 on 3.12), which test_myst_i18n.py checks this against. Whoever
# upgrades runs that test, then updates this (or drops the extension once MyST-Parser has
# the fix).
WRITTEN_FOR = {"sphinx": {"9.1.1", "9.2.0"}, "myst-parser": {"5.2.0"}}


def is_translated_literal(inputstring: str, document: nodes.document) -> bool:
    """Whether Sphinx's ``Locale`` transform is parsing the translation of a literal block."""
    return is_translated_message(document) and inputstring.startswith("::\n\n")


class TranslatableMystParser(MystParser):
    """MyST-Parser's Sphinx parser, reading Sphinx's translated literal blocks as reST.

    With ``gettext_additional_targets = ["literal-block"]``, Sphinx's ``Locale`` transform
    parses a translated literal block (a code fence, a ``testcode``, ``doctest`` or
    ``snippet`` body) as reST literal-block syntax: ``::``, a blank line, the text
    indented. MyST-Parser would read a paragraph ``::``, so the block would show ``::``
    and its doctest fail with a ``SyntaxError`` (MyST-Parser issue #444; Sphinx issue
    #8852). Read as reST, the block gets exactly the text it would get on a reST page."""

    def parse(self, inputstring: str, document: nodes.document) -> None:
        if is_translated_literal(inputstring, document):
            RstParser().parse(inputstring, document)
            return
        super().parse(inputstring, document)


def other_versions() -> list[str]:
    """The installed Sphinx and MyST-Parser releases the fix was not written for."""
    return [
        f"{name} {version(name)}" for name in WRITTEN_FOR if version(name) not in WRITTEN_FOR[name]
    ]


def check_versions(app: Sphinx, config: Config) -> None:
    """Warn, once a build, when the installed Sphinx or MyST-Parser is not one the fix was
    written for: the fix still applies, but nothing has checked it against that release."""
    other = other_versions()
    if other:
        written_for = " and ".join(
            f"{name} {' or '.join(sorted(v))}" for name, v in WRITTEN_FOR.items()
        )
        logger.warning(
            "jaxbook.sphinxext.myst_i18n was written for %s, but %s %s installed: run "
            "tests/sphinxext/test_myst_i18n.py to check that translated MyST code blocks "
            "still work, then update WRITTEN_FOR",
            written_for,
            " and ".join(other),
            "is" if len(other) == 1 else "are",
            type="jaxbook",
            subtype="myst_i18n",
        )


class AdoptTranslatedNodes(SphinxTransform):
    """Every node of the page, translated ones included, belongs to the page's document.

    Sphinx parses each message as a document of its own and moves its nodes into the page.
    The nodes MyST-Parser makes would keep the message's document, and through its reader
    the application and build environment, which pickling would write into the page's
    doctree: it would grow with the book, and Sphinx's figure numbering unpickles every
    doctree after any page is read."""

    default_priority = 21  # after Sphinx's Locale (20), which moves the translated nodes in

    def apply(self, **kwargs: object) -> None:
        for node in self.document.findall(nodes.Node):
            if node.document is not self.document:
                node.document = self.document


def setup(app: Sphinx) -> ExtensionMetadata:
    # Once the configuration is read, so that suppress_warnings applies to the warning.
    app.connect("config-inited", check_versions)
    # Loaded here, so this extension's place in ``extensions`` does not matter, and first,
    # so that its own registration of the parser comes before the override.
    app.setup_extension("myst_parser")
    app.add_source_parser(TranslatableMystParser, override=True)
    app.add_transform(AdoptTranslatedNodes)
    return {"version": "1.0", **PARALLEL_SAFE}
