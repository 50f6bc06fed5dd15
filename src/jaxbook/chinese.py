"""What counts as Chinese in a text: the Han characters and the CJK punctuation.

The one definition that the Chinese copy lint (``jaxbook.i18n.zh_rules``), the
spacing extension (``jaxbook.sphinxext.cjk``), the backend tabs and the tests
share; standard library only, at the bottom of the package.
"""

from __future__ import annotations

import re

# CJK Unified Ideographs, their Extension A, and the compatibility ideographs.
HAN_RANGES = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# The marks only Chinese writes: CJK symbols and punctuation (、。「」《》) and the
# full-width forms (，：（）～).
FULL_WIDTH_RANGES = "\u3000-\u303f\uff00-\uffef"
# Those and the curly double quotes that Chinese text writes (“”).
PUNCTUATION_RANGES = FULL_WIDTH_RANGES + "\u201c\u201d"
CHINESE_RANGES = HAN_RANGES + PUNCTUATION_RANGES
# What Chinese text is made of, with the marks it shares with English: the curly single
# quotes, the ellipsis and the dash (‘’…—).
CHINESE_TEXT_RANGES = CHINESE_RANGES + "\u2018\u2019\u2026\u2014"

HAN = re.compile(f"[{HAN_RANGES}]")
CHINESE = re.compile(f"[{CHINESE_RANGES}]")

# Latin letters and digits are spaced from the Han characters beside them, as the book
# writes a date ("2026 年 11 月 29 日") and a list of names ("CPU、GPU 和 TPU").
LATIN_BESIDE_HAN = re.compile(
    rf"(?<=[0-9A-Za-z])(?=[{HAN_RANGES}])|(?<=[{HAN_RANGES}])(?=[0-9A-Za-z])"
)


def spaced(text: str) -> str:
    """``text`` with a space between each Han character and a Latin letter or digit beside it."""
    return LATIN_BESIDE_HAN.sub(" ", text)
