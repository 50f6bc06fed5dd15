"""What search engines and link previews read: sitemap, 404 page, descriptions, cards, dates.

Configures the extensions ``conf.py`` lists for this (``sphinx_sitemap``,
``notfound.extension``, ``sphinxext.opengraph``, ``sphinx_last_updated_by_git``) for a book
built in one directory per language, setting only what depends on the build's language
(:func:`configure`). Adds each page's description (:func:`add_description`) and its links
to edit or translate it and to report a problem (:class:`AddPageLinks`).

Config values:

- ``jaxbook_repo_branch`` (default ``"main"``): the branch that edit links open.
- ``jaxbook_social_card_fonts`` (default ``[]``: the language's
  :func:`~jaxbook.sphinxext.fonts.book_fonts`): the social cards' fonts, in order of preference.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlparse

from babel import Locale
from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from jaxbook.chinese import spaced
from jaxbook.project import SOURCE_LANGUAGE
from jaxbook.sphinxext import PARALLEL_SAFE, languages, notebooks
from jaxbook.sphinxext._locale import _, add_catalog, catalog_paths, page_domain
from jaxbook.sphinxext._nodes import after_title, ancestors, chrome
from jaxbook.sphinxext._settings import set_default
from jaxbook.sphinxext.fonts import book_fonts
from jaxbook.sphinxext.languages import site_url

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

# A date's fields as CLDR's patterns write them, and as Sphinx's format_date takes them.
DATE_FIELDS = {"y": "%Y", "MMMM": "%B", "MMM": "%b", "MM": "%m", "M": "%-m", "dd": "%d", "d": "%-d"}
DATE_FIELD = re.compile(r"'([^']*)'|(y+|M+|d+)")


def date_format(language: str) -> str:
    """How the book's language writes a day in its text, as Sphinx's ``format_date`` takes
    it: the language's long date in CLDR ("December 6, 2026"), and in Chinese with the
    book's spaces between Han characters and digits ("2026 年 12 月 6 日", not the ISO
    "2026-12-06" the footer showed)."""
    pattern = Locale.parse(language).datetime_skeletons["yMMMMd"].pattern
    pieces: list[tuple[str, bool]] = []  # (text, whether it is a field)
    at = 0
    for match in DATE_FIELD.finditer(pattern):
        pieces.append((pattern[at : match.start()], False))
        if match[1] is not None:
            pieces.append((match[1] or "'", False))
        else:
            field = match[2] if match[2] in DATE_FIELDS else match[2][0]
            pieces.append((DATE_FIELDS.get(field, "%Y"), True))
        at = match.end()
    pieces.append((pattern[at:], False))
    # Spaced as a date of the language reads: each field as a digit, its text as it is.
    sample = spaced("".join("0" if field else text for text, field in pieces))
    fields = iter(text for text, field in pieces if field)
    return re.sub("0", lambda _match: next(fields), sample)


def repo_url(config: Config) -> str:
    """``https://github.com/<owner>/<repo>``: ``JAXBOOK_REPO_URL``, else ``jaxbook_repo_url``
    (registered by :mod:`jaxbook.sphinxext.notebooks`)."""
    return (os.environ.get("JAXBOOK_REPO_URL") or config.jaxbook_repo_url).rstrip("/")


# The favicon's mark (docs/_static/favicon.svg), for the corner of the social
# cards, which take a raster image; without one they show Sphinx's logo.
MARK_COLOUR = "#1a5fb4"


def draw_mark(path: Path) -> Path:
    if path.exists():
        return path
    import matplotlib

    matplotlib.use("agg")
    from matplotlib import pyplot as plt
    from matplotlib.patches import FancyBboxPatch

    path.parent.mkdir(parents=True, exist_ok=True)
    figure = plt.figure(figsize=(2, 2), dpi=100)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_axis_off()
    axes.add_patch(
        FancyBboxPatch(
            (0.04, 0.04),
            0.92,
            0.92,
            boxstyle="round,pad=0,rounding_size=0.18",
            facecolor=MARK_COLOUR,
            edgecolor="none",
        )
    )
    axes.text(
        0.5,
        0.47,
        "JAX",
        color="white",
        fontsize=46,
        fontweight="bold",
        family="DejaVu Sans",
        ha="center",
        va="center",
    )
    figure.savefig(path, transparent=True)
    plt.close(figure)
    return path


def not_found_text() -> str:
    return _("This page does not exist, or has moved.")


def not_found_body(home: str) -> str:
    """The 404 page's text: what happened, and a way back that holds on a phone too."""
    return "<h1>{}</h1>\n<p>{}</p>".format(
        # Translators: The title of the 404 page, shown when an address leads to no page of the
        # book.
        _("Page not found"),
        _(
            "This page does not exist, or has moved. "
            'Start again from the <a href="%s">home page</a>, or search the book.'
        )
        % home,
    )


