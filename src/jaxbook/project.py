"""Where the book project is: the directory that holds ``conf.py`` and ``docs/``.

The package is installed (editable in ``.venv``), so its own location says
nothing about which checkout it works on; the commands work on the project
around the current directory, as ``git`` does.
"""

from __future__ import annotations

from pathlib import Path

SOURCE_LANGUAGE = "zh_CN"
# A page is reStructuredText or MyST Markdown (conf.py's source_suffix).
SOURCE_SUFFIX = {".rst": "restructuredtext", ".md": "markdown"}


def page_file(docs: Path, docname: str) -> Path:
    """The source of ``docname`` under ``docs``: its ``.rst`` or its ``.md`` file."""
    for suffix in SOURCE_SUFFIX:
        path = docs / f"{docname}{suffix}"
        if path.is_file():
            return path
    return docs / f"{docname}.rst"


def page_name(root: Path, docname: str) -> str:
    """``docs/<docname>.rst`` or ``docs/<docname>.md``, as messages name a page."""
    return page_file(root / "docs", docname).relative_to(root).as_posix()


def find_root(start: Path | None = None) -> Path | None:
    here = (start or Path.cwd()).resolve()
    for directory in [here, *here.parents]:
        if (directory / "conf.py").is_file() and (directory / "docs").is_dir():
            return directory
    return None


def root() -> Path:
    found = find_root()
    if found is None:
        raise SystemExit(f"{Path.cwd()}: not inside the book (no conf.py with docs/ above it)")
    return found
