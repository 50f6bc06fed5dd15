"""Where the PDF's pages may break (``keep_code_together``, which ``PaperLayout`` runs): a code
block or a box begun at a page's foot only if its first lines fit there, an output's label
and a lead-in kept with the block under them, an output kept with the code that prints it, a
heading kept with the text or block under it. Each asks, before the node, for the lines it
needs (``need_room``: ``\\needspace``, as ``jaxbook.sty`` sets it), counted roughly from the
text, since the tree cannot know how LaTeX will set it. ``jaxbook.sty`` breaks a code block
from its count of lines (``\\jbcodelines``), and never between a label or a lead-in and its
block (``\\jbkeepwithnext``).
"""

from __future__ import annotations

import math
import unicodedata

from docutils import nodes
from sphinx import addnodes

from jaxbook.sphinxext._nodes import ancestors
from jaxbook.sphinxext.pairs import pair, pair_half
from pagerun.pages import doctest_kind

# The paragraphs that say where the output under them comes from ("CPU 上的输出：",
# "Output on CPU:", "Measured on: ..."): jaxbook.sphinxext.backend_tabs and measured.
OUTPUT_LABELS = {"jb-backend-label", "pagerun-measured-label"}


def keep_code_together(doctree: nodes.Node) -> None:
    """On paper a code block or output starts at the foot of a page only if its first lines
    fit there (not "import sys" alone above "(续下页)"), and an output's label never ends a
    page: it goes over with the output. A box (an update note, a quiz's answer) starts
    there only if its title and first lines fit. Where such a block follows a heading, the
    room is asked for before the heading, which goes over with it: a heading never ends a
    page with its text on the next."""
    depths = section_depths(doctree)
    for block in list(doctree.findall(nodes.literal_block)):
        parent = block.parent
        place = parent.index(block)
        label = as_block(preceding(outer(block)))
        labelled = isinstance(label, nodes.paragraph) and bool(
            OUTPUT_LABELS & set(label["classes"])
        )
        code = code_above(label) if isinstance(label, nodes.Element) and labelled else None
        # How many lines it has, for the page break inside it (jaxbook.sty's \jbcodelines;
        # an output under its code may break sooner, \jboutputlines).
        under_code = printed_by(block, label)
        output = under_code or code is not None
        lines = rf"\{'jboutputlines' if output else 'jbcodelines'}{{{code_lines(block)}}}"
        parent.insert(place, nodes.raw("", lines, format="latex"))
        if under_code:
            # An output goes on right under its code: a page that ends with the code and one
            # that starts with what it printed part a reader's question from its answer. A
            # short output goes over with its code; a longer one may break after its first
            # lines. The code asked for the room (block_room).
            parent.insert(place, nodes.raw("", KEEP_WITH_CODE, format="latex"))
            assert label is not None
            assert label.parent is not None
            label.parent.insert(
                label.parent.index(label), nodes.raw("", CODE_WITH_OUTPUT, format="latex")
            )
        elif labelled:
            assert isinstance(label, nodes.paragraph)
            assert label.parent is not None
            if code is not None:
                # The first of a cell's outputs per backend, under its label, goes on under
                # the code as an output without a label does; the code asked for the room.
                label.parent.insert(
                    label.parent.index(label), nodes.raw("", KEEP_WITH_CODE, format="latex")
                )
                assert code.parent is not None
                code.parent.insert(
                    code.parent.index(code), nodes.raw("", CODE_WITH_OUTPUT, format="latex")
                )
            else:
                # Room for the label and the block's first lines; nothing between them.
                need_room(label, block_room(block, label), depths)
            keep = nodes.raw("", KEEP_WITH_NEXT, format="latex")
            label.parent.insert(label.parent.index(label) + 1, keep)
        elif isinstance(label, nodes.paragraph) and label.astext().rstrip().endswith(LEAD_IN):
            # A lead-in ("本节用到的导入：", "The code below prints:") stays with its code:
            # room for its lines and the block's first lines before it (in a box, the box
            # asks for it: \needspace inside one cannot see the page). Not with a block in a
            # box that takes most of a page, which cannot break there: the box would go over
            # whole and leave the page before it short; the box breaks above the block instead.
            boxed = any(isinstance(a, (nodes.Admonition, pair_half)) for a in ancestors(block))
            if not boxed:
                need_room(label, block_room(block, label), depths)
            if not boxed or block.astext().count("\n") + 1 < BOX_LINES - NEED_BLOCK:
                keep = nodes.raw("", KEEP_WITH_NEXT, format="latex")
                label.parent.insert(label.parent.index(label) + 1, keep)
        else:
            need_room(block, block_room(block, None), depths)
    # A lead-in to a list stays with the list's first item, as one to a code block does.
    for paragraph in list(doctree.findall(nodes.paragraph)):
        after = next_block(paragraph) if paragraph.parent is not None else None
        lists = (nodes.bullet_list, nodes.enumerated_list)
        if isinstance(after, lists) and paragraph.astext().rstrip().endswith(LEAD_IN):
            paragraph.parent.insert(
                paragraph.parent.index(paragraph) + 1, nodes.raw("", KEEP_WITH_NEXT, format="latex")
            )
    boxes = [node for node in doctree.findall(nodes.Element) if isinstance(node, nodes.Admonition)]
    for box in boxes:
        if not any(isinstance(a, (nodes.Admonition, nodes.table)) for a in ancestors(box)):
            need_room(box, NEED_BLOCK, depths)
    # A pair's title (a bold line) stays with its first box, and that box's title with its
    # first lines (with its lead-in's block, as far as box_room goes): the room for all of it
    # is asked for before the title, and no page breaks after it; its second box asks for
    # room of its own.
    for twin in list(doctree.findall(pair)):
        if any(isinstance(a, (nodes.Admonition, nodes.table)) for a in ancestors(twin)):
            continue
        halves = [child for child in twin.children if isinstance(child, pair_half)]
        # The title's line, and the first box's room as the second box asks for its own.
        first = 1 + box_room(halves[0]) if halves else NEED_PAIR
        need_room(twin, max(NEED_PAIR, first), depths)
        if halves and twin.index(halves[0]) == 1:
            twin.insert(1, nodes.raw("", KEEP_WITH_NEXT, format="latex"))
        for half in halves[1:]:
            need_room(half, box_room(half), depths)
    # A table that may break over pages starts at a page's foot only if its header and first
    # rows fit there, never with one row at the foot and the rest overleaf. (Over its rubric
    # too: need_room.)
    for table in list(doctree.findall(nodes.table)):
        inside = any(isinstance(a, (nodes.Admonition, nodes.table)) for a in ancestors(table))
        if "longtable" in table["classes"] and not inside:
            lead_in = preceding(table)
            if isinstance(lead_in, nodes.paragraph) and lead_in.astext().rstrip().endswith(LEAD_IN):
                # Its lead-in goes over with it ("以 JAX 官方安装说明为准：" ended a page,
                # the table on the next).
                need_room(lead_in, table_room(table) + text_lines(lead_in.astext()), depths)
                keep = nodes.raw("", KEEP_WITH_NEXT, format="latex")
                lead_in.parent.insert(lead_in.parent.index(lead_in) + 1, keep)
            else:
                need_room(table, table_room(table), depths)
    # A heading starts at a page's foot only with room for the first lines of its text too,
    # through a short paragraph to the heading under it (LaTeX alone keeps a heading with as
    # little as one line). A section that opens its parent's text has its room asked for
    # with its parent's.
    for section in list(doctree.findall(nodes.section)):
        parent = section.parent
        if depths.get(id(section), 0) < 3 or (
            isinstance(parent, nodes.section)
            and depths.get(id(parent), 0) >= 3
            and all(isinstance(c, UNSEEN) for c in parent.children[: parent.index(section)])
        ):
            continue
        need_room(section, heading_room(section), depths)


