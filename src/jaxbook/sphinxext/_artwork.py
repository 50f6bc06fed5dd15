"""Pictures the editions draw at build time with Pillow: the EPUB's cover and the emoji.

- ``draw_cover``: the cover of an EPUB, from the book's title, edition, authors,
  translators and publisher (``jaxbook.sphinxext.editions.credits.Credits``), in the
  Noto Sans CJK of the edition's script, so that its text comes from the one
  place each name is set.
- ``draw_emoji``: an emoji as a picture from Noto Color Emoji, whose glyphs are
  colour bitmaps that XeTeX cannot set; the PDF shows that picture where the
  text has the emoji (🧪 and ✅ as a reader of the website sees them).
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.errors import ExtensionError

if TYPE_CHECKING:
    from PIL import ImageFont

EMOJI_FONT = "Noto Color Emoji"
EMOJI_PACKAGE = "fonts-noto-color-emoji"
# The one size Noto Color Emoji's bitmaps are drawn at.
EMOJI_SIZE = 109
# The blocks the text's emoji come from (✅ ⚠ ✍ ⏳ 🔍 🧪): a character of them that the emoji
# font has is drawn from it; arrows and other symbols stay text.
EMOJI_BLOCKS = ((0x2300, 0x23FF), (0x2600, 0x27BF), (0x1F000, 0x1FAFF))

COVER_SIZE = (1600, 2400)
COVER_BACKGROUND = "#0f3a63"
COVER_ACCENT = "#f2b134"
COVER_TEXT = "#ffffff"
COVER_QUIET = "#c9d6e5"


def font_face(family: str, style: str) -> tuple[Path, int]:
    """The file (and its face index, in a collection) that fontconfig has for ``family`` in
    ``style``; an error that names the family if it has none."""
    result = subprocess.run(
        ["fc-match", "--format=%{family}\n%{file}\n%{index}", f"{family}:style={style}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    names, file, index = [*result.stdout.split("\n"), "", "", ""][:3]
    if result.returncode or family not in names.split(","):
        raise ExtensionError(f"the font {family} ({style}) is not installed")
    return Path(file), int(index or 0)


@cache
def _font(family: str, style: str, size: int) -> ImageFont.FreeTypeFont:
    from PIL import ImageFont

    path, index = font_face(family, style)
    return ImageFont.truetype(str(path), size, index=index)


@cache
def _emoji_face() -> tuple[Path, int]:
    try:
        return font_face(EMOJI_FONT, "Regular")
    except ExtensionError as exc:
        raise ExtensionError(
            f"{exc}: the PDF draws the book's emoji from it; install the Debian package "
            f"{EMOJI_PACKAGE}"
        ) from exc


@cache
def emoji_font() -> ImageFont.FreeTypeFont:
    from PIL import ImageFont

    path, index = _emoji_face()
    return ImageFont.truetype(str(path), EMOJI_SIZE, index=index)


@cache
def _emoji_characters() -> frozenset[int]:
    """The characters the emoji font has, as fontconfig lists them ("23e9-23f3 2600 ...")."""
    path, index = _emoji_face()
    result = subprocess.run(
        ["fc-query", f"--index={index}", "--format=%{charset}", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    found: set[int] = set()
    for span in result.stdout.split():
        low, _dash, high = span.partition("-")
        found.update(range(int(low, 16), int(high or low, 16) + 1))
    return frozenset(found)


def is_emoji(character: str) -> bool:
    """Whether ``character`` is a pictographic symbol of the emoji blocks, by Unicode's data
    alone (a symbol, category So): what text without emoji leaves out, the same on any
    machine, whatever fonts it has."""
    code = ord(character)
    return any(low <= code <= high for low, high in EMOJI_BLOCKS) and (
        unicodedata.category(character) == "So"
    )


def drawn_as_picture(character: str) -> bool:
    """Whether the PDF draws ``character`` as a picture: an emoji that the emoji font has."""
    return is_emoji(character) and ord(character) in _emoji_characters()


def draw_emoji(character: str, path: Path) -> None:
    """``character`` as a PNG at ``path``: a square as wide as the glyph's advance."""
    from PIL import Image, ImageDraw

    font = emoji_font()
    left, top, right, bottom = font.getbbox(character)
    side = max(right - left, bottom - top)
    side = int(side)
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    ImageDraw.Draw(image).text(
        ((side - (right - left)) / 2 - left, (side - (bottom - top)) / 2 - top),
        character,
        font=font,
        embedded_color=True,
    )
    image.save(path)


