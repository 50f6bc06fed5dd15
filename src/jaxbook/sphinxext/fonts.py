"""The fonts the book draws and prints with, found wherever they are installed.

On ``config-inited`` this extension adds each family the book draws with to
matplotlib's font manager (:func:`register`) and turns matplotlib's "font family not
found" message into a Sphinx warning, so ``-W`` fails on it. It also names each
language's Noto CJK family (:func:`cjk_family`) for the PDF
(:mod:`jaxbook.sphinxext.editions`) and the social cards
(:mod:`jaxbook.sphinxext.discovery`), and writes the PDF's CJK faces to files of their
own (:func:`write_face`).

Config values:

- ``jaxbook_fonts`` (``{}``: the edition's Noto Sans CJK and Symbola): the families
  matplotlib draws with, each mapped to the Debian package that installs it.
"""

from __future__ import annotations

import hashlib
import logging as std_logging
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from babel import Locale
from sphinx.errors import ExtensionError
from sphinx.util import logging

from jaxbook.project import SOURCE_LANGUAGE
from jaxbook.sphinxext import PARALLEL_SAFE

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

SYMBOLS = "Symbola"
PACKAGES = {"Noto": "fonts-noto-cjk", SYMBOLS: "fonts-symbola"}


def cjk_region(language: str) -> str | None:
    """Noto CJK's region for ``language`` (``JP`` for ``ja``); None if it is not written in CJK."""
    locale = Locale.parse(language)
    if locale.language == "zh":
        if locale.script == "Hant":
            return "HK" if locale.territory in {"HK", "MO"} else "TC"
        return "SC"
    return {"ja": "JP", "ko": "KR"}.get(locale.language)


def cjk_family(language: str, style: str = "Sans") -> str:
    """The Noto CJK family (``style``: Sans, Serif, Sans Mono) for an edition in ``language``:
    its own script's, or the source's for an edition not written in CJK.

    Chinese, Japanese and Korean share characters but not their shapes (直, 骨 and 写 are
    drawn differently in each), so each is set in its own Noto CJK.
    """
    region = cjk_region(language) or cjk_region(SOURCE_LANGUAGE)
    return f"Noto {style} CJK {region}"


def book_fonts(language: str) -> dict[str, str]:
    """What an edition in ``language`` draws with, each family with its Debian package."""
    return {cjk_family(language): PACKAGES["Noto"], SYMBOLS: PACKAGES[SYMBOLS]}


def font_files(family: str) -> list[Path]:
    """The files fontconfig has for ``family`` (an exact family name, any style)."""
    if shutil.which("fc-list") is None:
        raise ExtensionError(
            "fc-list (fontconfig) is not installed, so the book's fonts cannot be found: "
            "install the Debian package fontconfig"
        )
    result = subprocess.run(
        ["fc-list", f":family={family}", "file"], capture_output=True, text=True, timeout=60
    )
    return sorted({Path(line.rstrip().rstrip(":")) for line in result.stdout.splitlines() if line})


@dataclass(frozen=True)
class Face:
    """One face of an installed family, as fontconfig finds it: its file (a collection's
    faces share one), its index there, and its PostScript name."""

    file: Path
    index: int
    postscript_name: str

    @property
    def file_name(self) -> str:
        """The name of its file of its own: its PostScript name, and a digest of where it
        comes from, so that an updated font is written anew."""
        stat = self.file.stat()
        source = f"{FACE_FORMAT}:{self.file}:{self.index}:{stat.st_size}:{stat.st_mtime_ns}"
        digest = hashlib.sha256(source.encode()).hexdigest()[:10]
        return f"{self.postscript_name}-{digest}.otf"


# Changes the digest of every face's file when how it is written changes.
FACE_FORMAT = 1


# What fc-list says of a face: its file, its index there, its PostScript name.
FACE_FIELDS = "%{file}\t%{index}\t%{postscriptname}\n"


