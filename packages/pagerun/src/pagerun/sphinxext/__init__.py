"""pagerun's Sphinx extensions, and what more than one of them needs.

- :mod:`pagerun.sphinxext.run`: each page's code run once, while it is read; the verdict.
- :mod:`pagerun.sphinxext.measured`: timing outputs shown as the page's run measured them.
- :mod:`pagerun.sphinxext.testplot`: a doctested code cell shown with the figure it drew.

Their warnings are of type ``pagerun`` and of the module's name as subtype
(``suppress_warnings = ["pagerun.testplot"]``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes

from pagerun._compat import pages_read_at

if TYPE_CHECKING:
    from collections.abc import Mapping

    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["PARALLEL_SAFE", "measured_value", "pages_read_at", "written_before"]

PARALLEL_SAFE: ExtensionMetadata = {"parallel_read_safe": True, "parallel_write_safe": True}


class measured_value(nodes.inline):
    """A figure in running text that the page's run fills in (:mod:`pagerun.sphinxext.measured`);
    the run reads its variable (:mod:`pagerun.sphinxext.run`)."""


def written_before(app: Sphinx, changed_at: Mapping[str, int]) -> list[str]:
    """Of the pages ``changed_at`` names, those that this builder last wrote before the time
    it gives each (nanoseconds since the epoch, as :func:`pages_read_at`): for
    ``env-get-updated``, so that a page made as it is written from other pages is written
    again, never read again, also after another builder of the doctree directory read them.
    A builder that writes every page, or none, has none to write again; a page not written
    yet is written anyway."""
    outfilename = getattr(app.builder, "get_outfilename", None)
    if outfilename is None:
        return []
    stale = []
    for page, at in changed_at.items():
        output = Path(outfilename(page))
        if output.is_file() and at > output.stat().st_mtime_ns:
            stale.append(page)
    return stale
