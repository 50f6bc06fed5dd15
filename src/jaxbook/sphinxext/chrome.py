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

Two scripts carry their own strings. Sphinx's ``translations.js`` (search
messages such as "Your search did not match any documents") is copied from
Sphinx's catalog, not built from the project's: every message the project's
catalog translates is written into it, so the search speaks as the book does
(你, not 您). sphinx-copybutton keeps its labels in ``copybutton.js``; the
Chinese "Copied!" is taken from the catalog too ("复制成功！", full-width).

The theme's template, ``locale/pot/sphinx.pot``, holds these messages with
the theme's own (``jaxbook.sphinxext.interface``); ``make update-po`` merges
it into each language's ``sphinx.po``.

Config values: none.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import polib
from sphinx.locale import get_translation

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

_ = get_translation("sphinx")

# The scripts' messages that the catalog translates (sphinx-copybutton's "Copied!").
SCRIPT_MESSAGES = ("Copied!",)

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


def project_catalog(app: Sphinx) -> dict[str, str]:
    """The messages that the project's own ``sphinx.po`` translates for this language."""
    found: dict[str, str] = {}
    for locale_dir in app.config.locale_dirs:
        po = Path(app.srcdir, locale_dir, app.config.language, "LC_MESSAGES", "sphinx.po")
        if po.exists():
            found.update(
                {e.msgid: e.msgstr for e in polib.pofile(str(po)) if e.msgstr and not e.obsolete}
            )
    return found


def translate_scripts(app: Sphinx) -> None:
    static = Path(app.outdir, "_static")
    messages = project_catalog(app)
    script = static / "translations.js"
    if script.exists() and messages:
        text = script.read_text(encoding="utf-8")
        match = re.search(r"Documentation\.addTranslations\((\{.*\})\);", text, re.S)
        if match:
            data = json.loads(match[1])
            for msgid in list(data["messages"]):
                if msgid in messages:
                    data["messages"][msgid] = messages[msgid]
            text = text[: match.start(1)] + json.dumps(data, indent=4) + text[match.end(1) :]
            script.write_text(text, encoding="utf-8")
    copybutton = static / "copybutton.js"
    copied = SCRIPT_MESSAGES[0]
    if copybutton.exists() and copied in messages:
        text = copybutton.read_text(encoding="utf-8")
        lang = app.config.language.replace("_", "-")
        fixed = re.sub(
            rf"('{re.escape(lang)}'\s*:\s*\{{[^}}]*?'copy_success'\s*:\s*)'[^']*'",
            lambda m: m[1] + json.dumps(messages[copied], ensure_ascii=False).replace('"', "'"),
            text,
        )
        if fixed != text:
            copybutton.write_text(fixed, encoding="utf-8")


def translate_pages(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    if str(_("Toggle site navigation sidebar")) == "Toggle site navigation sidebar":
        return  # no catalog for this language: the theme's English stays
    translate_scripts(app)
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
