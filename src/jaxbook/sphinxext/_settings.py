"""Settings an extension gives the book unless the book's ``conf.py`` gives its own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jaxbook._compat import set_in_conf_py

if TYPE_CHECKING:
    from sphinx.config import Config


def set_default(config: Config, name: str, value: object) -> None:
    """Set ``name`` to the extension's ``value`` unless ``conf.py`` (or ``-D``) set it: the
    book's own configuration wins, as it wins over Sphinx's defaults."""
    if name not in config.overrides and not set_in_conf_py(config, name):
        config[name] = value
