"""The Chinese general index is in pinyin order, under A to Z."""

from __future__ import annotations

from jaxbook.sphinxext.pinyin_index import regroup


def entry(name: str) -> tuple[str, tuple[list, list, None]]:
    return (name, ([("", "glossary.html#x")], [], None))


def test_entries_regroup_by_the_first_letter_of_their_pinyin():
    by_code_point = [
        ("不", [entry("不可变性")]),
        ("中", [entry("中间表示")]),
        ("归", [entry("归约")]),
    ]
    by_code_point += [("J", [entry("jit")]), ("向", [entry("向量化")]), ("_", [entry("__call__")])]
    assert [(letter, [name for name, _ in items]) for letter, items in regroup(by_code_point)] == [
        ("Symbols", ["__call__"]),
        ("B", ["不可变性"]),
        ("G", ["归约"]),
        ("J", ["jit"]),
        ("X", ["向量化"]),
        ("Z", ["中间表示"]),
    ]


def test_an_entry_on_several_pages_names_each_page():
    from jaxbook.sphinxext.pinyin_index import name_pages

    groups = [
        (
            "A",
            [
                ("asynchronous dispatch", ([("", "a.html#i1"), ("", "b.html#i2")], [], None)),
                ("alone", ([("", "a.html#i3")], [], None)),
            ],
        )
    ]
    name_pages(groups, {"a.html": "1.1 What is JAX?", "b.html": "1.2 JAX and NumPy"})
    (_name, (links, subitems, _key)), (_other, (alone, none, _k)) = groups[0][1]
    assert links == []  # no bare "[1]"
    assert subitems == [
        ("1.1 What is JAX?", [("", "a.html#i1")]),
        ("1.2 JAX and NumPy", [("", "b.html#i2")]),
    ]
    assert alone == [("", "a.html#i3")]
    assert none == []
