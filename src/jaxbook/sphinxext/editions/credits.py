"""Which edition this is and who made it, in the build's language (``Credits``): what the
PDF's title and copyright pages, the EPUB's metadata, cover and copyright page, and the
website's sidebar and footer say.

The credits are made from the book's (already localised) title, authors, translators and
publisher (``jaxbook.sphinxext.book_texts``), which ``conf.py`` sets in one place each. The
course credit is in the book once, on its copyright page, with the edition statement
("First edition, December 2026") that the PDF's copyright page and every page of the
website (under its copyright line) give too. The EPUB's identifier, which the PDF's
metadata gives too, stays the edition's (``identifier``).
"""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import TYPE_CHECKING

from babel.dates import format_skeleton
from packaging.version import Version
from sphinx.errors import ConfigError

from jaxbook.chinese import spaced
from jaxbook.sphinxext._locale import _, gettext_noop
from jaxbook.sphinxext.languages import site_url

if TYPE_CHECKING:
    from sphinx.config import Config


def licences() -> list[tuple[str, str]]:
    """The licences the copyright page names (the text's and the tools'), with the addresses
    of their texts."""
    return [
        ("CC BY 4.0", "https://creativecommons.org/licenses/by/4.0/"),
        # Translators: The licence's name on the books' copyright page, listed with its address.
        (str(_("MIT License")), "https://opensource.org/license/mit"),
    ]


def edition_name(config: Config) -> str:
    return f"{config.jaxbook_basename}-{config.language}"


@dataclass(frozen=True)
class Credits:
    """Which edition this is and who made it, in the build's language: what the title page,
    the copyright page, the EPUB's metadata and its cover say."""

    title: str
    scope: str  # what the edition holds ("第 1 章 JAX 简介"); "" for the whole of a book
    authors: str
    translators: str  # none in the source language
    publisher: str
    release: str  # the JAX release the edition runs on
    edition: int  # the edition's number: 1 is the first
    published: str  # the month the edition came out, as the language writes it
    copyright: str
    credit: str  # the course credit, as HTML (the website's footer has it)
    description: str  # what the book is, in a sentence (the EPUB's, the PDF's subject)
    keywords: str  # the PDF's, with the language's commas
    site: str  # the website's address, where a deploy build knows it; else ""
    # How a sentence names the authors, translators or publisher (``jaxbook_name_in_text``):
    # "the %(name)s" in English, whose credit lines read "Written by the ... Project".
    in_text: str = ""  # "": the name alone

    def named(self, name: str) -> str:
        """``name`` as a credit line's sentence names it; the name alone stands on the
        cover's imprint, in the EPUB's metadata and in the copyright line."""
        return (self.in_text or "%(name)s") % {"name": name}

    @property
    def series(self) -> str:
        """The JAX series the book is for, "0.12" of the release "0.12.0.1" ("" if none)."""
        return ".".join(map(str, Version(self.release).release[:2])) if self.release else ""

    @property
    def subtitle(self) -> str:
        """The line under the title, as a publisher words an edition: what it holds
        (``jaxbook_scope``), then the JAX series it is for, from the release it runs on
        ("0.12" of "0.12.0.1"): "第 1 章 JAX 简介（适用于 JAX 0.12）". The PDF's title and
        copyright pages, the EPUB's cover and copyright page and the website's sidebar show
        it; each part is left out where the book names none."""
        series = self.series
        # Translators: The line under the title on the PDF's title page, the EPUB's cover
        # and the copyright pages: "For JAX 0.12", the series of JAX releases the book is for.
        for_series = str(_("For JAX %s")) % series if series else ""
        if self.scope and for_series:
            # Translators: The line under the title: what the edition holds, then the JAX
            # series it is for, "Chapter 1: Introduction to JAX · For JAX 0.12" (in Chinese
            # the series in brackets: GB/T 15834 has no use of the middle dot between them).
            return str(_("%(scope)s · %(series)s")) % {"scope": self.scope, "series": for_series}
        return self.scope or for_series

    def makers(self) -> tuple[str, str, str]:
        """Who wrote, translated ("" in the source language) and published the edition."""
        return (
            # Translators: A line of the PDF's title page and the books' copyright page.
            str(_("Written by %(authors)s")) % {"authors": self.named(self.authors)},
            # Translators: A line of the PDF's title page and the books' copyright page.
            str(_("Translated by %(translators)s")) % {"translators": self.named(self.translators)}
            if self.translators
            else "",
            # Translators: A line of the PDF's title page and the books' copyright page.
            str(_("Published by %(publisher)s")) % {"publisher": self.named(self.publisher)},
        )

    def edition_line(self) -> str:
        """The edition statement, as a publisher prints it on the copyright page: "First
        edition, December 2026", "第 1 版，2026 年 12 月"."""
        # Translators: The edition statement of an edition after the fifth, as "Edition 6,
        # December 2026".
        message = EDITIONS.get(self.edition, gettext_noop("Edition %(number)d, %(date)s"))
        return str(_(message)) % {"number": self.edition, "date": self.published}

    def release_line(self) -> str:
        """The copyright page's line on the exact release the edition's code ran on: the
        subtitle names its series only."""
        if not self.release:
            return ""
        # Translators: A line of the books' copyright page, under the edition statement: the
        # exact JAX release whose runs gave the book's outputs.
        return str(_("The code in this edition was run with JAX %s.")) % self.release

    def addresses(self) -> list[tuple[str, str]]:
        """What the copyright page lists with its address: the website first (the printed
        book sends readers there, to its notebooks), the credit's links, the licences."""
        _credit, links = linked_text(self.credit)
        # Translators: On the books' copyright page, the label of the website's address ("Website:
        # https://...").
        return [*([(str(_("Website")), self.site)] if self.site else []), *links, *licences()]