def box_room(box: nodes.Element) -> int:
    """The lines a pair's second box needs at the foot of a page: where a code block follows
    its lead-in, the lead-in and the whole block, which LaTeX sets in the box unbroken, in its
    frame; with less room the box breaks above the block (jaxbook.sty), and its title and
    lead-in would stand alone at the page's foot; with its caption, and with the output it
    keeps under it. Not more than ``BOX_LINES``: a box whose block is longer breaks above it
    where it must, rather than leave the page before it short. Else its title and first
    lines."""
    room = 2
    # Its first few children that take lines: not the labels, or the LaTeX the layout put in.
    for child in [c for c in box.children if not isinstance(c, UNSEEN)][:5]:
        if isinstance(child, nodes.paragraph):
            room += 1 + len(child.astext()) // 40
        elif isinstance(child, nodes.literal_block) or (
            isinstance(child, nodes.container) and child.get("literal_block")
        ):
            block = next(child.findall(nodes.literal_block))
            # The listing's caption, and the output its code keeps under it (block_room).
            caption = 0 if child is block else 1
            lines = max(block_room(block, None), code_lines(block) + 2)
            return min(room + caption + lines, BOX_LINES)
    return NEED_BLOCK


# What \needspace may ask for at most: a box longer than a page breaks wherever it must.
PAGE_LINES = 30
# What a pair's second box may ask for: two thirds of a page.
BOX_LINES = 24