def configure(app: Sphinx, config: Config) -> None:
    """The settings of the extensions above that conf.py cannot write: each depends on the
    language a build is given (``-D language=...``, after conf.py ran), on its translated
    title, or on its doctree directory. conf.py writes the rest; a value it sets is kept.

    - The 404 page's links are rooted at ``/<site path>/<language>/``, so it works at any
      depth.
    - "Last updated" dates (``sphinx_last_updated_by_git``) are written as the language
      writes a date; a source archive, which has no history, has none.
    - Only with a site URL (a deploy build's ``JAXBOOK_SITE_URL``) is there a sitemap, which
      holds absolute URLs only, and a social card per page, drawn in the Noto Sans CJK of
      the page's script (so Chinese and Japanese each get their own glyph forms) with the
      book's mark in its corner.
    """
    site = site_url(config)
    language = config.language
    base_path = urlparse(site).path.rstrip("/") if site else ""
    set_default(config, "notfound_urls_prefix", f"{base_path}/{language}/")
    set_default(
        config,
        "notfound_context",
        {"title": _("Page not found"), "body": not_found_body(config.notfound_urls_prefix)},
    )
    # The title as jaxbook.sphinxext.book_texts translated it.
    set_default(config, "ogp_site_name", config.project)
    set_default(config, "html_last_updated_fmt", date_format(language))
    if site:
        # getattr: sphinx_sitemap's, which conf.py loads (a deploy build's sitemap).
        if getattr(config, "site_url", None) != f"{site}/":
            logger.warning(
                "the site is %s/, but site_url (the sitemap's address) is %r: set it in "
                "conf.py from the same address",
                site,
                getattr(config, "site_url", None),
                type="jaxbook",
                subtype="discovery",
            )
        set_default(config, "ogp_site_url", f"{site}/{language}/")
        set_default(
            config,
            "ogp_social_cards",
            {
                "font": list(config.jaxbook_social_card_fonts or book_fonts(language)),
                "image_mini": str(draw_mark(Path(app.doctreedir) / "social-card-mark.png")),
            },
        )
    else:
        # An image link must be absolute to be of use to a link preview.
        set_default(config, "ogp_social_cards", {"enable": False})


def page_links(env: BuildEnvironment, docname: str) -> list[nodes.Node]:
    """Edit/translate and report links for one page, with a repository URL (:func:`repo_url`).

    A page of the source language links its source file to edit it, another language's its
    ``.po`` to translate it, each relative to ``jaxbook_repo_root`` (registered by
    :mod:`jaxbook.sphinxext.facts`); "Report a problem" opens a new issue naming the page."""
    config = env.config
    repo = repo_url(config)
    if not repo:
        return []
    root = Path(config.jaxbook_repo_root).resolve()
    branch = config.jaxbook_repo_branch
    target: Path | None
    if config.language == SOURCE_LANGUAGE:
        target = Path(env.doc2path(docname)).resolve()
        # Translators: A link at the foot of each page of the source language, to its source file
        # on the code host.
        label = _("Edit this page")
    else:
        catalogs = catalog_paths(env.srcdir, config, page_domain(config, docname))
        target = catalogs[0].resolve() if catalogs else None
        # Translators: A link at the foot of each translated page, to the page's catalog on the
        # code host.
        label = _("Translate this page")
    links = chrome("", "", classes=["jb-page-links"])
    if target is not None and target.is_relative_to(root):
        edit = f"{repo}/edit/{branch}/{target.relative_to(root).as_posix()}"
        links += nodes.reference("", label, refuri=edit, classes=["jb-edit-link"])
        links += nodes.Text(" · ")
    page = f"{config.language}/{docname}.html"
    # Translators: The title of a new issue on the code host, reporting a problem with a page; %s
    # is the page's path (es/ch01/arrays.html).
    title = quote(_("Problem on %s") % page)
    links += nodes.reference(
        "",
        # Translators: A link at the foot of each page that opens a new issue about the page on the
        # code host.
        _("Report a problem"),
        refuri=f"{repo}/issues/new?title={title}",
        classes=["jb-report-link"],
    )
    return [links]