# The edition statement of each edition a book is likely to see, in words; a later one
# gives its number ("Edition 6, ...").
EDITIONS = {
    # Translators: The edition statement of the copyright pages and the site's footer;
    # %(date)s is the month, as "December 2026".
    1: gettext_noop("First edition, %(date)s"),
    # Translators: The edition statement of the copyright pages and the site's footer;
    # %(date)s is the month, as "December 2026".
    2: gettext_noop("Second edition, %(date)s"),
    # Translators: The edition statement of the copyright pages and the site's footer;
    # %(date)s is the month, as "December 2026".
    3: gettext_noop("Third edition, %(date)s"),
    # Translators: The edition statement of the copyright pages and the site's footer;
    # %(date)s is the month, as "December 2026".
    4: gettext_noop("Fourth edition, %(date)s"),
    # Translators: The edition statement of the copyright pages and the site's footer;
    # %(date)s is the month, as "December 2026".
    5: gettext_noop("Fifth edition, %(date)s"),
}


def preface_name() -> str:
    """What every edition calls the root page's text, in its contents and navigation: the
    preface ("前言", "Preface"), as a published book does; the book's title is the title
    page's, the cover's and the website's."""
    # Translators: The name of the book's first page of text (the root page's) in the PDF's
    # heading and contents, the EPUB's contents and heading, and the website's links to it.
    return str(_("Preface"))


def edition_month(config: Config) -> datetime.date:
    """The first day of the month the edition came out (``jaxbook_edition_date``)."""
    if not config.jaxbook_edition_date:
        return datetime.date.today().replace(day=1)
    try:
        return datetime.datetime.strptime(config.jaxbook_edition_date, "%Y-%m").date()
    except ValueError:
        raise ConfigError(
            f"jaxbook_edition_date must be a month, YYYY-MM: {config.jaxbook_edition_date!r}"
        ) from None


def credits_of(config: Config) -> Credits:
    # The month as the language names it: "December 2026", "2026 年 12 月".
    month = format_skeleton("yMMMM", edition_month(config), locale=config.language)
    return Credits(
        title=config.project,
        scope=config.jaxbook_scope,
        authors=config.author,
        translators=config.jaxbook_translators.get(config.language, ""),
        publisher=config.jaxbook_publisher,
        release=config.release,
        edition=config.jaxbook_edition,
        published=spaced(month),
        copyright=config.copyright,
        credit=config.html_context.get("jaxbook_credit", ""),
        description=config.jaxbook_description,
        keywords=config.jaxbook_keywords,
        site=site_url(config),
        in_text=config.jaxbook_name_in_text,
    )


class _LinkedText(HTMLParser):
    """The course credit (HTML with a link) as text, and the addresses of its links."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.links: list[tuple[str, str]] = []
        self.href: str | None = None
        self.link_text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.href = dict(attrs).get("href") or ""
            self.link_text = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self.href is not None:
            self.links.append(("".join(self.link_text), self.href))
            self.href = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self.href is not None:
            self.link_text.append(data)


def linked_text(credit: str) -> tuple[str, list[tuple[str, str]]]:
    """The credit's text, and each link's text and address: on paper the addresses follow
    the sentence, each on a line of its own, as the licences' do."""
    parser = _LinkedText()
    parser.feed(credit)
    parser.close()
    return "".join(parser.text), parser.links


def identifier(config: Config) -> str:
    """The EPUB's ``dc:identifier``: a name-based UUID (version 5) of the book's address,
    the language and the edition. A rebuild keeps it, so that a reader's library sees the
    same book; a translation or a new edition is another book."""
    book = (config.jaxbook_book_url or f"jaxbook:{config.jaxbook_basename}").rstrip("/")
    name = f"{book}/{config.language}/edition-{config.jaxbook_edition}"
    return f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, name)}"