# A paragraph ending so introduces the code block after it.
LEAD_IN = ("：", ":")
# After an output's label or a lead-in: no page break before the block (jaxbook.sty).
KEEP_WITH_NEXT = r"\jbkeepwithnext"
# Before a code block and between it and its output: no break there, not even the one the
# code's list leaves where it ends (jaxbook.sty).
CODE_WITH_OUTPUT = r"\jbcodewithoutput"
KEEP_WITH_CODE = r"\jbkeepwithcode"


# The lines a code block (or a box) needs at the foot of a page, and a labelled output (the
# label's line more); and the lines a heading takes, with the space around it.
NEED_BLOCK = 5
NEED_LABELLED = 7
# A pair's title, its first box's title, and that box's first lines.
NEED_PAIR = 8
# A table's header and its first rows.
NEED_TABLE = 8
HEADING_LINES = 3
# The lines of text a heading needs under it at the foot of a page.
TEXT_UNDER_HEADING = 4
# A line of text, in half the width of a Chinese character: 40 characters of the Chinese
# edition's line; a Latin letter (with its share of the spaces) is a little narrower than
# half of one, some 85 to the English edition's line.
LINE_WIDTHS = 80
LATIN_WIDTH = 0.9
# What stands between a heading and the text under it without a line of its own: labels,
# index entries, comments, and the LaTeX that the PDF's layout adds.
UNSEEN = (nodes.title, nodes.target, addnodes.index, nodes.comment, nodes.raw)


def section_depths(doctree: nodes.Node) -> dict[int, int]:
    """How deep each section of the book lies (by ``id``): 1 for the root page's (the book's
    title, never printed), 2 for a chapter's, 3 for a section's. Counted from the top: in the
    book's tree, a page's nodes still name their own page's document as their parent."""
    depths: dict[int, int] = {}

    def walk(node: nodes.Node, depth: int) -> None:
        for child in node.children if isinstance(node, nodes.Element) else ():
            if isinstance(child, nodes.section):
                depths[id(child)] = depth + 1
                walk(child, depth + 1)
            else:
                walk(child, depth)

    walk(doctree, 0)
    return depths


def leads_in(paragraph: nodes.Node | None, block: nodes.Node) -> bool:
    """Whether ``paragraph`` is the label or lead-in that asks for room with ``block``."""
    if paragraph is None or isinstance(block, (nodes.paragraph, nodes.section)):
        return False
    return block_room(block, paragraph) != block_room(block, None)


def text_lines(text: str, share: float = 1.0) -> int:
    """About how many lines ``text`` takes, a wide (Chinese) character as two halves, in a
    column ``share`` of the line's width."""
    widths = sum(2 if unicodedata.east_asian_width(c) in "WF" else LATIN_WIDTH for c in text)
    return max(1, math.ceil(widths / (LINE_WIDTHS * share)))


def table_room(table: nodes.table) -> int:
    """The lines a long table needs at the foot of a page: its header and its first row, as
    long as the row's longest cell runs in its column (rules and padding a line each), and
    never less than ``NEED_TABLE``. longtable sets neither apart from the other: where they
    do not fit, the table goes over whole."""
    group = next(table.findall(nodes.tgroup), None)
    if group is None:
        return NEED_TABLE
    widths = [spec.get("colwidth", 1) for spec in group.findall(nodes.colspec)]
    shares = [width / sum(widths) for width in widths] if widths else []
    lines = 0
    for part in (nodes.thead, nodes.tbody):
        row = next((r for p in group.findall(part) for r in p.findall(nodes.row)), None)
        if row is None or not shares:
            continue
        cells = [entry.astext() for entry in row.findall(nodes.entry)]
        lines += 1 + max(
            text_lines(text, share * 0.9) for text, share in zip(cells, shares, strict=False)
        )
    return max(NEED_TABLE, lines + 1)


