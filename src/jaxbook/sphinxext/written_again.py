"""A page that another build read again is written again.

`make doctest` reads the pages into the same doctrees as `make html`
(``_build/doctrees/<lang>``), so that the site and the doctests share one
reading. Sphinx's HTML builder writes a page again only when its source file
is newer than the page, or when this build read it. After a translator edits a
``.po``, `make doctest` reads the English page again with the new
translation, and the next `make html` would find the environment up to date
and the source unchanged, and keep the page with the old English. This
extension reads again, in an HTML build, every page whose last reading is
newer than its written page, so that it is written with what was read.

Config values: none.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata


def read_since_written(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    outfilename = getattr(app.builder, "get_outfilename", None)
    if app.builder.format != "html" or outfilename is None:
        return []
    stale = []
    for docname, read_at in env.all_docs.items():
        page = Path(outfilename(docname))
        # all_docs holds when each page was read, in microseconds.
        if page.is_file() and read_at > page.stat().st_mtime_ns // 1000:
            stale.append(docname)
    return stale


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("env-get-outdated", read_since_written)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