def find_face(family: str, style: str) -> Face:
    """The face ``style`` ("Regular", "Bold") of ``family``, as fontconfig has it."""
    if shutil.which("fc-list") is None:
        raise ExtensionError("fc-list (fontconfig) is not installed: install fontconfig")
    result = subprocess.run(
        ["fc-list", "--format", FACE_FIELDS, f":family={family}:style={style}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = sorted(line.split("\t") for line in result.stdout.splitlines() if line.count("\t") == 2)
    if not found:
        raise ExtensionError(f"the font {family} {style} is not installed")
    file, index, name = found[0]
    return Face(Path(file), int(index), name)


def font_cache(directory: str = "") -> Path:
    """Where the PDF's faces are written: ``directory``, or the user's cache."""
    if directory:
        return Path(directory)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "jaxbook" / "fonts"


def write_face(face: Face, directory: Path) -> Path:
    """``face`` as an OpenType file of its own in ``directory`` (once): its tables as its
    collection has them, the font program named as the face is. The glyphs, outlines and
    tables are not touched (a collection's shared CFF table is copied whole).

    A PDF embeds a face under its font program's name, and the faces of a Noto CJK
    collection (``NotoSansCJK-Regular.ttc``) share one CFF program named after the first,
    ``NotoSansCJKjp-Regular``: without this, a book set in the SC face would list
    "NotoSansCJKjp" in ``pdffonts`` and in a printer's preflight.
    """
    path = directory / face.file_name
    if path.is_file():
        return path
    # fontTools comes with matplotlib, which draws the book's figures.
    from fontTools.ttLib import TTFont

    directory.mkdir(parents=True, exist_ok=True)
    # Lazily: the tables not renamed are copied as they are; recomputing the bounding boxes
    # would draw all 65,535 glyphs.
    with TTFont(face.file, fontNumber=face.index, lazy=True, recalcBBoxes=False) as font:
        font.recalcTimestamp = False
        if "CFF " in font:
            cff = font["CFF "].cff
            shared = cff.fontNames[0]
            cff.fontNames = [face.postscript_name]
            top = cff.topDictIndex[0]
            names = font["name"]
            top.FullName = names.getDebugName(4) or face.postscript_name
            top.FamilyName = names.getDebugName(1) or top.FamilyName
            for sub in getattr(top, "FDArray", []):
                if getattr(sub, "FontName", "").startswith(shared):
                    sub.FontName = face.postscript_name + sub.FontName[len(shared) :]
        # Written beside and moved into place: the languages' builds may write it side by
        # side.
        with tempfile.NamedTemporaryFile(dir=directory, suffix=".part", delete=False) as part:
            font.save(part)
    Path(part.name).chmod(0o644)
    Path(part.name).replace(path)
    return path


def missing_families(fonts: dict[str, str]) -> dict[str, str]:
    return {family: package for family, package in fonts.items() if not font_files(family)}


def register(fonts: dict[str, str]) -> None:
    """Add every file of each family to matplotlib's font manager; fail on a missing family.

    Matplotlib lists the system's fonts once, into its cache, and never looks again: a
    list made before the CJK fonts were installed would draw Chinese as empty boxes, with
    no more than a log line. Adding the files in this process (and so in the processes it
    forks) holds whatever the cached list says. A missing family is an error naming its
    Debian package, so that no figure is made in a fallback font.
    """
    missing = missing_families(fonts)
    if missing:
        raise ExtensionError(
            "fonts the book draws with are not installed: "
            + "; ".join(
                f"{family} (Debian package {package})" for family, package in missing.items()
            )
            + f"; install them with: apt-get install {' '.join(sorted(set(missing.values())))}"
        )
    from matplotlib import font_manager

    known = {entry.fname for entry in font_manager.fontManager.ttflist}
    for family in fonts:
        for path in font_files(family):
            if str(path) not in known:
                font_manager.fontManager.addfont(path)


class _FontNotFound(std_logging.Handler):
    """Matplotlib's "findfont: Font family ... not found" as a Sphinx warning."""

    def emit(self, record: std_logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith("findfont:") and "not found" in message:
            logger.warning("matplotlib: %s", message, type="jaxbook", subtype="fonts")


def configure(app: Sphinx, config: Config) -> None:
    register(dict(config.jaxbook_fonts or book_fonts(config.language)))
    font_logger = std_logging.getLogger("matplotlib.font_manager")
    if not any(isinstance(handler, _FontNotFound) for handler in font_logger.handlers):
        font_logger.addHandler(_FontNotFound())


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_config_value("jaxbook_fonts", {}, "env", types=frozenset({dict}))
    app.connect("config-inited", configure)
    return {"version": "1.0", **PARALLEL_SAFE}
