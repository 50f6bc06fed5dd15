"""The Chinese copy lint catches half-width punctuation in prose and in the Chinese of code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from jaxbook.i18n import zh_lint as zh_lint_module

PAGE = """\
标题：一节
==========

这一段用 ``print("a:", b)`` 打印结果：看输出。

.. testcode::

   print(f"密钥：{f(x, y)}", (3,))  # 注释，f(x, y) 保持原样

.. testoutput::

   密钥：1 (3,)

.. list-table::

   * - 逐操作 (异步派发)
     - 见 https://example.org/a:b,c
"""


def zh_lint(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jaxbook", "zh-lint", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_clean_page_passes(tmp_path):
    page = tmp_path / "page.rst"
    page.write_text(PAGE, encoding="utf-8")
    result = zh_lint(page)
    assert result.returncode == 1  # the table cell's "(异步派发)" wants full-width parentheses
    assert result.stdout.splitlines() == [
        f"{page}:16: half-width '(' ')' in Chinese text; expected: * - 逐操作（异步派发）"
    ]


def test_planted_half_width_colon_is_caught_with_its_line(tmp_path):
    page = tmp_path / "page.rst"
    page.write_text(PAGE.replace("打印结果：看输出", "打印结果:看输出"), encoding="utf-8")
    result = zh_lint(page)
    assert result.returncode == 1
    assert f"{page}:4: half-width ':' in Chinese text; expected: 这一段用 " in result.stdout
    assert "run 'make zh-lint-fix'" in result.stderr


def test_half_width_semicolon_after_emphasis_and_question_in_heading(tmp_path):
    page = tmp_path / "page.rst"
    page.write_text(
        "Q1. 它是什么?\n============\n\n- **对照**:过时的写法;紧跟推荐写法\n", encoding="utf-8"
    )
    result = zh_lint(page)
    assert result.stdout.splitlines() == [
        f"{page}:1: half-width '?' in Chinese text; expected: Q1. 它是什么？",
        f"{page}:4: half-width ':' ';' in Chinese text; "
        "expected: - **对照**：过时的写法；紧跟推荐写法",
    ]


def test_fix_rewrites_prose_and_leaves_code_alone(tmp_path):
    page = tmp_path / "page.rst"
    page.write_text(PAGE.replace("打印结果：看输出", "打印结果:看输出"), encoding="utf-8")
    assert zh_lint("--fix", page).returncode == 0
    fixed = page.read_text(encoding="utf-8")
    assert '这一段用 ``print("a:", b)`` 打印结果：看输出。' in fixed
    assert '   print(f"密钥：{f(x, y)}", (3,))  # 注释，f(x, y) 保持原样' in fixed
    assert "   密钥：1 (3,)" in fixed
    assert "https://example.org/a:b,c" in fixed
    assert "* - 逐操作（异步派发）" in fixed
    assert zh_lint(page).returncode == 0


def test_an_aside_beside_chinese_gets_full_width_parentheses(tmp_path):
    page = tmp_path / "page.rst"
    page.write_text("追踪 (tracing) 带来的约束，见 XLA (Accelerated Linear Algebra) 编译器。\n")
    assert zh_lint("--fix", page).returncode == 0
    assert (
        page.read_text()
        == "追踪（tracing）带来的约束，见 XLA（Accelerated Linear Algebra）编译器。\n"
    )


def test_parentheses_in_latin_text_or_around_code_stay_ascii(tmp_path):
    page = tmp_path / "page.rst"
    page.write_text("调用 ``f(x)`` 时，JAX (the library) is fine.\n")
    assert zh_lint(page).returncode == 0


def test_unfinished_line_of_a_chinese_paragraph(tmp_path):
    page = tmp_path / "page.rst"
    page.write_text(
        "并行用 ``jax.shard_map``,``pmap`` 是旧接口 (见\n1.1 节的验证).\n", encoding="utf-8"
    )
    assert zh_lint("--fix", page).returncode == 0
    assert page.read_text(encoding="utf-8") == (
        "并行用 ``jax.shard_map``，``pmap`` 是旧接口（见\n1.1 节的验证）。\n"
    )


def test_alt_text_of_a_code_directive_is_prose(tmp_path):
    page = tmp_path / "page.rst"
    page.write_text(
        ".. testplot::\n   :alt: 正弦曲线,标出 5 个点\n\n   print(1, 2)\n", encoding="utf-8"
    )
    result = zh_lint(page)
    assert result.stdout.splitlines() == [
        f"{page}:2: half-width ',' in Chinese text; expected: :alt: 正弦曲线，标出 5 个点"
    ]


def test_planted_half_width_marks_in_a_comment_and_a_string_are_caught(tmp_path):
    page = tmp_path / "page.rst"
    page.write_text(
        PAGE.replace('print(f"密钥：{', 'print(f"密钥:{').replace("# 注释，", "# 注释,"),
        encoding="utf-8",
    )
    result = zh_lint(page)
    assert result.stdout.splitlines() == [
        f"{page}:8: half-width ',' ':' in Chinese text in code; "
        'expected: print(f"密钥：{f(x, y)}", (3,))  # 注释，f(x, y) 保持原样',
        f"{page}:16: half-width '(' ')' in Chinese text; expected: * - 逐操作（异步派发）",
    ]
    assert zh_lint("--fix", page).returncode == 0
    assert '   print(f"密钥：{f(x, y)}", (3,))  # 注释，f(x, y) 保持原样' in page.read_text()


def test_an_fstring_keeps_its_fields_and_an_aside_after_chinese_gets_full_width(tmp_path):
    page = tmp_path / "page.rst"
    page.write_text(
        '.. testcode::\n\n   print(f"形状(行数, 列数): {x.shape}, 耗时 {t:.1f} ms")\n',
        encoding="utf-8",
    )
    assert zh_lint("--fix", page).returncode == 0
    assert page.read_text() == (
        '.. testcode::\n\n   print(f"形状（行数，列数）：{x.shape}，耗时 {t:.1f} ms")\n'
    )


def test_a_snippet_file_is_read_as_python(tmp_path):
    snippet = tmp_path / "snippet.py"
    snippet.write_text('# 在启动时开启:要在创建数组之前\nx = {"a": 1}  # 字典,键为 a\n')
    result = zh_lint(snippet)
    assert result.stdout.splitlines() == [
        f"{snippet}:1: half-width ':' in Chinese text in code; "
        "expected: # 在启动时开启：要在创建数组之前",
        f"{snippet}:2: half-width ',' in Chinese text in code; "
        'expected: x = {"a": 1}  # 字典，键为 a',
    ]


def test_an_expected_output_is_reported_for_the_code_to_fix_and_never_rewritten(tmp_path):
    page = tmp_path / "page.rst"
    page.write_text(PAGE.replace("   密钥：1 (3,)", "   密钥:1 (3,)"), encoding="utf-8")
    result = zh_lint("--fix", page)
    assert f"{page}:12: half-width ':' in Chinese text in an expected output; correct the code" in (
        result.stdout
    )
    assert "   密钥:1 (3,)" in page.read_text()
    assert zh_lint(page).returncode == 1


def test_carry_keeps_a_translation_only_when_just_the_punctuation_changed(tmp_path):
    import polib

    po = tmp_path / "page.po"
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    for msgid, previous in [
        ('print("密钥：", 1)  # 注释，保持', 'print("密钥:", 1)  # 注释,保持'),
        ('print("新的说法：", 1)', 'print("旧的说法:", 1)'),
    ]:
        catalog.append(
            polib.POEntry(msgid=msgid, msgstr="English", flags=["fuzzy"], previous_msgid=previous)
        )
    catalog.save(str(po))
    result = zh_lint("--carry", tmp_path)
    assert result.stdout.strip() == f"{tmp_path}: 1 translation(s) kept, 1 entr(ies) still fuzzy"
    entries = polib.pofile(str(po))
    assert [e.flags for e in entries] == [[], ["fuzzy"]]


def test_a_spaced_slash_in_chinese_text_is_a_list(tmp_path):
    page = tmp_path / "page.rst"
    page.write_text("在 CPU / GPU / TPU 上运行 ``a / b``。\n\n``jnp.sum`` / ``mean``\n")
    assert zh_lint("--fix", page).returncode == 0
    assert page.read_text() == "在 CPU、GPU、TPU 上运行 ``a / b``。\n\n``jnp.sum`` / ``mean``\n"


def test_carry_takes_the_translation_of_an_obsolete_twin(tmp_path):
    import polib

    po = tmp_path / "page.po"
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    catalog.append(polib.POEntry(msgid="CPU、GPU、TPU", msgstr=""))
    catalog.append(polib.POEntry(msgid="CPU / GPU / TPU", msgstr="CPU, GPU, TPU", obsolete=True))
    catalog.save(str(po))
    assert "1 translation(s) kept" in zh_lint("--carry", tmp_path).stdout
    assert [(e.msgid, e.msgstr, e.obsolete) for e in polib.pofile(str(po))] == [
        ("CPU、GPU、TPU", "CPU, GPU, TPU", False)
    ]


@pytest.mark.parametrize(
    ("source", "fixed"),
    [
        ("标有「必读」。\n", "标有“必读”。\n"),
        ("1000 个 0~4 的标签。\n", "1000 个 0\uff5e4 的标签。\n"),
        ("本章小结 & 速查表\n", "本章小结与速查表\n"),
        ("调用 ``f(True)``):。\n", "调用 ``f(True)``)。\n"),
        ("**B。** A 只说了一面。\n", "**B。**\\ A 只说了一面。\n"),
        ("第一句。 第二句。\n", "第一句。第二句。\n"),
        (
            "以 `官方安装说明 <https://example.org/x>`__ 为准。\n",
            "以\\ `官方安装说明 <https://example.org/x>`__\\ 为准。\n",
        ),
        ("见 :doc:`arrays` 的说明。\n", "见\\ :doc:`arrays`\\ 的说明。\n"),
        (
            "出自课程 `《JAX 入门》 <https://example.org/c>`__。\n",
            "出自课程\\ `《JAX 入门》 <https://example.org/c>`__。\n",
        ),
    ],
)
def test_each_mark_rule_fixes_its_planted_fault(tmp_path, source, fixed):
    page = tmp_path / "page.rst"
    page.write_text(source, encoding="utf-8")
    assert zh_lint(page).returncode == 1
    assert zh_lint("--fix", page).returncode == 0
    assert page.read_text(encoding="utf-8") == fixed


MYST_PAGE = """\
---
orphan: true
---