def heading_room(section: nodes.section) -> int:
    """The lines a section's heading needs at the foot of a page: its own and the first
    ``TEXT_UNDER_HEADING`` lines of text under it; where a short paragraph is followed by
    another heading, that heading's too, and where text is followed by a block (code, a box,
    a pair, a table), the room the block asks for at a page's foot (from its lead-in or its
    label, if it has one). The lines are counted roughly: a box and a lead-in are given one
    more, and a heading ``HEADING_LINES``."""
    headings, text, block, notes = 0, 0, 0, 0
    last: nodes.Node | None = None

    def count(section: nodes.section) -> None:
        nonlocal headings, text, block, last, notes
        headings += 1
        for child in section.children:
            if block:
                return
            if isinstance(child, UNSEEN):
                continue
            if text >= TEXT_UNDER_HEADING and not leads_in(last, child):
                # Enough text; but a lead-in goes over with its block, and a heading whose
                # text stopped at it would stand at the foot with a line or two alone.
                return
            if isinstance(child, nodes.section):
                count(child)
            elif isinstance(child, nodes.paragraph):
                # A link's address is a footnote at the page's foot: two lines of the room,
                # apart from the text's.
                footnotes = list(child.findall(nodes.footnote))
                notes += 2 * len(footnotes)
                words = child.astext()
                for footnote in footnotes:
                    words = words.replace(footnote.astext(), "")
                text += text_lines(words)
                last = child
            else:
                block = block_room(child, last)
                if last is not None and leads_in(last, child):
                    # The label's or lead-in's lines are the block's, and a line more: with
                    # the space above its block, a lead-in takes more than its lines.
                    text -= text_lines(last.astext()) - 1
                elif isinstance(child, (nodes.Admonition, pair)):
                    block += 1  # a box's frame and title take more than their lines

    count(section)
    room = headings * HEADING_LINES + (text + block if block else min(text, TEXT_UNDER_HEADING))
    room += notes
    return min(room, PAGE_LINES)


def code_lines(block: nodes.Element) -> int:
    """About how many lines a code block or output takes on paper: each of its lines, and a
    line too long for the page as the lines it wraps to (``CODE_LINE_WIDTH``, a wide Chinese
    character as two)."""
    return sum(
        max(
            1,
            math.ceil(
                sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
                / CODE_LINE_WIDTH
            ),
        )
        for line in block.astext().split("\n")
    )


# The characters of a line of code that fit the page (86 in the English edition's, 92 in
# the Chinese's); a long line wraps at a space, so a little fewer.
CODE_LINE_WIDTH = 80


# A code block or output of at most this many lines is never broken over a page, and a
# longer one keeps at least ``CODE_LINES_APART`` lines on each side of the break (jaxbook.sty).
WHOLE_CODE = 12
CODE_LINES_APART = 3
# An output under its code of at most this many lines goes over whole with the code that
# prints it; a longer one may break with its first lines under the code (\jboutputlines).
WHOLE_OUTPUT = 2 * CODE_LINES_APART - 1


def printed_by(block: nodes.Node | None, before: nodes.Node | None) -> bool:
    """Whether ``block`` is the output of the code block ``before`` it, with no label between:
    one that goes on right under it, on the same page. A script's listing (``snippet``, run
    by the hidden cell after it) is code as a cell's is."""
    return (
        isinstance(block, nodes.literal_block)
        and isinstance(before, nodes.literal_block)
        and doctest_kind(block) == "testoutput"
        and (doctest_kind(before) == "testcode" or bool(before.get("jaxbook_snippet")))
    )


def code_above(label: nodes.Element) -> nodes.Element | None:
    """The code block, never broken, right above ``label``, the label of the first of its
    cell's outputs per backend (``backend_tabs`` sets each under its label, on paper)."""
    code = as_block(preceding(label))
    if isinstance(code, nodes.literal_block) and doctest_kind(code) == "testcode":
        # A code block long enough to break asks for no room of its output's: its frame may
        # end at the page's foot, and the label goes over with its output instead.
        return code if code_lines(code) <= WHOLE_CODE else None
    return None


def labelled_output(node: nodes.Node | None) -> nodes.Element | None:
    """The output under ``node`` where that is an output's label; None for any other node."""
    if not (isinstance(node, nodes.paragraph) and OUTPUT_LABELS & set(node["classes"])):
        return None
    output = next_block(node)
    return output if isinstance(output, nodes.literal_block) else None


def output_room(output: nodes.Element) -> int:
    """The lines an output needs under its code at a page's foot, its frame's included: the
    whole of a short one (``WHOLE_OUTPUT`` lines at most), the first ``CODE_LINES_APART`` of a
    longer one, which may break after them."""
    lines = code_lines(output)
    return min(lines, WHOLE_OUTPUT if lines <= WHOLE_OUTPUT else CODE_LINES_APART) + 2