# A run of Latin letters and digits wraps as a word; any other character on its own.
TOKEN = re.compile(r"[A-Za-z0-9.'’\-]+|\s+|.")


# Between the parts of a line under the title ("Chapter 1: Introduction to JAX · For JAX
# 0.12"): where it breaks, if it must, the line break takes the separator's place.
PARTS = " · "


def wrapped(text: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """``text`` in lines no wider than ``width``: first at its parts' separator, then Latin
    at its spaces and Chinese anywhere ("For" / "JAX 0.12" was a line's end and the next)."""
    if PARTS in text and font.getlength(text) > width:
        return [line for part in text.split(PARTS) for line in wrapped(part, font, width)]
    lines: list[str] = []
    line = ""
    for token in TOKEN.findall(text):
        if line and font.getlength((line + token).rstrip()) > width:
            lines.append(line.rstrip())
            line = token.lstrip()
        else:
            line += token
    if line.strip():
        lines.append(line.rstrip())
    return lines


def draw_cover(path: Path, family: str, lines: list[tuple[str, str]]) -> None:
    """A cover at ``path``: each (role, text) of ``lines`` in its place, role one of
    ``title``, ``edition``, ``authors``, ``translators`` and ``publisher``."""
    from PIL import Image, ImageDraw

    width, height = COVER_SIZE
    margin = 150
    image = Image.new("RGB", COVER_SIZE, COVER_BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, 36), fill=COVER_ACCENT)
    texts = dict(lines)
    y = 560
    # A title that fits on one line at the larger size (JAX 入门) is set at it.
    size = (
        200 if _font(family, "Bold", 200).getlength(texts["title"]) <= width - 2 * margin else 150
    )
    title = _font(family, "Bold", size)
    for line in wrapped(texts["title"], title, width - 2 * margin):
        draw.text((margin, y), line, font=title, fill=COVER_TEXT)
        y += int(size * 1.33)
    y += 30
    draw.rectangle((margin, y, margin + 360, y + 14), fill=COVER_ACCENT)
    y += 90
    edition = _font(family, "Regular", 72)
    for line in wrapped(texts.get("edition", ""), edition, width - 2 * margin):
        draw.text((margin, y), line, font=edition, fill=COVER_QUIET)
        y += 100
    y = max(y + 200, 1450)
    for role, size in (("authors", 64), ("translators", 56)):
        font = _font(family, "Regular", size)
        for line in wrapped(texts.get(role, ""), font, width - 2 * margin):
            draw.text((margin, y), line, font=font, fill=COVER_TEXT)
            y += int(size * 1.5)
        y += 30
    publisher = _font(family, "Regular", 52)
    draw.text((margin, height - 260), texts.get("publisher", ""), font=publisher, fill=COVER_QUIET)
    image.save(path, optimize=True)


def without_emoji(text: str) -> str:
    """``text`` without its emoji (each with the variation selector and space after it)."""
    return EMOJI_RUN.sub(
        lambda run: "" if any(is_emoji(c) for c in run.group()) else run.group(), text
    )


# A character that may be an emoji (the variation selector after it, and the space after
# that): a heading's bookmark drops them (editions.layout.plain_bookmarks), and a section
# reference's title (numbering).
EMOJI_RUN = re.compile(
    "([" + "".join(f"{chr(first)}-{chr(last)}" for first, last in EMOJI_BLOCKS) + "]\ufe0f? ?)"
)
