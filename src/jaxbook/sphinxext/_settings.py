"""Settings an extension gives the book unless the book's ``conf.py`` gives its own.

Where the settings live: ``conf.py`` writes out every setting of Sphinx and of the
extensions it loads that does not depend on the build's language, or imports it by name
from ``jaxbook.sphinx_settings`` (those the test books share). An extension computes only
what ``conf.py`` cannot know, since ``-D language=...`` and the translated texts come after
it runs:

- ``jaxbook.sphinxext.discovery``: ``notfound_urls_prefix``, ``notfound_context``,
  ``ogp_site_name``, ``ogp_site_url``, ``ogp_social_cards`` and ``html_last_updated_fmt``;
- ``jaxbook.sphinxext.editions``: ``latex_documents``, the ``epub_*`` names and texts, and
  the keys of ``latex_elements`` that ``conf.py`` does not set;
- ``jaxbook.sphinxext.numbering``: the words of ``numfig_format``;
- ``jaxbook.sphinxext.book_texts``: the translated ``project``, ``author``, ``html_title``
  and ``copyright``;
- ``jaxbook.sphinxext.search_terms``: the jieba dictionary, in a copy of
  ``html_search_options``.

Each gives way to ``conf.py`` in its own manner: ``discovery`` and ``editions`` set theirs with
:func:`set_default` and add to the lists and ``latex_elements`` that ``conf.py`` began (its
keys win); ``numbering`` merges its words into ``conf.py``'s ``numfig_format`` (its keys
win); ``book_texts`` replaces the source's texts by their translations in the build's
``book.po`` (the source language's build keeps them as written); ``search_terms`` leaves a
dictionary that ``conf.py`` names. Where one cannot honour ``conf.py`` it warns, of type
``jaxbook`` and its module as subtype (``latex_engine`` other than xelatex, a ``site_url``
that is not the site's, a jieba dictionary of ``conf.py``'s own, ``numfig`` off).
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