(a-label)=
# 标题：一节

这一段用 `print("a:", b)` 打印结果：看输出，见{doc}`本章更新说明 <x>`。

```{testcode}
:hide:

print(f"密钥：{f(x, y)}", (3,))  # 注释，f(x, y) 保持原样
```

```{testoutput}
密钥：1 (3,)
```

````{update-note} 旧接口（pmap）
:id: pmap

以[官方安装说明](https://example.org/a:b,c)为准。

```python
x = 1  # 赋值
```
````

% 注释: 不是正文
- 列表项：第一项
"""


def test_a_clean_myst_page_passes(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(MYST_PAGE, encoding="utf-8")
    result = zh_lint(page)
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize(
    ("clean", "planted", "what"),
    [
        ("# 标题：一节", "# 标题:一节", "half-width ':' in Chinese text"),
        ("打印结果：看输出", "打印结果:看输出", "half-width ':' in Chinese text"),
        ("  # 注释，f(x, y)", "  # 注释,f(x, y)", "half-width ',' in Chinese text in code"),
        ("旧接口（pmap）", "旧接口 (pmap)", "half-width '(' ')' in Chinese text"),
        ("以[官方安装说明]", "以 [官方安装说明]", "CJK/Latin spacing"),
        ("x = 1  # 赋值", "x = 1  # 赋值,好", "half-width ',' in Chinese text in code"),
        ("- 列表项：第一项", "- 列表项:第一项", "half-width ':' in Chinese text"),
    ],
)
def test_each_planted_fault_in_a_myst_page_is_caught_at_its_line(tmp_path, clean, planted, what):
    page = tmp_path / "page.md"
    assert MYST_PAGE.count(clean) == 1
    text = MYST_PAGE.replace(clean, planted)
    page.write_text(text, encoding="utf-8")
    line = text[: text.index(planted)].count("\n") + 1
    result = zh_lint(page)
    assert result.returncode == 1
    assert f"{page}:{line}: {what}" in result.stdout, result.stdout
    assert result.stdout.count(f"{page}:") == 1, result.stdout


def test_fix_in_a_myst_page_keeps_code_outputs_and_options(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(MYST_PAGE.replace("打印结果：", "打印结果:"), encoding="utf-8")
    assert zh_lint("--fix", page).returncode == 0
    assert page.read_text(encoding="utf-8") == MYST_PAGE


@pytest.mark.parametrize("mark", ["：", "，"])
@pytest.mark.parametrize("suffix", [".rst", ".md"])
def test_a_space_after_a_full_width_mark_in_an_output_is_caught_at_its_line(tmp_path, mark, suffix):
    source = PAGE if suffix == ".rst" else MYST_PAGE
    page = tmp_path / f"page{suffix}"
    text = source.replace("密钥：1 (3,)", f"密钥{mark} 1 (3,)")
    page.write_text(text, encoding="utf-8")
    line = text[: text.index(f"密钥{mark} 1")].count("\n") + 1
    result = zh_lint("--fix", page)
    assert (
        f"{page}:{line}: a space after a full-width '{mark}' in an expected output; "
        "print it without one (an f-string)"
    ) in result.stdout, result.stdout
    # The output is what the code prints: the fix is the code's, the output stays.
    assert f"密钥{mark} 1 (3,)" in page.read_text(encoding="utf-8")
    assert zh_lint(page).returncode == 1


def test_the_same_space_in_code_or_in_a_half_width_output_is_not_an_output_fault(tmp_path):
    page = tmp_path / "page.rst"
    page.write_text(
        '.. testcode::\n\n   s = "a， b"  # 注释\n\n.. testoutput::\n\n   Loss: 1, Grad: 2\n',
        encoding="utf-8",
    )
    assert "expected output" not in zh_lint(page).stdout


@pytest.mark.parametrize("planted", ["...", "…", "......"])
@pytest.mark.parametrize("suffix", [".rst", ".md"])
def test_an_ellipsis_in_chinese_prose_is_two_u2026(tmp_path, planted, suffix):
    clean = "打印结果：看输出" if suffix == ".rst" else "- 列表项：第一项"
    source = PAGE if suffix == ".rst" else MYST_PAGE
    page = tmp_path / f"page{suffix}"
    text = source.replace(clean, clean + planted)
    page.write_text(text, encoding="utf-8")
    line = text[: text.index(planted)].count("\n") + 1
    result = zh_lint(page)
    assert f"{page}:{line}: an ellipsis in Chinese text is '……'" in result.stdout, result.stdout
    zh_lint("--fix", page)
    assert clean + "……" in page.read_text(encoding="utf-8")


def test_dots_in_code_outputs_and_inline_code_and_a_right_ellipsis_stay(tmp_path):
    page = tmp_path / "page.rst"
    text = (
        "用 ``x[...]`` 和 ``f(...)``，等等……\n\n"
        '.. testcode::\n\n   print(f"耗时：{t} ms")  # 省略...\n\n'
        ".. testoutput::\n\n   耗时：... ms\n"
    )
    page.write_text(text, encoding="utf-8")
    result = zh_lint(page)
    assert result.returncode == 0, result.stdout


def test_the_book_passes_its_own_lint():
    root = Path(__file__).resolve().parents[2]
    result = zh_lint(root / "docs", root / "snippets")
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize(
    ("planted", "at"), [("[1 1] （注）", "[1 1] （"), ("（注） 1", "（注） 1")]
)
@pytest.mark.parametrize("suffix", [".rst", ".md"])
def test_a_space_beside_a_full_width_parenthesis_in_an_output_is_caught(
    tmp_path, planted, at, suffix
):
    source = PAGE if suffix == ".rst" else MYST_PAGE
    page = tmp_path / f"page{suffix}"
    text = source.replace("密钥：1 (3,)", f"密钥：{planted}")
    page.write_text(text, encoding="utf-8")
    line = text[: text.index(at)].count("\n") + 1
    result = zh_lint(page)
    assert result.returncode == 1
    assert (
        f"{page}:{line}: a space beside a full-width parenthesis in an expected output; "
        "print it without one (an f-string)"
    ) in result.stdout, result.stdout


@pytest.mark.parametrize(
    ("code", "fixed"),
    [
        ('print(f"a -> {a}  （注）")', 'print(f"a -> {a}（注）")'),
        ('print(f"（注）  {a}")', 'print(f"（注）{a}")'),
        ('s = "x （注）"', 's = "x（注）"'),
        ("# 结果 （注）", "# 结果（注）"),
    ],
)
def test_a_space_beside_a_full_width_mark_in_code_goes(code, fixed):
    assert zh_lint_module.correct_python(code) == fixed


@pytest.mark.parametrize(
    ("code", "fixed"),
    [
        ("# 验证 1:jit 前后结果一致", "# 验证 1：jit 前后结果一致"),
        ("f(x)  # 单独 grad:Python if 正常", "f(x)  # 单独 grad：Python if 正常"),
        # Code in a Chinese comment keeps its colon.
        ("# 切片 x[1:3] 取中间两项", "# 切片 x[1:3] 取中间两项"),
        ("# 形如 `a:b` 的写法", "# 形如 `a:b` 的写法"),
        ("# 见 https://example.org", "# 见 https://example.org"),
        ('print(f"a 在 {a.device}")  # 在 cpu:1 上', 'print(f"a 在 {a.device}")  # 在 cpu:1 上'),
    ],
)
def test_a_colon_one_word_after_chinese_ends_the_clause(code, fixed):
    assert zh_lint_module.correct_python(code) == fixed


@pytest.mark.parametrize(
    ("code", "fixed"),
    [
        ('print("f 的 jaxpr:")', 'print("f 的 jaxpr：")'),
        ('print(f"数组 x:\\n{x}")', 'print(f"数组 x：\\n{x}")'),
        ('print(f"实际 dtype: {x.dtype}")', 'print(f"实际 dtype：{x.dtype}")'),
        ('print(f"reshape 为 (2, 3):\\n{v}")', 'print(f"reshape 为 (2, 3)：\\n{v}")'),
        # Python's own "TypeError: ..." stays, and so does a colon inside the text.
        ('print(f"实测：TypeError: {e}")', 'print(f"实测：TypeError: {e}")'),
        ('print("NumPy: int64 数组")', 'print("NumPy: int64 数组")'),
        ('print("a:", x)', 'print("a:", x)'),
        ("# 运行下面的「🧪 自检」", "# 运行下面的“🧪 自检”"),
        ('print("第 1~2 列")  # 包含 0..5', 'print("第 1～2 列")  # 包含 0～5'),
        ("x[1:3]  # 切片 a..b 和 1.5", "x[1:3]  # 切片 a..b 和 1.5"),
    ],
)
def test_a_colon_that_ends_a_chinese_label_is_full_width(code, fixed):
    assert zh_lint_module.correct_python(code) == fixed


def test_corner_quotes_in_a_comment_are_named_as_such(tmp_path):
    snippet = tmp_path / "snippet.py"
    snippet.write_text("# 运行下面的「自检」\n", encoding="utf-8")
    assert zh_lint(snippet).stdout.splitlines()[0] == (
        f"{snippet}:1: corner quotes 「」 in Chinese text in code; expected: # 运行下面的“自检”"
    )
