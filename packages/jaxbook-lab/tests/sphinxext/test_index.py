"""The index of the lab's report (``jaxbook_lab.sphinxext``'s docstring) names each of its
extensions, and the guides' ``conf.py`` loads each of them, and no other of the lab's.
(The book's index is held to the book's ``conf.py`` by the book's tests/sphinxext/test_index.py.)"""

from __future__ import annotations

import pkgutil
import re
import runpy
from pathlib import Path

from sphinx.util.tags import Tags

import jaxbook_lab.sphinxext
from jaxbook.project import GUIDES, config_dir, find_root

ROOT = find_root(Path(__file__).parent)
PREFIX = "jaxbook_lab."


def loaded_by_the_guides() -> set[str]:
    """The lab's extensions the guides' conf.py loads, as Sphinx reads it (with its tags)."""
    conf = config_dir(ROOT, GUIDES) / "conf.py"
    extensions = runpy.run_path(str(conf), init_globals={"tags": Tags()})["extensions"]
    return {name for name in extensions if name.startswith(PREFIX)}


def test_the_labs_index_lists_the_extensions_of_its_report_that_the_guides_load():
    package = jaxbook_lab.sphinxext
    listed = set(re.findall(rf":mod:`({re.escape(PREFIX)}[\w.]+)`", package.__doc__ or ""))
    # A module of the report, not a shared helper (_locale).
    modules = {
        f"{package.__name__}.{module.name}"
        for module in pkgutil.iter_modules(package.__path__)
        if not module.name.startswith("_")
    }
    loaded = loaded_by_the_guides()
    assert listed == loaded == modules
    assert loaded  # the guides load the lab's report
