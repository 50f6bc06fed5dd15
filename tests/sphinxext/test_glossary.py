"""First uses of glossary terms: a longer term that contains a shorter one wins."""

from __future__ import annotations

import re

from jaxbook.sphinxext.glossary import rules_for_chinese, uses


def test_vectorization_is_not_a_use_of_quantization():
    rules = rules_for_chinese({"量化": "quantization", "向量化": "vectorization"})
    text = "向量化不是量化，向量化用 vmap"
    assert uses(text, rules) == [
        (0, 3, "vectorization"),
        (5, 7, "quantization"),
        (8, 11, "vectorization"),
    ]


def test_english_patterns_match_at_a_word_start():
    rules = [(re.compile(r"\b(?:fus(e|es|ed|ion|ing))[\w-]*", re.IGNORECASE), "fusion")]
    assert uses("a confused reader; XLA fuses ops", rules) == [(23, 28, "fusion")]
