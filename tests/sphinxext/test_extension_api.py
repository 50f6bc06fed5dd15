"""The extensions that keep state between pages are safe for parallel reading and writing.

That no module reads another's private names is ruff's ``SLF001`` (``make lint``);
that every extension keeping state on ``env`` declares an ``env_version`` is
``tests/sphinxext/test_warning_kinds.py``'s.
"""

from __future__ import annotations

import pytest

CHECKED = ["jaxbook.sphinxext.notes", "jaxbook.sphinxext.evidence_column"]


@pytest.mark.parametrize("name", CHECKED)
@pytest.mark.sphinx("html", testroot="evidence-column")
def test_the_checked_extensions_are_parallel_safe(app, name):
    extension = app.extensions[name]
    assert extension.parallel_read_safe is True
    assert extension.parallel_write_safe is True
