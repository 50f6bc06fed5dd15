"""Settings an extension gives the book unless the book's ``conf.py`` gives its own.

``conf.py`` writes out every setting that does not depend on the build's language (or imports
it from ``jaxbook.sphinx_settings``). These extensions of :mod:`jaxbook.sphinxext` compute what
it cannot know, since ``-D language=...`` and the translations come later, and give way to it:

- ``discovery``: ``notfound_*``, ``ogp_site_name``, ``ogp_site_url``, ``ogp_social_cards``,
  ``html_last_updated_fmt``, each by :func:`set_default`;
- ``editions``: ``latex_documents`` and the ``epub_*`` settings by :func:`set_default`; it
  adds to the lists and ``latex_elements`` that ``conf.py`` began (``conf.py``'s keys win);
- ``numbering``: its words merged into ``numfig_format`` (``conf.py``'s keys win);
- ``book_texts``: ``project``, ``author``, ``html_title``, ``copyright``, translated by the
  build's ``book.po`` (the source language's build keeps them as written);
- ``search_terms``: the jieba dictionary, in a copy of ``html_search_options``, unless
  ``conf.py`` names one.

Where one cannot honor ``conf.py`` it warns, of type ``jaxbook`` with its module as subtype.
"""

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
