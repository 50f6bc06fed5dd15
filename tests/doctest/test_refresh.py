"""`jaxbook refresh` records real outputs and leaves matching ones alone; `--check` names the
stale ones and writes nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from jaxbook import cli
from jaxbook.doctest.refresh import rewrite

PENDING = ("   你好\n", "   (pending)\n")


@pytest.fixture
def refresh(book, monkeypatch, capsys):
    """``jaxbook refresh ARGS`` in this process, in the tiny book; (status, stdout, stderr)."""
    monkeypatch.chdir(book)

    def run(*args: str) -> tuple[int, str, str]:
        before = dict(os.environ)  # refresh puts the doctest environment into its process
        capsys.readouterr()
        try:
            status = cli.main(["refresh", *args])
        except SystemExit as stop:
            status = stop.code
        finally:
            os.environ.clear()
            os.environ.update(before)
        out, err = capsys.readouterr()
        return status, out, err

    return run


def test_a_pending_output_is_filled_and_a_wildcard_is_kept(book, refresh, edit):
    page = book / "docs/printing.rst"
    original = page.read_text(encoding="utf-8")
    edit(page, *PENDING)

    status, out, err = refresh("docs/printing.rst", "docs/fence.md")

    assert status == 0, err
    assert "docs/printing.rst: 1 output(s) rewritten" in out
    assert "docs/fence.md: 0 output(s) rewritten" in out
    # The timing there is a wildcard; the real run matches it, so it stays.
    assert page.read_text(encoding="utf-8") == original


def test_an_output_that_passes_only_by_normalized_whitespace_is_rewritten(book, refresh, edit):
    """NORMALIZE_WHITESPACE lets "  你好" pass where the code prints "你好"; the page must
    show what the code prints."""
    page = book / "docs/printing.rst"
    edit(page, 'print("你好")', 'print("你好\\n[1 2]")')
    edit(page, "   你好\n", "   你好\n   [1 2]\n")
    printed = page.read_text(encoding="utf-8")
    edit(page, "   [1 2]\n", "    [1 2]\n")

    status, out, err = refresh("docs/printing.rst")

    assert status == 0, err
    assert "docs/printing.rst: 1 output(s) rewritten" in out
    assert page.read_text(encoding="utf-8") == printed


def test_a_myst_page_gets_its_output_in_its_fence(book, refresh, edit):
    page = book / "docs/fence.md"
    original = page.read_text(encoding="utf-8")
    edit(page, "```{testoutput}\n42\n```", "```{testoutput}\n(pending)\n```")

    status, out, err = refresh("docs/fence.md")

    assert status == 0, err
    assert "docs/fence.md: 1 output(s) rewritten" in out
    assert page.read_text(encoding="utf-8") == original


def test_english_outputs_are_written_into_the_catalog(book, refresh, edit):
    catalog = book / "locale/en/LC_MESSAGES/printing.po"
    edit(catalog, 'msgid "你好"\nmsgstr "hello"', 'msgid "你好"\nmsgstr "(pending)"')
    source = (book / "docs/printing.rst").read_text(encoding="utf-8")

    status, out, err = refresh("--language", "en", "docs/printing.rst")

    assert status == 0, err
    assert "docs/printing.rst [en]: 1 output(s) rewritten in the catalog" in out
    assert 'msgid "你好"\nmsgstr "hello"\n' in catalog.read_text(encoding="utf-8")
    assert (book / "docs/printing.rst").read_text(encoding="utf-8") == source


def test_english_refresh_of_a_page_without_a_catalog_says_so_and_leaves_it_out(book, refresh):
    status, out, err = refresh("--language", "en", "docs/fence.md", "docs/printing.rst")

    assert (status, err) == (0, "")
    assert (
        "docs/fence.md: no en catalog yet, left out; run 'make update-po' to create it, "
        "translate it, then refresh the outputs"
    ) in out
    assert "docs/printing.rst [en]: 0 output(s) rewritten in the catalog" in out


def test_a_pattern_names_the_pages_it_matches_and_a_path_that_names_none_stops(book, refresh):
    (book / "docs/notes.json").write_text("{}", encoding="utf-8")

    status, out, _err = refresh("docs/*")
    assert status == 0
    for page in ("docs/fence.md", "docs/printing.rst", "docs/prose.rst"):
        assert f"{page}: 0 output(s) rewritten" in out
    assert "notes.json" not in out  # a pattern stands for pages only

    status, out, _err = refresh("docs/notes.json")
    assert (status, out.strip()) == (0, "docs/notes.json: not a page, left out")

    status, _out, err = refresh("docs/ch09/*", "docs/nowhere.rst")
    assert status == 1
    assert err.splitlines() == [
        "docs/ch09/*: no such file (no page matches it)",
        "docs/nowhere.rst: no such file",
    ]


def test_an_english_output_printed_as_the_chinese_one_is_translated_as_itself(book, refresh):
    """The timing's code is translated as itself: its English run prints what the source
    shows (a wildcard over the time); the untranslated entry gets that text as its own."""
    catalog = book / "locale/en/LC_MESSAGES/printing.po"
    with catalog.open("a", encoding="utf-8") as po:
        po.write('\nmsgid "用时 ... 秒"\nmsgstr ""\n')

    status, out, _err = refresh("--language", "en", "docs/printing.rst")

    assert status == 0
    assert "docs/printing.rst [en]: 1 output(s) rewritten in the catalog" in out
    assert 'msgid "用时 ... 秒"\nmsgstr "用时 ... 秒"\n' in catalog.read_text(encoding="utf-8")


def test_code_the_catalog_lacks_stops_the_translations_refresh(book, refresh, edit):
    """The page changed and `make update-po` did not follow: the translation runs the
    source's code, and nothing of it is written into the catalog."""
    catalog = book / "locale/en/LC_MESSAGES/printing.po"
    edit(catalog, 'msgid "你好"\nmsgstr "hello"', 'msgid "你好"\nmsgstr ""')
    before = catalog.read_text(encoding="utf-8")
    edit(book / "docs/printing.rst", '   print("你好")\n', '   print("你" + "好")\n')

    status, _out, err = refresh("--language", "en", "docs/printing.rst")

    assert status == 1
    assert "printing.rst:4: this code is not in" in err
    assert "run 'make update-po' before 'make refresh-outputs'" in err
    assert catalog.read_text(encoding="utf-8") == before


