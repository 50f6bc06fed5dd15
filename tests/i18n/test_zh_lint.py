"""The Chinese copy lint: each rule catches its planted fault and fixes just its span."""

from __future__ import annotations

import argparse
from pathlib import Path

import polib
import pytest

from jaxbook.i18n import zh_lint
from jaxbook.i18n.zh_rules import BY_ID
from jaxbook.i18n.zh_source import SourceError, read

ROOT = Path(__file__).resolve().parents[2]


def lint(name: str, text: str) -> zh_lint.Result:
    """The lint on ``text`` as the file ``name`` (its suffix says how it is read)."""
    return zh_lint.lint_source(read(Path(name), text))


def findings(name: str, text: str) -> list[str]:
    return lint(name, text).findings


def fixed(name: str, text: str) -> str:
    """The text corrected; the correction must then be clean."""
    result = lint(name, text)
    again = lint(name, result.fixed).findings
    assert [f for f in again if "expected output" not in f] == [], again
    return result.fixed


PAGE = """\
标题：一节
==========

这一段用 ``print("a:", b)`` 打印结果：看输出。

.. testcode::

   print(f"密钥：{f(x, y)}", (3,))  # 注释，f(x, y) 保持原样

.. testoutput::

   密钥：1 (3,)

.. list-table::

   * - 逐操作（异步派发）
     - 见 https://example.org/a:b,c
"""

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


@pytest.mark.parametrize(("name", "page"), [("page.rst", PAGE), ("page.md", MYST_PAGE)])
def test_a_clean_page_passes_and_its_fix_changes_nothing(name, page):
    result = lint(name, page)
    assert result.findings == []
    assert result.fixed == page


# Each rule: a file, its planted fault, the line it is reported at, and the fix (None
# for an expected output, which is reported and never rewritten).
PLANTED = {
    "zh-spacing": (
        "page.rst",
        "用``jax.jit``编译JAX代码。\n",
        1,
        "用 ``jax.jit`` 编译 JAX 代码。\n",
    ),
    "zh-corner-quotes": ("page.rst", "标有「必读」。\n", 1, "标有“必读”。\n"),
    "zh-range": ("page.rst", "1000 个 0~4 的标签。\n", 1, "1000 个 0\uff5e4 的标签。\n"),
    "zh-ampersand": ("page.rst", "本章小结 & 速查表\n", 1, "本章小结与速查表\n"),
    "zh-ellipsis": ("page.rst", "等等...\n", 1, "等等……\n"),
    "zh-stacked-marks": ("page.rst", "调用 ``f(True)``):。\n", 1, "调用 ``f(True)``)。\n"),
    "zh-half-width-punct": (
        "page.rst",
        "Q1. 它是什么?\n============\n\n- **对照**:过时的写法;紧跟推荐写法\n",
        1,
        "Q1. 它是什么？\n==============\n\n- **对照**：过时的写法；紧跟推荐写法\n",
    ),
    "zh-code-half-width-punct": (
        "snippet.py",
        'x = {"a": 1}  # 字典,键为 a\n',
        1,
        'x = {"a": 1}  # 字典，键为 a\n',
    ),
    "zh-code-clause-colon": (
        "snippet.py",
        "# 验证 1:jit 前后结果一致\n",
        1,
        "# 验证 1：jit 前后结果一致\n",
    ),
    "zh-code-label-colon": (
        "snippet.py",
        'print(f"实际 dtype: {x.dtype}")\n',
        1,
        'print(f"实际 dtype：{x.dtype}")\n',
    ),
    "zh-paren": ("page.rst", "- 逐操作 (异步派发)\n", 1, "- 逐操作（异步派发）\n"),
    "zh-paren-aside": (
        "page.rst",
        "追踪 (tracing) 带来的约束，见 XLA (Accelerated Linear Algebra) 编译器。\n",
        1,
        "追踪（tracing）带来的约束，见 XLA（Accelerated Linear Algebra）编译器。\n",
    ),
    "zh-code-paren-aside": (
        "snippet.py",
        "x = 1  # 追踪器 (tracer) 的值，f(x) 和 (3,) 不变\n",
        1,
        "x = 1  # 追踪器（tracer）的值，f(x) 和 (3,) 不变\n",
    ),
    "zh-list-slash": (
        "page.rst",
        "在 CPU / GPU / TPU 上运行 ``a / b``。\n\n``jnp.sum`` / ``mean``\n",
        1,
        "在 CPU、GPU、TPU 上运行 ``a / b``。\n\n``jnp.sum`` / ``mean``\n",
    ),
    "zh-space-fullwidth": ("page.rst", "第一句。 第二句。\n", 1, "第一句。第二句。\n"),
    "zh-hug": (
        "page.rst",
        "以 `官方安装说明 <https://example.org/x>`__ 为准，见 :doc:`arrays` 的说明。\n",
        1,
        "以\\ `官方安装说明 <https://example.org/x>`__\\ 为准，见\\ :doc:`arrays`\\ 的说明。\n",
    ),
    "zh-output-space": ("page.rst", PAGE.replace("密钥：1 (3,)", "密钥： 1 (3,)"), 12, None),
    "zh-output-paren-space": (
        "page.rst",
        PAGE.replace("密钥：1 (3,)", "密钥：[1 1] （注）"),
        12,
        None,
    ),
}