def outer(block: nodes.Element) -> nodes.Element:
    """A code block as its page holds it: the captioned container it is in (a listing's
    caption above it), or itself."""
    parent = block.parent
    if isinstance(parent, nodes.container) and parent.get("literal_block"):
        return parent
    return block


def as_block(node: nodes.Node | None) -> nodes.Node | None:
    """A listing's code block for its captioned container; any other node as it is."""
    if isinstance(node, nodes.container) and node.get("literal_block"):
        return next(node.findall(nodes.literal_block), node)
    return node


def preceding(node: nodes.Element) -> nodes.Node | None:
    """The node before ``node`` in its parent, past the labels (targets) that a reference to
    the block puts there, the hidden cells (comments on paper: a script's run) and a table's
    column widths."""
    parent = node.parent
    assert parent is not None
    before = parent.children[: parent.index(node)]
    unseen = (nodes.target, nodes.comment, addnodes.tabular_col_spec)
    return next((c for c in reversed(before) if not isinstance(c, unseen)), None)


def next_block(node: nodes.Element) -> nodes.Node | None:
    """The node after ``node`` (or after the listing it is in) in its parent, past the LaTeX
    the layout puts between them and the hidden cells."""
    node = outer(node)
    parent = node.parent
    assert parent is not None
    following = parent.children[parent.index(node) + 1 :]
    unseen = (nodes.raw, nodes.comment)  # a hidden cell is a comment on paper
    return next((child for child in following if not isinstance(child, unseen)), None)


def block_room(block: nodes.Node, before: nodes.Node | None) -> int:
    """The lines ``block`` asks for at the foot of a page (``keep_code_together``), with the
    paragraph ``before`` it where that is its label or lead-in. A code block that is never
    broken (``WHOLE_CODE`` lines or fewer) asks for its lines and frame; a longer one for its
    first ``CODE_LINES_APART`` lines and frame, as a block of five. A code block never broken
    with its output right under it (``printed_by``) asks for the output's room too
    (``output_room``)."""
    if isinstance(block, nodes.literal_block):
        lines = code_lines(block)
        own = lines + 2 if lines <= WHOLE_CODE else NEED_BLOCK
        after = next_block(block)
        extra = None
        if isinstance(after, nodes.literal_block) and printed_by(after, block):
            extra = output_room(after)
        elif doctest_kind(block) == "testcode" and (labelled := labelled_output(after)):
            extra = 1 + output_room(labelled)  # and the label's line
        if extra is not None:
            together = lines + 2 + extra
            own = together if together <= BOX_LINES and lines <= WHOLE_CODE else own
        if isinstance(before, nodes.paragraph) and OUTPUT_LABELS & set(before["classes"]):
            return max(NEED_LABELLED, own + 1)
        if isinstance(before, nodes.paragraph) and before.astext().rstrip().endswith(LEAD_IN):
            # A short block asks for no more than its own lines and frame: asking for more
            # would send a short block and its lead-in overleaf, with room enough for both
            # left empty at the page's foot.
            return own + 2 + len(before.astext()) // 60
        return own
    if isinstance(block, pair):
        return NEED_PAIR
    if isinstance(block, nodes.table) and "longtable" in block["classes"]:
        return NEED_TABLE
    return NEED_BLOCK


def need_room(node: nodes.Element, lines: int, depths: dict[int, int]) -> None:
    """A page break before ``node`` if fewer than ``lines`` lines are left on the page
    (``\\needspace``, as jaxbook.sty sets it). Right after a heading the room is asked for
    before the heading, for the heading's lines too: a break between them would leave the
    heading alone at the foot of its page. A rubric ("本章内容", a heading outside the
    sections) counts as one. Not before a chapter's heading, which starts a page of its
    own."""
    while True:
        parent = node.parent
        assert parent is not None
        before = parent.children[: parent.index(node)]
        seen = [child for child in before if not isinstance(child, UNSEEN)]
        if seen and isinstance(seen[-1], nodes.rubric):
            node, lines = seen[-1], lines + HEADING_LINES
            continue
        section = node.parent
        if not isinstance(section, nodes.section) or depths.get(id(section), 0) < 3:
            break
        before = section.children[: section.index(node)]
        if not all(isinstance(child, UNSEEN) for child in before):
            break
        node, lines = section, lines + HEADING_LINES
    need = nodes.raw("", rf"\needspace{{{lines}\baselineskip}}", format="latex")
    assert node.parent is not None
    node.parent.insert(node.parent.index(node), need)