@pytest.mark.parametrize("state", ["untranslated", "fuzzy"])
def test_code_not_translated_yet_stops_the_translations_refresh(book, refresh, edit, state):
    """`make update-po` came first, but the code's translation did not: its output would be
    the source's, and is not written as a translation."""
    catalog = book / "locale/en/LC_MESSAGES/printing.po"
    edit(catalog, 'msgid "你好"\nmsgstr "hello"', 'msgid "你好"\nmsgstr ""')
    code = 'msgid "print(\\"你好\\")"\nmsgstr "print(\\"hello\\")"'
    left = {"untranslated": 'msgid "print(\\"你好\\")"\nmsgstr ""', "fuzzy": "#, fuzzy\n" + code}
    edit(catalog, code, left[state])
    before = catalog.read_text(encoding="utf-8")

    status, _out, err = refresh("--language", "en", "docs/printing.rst")

    assert status == 1
    assert f"printing.rst:4: this code is {state} in" in err
    assert "its output would be the source's" in err
    assert catalog.read_text(encoding="utf-8") == before


def test_a_fuzzy_output_is_rewritten_once_its_code_is_translated(book, refresh, edit):
    """`make update-po` left the output's entry fuzzy (the source's output changed): the
    build shows its source, and refresh writes the English output there, no longer fuzzy."""
    catalog = book / "locale/en/LC_MESSAGES/printing.po"
    edit(
        catalog,
        'msgid "你好"\nmsgstr "hello"',
        '#, fuzzy\n#| msgid "您好"\nmsgid "你好"\nmsgstr "hi"',
    )

    status, out, err = refresh("--language", "en", "docs/printing.rst")

    assert status == 0, err
    assert "docs/printing.rst [en]: 1 output(s) rewritten in the catalog" in out
    text = catalog.read_text(encoding="utf-8")
    assert 'msgid "你好"\nmsgstr "hello"\n' in text
    assert "您好" not in text


def test_several_languages_run_in_order_and_the_first_failure_stops(book, refresh, edit):
    page = book / "docs/printing.rst"
    raising = (
        '\n.. testcode::\n\n   print("before")\n   raise ValueError("boom")\n'
        "\n.. testoutput::\n\n   (pending)\n"
    )
    page.write_text(page.read_text(encoding="utf-8") + raising, encoding="utf-8")
    languages = ("--language", "zh_CN", "--language", "en")

    status, out, err = refresh(*languages, "docs/printing.rst")

    assert status == 1
    assert "raised ValueError: boom" in err
    # The source's failure kept the English refresh from starting.
    assert "[en]" not in out


def test_code_that_prints_and_then_raises_is_reported_and_left_alone(book, refresh, edit):
    page = book / "docs/printing.rst"
    original = page.read_text(encoding="utf-8")
    edit(page, *PENDING)
    raising = (
        '\n.. testcode::\n\n   print("before")\n   raise ValueError("boom")\n'
        "\n.. testoutput::\n\n   (pending too)\n"
    )
    page.write_text(page.read_text(encoding="utf-8") + raising, encoding="utf-8")
    line = page.read_text(encoding="utf-8").splitlines().index("   (pending too)") - 1

    status, out, err = refresh("docs/printing.rst")

    assert status == 1
    assert f"printing.rst:{line}: its code printed output and then raised ValueError: boom" in err
    assert "docs/printing.rst: 1 output(s) rewritten" in out
    # The output that could be recorded was; the other is as it was.
    assert page.read_text(encoding="utf-8") == original + raising


