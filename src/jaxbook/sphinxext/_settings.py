"""Settings an extension gives the book unless the book's ``conf.py`` gives its own."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.config import Config


def set_default(config: Config, name: str, value: object) -> None:
    """Set ``name`` to the extension's ``value`` unless ``conf.py`` (or ``-D``) set it: the
    book's own configuration wins, as it wins over Sphinx's defaults."""
    # Sphinx has no public way to ask whether conf.py set a value: its namespace is kept here.
    if name not in config.overrides and name not in config._raw_config:  # noqa: SLF001
        config[name] = value