def test_every_rule_has_a_planted_fault():
    assert sorted(PLANTED) == sorted(BY_ID)


@pytest.mark.parametrize("rule", list(PLANTED))
def test_each_rule_catches_its_planted_fault_at_its_line(rule):
    name, text, line, corrected = PLANTED[rule]
    found = findings(name, text)
    assert any(f.startswith(f"{name}:{line}: ") and f"({rule})" in f for f in found), found
    if corrected is None:
        assert lint(name, text).fixed == text  # an output is never rewritten
    else:
        assert fixed(name, text) == corrected


@pytest.mark.parametrize("rule", list(PLANTED))
def test_a_comment_before_the_block_suppresses_its_rule_there(rule):
    name, text, line, corrected = PLANTED[rule]
    lines = text.split("\n")
    if name.endswith(".py"):
        comment = [f"# zh-lint: disable={rule}"]
    else:
        comment = [f".. zh-lint: disable={rule}", ""]
    # The comment goes before the block that holds the fault (an output's directive).
    at = lines.index(".. testoutput::") if corrected is None else line - 1
    suppressed = "\n".join([*lines[:at], *comment, *lines[at:]])
    source = read(Path(name), suppressed)
    result = zh_lint.lint_source(source)
    assert not [f for f in result.findings if f"({rule})" in f or "zh-lint:" in f], result
    assert [(s.rule, s.used) for s in source.suppressions] == [(rule, True)]


@pytest.mark.parametrize(
    ("name", "comment"),
    [
        ("page.rst", ".. zh-lint: disable=zh-paren\n\n"),
        ("page.md", "<!-- zh-lint: disable=zh-paren -->\n\n"),
    ],
)
def test_a_suppression_that_suppresses_nothing_is_reported(name, comment):
    text = f"第一段（正确）。\n\n{comment}第二段（也正确）。\n"
    line = text[: text.index("zh-lint")].count("\n") + 1
    assert findings(name, text) == [
        f"{name}:{line}: zh-lint: disable=zh-paren suppresses nothing in the block after it; "
        "remove the comment"
    ]


def test_a_python_suppression_covers_its_own_line_or_the_next():
    faulty = 'print("数组 x:")'
    assert findings("x.py", f"{faulty}  # zh-lint: disable=zh-code-label-colon\n") == []
    assert findings("x.py", f"# zh-lint: disable=zh-code-label-colon\n{faulty}\n") == []
    stale = findings("x.py", f"# zh-lint: disable=zh-code-label-colon\nx = 1\n{faulty}\n")
    assert stale[0].startswith("x.py:1: zh-lint: disable=zh-code-label-colon suppresses nothing")
    assert stale[1].startswith("x.py:3: half-width ':' in Chinese text in code (zh-code-label")


def test_a_snippet_file_is_read_as_python():
    text = '# 在启动时开启:要在创建数组之前\nx = {"a": 1}  # 字典,键为 a\n'
    assert findings("snippet.py", text) == [
        "snippet.py:1: half-width ':' in Chinese text in code (zh-code-half-width-punct); "
        "expected: # 在启动时开启：要在创建数组之前",
        "snippet.py:2: half-width ',' in Chinese text in code (zh-code-half-width-punct); "
        'expected: x = {"a": 1}  # 字典，键为 a',
    ]