def test_check_names_each_stale_output_in_each_language_and_writes_nothing(book, refresh, edit):
    edit(book / "docs/printing.rst", *PENDING)
    catalog = book / "locale/en/LC_MESSAGES/printing.po"
    edit(catalog, 'msgstr "hello"', 'msgstr "(pending)"')
    before = {path: path.read_bytes() for path in book.rglob("*.*")}

    status, out, err = refresh(
        "--check", "--language", "zh_CN", "--language", "en", "docs/printing.rst"
    )

    assert status == 1
    assert "docs/printing.rst [zh_CN]: 3 output(s) checked, 1 stale" in out
    assert "docs/printing.rst [en]: 3 output(s) checked, 1 stale" in out
    assert "printing.rst:8: the expected output is not what its code prints [zh_CN]" in err
    assert "printing.rst:8: the expected output is not what its code prints [en]" in err
    assert {p: p.read_bytes() for p in before} == before


def test_check_of_a_clean_book_records_what_each_example_printed(book, refresh, tmp_path):
    record = tmp_path / "record.json"

    status, _out, err = refresh(
        "--check", "--record", str(record), "--language", "zh_CN", "--language", "en",
        "docs/printing.rst",
    )  # fmt: skip

    assert status == 0, err
    blocks = json.loads(record.read_text(encoding="utf-8"))["blocks"]
    assert [b["got"] for b in blocks["en"]][:1] == ["hello\n"]
    assert len(blocks["zh_CN"]) == len(blocks["en"]) == 4


JAX_PAGE = """\
:orphan:

JAX
===

.. testcode::

   import jax.numpy as jnp

   print(jnp.arange(3))

.. testoutput::

   [0 1 2]
"""


def test_the_next_language_forks_no_process_from_one_that_runs_jax(book):
    """The languages are refreshed one after the other in one process, and each one's Sphinx
    application starts a process (sphinx-sitemap's queue manager, as in the book): after
    the source's pages started JAX, a fork of that process would inherit JAX's threads'
    locks held, and JAX warns that it may deadlock."""
    with (book / "conf.py").open("a", encoding="utf-8") as conf:
        # As in the book's conf.py, whose sitemap only a deploy build writes.
        conf.write('extensions.append("sphinx_sitemap")\n')
        conf.write('suppress_warnings = ["sitemap.configuration"]\n')
    (book / "docs/jax.rst").write_text(JAX_PAGE, encoding="utf-8")
    languages = ("--language", "zh_CN", "--language", "en")
    pages = ("docs/jax.rst", "docs/printing.rst")

    result = subprocess.run(
        [sys.executable, "-m", "jaxbook", "refresh", *languages, *pages],
        cwd=book, capture_output=True, text=True, timeout=600,
    )  # fmt: skip

    assert result.returncode == 0, result.stderr
    assert "docs/printing.rst [en]: 0 output(s) rewritten in the catalog" in result.stdout
    assert "fork" not in result.stderr, result.stderr


REST_PAGE = """\
Title
=====

.. testcode::

   print(1)

.. testoutput::
   :options: +ELLIPSIS

   old
   lines

.. note::

   .. testoutput::

      nested old

Text after.
"""

MYST_PAGE = """\
# Title

```{testoutput}
:options: +ELLIPSIS

old
```

::::{tab-set}
:::{tab-item} CPU
```{measured-output}
---
name: x
---
nested old
```
:::
::::

```{testoutput}
```
"""


def test_rewrite_replaces_each_outputs_body_and_keeps_its_options(tmp_path):
    """By the line Sphinx gives the node: the directive's own or one below it; nested
    outputs (in a note, in a tab of a MyST tab set) are found where they are written."""
    page = tmp_path / "page.rst"
    page.write_text(REST_PAGE, encoding="utf-8")
    rewrite(page, {9: "new\n", 19: "nested new"})
    assert page.read_text(encoding="utf-8") == REST_PAGE.replace(
        "   old\n   lines\n", "   new\n"
    ).replace("      nested old", "      nested new")

    page = tmp_path / "page.md"
    page.write_text(MYST_PAGE, encoding="utf-8")
    rewrite(page, {4: "one\ntwo", 12: "nested new", 22: "filled"})
    assert page.read_text(encoding="utf-8") == (
        MYST_PAGE.replace("\nold\n", "\none\ntwo\n")
        .replace("nested old", "nested new")
        .replace("{testoutput}\n```\n", "{testoutput}\nfilled\n```\n")
    )


def test_rewrite_refuses_a_line_that_starts_no_output(tmp_path):
    page = tmp_path / "page.rst"
    page.write_text(REST_PAGE, encoding="utf-8")
    with pytest.raises(ValueError, match="no expected output starts here"):
        rewrite(page, {4: "x"})
