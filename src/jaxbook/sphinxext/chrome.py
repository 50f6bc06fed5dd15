"""The theme's interface in the page's language, including what furo writes literally.

Furo passes most of its labels through Sphinx's translator ("Next", "On this
page", "Back to top", ...), and Sphinx reads the project's
``locale/<lang>/LC_MESSAGES/sphinx.po`` before its own catalog, so those need
only that catalog. A few labels furo writes without gettext: the sidebar and
theme toggles' ``aria-label``, the ``<title>`` of its SVG icons, each
navigation toggle's "Toggle navigation of <title>", and "@pradyunsg's" in the
footer. After an HTML build this extension replaces those, in every written
page, with their translation from the same catalog (the msgids are listed
below). In English nothing changes.

Config values: none.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.locale import get_translation

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

_ = get_translation("sphinx")

# Each pattern's group "text" is the literal furo writes; the msgid is looked up
# (with %(name)s filled from the pattern's other named groups).
LITERALS: list[tuple[re.Pattern[str], str]] = [
    *(
        (re.compile(rf'(?<=aria-label=")(?P<text>{re.escape(label)})(?=")'), label)
        for label in [
            "Toggle site navigation sidebar",
            "Toggle table of contents sidebar",
            "Toggle Light / Dark / Auto color theme",
        ]
    ),
    (
        re.compile(r'(?<=aria-label=")(?P<text>Toggle navigation of (?P<title>[^"]*))(?=")'),
        "Toggle navigation of %(title)s",
    ),
    *(
        (re.compile(rf"(?<=<title>)(?P<text>{re.escape(title)})(?=</title>)"), title)
        for title in [
            "Contents",
            "Menu",
            "Expand",
            "Light mode",
            "Dark mode",
            "Auto light/dark, in light mode",
            "Auto light/dark, in dark mode",
        ]
    ),
    (
        re.compile(
            r'(?P<text>(?P<author><a class="muted-link" href="https://pradyunsg.me">'
            r"@pradyunsg</a>)'s)"
        ),
        "%(author)s's",
    ),
]


def translate_literals(page: str) -> str:
    for pattern, msgid in LITERALS:

        def replace(match: re.Match[str], msgid: str = msgid) -> str:
            values = {k: v for k, v in match.groupdict().items() if k != "text"}
            translated = str(_(msgid))
            if "title" in values:  # inside an attribute: the title arrives escaped
                values["title"] = html.unescape(values["title"])
                return html.escape(translated % values, quote=True)
            return translated % values if values else html.escape(translated, quote=False)

        page = pattern.sub(replace, page)
    return page


def translate_pages(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    if str(_("Toggle site navigation sidebar")) == "Toggle site navigation sidebar":
        return  # no catalog for this language: the theme's English stays
    for page in Path(app.outdir).rglob("*.html"):
        if "_static" in page.parts:
            continue
        text = page.read_text(encoding="utf-8")
        translated = translate_literals(text)
        if translated != text:
            page.write_text(translated, encoding="utf-8")


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("build-finished", translate_pages)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
