"""Nodes shared by the extensions."""

from __future__ import annotations

from docutils import nodes


class chrome(nodes.paragraph, nodes.Invisible):
    """A paragraph of site chrome (download and edit links, notices) added at build time.

    It renders as a paragraph; being ``Invisible``, it is left out of what
    describes the page (the ``description`` meta tag and OpenGraph's).
    """