DESCRIPTION_LENGTH = 300


def opening_paragraph(doctree: nodes.document) -> str:
    """The page's first paragraph outside notes, tables and site chrome, cut to
    ``DESCRIPTION_LENGTH``: its ``description`` meta tag and ``og:description``."""
    for paragraph in doctree.findall(nodes.paragraph):
        if isinstance(paragraph, nodes.Invisible) or any(
            isinstance(a, (nodes.Admonition, nodes.Invisible, nodes.table))
            for a in ancestors(paragraph)
        ):
            continue
        text = " ".join(paragraph.astext().split())
        if text:
            if len(text) > DESCRIPTION_LENGTH:
                text = text[: DESCRIPTION_LENGTH - 1].rstrip() + "…"
            return text
    return ""


def generated_page_description(pagename: str) -> str:
    """What the pages without a source (404, search, index) say they are."""
    if pagename == "404":
        return not_found_text()
    if pagename == "search":
        return _("Search every page of this book, in this language.")
    if pagename == "genindex":
        return _("The index of this book: each term, and the pages that explain it.")
    return ""


def add_description(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """The opening paragraph as the page's description, for search results and previews."""
    if app.builder.name != "html":
        return
    if doctree is None:
        description = generated_page_description(pagename)
    else:
        description = opening_paragraph(doctree)
    if not description:
        return
    context["meta"] = {**(context.get("meta") or {}), "og:description": description}
    context["metatags"] = (
        context.get("metatags", "")
        + f'<meta name="description" content="{html.escape(description)}" />\n'
    )


class AddPageLinks(SphinxPostTransform):
    """The page's edit (or translate) and report links, under its title, on the website."""

    # After every other post-transform (cjk's spacing of links, 940; the editions', 950), as
    # when this was a doctree-resolved handler, so that none takes the links for the page's;
    # before translation_status's notices (970), which go above them.
    default_priority = 960
    builders = ("html",)

    def run(self, **kwargs: Any) -> None:
        docname = self.env.current_document.docname
        if docname not in self.env.found_docs:
            return
        found = page_links(self.env, docname)
        sections = list(self.document.findall(nodes.section))
        if not found or not sections:
            return
        at = after_title(sections[0])
        sections[0][at:at] = found


def setup(app: Sphinx) -> ExtensionMetadata:
    add_catalog(app)
    app.setup_extension(languages.__name__)
    app.setup_extension(notebooks.__name__)
    app.setup_extension("sphinxext.opengraph")
    app.setup_extension("notfound.extension")
    app.add_config_value("jaxbook_repo_branch", "main", "html", types=frozenset({str}))
    app.add_config_value(
        "jaxbook_social_card_fonts",
        [],
        "html",
        types=frozenset({list}),
    )
    # After conf.py has localised the title.
    app.connect("config-inited", configure, priority=800)
    app.add_post_transform(AddPageLinks)
    # Before sphinxext.opengraph, which keeps a description it finds.
    app.connect("html-page-context", add_description, priority=400)
    return {"version": "1.0", **PARALLEL_SAFE}
