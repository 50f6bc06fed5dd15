"""Adding a chapter as the author's guide says, end to end: the page, its outputs, its
catalog, its translation, its doctests in both languages, and both sites built with -W."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import polib

CHAPTER = """\
.. _ch02:

##################
第 2 章 试写的一章
##################

这一章只有一段代码，用来试一遍添加新章的步骤。

.. testcode::

   import jax.numpy as jnp

   # 把每个元素乘以 2
   print("结果：", jnp.arange(3) * 2)

.. testoutput::

   (pending)
"""
ENGLISH = {
    "第 2 章 试写的一章": "Chapter 2: A trial chapter",
    "这一章只有一段代码，用来试一遍添加新章的步骤。": (
        "This chapter has one cell, to try out the steps of adding a chapter."
    ),
}


def step(project: Path, *command: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", *command], cwd=project, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, f"{' '.join(command)}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def test_a_new_chapter_as_the_authors_guide_adds_it(project_copy, html_builder, tmp_path):
    project = project_copy
    # 1. The page, and its place in the book's table of contents.
    page = project / "docs" / "ch02" / "index.rst"
    page.parent.mkdir()
    page.write_text(CHAPTER, encoding="utf-8")
    index = project / "docs" / "index.rst"
    text = index.read_text(encoding="utf-8")
    assert "   ch01/index\n" in text
    index.write_text(text.replace("   ch01/index\n", "   ch01/index\n   ch02/index\n"), "utf-8")

    # 2. Its outputs, from a real run.
    assert "1 output(s) rewritten" in step(project, "jaxbook", "refresh", "docs/ch02/index.rst")
    assert "结果： [0 2 4]" in page.read_text(encoding="utf-8")

    # 3. Its catalog, and nothing else changed.
    before = {p: p.read_bytes() for p in (project / "locale").rglob("*.po")}
    step(project, "sphinx", "-b", "gettext", "-q", "-c", ".", "docs", "_build/gettext")
    merged = step(project, "jaxbook", "po", "update", "_build/gettext", "locale/en/LC_MESSAGES")
    catalog_path = project / "locale/en/LC_MESSAGES/ch02/index.po"
    assert f"{catalog_path.relative_to(project)}: created" in merged
    changed = [p.relative_to(project) for p in before if p.read_bytes() != before[p]]
    # The book's index moved by a line in its toctree; its translations are all kept.
    assert changed in ([], [Path("locale/en/LC_MESSAGES/index.po")])
    index_po = project / "locale/en/LC_MESSAGES/index.po"
    kept = {(e.msgid, e.msgstr, e.obsolete) for e in polib.pofile(str(index_po))}
    assert kept == {
        (e.msgid, e.msgstr, e.obsolete) for e in polib.pofile(before[index_po].decode())
    }

    # 4. The translator's part: every message, the code's comment and string included.
    catalog = polib.pofile(str(catalog_path))
    for entry in catalog:
        if entry.msgid in ENGLISH:
            entry.msgstr = ENGLISH[entry.msgid]
        elif entry.msgid.startswith("import jax.numpy"):
            entry.msgstr = entry.msgid.replace("把每个元素乘以 2", "Multiply every element by 2")
            entry.msgstr = entry.msgstr.replace('"结果："', '"result:"')
        else:
            entry.msgstr = entry.msgid  # the output: refreshed from the English run below
    catalog.save(str(catalog_path))
    step(project, "jaxbook", "po", "wrap", "locale/en/LC_MESSAGES")
    step(project, "jaxbook", "refresh", "--language", "en", "docs/ch02/index.rst")
    outputs = [e.msgstr for e in polib.pofile(str(catalog_path)) if "[0 2 4]" in e.msgid]
    assert outputs == ["result: [0 2 4]"]
    step(project, "jaxbook", "po", "check", "locale/en/LC_MESSAGES")

    # 5. Its doctests in both languages, and both sites, warnings as errors.
    verdict = step(project, "jaxbook", "doctest", "--only", "docs/ch02/index.rst", "zh_CN", "en")
    assert verdict.strip().splitlines()[-1] == "2 passed, 0 failed"
    titles = {"zh_CN": "第 2 章 试写的一章", "en": "Chapter 2: A trial chapter"}
    # Side by side, as make html builds them, into the build directory the doctests read
    # into: the pages are read already.
    with ThreadPoolExecutor(len(titles)) as pool:
        sites = list(pool.map(html_builder, [project] * 2, titles, [project / "_build"] * 2))
    for site, title in zip(sites, titles.values(), strict=True):
        built = (site / "ch02" / "index.html").read_text(encoding="utf-8")
        assert title in built
        assert title in (site / "_notebooks" / "ch02" / "index.ipynb").read_text(encoding="utf-8")