def test_a_suppression_of_an_unknown_rule_is_reported():
    assert findings("page.rst", ".. zh-lint: disable=zh-nonsense\n\n一段。\n") == [
        "page.rst:1: zh-lint: disable=zh-nonsense: there is no such rule"
    ]


def test_a_suppression_leaves_the_other_rules_of_the_block():
    text = ".. zh-lint: disable=zh-paren\n\n- 逐操作 (异步派发)，用法:如下\n"
    assert findings("page.rst", text) == [
        "page.rst:3: half-width ':' in Chinese text (zh-half-width-punct); "
        "expected: - 逐操作 (异步派发)，用法：如下"
    ]


def test_the_planted_colon_is_named_with_its_line_and_only_it_is_fixed():
    text = PAGE.replace("打印结果：看输出", "打印结果:看输出")
    assert findings("page.rst", text) == [
        "page.rst:4: half-width ':' in Chinese text (zh-half-width-punct); "
        'expected: 这一段用 ``print("a:", b)`` 打印结果：看输出。'
    ]
    assert fixed("page.rst", text) == PAGE


def test_marks_in_a_comment_and_a_string_are_caught_and_code_stays():
    text = PAGE.replace('print(f"密钥：{', 'print(f"密钥:{').replace("# 注释，", "# 注释,")
    assert findings("page.rst", text) == [
        "page.rst:8: half-width ',' ':' in Chinese text in code (zh-code-half-width-punct); "
        'expected: print(f"密钥：{f(x, y)}", (3,))  # 注释，f(x, y) 保持原样'
    ]
    assert fixed("page.rst", text) == PAGE


def test_an_expected_output_is_reported_for_the_code_to_fix_and_never_rewritten():
    text = PAGE.replace("   密钥：1 (3,)", "   密钥:1 (3,)")
    result = lint("page.rst", text)
    assert result.findings == [
        "page.rst:12: half-width ':' in Chinese text in an expected output "
        "(zh-code-half-width-punct); correct the code that prints it, then run "
        "'make refresh-outputs'"
    ]
    assert result.fixed == text


@pytest.mark.parametrize("mark", ["：", "，"])
@pytest.mark.parametrize(("name", "page"), [("page.rst", PAGE), ("page.md", MYST_PAGE)])
def test_a_space_after_a_full_width_mark_in_an_output_is_caught_at_its_line(name, page, mark):
    text = page.replace("密钥：1 (3,)", f"密钥{mark} 1 (3,)")
    line = text[: text.index(f"密钥{mark} 1")].count("\n") + 1
    assert findings(name, text) == [
        f"{name}:{line}: a space after a full-width '{mark}' in an expected output "
        "(zh-output-space); print it without one (an f-string), then run 'make refresh-outputs'"
    ]


@pytest.mark.parametrize(
    ("planted", "at"), [("[1 1] （注）", "[1 1] （"), ("（注） 1", "（注） 1")]
)
@pytest.mark.parametrize(("name", "page"), [("page.rst", PAGE), ("page.md", MYST_PAGE)])
def test_a_space_beside_a_full_width_parenthesis_in_an_output_is_caught(name, page, planted, at):
    text = page.replace("密钥：1 (3,)", f"密钥：{planted}")
    line = text[: text.index(at)].count("\n") + 1
    assert f"{name}:{line}: a space beside a full-width parenthesis in an expected output" in (
        "\n".join(findings(name, text))
    )


def test_the_same_space_in_code_or_in_a_half_width_output_is_not_an_output_fault():
    text = '.. testcode::\n\n   s = "a， b"  # 注释\n\n.. testoutput::\n\n   Loss: 1, Grad: 2\n'
    assert not [f for f in findings("page.rst", text) if "expected output" in f]


def test_an_unfinished_line_of_a_chinese_paragraph():
    text = "并行用 ``jax.shard_map``,``pmap`` 是旧接口 (见\n1.1 节的验证).\n"
    assert fixed("page.rst", text) == (
        "并行用 ``jax.shard_map``，``pmap`` 是旧接口（见\n1.1 节的验证）。\n"
    )


def test_parentheses_in_latin_text_or_around_code_stay_ascii():
    assert findings("page.rst", "调用 ``f(x)`` 时，JAX (the library) is fine.\n") == []


