"""Chinese prose spaced as the book writes it, where the source cannot say so.

Adds a transform (:class:`JoinCJKLines`) that drops a paragraph's line breaks where
Chinese has no space (between two Chinese characters, or beside a full-width mark),
before gettext makes message ids of the text; and a post-transform (:class:`SpaceLinks`)
that spaces a resolved link from the Chinese beside it where its title begins or ends
with a Latin letter or digit. Literal blocks and inline literals are never touched.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform

from jaxbook.chinese import CHINESE_TEXT_RANGES, FULL_WIDTH_RANGES, HAN
from jaxbook.sphinxext import PARALLEL_SAFE

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

# A break between two of Chinese text's characters or marks goes; one beside a mark only
# Chinese uses goes too. (Curly quotes, the ellipsis and the dash are English too, and a
# break between one of them and a Latin word stays a space.)
_CJK = f"[{CHINESE_TEXT_RANGES}]"
_FULL_WIDTH = f"[{FULL_WIDTH_RANGES}]"
# "\x00 " is a reST escaped space ("\\ ") as a Text node keeps it.
CJK_BREAK = re.compile(
    rf"(?<={_CJK})[ \t]*\n[ \t\x00]*(?={_CJK})"
    rf"|(?<={_FULL_WIDTH})[ \t]*\n[ \t]*(?=\S)"
    rf"|(?<=\S)[ \t]*\n[ \t]*(?={_FULL_WIDTH})"
)
CJK = re.compile(_CJK)
FULL_WIDTH = re.compile(_FULL_WIDTH)
LATIN = re.compile(r"[A-Za-z0-9]")

# In the source (a node's ``rawsource``, which gettext turns into a message id), inline
# markup may stand between a line break and the text it marks, in reST or MyST: what ends
# the text before the break (``**``, ``*``, backquotes, a reference's `` `_ ``, a title's
# ``<target>``, a link's ``](url)``, an escaped space) and what begins the text after it
# (the same, a role's ``:name:`` or ``{name}``, a link's ``[``). MyST's ``_emphasis_``
# is not looked through: beside a Chinese character, without the break, it is no markup.
MARKUP_BEFORE_BREAK = re.compile(r"(?:\\ |\*{1,2}|`__?|`{1,2}|\s<[^<>\n]*>|\]\([^()\s]*\)|\|)\Z")
MARKUP_AFTER_BREAK = re.compile(
    r"\A(?:\\ |\*{1,2}|`{1,2}|:[\w.+:-]+:(?=`)|\{[\w.+:-]+\}(?=`)|\[|\|)"
)
SOURCE_BREAK = re.compile(r"[ \t]*\n[ \t]*")


def join_cjk_lines(text: str) -> str:
    return CJK_BREAK.sub("", text)


def _shown_edge(text: str, markup: re.Pattern[str], at_end: bool) -> str:
    """The character of ``text`` that a reader sees at its end (or start), past the
    inline markup there."""
    while text and (found := markup.search(text)) and found.group():
        text = text[: found.start()] if at_end else text[found.end() :]
    return (text[-1:] if at_end else text[:1]).strip()


def join_cjk_source(text: str) -> str:
    """:func:`join_cjk_lines` for a paragraph's source, where inline markup may stand
    beside a break: ``的\\n**自检**代码`` is ``的**自检**代码``, as the page shows it."""

    def goes(before: str, after: str) -> bool:
        return bool(
            (CJK.match(before) and CJK.match(after))
            or (FULL_WIDTH.match(before) and after)
            or (before and FULL_WIDTH.match(after))
        )

    def joined(found: re.Match[str]) -> str:
        before, after = text[: found.start()], text[found.end() :]
        # As join_cjk_lines has it (a full-width mark before any markup), or as it is seen.
        if goes(before[-1:], after[:1]) or goes(
            _shown_edge(before, MARKUP_BEFORE_BREAK, at_end=True),
            _shown_edge(after, MARKUP_AFTER_BREAK, at_end=False),
        ):
            return ""
        return found.group()

    return SOURCE_BREAK.sub(joined, text)


class JoinCJKLines(SphinxTransform):
    """Drop the line breaks that a browser would show as spaces Chinese does not have.

    reStructuredText and MyST keep a paragraph's line breaks (MyST as Text nodes of their
    own): "在每题 下方", "grad、 vmap", "OverflowError。 JAX". Each such break goes, in the
    text and in the ``rawsource`` that gettext turns into a message id
    (:func:`join_cjk_source`). A break between a Chinese character and a Latin letter or
    digit stays: it is the space the book puts there.
    """

    # The i18n Locale transform runs at 20; message ids must see the joined text.
    default_priority = 15

    def apply(self, **kwargs: object) -> None:
        for node in self.document.findall(nodes.TextElement):
            if isinstance(node, (nodes.FixedTextElement, nodes.literal)):
                continue
            if "\n" in node.rawsource:
                node.rawsource = join_cjk_source(node.rawsource)
            # By position: docutils finds a Text node by equality (``index``, ``replace``,
            # ``remove``), and MyST's line breaks are many equal "\n" nodes: by equality the
            # second break's run would be joined against the first break's neighbours.
            children = list(node.children)
            runs: list[list[int]] = [[]]
            for i, child in enumerate(children):
                if isinstance(child, nodes.Text):
                    runs[-1].append(i)
                elif runs[-1]:
                    runs.append([])
            joined_at: dict[int, nodes.Text] = {}
            dropped: set[int] = set()
            for run in runs:
                if not run:
                    continue
                # What touches the run from the inline markup on either side (``vmap``).
                first, last = run[0], run[-1]
                before = children[first - 1].astext()[-1:] if first > 0 else ""
                after = children[last + 1].astext()[:1] if last + 1 < len(children) else ""
                text = "".join(str(children[i]) for i in run)
                joined = text
                if "\n" in text:
                    joined = join_cjk_lines(before + text + after)
                    joined = joined[len(before) : len(joined) - len(after)]
                if joined == text:
                    continue
                # MyST gives each line break a Text node of its own: join the run as one.
                joined_at[first] = nodes.Text(joined)
                dropped.update(run[1:])
            if joined_at:
                node[:] = [
                    joined_at.get(i, child) for i, child in enumerate(children) if i not in dropped
                ]


class SpaceLinks(SphinxPostTransform):
    """A space between a resolved link and the Chinese beside it, where the title has
    Latin or a digit at that edge. After the references are resolved (10) and the links
    the other post-transforms add; before the PDF's layout (jaxbook.sphinxext.editions,
    950), which puts a link's page after it.

    A cross-reference is written hugging the Chinese around it (``在\\ :doc:`devices`\\ 里``),
    but its title is known only once it is resolved: "在 1.6 设备管理：CPU、GPU、TPU 里"
    needs the space between Chinese and Latin that the rest of the text has.
    """

    default_priority = 940
    formats = ("latex",)  # where the space is a skip of its own (ecglue)

    def apply(self, **kwargs: Any) -> None:
        space_links(self.document, latex=self.is_supported())


def space_links(doctree: nodes.Node, *, latex: bool) -> None:
    """The links of ``doctree`` spaced from the Chinese beside them (see :class:`SpaceLinks`)."""
    for link in list(doctree.findall(nodes.reference)):
        parent = link.parent
        if parent is None or isinstance(parent, (nodes.FixedTextElement, nodes.literal)):
            continue
        title = link.astext()
        if not title:
            continue
        index = parent.index(link)
        before = parent[index - 1] if index > 0 else None
        after = parent[index + 1] if index + 1 < len(parent) else None
        # Replaced by position: docutils finds a Text node by equality, not identity.
        # astext(): a reST escaped space ("\\ ") is a null character in the Text node.
        if isinstance(before, nodes.Text):
            text = before.astext()
            bare = text.rstrip()
            if HAN.match(bare[-1:]) and LATIN.match(title[0]):
                parent[index - 1] = nodes.Text(bare if latex else f"{bare} ")
                if latex:
                    parent.insert(index, ecglue())
            elif "\n" in text[len(bare) :] and CJK.match(bare[-1:]) and CJK.match(title[0]):
                # A line break before a title that begins with Chinese leaves no space
                # either; before it was resolved, the link was its target's name.
                parent[index - 1] = nodes.Text(bare)
        if isinstance(after, nodes.Text):
            text = after.astext()
            bare = text.lstrip()
            if HAN.match(bare[:1]) and LATIN.match(title[-1]):
                parent[parent.index(link) + 1] = nodes.Text(bare if latex else f" {bare}")
                if latex:
                    parent.insert(parent.index(link) + 1, ecglue())
            elif (
                "\n" in text[: len(text) - len(bare)]
                and CJK.match(bare[:1])
                and CJK.match(title[-1])
            ):
                parent[parent.index(link) + 1] = nodes.Text(bare)


def ecglue() -> nodes.raw:
    r"""In LaTeX, xeCJK drops a space after a Chinese character and adds its own glue
    between Chinese and Latin only where they touch in one run of text, which a link's
    macro breaks; its ``\CJKecglue`` is a space, dropped the same way. So the gap is a
    skip of its own: a quarter em, as clreq has it, and gone at a line break."""
    return nodes.raw("", r"\hspace{0.25em}", format="latex")


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_transform(JoinCJKLines)
    app.add_post_transform(SpaceLinks)
    return {"version": "1.0", **PARALLEL_SAFE}
