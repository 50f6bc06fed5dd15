"""The social cards are drawn in the CJK font even when matplotlib's font list predates it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from jaxbook.sphinxext import fonts

ROOT = Path(__file__).resolve().parents[1] / "roots" / "test-fonts"


@pytest.fixture(scope="module")
def stale_config(tmp_path_factory) -> Path:
    """An MPLCONFIGDIR whose font list was made before the book's fonts were installed."""
    directory = tmp_path_factory.mktemp("mplconfig")
    environment = {**os.environ, "MPLCONFIGDIR": str(directory)}
    subprocess.run(
        [sys.executable, "-c", "import matplotlib.font_manager"], env=environment, check=True
    )
    (fontlist,) = directory.glob("fontlist-*.json")
    data = json.loads(fontlist.read_text(encoding="utf-8"))
    book_files = {
        str(path) for family in fonts.book_fonts("zh_CN") for path in fonts.font_files(family)
    }
    assert book_files, "the book's fonts are not installed here (make preflight)"
    data["ttflist"] = [entry for entry in data["ttflist"] if entry["fname"] not in book_files]
    fontlist.write_text(json.dumps(data), encoding="utf-8")
    return directory


def build(tmp_path: Path, mplconfig: Path, conf_extra: str = "") -> subprocess.CompletedProcess:
    source = tmp_path / "src"
    shutil.copytree(ROOT, source)
    if conf_extra:
        with (source / "conf.py").open("a", encoding="utf-8") as conf:
            conf.write(conf_extra)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-b",
            "html",
            "-q",
            "-E",
            str(source),
            str(tmp_path / "out"),
        ],
        env={**os.environ, "MPLCONFIGDIR": str(mplconfig)},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_stale_font_list_does_not_know_the_cjk_font(stale_config):
    probe = (
        "from matplotlib import font_manager as fm\n"
        "fm.findfont(fm.FontProperties(family='Noto Sans CJK SC'), fallback_to_default=False)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        env={**os.environ, "MPLCONFIGDIR": str(stale_config)},
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0


def test_cards_are_drawn_in_the_cjk_font_despite_a_stale_font_list(tmp_path, stale_config):
    result = build(tmp_path, stale_config)
    assert result.returncode == 0, result.stderr
    assert "missing from font" not in result.stderr
    assert "not found" not in result.stderr
    assert list((tmp_path / "out" / "_images" / "social_previews").glob("*.png"))


def test_a_missing_font_is_an_error_naming_its_package(tmp_path, stale_config):
    result = build(
        tmp_path, stale_config, '\njaxbook_fonts = {"Noto Sans CJK XX": "fonts-noto-cjk-xx"}\n'
    )
    assert result.returncode != 0
    assert "Noto Sans CJK XX (Debian package fonts-noto-cjk-xx)" in result.stderr
    assert "apt-get install fonts-noto-cjk-xx" in result.stderr


@pytest.mark.parametrize(
    ("language", "family"),
    [
        ("zh_CN", "Noto Sans CJK SC"),
        ("zh_TW", "Noto Sans CJK TC"),
        ("zh_HK", "Noto Sans CJK HK"),
        ("ja", "Noto Sans CJK JP"),
        ("ko", "Noto Sans CJK KR"),
        ("en", "Noto Sans CJK SC"),  # quotes the Chinese source
        ("fr", "Noto Sans CJK SC"),
    ],
)
def test_each_language_is_drawn_in_its_own_scripts_cjk_font(language, family):
    assert fonts.cjk_family(language) == family
    assert fonts.book_fonts(language) == {family: "fonts-noto-cjk", "Symbola": "fonts-symbola"}


@pytest.mark.parametrize(
    ("language", "region"), [("zh_CN", "sc"), ("ja", "jp"), ("ko", "kr"), ("en", "sc")]
)
def test_the_pdf_is_set_in_the_cjk_faces_of_its_language(language, region):
    """Each face from a file of its own, named as the face is (the build writes the files)."""
    from types import SimpleNamespace

    from jaxbook.sphinxext.editions.latex import fonts as pdf_fonts

    config = SimpleNamespace(
        language=language, jaxbook_symbol_font="Symbola", jaxbook_font_cache=""
    )
    preamble = pdf_fonts(config, is_cjk=language != "en")  # type: ignore[arg-type]
    faces = dict(re.findall(r"\\set(CJKmain|CJKsans|CJKmono|mono)font\{([^}]*)\}", preamble))
    bold = dict(
        re.findall(
            r"\\set(CJKmain|CJKsans|CJKmono|mono)font\{[^}]*\}\[[^]]*BoldFont=([^,\]]*)", preamble
        )
    )
    digest = r"-[0-9a-f]{10}\.otf"
    assert re.fullmatch(f"NotoSerifCJK{region}-Regular{digest}", faces["CJKmain"])
    assert re.fullmatch(f"NotoSansCJK{region}-Regular{digest}", faces["CJKsans"])
    assert re.fullmatch(f"NotoSansMonoCJK{region}-Regular{digest}", faces["CJKmono"])
    assert faces["mono"] == faces["CJKmono"]  # code's Latin, half as wide as a character
    assert re.fullmatch(f"NotoSansCJK{region}-Bold{digest}", bold["CJKmain"])
    assert re.fullmatch(f"NotoSansMonoCJK{region}-Bold{digest}", bold["mono"])
    assert f"Path={fonts.font_cache().resolve().as_posix()}/" in preamble


def test_the_latex_of_a_japanese_edition_is_for_xelatex(make_app, tmp_path):
    srcdir = Path(shutil.copytree(ROOT.parent / "test-editions", tmp_path / "book"))
    app = make_app("latex", srcdir=srcdir, confoverrides={"language": "ja"})
    theme = app.builder.themes.get("manual")
    theme.update(app.config)
    # Sphinx's Japanese class, jsbook, is for (u)pLaTeX, not xelatex.
    assert theme.docclass == "report"


def test_a_face_of_a_collection_is_written_with_its_own_name(tmp_path):
    """Noto CJK's collection shares one font program among its faces, named after the JP
    face: a PDF set in SC listed "NotoSansCJKjp". The face's own file names it as it is,
    and keeps its glyphs: 直 is SC's, not JP's."""
    from fontTools.ttLib import TTFont

    face = fonts.find_face("Noto Sans CJK SC", "Regular")
    japanese = fonts.find_face("Noto Sans CJK JP", "Regular")
    path = fonts.write_face(face, tmp_path)
    assert path.name == face.file_name
    assert fonts.write_face(face, tmp_path) == path  # once
    with TTFont(path) as written, TTFont(face.file, fontNumber=face.index) as collection:
        cff = written["CFF "].cff
        assert cff.fontNames == ["NotoSansCJKsc-Regular"]
        assert cff.topDictIndex[0].FamilyName == "Noto Sans CJK SC"
        assert written["name"].getDebugName(6) == "NotoSansCJKsc-Regular"
        assert written.getBestCmap() == collection.getBestCmap()
        with TTFont(japanese.file, fontNumber=japanese.index) as jp:
            assert written.getBestCmap()[ord("直")] != jp.getBestCmap()[ord("直")]
        # The collection's own program is named after its first face.
        assert collection["CFF "].cff.fontNames == ["NotoSansCJKjp-Regular"]