def test_alt_text_of_a_code_directive_is_prose():
    text = ".. testplot::\n   :alt: 正弦曲线,标出 5 个点\n\n   print(1, 2)\n"
    assert findings("page.rst", text) == [
        "page.rst:2: half-width ',' in Chinese text (zh-half-width-punct); "
        "expected: :alt: 正弦曲线，标出 5 个点"
    ]


@pytest.mark.parametrize(
    ("source", "corrected"),
    [
        ("**B。** A 只说了一面。\n", "**B。**\\ A 只说了一面。\n"),
        (
            "出自课程 `《JAX 入门》 <https://example.org/c>`__。\n",
            "出自课程\\ `《JAX 入门》 <https://example.org/c>`__。\n",
        ),
        ("用``jax.jit``和**粗体**x。\n", "用 ``jax.jit`` 和**粗体** x。\n"),
    ],
)
def test_a_space_removed_or_added_beside_inline_markup_keeps_the_markup(source, corrected):
    assert fixed("page.rst", source) == corrected


@pytest.mark.parametrize(
    ("name", "source", "corrected"),
    [
        ("page.rst", "用 :term:`追踪` 记下运算。\n", "用\\ :term:`追踪`\\ 记下运算。\n"),
        ("page.md", "用 {term}`追踪` 记下运算。\n", "用{term}`追踪`记下运算。\n"),
        (
            "page.rst",
            "见 :ref:`ch01-arrays-random` 一节。\n",
            "见\\ :ref:`ch01-arrays-random`\\ 一节。\n",
        ),
        ("page.md", "见 {doc}`arrays` 一页。\n", "见{doc}`arrays`一页。\n"),
    ],
)
def test_a_term_hugs_the_chinese_around_it_as_a_cross_reference_does(name, source, corrected):
    assert fixed(name, source) == corrected


def test_an_escaped_space_is_the_authors_no_space():
    # :fact: shows a date that ends in Chinese ("2026 年 11 月 29 日") where it is read.
    assert findings("page.rst", ":fact:`gpu-date`\\ 在一块 :fact:`gpu-device` 上\n") == []
    assert findings("page.rst", ":fact:`gpu-date`在一块\n") == [
        "page.rst:1: CJK/Latin spacing (zh-spacing); expected: :fact:`gpu-date` 在一块"
    ]


def test_a_caption_is_prose_and_its_inline_code_stays():
    text = ".. testplot::\n   :caption: ``jnp.linspace(0, 2π, 5)`` 取的 5 个点(圆点)\n\n   x = 1\n"
    assert fixed("page.rst", text) == text.replace("(圆点)", "（圆点）")


def test_markdown_keeps_a_space_that_its_emphasis_needs():
    text = "**B。** A 只说了一面。\n"
    assert findings("page.md", text) == []


def test_a_fix_rewrites_only_the_spans_it_corrects():
    # The escaped spaces, the odd indentation and the other markup are the author's.
    text = (
        "- **注意。**\\ ``x``\\ ，用法:\n     续行 **粗**\\ 体，\\ `链接 <https://x.org/>`__\\ 。\n"
    )
    assert fixed("page.rst", text) == text.replace("用法:", "用法：")


def test_a_title_that_grows_keeps_its_underline_as_wide():
    assert fixed("page.rst", "标题:很长的一节\n==============\n\n正文。\n") == (
        "标题：很长的一节\n================\n\n正文。\n"
    )


