"""Join lines of Chinese prose without the space a line break would leave.

reStructuredText and MyST keep a paragraph's line breaks (MyST as Text nodes of
their own), and a browser shows each one
between two Chinese characters as a space (“在每题 下方”). This transform
drops a line break that has a CJK character or CJK punctuation on both sides,
in the text and in the ``rawsource`` that gettext turns into a message id. It
runs before the i18n transform, so the message ids carry no stray spaces
either. Literal blocks and inline literals are never touched.

Config values: none.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.transforms import SphinxTransform

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

# CJK ideographs and punctuation, full-width forms, and the curly quotes, ellipsis
# and dash that Chinese text uses.
_CJK = r"[\u2e80-\u9fff\u3000-\u303f\uff00-\uffef\u201c\u201d\u2018\u2019\u2026\u2014]"
CJK_BREAK = re.compile(rf"(?<={_CJK})[ \t]*\n[ \t]*(?={_CJK})")


def join_cjk_lines(text: str) -> str:
    return CJK_BREAK.sub("", text)


class JoinCJKLines(SphinxTransform):
    # The i18n Locale transform runs at 20; message ids must see the joined text.
    default_priority = 15

    def apply(self, **kwargs: object) -> None:
        for node in self.document.findall(nodes.TextElement):
            if isinstance(node, (nodes.FixedTextElement, nodes.literal)):
                continue
            if "\n" in node.rawsource:
                node.rawsource = join_cjk_lines(node.rawsource)
            runs: list[list[nodes.Text]] = [[]]
            for child in node.children:
                if isinstance(child, nodes.Text):
                    runs[-1].append(child)
                elif runs[-1]:
                    runs.append([])
            for run in runs:
                text = "".join(map(str, run))
                joined = join_cjk_lines(text) if "\n" in text else text
                if joined == text:
                    continue
                # MyST gives each line break a Text node of its own: join the run as one.
                node.replace(run[0], nodes.Text(joined))
                for extra in run[1:]:
                    node.remove(extra)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_transform(JoinCJKLines)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
