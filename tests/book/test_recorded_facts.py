"""The prose that says where the GPU outputs were recorded says what conf.py records.

The home page and the chapter's introduction name the GPU run in a sentence; the
tabs themselves are labeled from ``jaxbook_recorded_on``. A new GPU recording
changes the config, and this test names every sentence that still tells of the old one.
"""

from __future__ import annotations

import datetime
import re
import runpy
from pathlib import Path

import polib
import pytest
from babel.dates import format_date

from jaxbook.sphinxext.backend_tabs import DIGIT_BESIDE_HAN
from jaxbook.sphinxext.cjk import join_cjk_lines

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["index", "ch01/index"]


def facts() -> dict[str, str]:
    return runpy.run_path(str(ROOT / "conf.py"))["jaxbook_recorded_on"]["GPU"]


def sentences(language: str, page: str) -> list[str]:
    """The paragraphs of ``page`` that name the recorded GPU, in ``language``."""
    if language == "zh_CN":
        source = (ROOT / "docs" / f"{page}.rst").read_text(encoding="utf-8")
        paragraphs = [join_cjk_lines(p) for p in source.split("\n\n")]
    else:
        catalog = polib.pofile(str(ROOT / "locale/en/LC_MESSAGES" / f"{page}.po"))
        paragraphs = [e.msgstr for e in catalog if not e.obsolete]
    device = facts()["device"]
    # A line break between Chinese and a digit is the space the text has there.
    return [" ".join(p.split()) for p in paragraphs if device in p]


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_prose_names_the_recorded_gpu_run_as_the_config_does(language, page):
    recorded = facts()
    day = datetime.date.fromisoformat(recorded["date"])
    date = DIGIT_BESIDE_HAN.sub(" ", format_date(day, "long", locale=language))
    found = sentences(language, page)
    assert found, (language, page)
    for sentence in found:
        for fact in [
            date,
            f"CUDA {recorded['cuda']}",
            f"Python {recorded['python']}",
            f"JAX {recorded['jax']}",
        ]:
            assert re.search(re.escape(fact), sentence), (language, page, fact, sentence)
