"""tools/rst_to_myst.py, which the author's guide names for rewriting a reST page as MyST,
imports and converts a small page: its headings, label, inline markup, code and output
directives and notes, with the same blocks of text, and carries a catalog's translations."""

from __future__ import annotations

import runpy
from pathlib import Path

import polib

from jaxbook.i18n import parsers

TOOL = runpy.run_path(str(Path(__file__).parents[1] / "tools" / "rst_to_myst.py"))

PAGE = """\
.. _small-page:

##########
一个小页面
##########

用 ``jnp.arange`` 创建数组，见 :doc:`devices`。

小节
====

.. testcode::
   :hide:

   print(1)

.. testoutput::

   1

.. note:: 提示

   ``jit`` 会编译函数。
"""

MYST = """\
(small-page)=
# 一个小页面

用 `jnp.arange` 创建数组，见 {doc}`devices`。

## 小节

```{testcode}
:hide:
print(1)
```

```{testoutput}
1
```

:::{note} 提示

`jit` 会编译函数。
:::
"""


def test_a_small_rest_page_becomes_myst_with_the_same_blocks(tmp_path):
    page = tmp_path / "page.rst"
    page.write_text(PAGE, encoding="utf-8")
    converted = TOOL["convert"](page)
    assert converted == MYST
    inline = TOOL["inline"]
    rest_blocks = [inline(block) for block in parsers.block_texts(PAGE, markdown=False)]
    assert sorted(parsers.block_texts(converted, markdown=True)) == sorted(rest_blocks)


def test_a_catalogs_translations_follow_the_rewritten_messages(tmp_path):
    catalog = tmp_path / "page.po"
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    po.append(polib.POEntry(msgid="用 ``jnp.arange`` 创建数组。", msgstr="Use ``jnp.arange``."))
    po.append(polib.POEntry(msgid="print(1)", msgstr="print(1)"))
    po.append(polib.POEntry(msgid="旧的 ``x``", msgstr="Old ``x``", obsolete=True))
    po.save(str(catalog))
    TOOL["carry"](
        catalog,
        {"用 ``jnp.arange`` 创建数组。": "用 `jnp.arange` 创建数组。", "print(1)": "print(1)\n"},
    )
    carried = {(e.msgid, e.msgstr, e.obsolete) for e in polib.pofile(str(catalog))}
    assert carried == {
        ("用 `jnp.arange` 创建数组。", "Use `jnp.arange`.", False),
        ("print(1)\n", "print(1)\n", False),
        ("旧的 `x`", "Old `x`", True),
    }
    assert TOOL["counts"](catalog) == (2, 2, 0)