@pytest.mark.parametrize(
    ("code", "corrected"),
    [
        ('print(f"a -> {a}  （注）")', 'print(f"a -> {a}（注）")'),
        ('print(f"（注）  {a}")', 'print(f"（注）{a}")'),
        ('s = "x （注）"', 's = "x（注）"'),
        ("# 结果 （注）", "# 结果（注）"),
        ("# 验证 1:jit 前后结果一致", "# 验证 1：jit 前后结果一致"),
        ("f(x)  # 单独 grad:Python if 正常", "f(x)  # 单独 grad：Python if 正常"),
        # Code in a Chinese comment keeps its colon.
        ("# 切片 x[1:3] 取中间两项", "# 切片 x[1:3] 取中间两项"),
        ("# 形如 `a:b` 的写法", "# 形如 `a:b` 的写法"),
        ("# 见 https://example.org", "# 见 https://example.org"),
        ('print(f"a 在 {a.device}")  # 在 cpu:1 上', 'print(f"a 在 {a.device}")  # 在 cpu:1 上'),
        ('print("f 的 jaxpr:")', 'print("f 的 jaxpr：")'),
        ('print(f"数组 x:\\n{x}")', 'print(f"数组 x：\\n{x}")'),
        ('print(f"reshape 为 (2, 3):\\n{v}")', 'print(f"reshape 为 (2, 3)：\\n{v}")'),
        # Python's own "TypeError: ..." stays, and so does a colon inside the text.
        ('print(f"实测：TypeError: {e}")', 'print(f"实测：TypeError: {e}")'),
        ('print(f"出错：{type(e).__name__}: {e}")', 'print(f"出错：{type(e).__name__}: {e}")'),
        ('print("NumPy: int64 数组")', 'print("NumPy: int64 数组")'),
        ('print("a:", x)', 'print("a:", x)'),
        ("# 运行下面的「🧪 自检」", "# 运行下面的“🧪 自检”"),
        ('print("第 1~2 列")  # 包含 0..5', 'print("第 1～2 列")  # 包含 0～5'),
        ("x[1:3]  # 切片 a..b 和 1.5", "x[1:3]  # 切片 a..b 和 1.5"),
        ('b"a:"  # 字节串不是文字', 'b"a:"  # 字节串不是文字'),
    ],
)
def test_the_chinese_of_python_code(code, corrected):
    assert lint("x.py", code + "\n").fixed == corrected + "\n"


def test_a_doctest_block_and_a_shell_comment_are_read_as_code():
    text = (
        "::\n\n   >>> print(f'结果:{x}')  # 注释,说明\n   结果 1\n\n"
        ".. code-block:: bash\n\n   echo 'a # b'  # 安装,然后运行\n"
    )
    assert fixed("page.rst", text) == (
        "::\n\n   >>> print(f'结果：{x}')  # 注释，说明\n   结果 1\n\n"
        ".. code-block:: bash\n\n   echo 'a # b'  # 安装，然后运行\n"
    )


@pytest.mark.parametrize(
    ("clean", "planted", "what"),
    [
        ("# 标题：一节", "# 标题:一节", "half-width ':' in Chinese text (zh-half-width-punct)"),
        ("打印结果：看输出", "打印结果:看输出", "half-width ':' in Chinese text"),
        ("  # 注释，f(x, y)", "  # 注释,f(x, y)", "half-width ',' in Chinese text in code"),
        ("旧接口（pmap）", "旧接口 (pmap)", "half-width '(' ')' in Chinese text (zh-paren-aside)"),
        ("以[官方安装说明]", "以 [官方安装说明]", "a space beside a link or a book title"),
        ("# 赋值\n", "# 赋值,以及\n", "half-width ',' in Chinese text in code"),
        ("- 列表项：第一项", "- 列表项:第一项", "half-width ':' in Chinese text"),
    ],
)
def test_each_planted_fault_in_a_myst_page_is_caught_at_its_line(clean, planted, what):
    page = MYST_PAGE.replace("# 赋值\n", "# 赋值，以及\n") if "以及" in planted else MYST_PAGE
    clean = clean.replace("# 赋值\n", "# 赋值，以及\n")
    assert page.count(clean) == 1
    text = page.replace(clean, planted)
    line = text[: text.index(planted)].count("\n") + 1
    found = findings("page.md", text)
    assert len(found) == 1, found
    assert found[0].startswith(f"page.md:{line}: {what}"), found
    assert fixed("page.md", text) == page


@pytest.mark.parametrize("planted", ["...", "…", "......"])
@pytest.mark.parametrize(
    ("name", "page", "clean"),
    [("page.rst", PAGE, "打印结果：看输出"), ("page.md", MYST_PAGE, "- 列表项：第一项")],
)
def test_an_ellipsis_in_chinese_prose_is_two_u2026(name, page, clean, planted):
    text = page.replace(clean, clean + planted)
    line = text[: text.index(planted)].count("\n") + 1
    assert findings(name, text)[0].startswith(f"{name}:{line}: an ellipsis in Chinese text is")
    assert clean + "……" in fixed(name, text)


