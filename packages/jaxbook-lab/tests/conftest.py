"""The lab's tests run the lab on the book: its test roots (``tests/roots``), copies of it, its
deploy build. They take those fixtures from the book's ``tests/conftest.py``, and run from the
book's root (``make lab-test``), under its pytest settings: the lab is the book's tooling,
tested on the book, where pagerun's tests need nothing of it."""

from __future__ import annotations

# Fixtures (and the hook that declares the audit marker) are found by name in a conftest
# module, so importing them is what makes them this directory's.
from tests.conftest import (  # noqa: F401
    built,
    deploy_site,
    fresh_catalogs,
    imported_by,
    jaxbook_lab,
    make_app,
    older_python,
    project_copy,
    pytest_configure,
    rootdir,
)
