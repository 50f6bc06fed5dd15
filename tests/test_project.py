"""The book's facts come from jaxbook.project: languages, source language, glossary."""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from jaxbook import project

ROOT = Path(__file__).resolve().parent.parent


def test_the_source_comes_first_and_the_translations_are_the_rest():
    assert next(iter(project.LANGUAGES)) == project.SOURCE_LANGUAGE
    assert project.translations() == [
        language for language in project.LANGUAGES if language != project.SOURCE_LANGUAGE
    ]
    assert project.SOURCE_LANGUAGE not in project.translations()


def test_the_makefile_asks_the_module_for_the_languages():
    result = subprocess.run(
        [sys.executable, "src/jaxbook/project.py", "languages"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == list(project.LANGUAGES)


def test_conf_py_takes_the_languages_and_has_its_texts_in_each():
    conf = runpy.run_path(str(ROOT / "conf.py"))
    assert conf["language"] == project.SOURCE_LANGUAGE
    assert conf["jaxbook_languages"] == project.LANGUAGES
    assert Path(ROOT / "docs", conf["jaxbook_glossary"]).resolve() == ROOT / project.GLOSSARY
    for texts in ("TITLES", "AUTHORS", "CREDITS"):
        assert set(conf[texts]) == set(project.LANGUAGES), texts


def test_the_glossary_reads_every_column(tmp_path):
    terms = {term.zh: term for term in project.glossary(ROOT / project.GLOSSARY)}
    assert terms["向量化"].en == "vectorization"
    assert not terms["向量化"].exclusive
    assert terms["向量化"].definition_en.startswith("Turning a function")
    path = tmp_path / "glossary.csv"
    path.write_text(
        "zh,en,pattern,exclusive,note,definition_zh,definition_en\n"
        "量化,quantization,quantiz,yes,,降低精度。,Lowering precision.\n",
        encoding="utf-8",
    )
    [term] = project.glossary(path)
    assert term.exclusive
    assert term.pattern == "quantiz"


def test_a_glossary_row_without_a_definition_is_refused(tmp_path):
    path = tmp_path / "glossary.csv"
    path.write_text(
        "zh,en,pattern,exclusive,note,definition_zh,definition_en\n"
        "向量化,vectorization,vectori[sz],,,把函数变成批处理的函数,\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=r"glossary\.csv:2: no definition_en"):
        project.glossary(path)