def test_dots_in_code_outputs_and_inline_code_and_a_right_ellipsis_stay():
    text = (
        "用 ``x[...]`` 和 ``f(...)``，等等……\n\n"
        '.. testcode::\n\n   print(f"耗时：{t} ms")  # 省略...\n\n'
        ".. testoutput::\n\n   耗时：... ms\n"
    )
    assert findings("page.rst", text) == []


def test_text_the_parser_reads_that_the_file_does_not_hold_is_an_error(tmp_path):
    # markdown-it reads an entity as its character, which the file does not hold.
    page = tmp_path / "page.md"
    page.write_text("第一段。\n\n按 Ctrl&nbsp;C 复制。\n", encoding="utf-8")
    with pytest.raises(SourceError, match=r"page\.md:3: cannot find the parsed text"):
        read(page)
    assert zh_lint.lint(page) == [
        f"{page}:3: cannot find the parsed text '按 Ctrl\\xa0C 复制。' here; "
        "the lint cannot check this file"
    ]


def test_code_that_does_not_tokenize_is_named_not_skipped():
    text = "正文。\n\n.. testcode::\n\n   x = [1,  # 注释,没有闭合\n"
    assert findings("page.rst", text) == [
        "page.rst:5: this Python does not tokenize (unexpected EOF in multi-line statement): "
        "its comments and strings are not checked; if it is not Python, mark its block as text"
    ]


def test_the_book_passes_its_own_lint_and_its_fix_changes_nothing():
    for path in zh_lint.files([ROOT / "docs", ROOT / "snippets"]):
        text = path.read_text(encoding="utf-8")
        result = zh_lint.lint_source(read(path, text))
        assert result.findings == [], result.findings
        assert result.fixed == text, path


def run(*args: str | Path) -> int:
    parser = argparse.ArgumentParser()
    zh_lint.add_arguments(parser)
    return zh_lint.run(parser.parse_args([str(a) for a in args]))


def test_the_command_reports_fixes_and_exits_as_its_help_says(tmp_path, capsys):
    page = tmp_path / "page.rst"
    page.write_text(PAGE.replace("打印结果：", "打印结果:"), encoding="utf-8")
    assert run(tmp_path) == 1
    out, err = capsys.readouterr()
    assert out.startswith(f"{page}:4: half-width ':'")
    assert "1 finding(s); run 'make zh-lint-fix'" in err
    assert run("--fix", page) == 0
    assert page.read_text(encoding="utf-8") == PAGE
    assert run(page) == 0


def catalog(tmp_path: Path, entries: list[polib.POEntry]) -> Path:
    po = tmp_path / "page.po"
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    for entry in entries:
        catalog.append(entry)
    catalog.save(str(po))
    return po


def test_carry_keeps_a_translation_only_when_just_the_punctuation_changed(tmp_path, capsys):
    po = catalog(
        tmp_path,
        [
            polib.POEntry(msgid=msgid, msgstr="English", flags=["fuzzy"], previous_msgid=previous)
            for msgid, previous in [
                ('print("密钥：", 1)  # 注释，保持', 'print("密钥:", 1)  # 注释,保持'),
                ("标有“必读”，0～4", "标有「必读」,0~4"),
                ('print("新的说法：", 1)', 'print("旧的说法:", 1)'),
            ]
        ],
    )
    assert run("--carry", tmp_path) == 0
    assert capsys.readouterr().out.strip() == (
        f"{tmp_path}: 2 translation(s) kept, 1 entr(ies) still fuzzy"
    )
    assert [e.flags for e in polib.pofile(str(po))] == [[], [], ["fuzzy"]]


def test_carry_takes_the_translation_of_an_obsolete_twin(tmp_path, capsys):
    po = catalog(
        tmp_path,
        [
            polib.POEntry(msgid="CPU、GPU、TPU", msgstr=""),
            polib.POEntry(msgid="CPU / GPU / TPU", msgstr="CPU, GPU, TPU", obsolete=True),
        ],
    )
    assert run("--carry", tmp_path) == 0
    assert "1 translation(s) kept" in capsys.readouterr().out
    assert [(e.msgid, e.msgstr, e.obsolete) for e in polib.pofile(str(po))] == [
        ("CPU、GPU、TPU", "CPU, GPU, TPU", False)
    ]
