"""The PDF's rewrites of the resolved book (``PaperLayout``, which the LaTeX builder alone
runs), where paper needs what the website does not:

- each cross-reference followed by its page, outside the quotes of a quoted title and
  before the sentence's full stop ("“How to read this book” (page v).");
- table rows that align: an index entry or link target at the head of a cell moves into
  its first paragraph; a long table may break over pages;
- a dotted name in a link's text, and a long CamelCase name in inline code, that may break;
  a string in inline code that does not break at its underscores;
- code and boxes kept together at a page's foot, and headings with what follows them
  (``page_breaks``);
- a footnote's mark after the closing quote and the punctuation, in an edition in a Latin
  script, and in a CJK edition after the closing quotes and brackets that follow a digit;
- a line that may end short before inline code rather than spread;
- headings' bookmarks without emoji.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from jaxbook.sphinxext import _artwork
from jaxbook.sphinxext._nodes import ancestors
from jaxbook.sphinxext.editions.latex import pdf_language, tex
from jaxbook.sphinxext.editions.page_breaks import keep_code_together
from jaxbook.sphinxext.fonts import cjk_region


class page_reference(nodes.Inline, nodes.Element):
    """On paper, the page a cross-reference leads to, after its text."""


def visit_page_reference(self: Any, node: page_reference) -> None:
    # As Sphinx's LaTeX writer names the label of the reference's target.
    uri = node["refuri"] or "%" + self.curfilestack[-1] + "#" + node["refid"]
    label = self.idescape(uri[1:].replace("#", ":") if "#" in uri else uri[1:] + "::doc")
    if node.get("quote"):
        self.body.append(rf"\jbquotedinnerpagereference{{{label}}}{{{node['quote']}}}")
    else:
        macro = "jbinnerpagereference" if node.get("inner") else "jbpagereference"
        self.body.append(rf"\{macro}{{{label}}}")
    raise nodes.SkipNode


# A reference in these says nothing a page number would add to, or cannot hold one.
NO_PAGE = (nodes.title, nodes.caption, nodes.term, addnodes.toctree, nodes.literal_block)


CLOSING_QUOTES = "”’」』"
# What a CJK reference's text may end with that xeCJK sets as half of a pair of marks with
# the page's opening bracket or comma after it.
CJK_CLOSING = (*CLOSING_QUOTES, "）", "》", "〉", "】")
# The marks a Chinese line never starts with (clreq 3.1.7): the points, and closing quotes
# and brackets.
NO_LINE_START = "。，、；：！？）》〉】”’」』"
# After a reference: the quote that closes a quoted title, and before it the full stop or
# comma that US English sets inside the quotes (“How to read this book.”), past what an
# escaped space (”\ ) leaves in the text, a NUL and the space.
QUOTE_AFTER = re.compile(rf"([\x00 ]*)([.,!?。，！？]?)([{CLOSING_QUOTES}])")


def commas_inside_quotes(language: str) -> bool:
    """Whether the edition's language sets a comma before a closing quote, as US English
    does (“Random numbers,” page 50); Chinese sets it after (“随机数”，第 50 页)."""
    return pdf_language(language) == "en-US"


def _in_brackets(parent: nodes.Element, reference: nodes.Node) -> bool:
    """Whether the text before ``reference`` in its paragraph left a bracket open."""
    before = "".join(child.astext() for child in parent.children[: parent.index(reference)])
    return before.count("（") + before.count("(") > before.count("）") + before.count(")")


def add_page_references(doctree: nodes.Node, language: str) -> None:
    """Each cross-reference within the book is followed by its page: "见 1.2 节（第 12
    页）". A glossary term's first-use link is not: the glossary is in alphabetical order.

    A quoted title's page follows its closing quote, and the sentence's full stop or comma
    follows the page, wherever the text had it: “阅读说明”（第 5 页）。, “How to read this
    book” (page v). In brackets, an edition that sets commas inside quotes puts the page's
    comma there: (see “Random numbers,” page 50)."""
    cjk = cjk_region(language) is not None
    for reference in list(doctree.findall(nodes.reference)):
        uri = reference.get("refuri", "")
        internal = uri.startswith("%") or (not uri and reference.get("refid"))
        # A :term: reference, or the glossary's first-use link (jaxbook.sphinxext.glossary).
        term = any(
            {"std-term", "jb-term"} & set(child.get("classes", []))
            for child in reference.children
            if isinstance(child, nodes.Element)
        )
        shown_in = [ancestor for ancestor in ancestors(reference) if isinstance(ancestor, NO_PAGE)]
        if not internal or term or shown_in:
            continue
        parent = reference.parent
        at = parent.index(reference) + 1
        inner = _in_brackets(parent, reference)
        page = page_reference(refuri=uri, refid=reference.get("refid", ""), inner=inner)
        after = parent[at] if at < len(parent) else None
        if cjk and reference.astext().endswith(CJK_CLOSING):
            # Inside the link: its end would stand between the closing quote and the
            # page's bracket or comma, and xeCJK then sets both full width, not as one
            # pair ("“练习 E1”（第 99 页）").
            reference.append(page)
            if isinstance(after, nodes.Text) and str(after).lstrip("\x00 ")[:1] in NO_LINE_START:
                # The link's end would let the line break before the mark ("（第 37 页）" /
                # "。"), which xeCJK forbids only between characters.
                parent.insert(at, nodes.raw("", r"\nobreak{}", format="latex"))
            continue
        quoted = QUOTE_AFTER.match(str(after)) if isinstance(after, nodes.Text) else None
        if quoted is None:
            parent.insert(at, page)
            continue
        space, mark, quote = quoted.groups()
        rest = str(after)[quoted.end() :]
        assert isinstance(after, nodes.Text)
        if inner and not mark and commas_inside_quotes(language):
            # Replaced by position: docutils finds a Text node by equality.
            page["quote"] = quote
            parent[at] = nodes.Text(space + rest)
            parent.insert(at, page)
        else:
            parent[at] = nodes.Text(mark + rest)
            parent.insert(at, [nodes.Text(space + quote), page])


# What a note's mark follows in an edition in a Latin script: a closing quote (with the
# comma or period that US style sets inside it) and the punctuation that ends the clause,
# wherever the link it notes ends; after a digit, the closing brackets too.
AFTER_MARK = re.compile(r"^(?:[.,;:!?]?[”’]+[.,;:!?]?|[.,;:!?]+)")
AFTER_MARK_DIGIT = re.compile(r"^(?:\x00\s?)*(?:[.,;:!?]?[”’)\]]+[.,;:!?]?|[.,;:!?]+)")
# In a CJK edition, after a digit: the closing quotes and brackets (标号), not a full stop
# or a comma (点号); before them, what an escaped space left (``\ ）``: a null, then the
# space, both of which docutils writes as nothing).
AFTER_MARK_CJK = re.compile(r"^(?:\x00\s?)*[”’）)」』》〉】\]]+")


def marks_after_quotes(doctree: nodes.document, language: str) -> None:
    """In an edition in a Latin script, a footnote's mark (a link's address, on paper) follows
    the closing quote and the punctuation after the link it notes, as Chicago (14.26) sets it:
    “The Sharp Bits”⁷, not “The Sharp Bits⁷”. Chinese sets it where the text has it, right
    after the words it notes, but for words that end in a digit, where the mark would read
    as one more digit (“jax-ml/jax#37830¹¹”): there it follows the closing quotes and
    brackets (“（jax-ml/jax#37830）¹¹”), as it does in a Latin script
    (“(jax-ml/jax#37830).¹¹”)."""
    cjk = cjk_region(language) is not None
    for mark in list(
        doctree.findall(lambda n: isinstance(n, (nodes.footnote, nodes.footnote_reference)))
    ):
        parent = mark.parent
        if parent is None or isinstance(parent, (nodes.document, nodes.section)):
            continue
        at = parent.index(mark) + 1
        after = parent[at] if at < len(parent) else None
        if not isinstance(after, nodes.Text):
            continue
        # The mark's footnote and its reference sit side by side after the link.
        noted = next(
            (n for n in reversed(parent[: parent.index(mark)])
             if not isinstance(n, (nodes.footnote, nodes.footnote_reference))),
            None,
        )  # fmt: skip
        digit = noted is not None and noted.astext()[-1:].isdigit()
        if cjk and not digit:
            continue
        rule = AFTER_MARK_CJK if cjk else AFTER_MARK_DIGIT if digit else AFTER_MARK
        found = rule.match(str(after))
        if found is None:
            continue
        text = str(after)
        parent[at] = nodes.Text(text[found.end() :])
        parent.insert(parent.index(mark), nodes.Text(found.group(0)))


# The characters of a table that may not fit one page whole.
LONG_TABLE = 900


def fit_table_cells(doctree: nodes.Node) -> None:
    """An index entry or a link target that heads a table cell goes into the cell's first
    paragraph: on a line of its own it would push the cell's text below its neighbours',
    and the rows would not align."""
    # A long table in the running text may break across pages (a longtable): kept whole, it
    # would run past the foot of its page. A short one stays whole (not split after two
    # rows), and one inside a box (an admonition, a list) stays a tabulary, which LaTeX can
    # set there.
    for table in doctree.findall(nodes.table):
        long = len(table.astext()) > LONG_TABLE
        if long and isinstance(table.parent, (nodes.section, nodes.document)):
            table["classes"] = [*table["classes"], "longtable"]
    for cell in doctree.findall(nodes.entry):
        marks = [c for c in cell.children if isinstance(c, (addnodes.index, nodes.target))]
        paragraph = next((c for c in cell.children if isinstance(c, nodes.paragraph)), None)
        if marks and paragraph is not None:
            for mark in reversed(marks):
                cell.remove(mark)
                if isinstance(mark, addnodes.index):
                    mark["inline"] = True
                paragraph.insert(0, mark)


# Before a dot between two letters of a name: where a name in a link's text may break.
NAME_DOT = re.compile(r"(?<=[A-Za-z_])(?=\.[A-Za-z_])")


def break_names_in_links(doctree: nodes.Node) -> None:
    """A dotted name in a link's text ("1.5 jax.random.key 与 jax.random.PRNGKey") may break
    before a dot, as inline code does ("jax.random" / ".PRNGKey"): whole, it ran
    out of its table column, and in Chinese prose it left the line before it spread. A long
    CamelCase name in inline code, which has no dot or underscore to break at, may break
    before a hump ("Concretization" / "TypeError") for the same reason."""
    for reference in doctree.findall(nodes.reference):
        for text in list(reference.findall(nodes.Text)):
            if any(isinstance(a, nodes.literal) for a in ancestors(text)):
                continue  # inline code breaks at its dots already
            _breakable(text, NAME_DOT)
    for literal in doctree.findall(nodes.literal):
        for text in list(literal.findall(nodes.Text)):
            for word in re.findall(r"[A-Za-z]{16,}", str(text)):
                if re.search(r"[a-z][A-Z]", word):
                    _breakable(text, CAMEL_HUMP)
                    break


# A string in inline code: a quote, what it quotes, the same quote.
STRING = re.compile(r"""(["'])[^"'\s]*\1""")


def strings_whole(doctree: nodes.Node) -> None:
    """A string in inline code does not break at its underscores, as a name does (jaxbook.sty
    sets each underscore of inline code with a break before it): a configuration option's
    quoted name broken in two ("jax_debug_key" / "_reuse") reads as a typo. The line
    breaks at a dot of the code around it, or at a space."""
    for literal in doctree.findall(nodes.literal):
        for text in list(literal.findall(nodes.Text)):
            pieces: list[nodes.Node] = []
            at = 0
            for string in STRING.finditer(str(text)):
                if "_" not in string.group(0):
                    continue
                pieces.append(nodes.Text(str(text)[at : string.start()]))
                for part in re.split(r"(_)", string.group(0)):
                    underscore = nodes.raw("", r"\textunderscore{}", format="latex")
                    pieces.append(underscore if part == "_" else nodes.Text(part))
                at = string.end()
            if pieces:
                pieces.append(nodes.Text(str(text)[at:]))
                assert text.parent is not None
                text.parent.replace(text, [p for p in pieces if not isinstance(p, nodes.Text) or p])


# Where a line may end before inline code: after a space, a Chinese character, or a Chinese
# mark that may end a line.
BEFORE_RAGGED = re.compile(r"[\s\u3400-\u9fff，、：；。！？）》”]$")
# The brackets and quotes that open on inline code: a line may end before them.
OPENING_BEFORE_CODE = re.compile(r"[（“《‘(\[]+$")


def ragged_before_code(doctree: nodes.document) -> None:
    """``\\jbraggedbreak`` before inline code in running text, and before a glossary term's
    first use, where a line may end there: a line that cannot be set well (inline code breaks
    only before a dot or an underscore, and a term's words are never hyphenated) ends short
    there rather than spread (jaxbook.sty). Not in a title, which goes into the PDF's
    bookmarks, and is set ragged anyway, nor in a link's text."""
    terms = [
        reference
        for reference in doctree.findall(nodes.reference)
        if any("jb-term" in child.get("classes", []) for child in reference.findall(nodes.inline))
    ]
    for literal in [*doctree.findall(nodes.literal), *terms]:
        parent = literal.parent
        if parent is None or any(
            isinstance(a, (nodes.title, nodes.caption, nodes.reference)) for a in ancestors(literal)
        ):
            continue
        at = parent.index(literal)
        before = parent[at - 1] if at else None
        if not isinstance(before, nodes.Text):
            continue
        text = str(before)
        # Before the brackets or quotes that open on the code: "（" / "jnp.array(0.0)" may
        # not part, but the line may end before "（".
        opening = OPENING_BEFORE_CODE.search(text)
        head = text[: opening.start()] if opening else text
        if not BEFORE_RAGGED.search(head):
            continue
        ragged = nodes.raw("", r"\jbraggedbreak{}", format="latex")
        if opening:
            parent[at - 1] = nodes.Text(head)
            parent.insert(at, [ragged, nodes.Text(opening.group(0))])
        else:
            parent.insert(at, ragged)


# Where a CamelCase name may break: before a capital that follows a lower-case letter.
CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _breakable(text: nodes.Text, places: re.Pattern[str]) -> None:
    pieces = places.split(str(text))
    if len(pieces) > 1:
        breakable: list[nodes.Node] = [nodes.Text(pieces[0])]
        for piece in pieces[1:]:
            breakable += [nodes.raw("", r"\jbbreak{}", format="latex"), nodes.Text(piece)]
        assert text.parent is not None
        text.parent.replace(text, breakable)


def plain_bookmarks(doctree: nodes.Node) -> None:
    """A heading's emoji is its picture on the page, in the contents and in the running head,
    but not in the PDF's bookmarks, which are plain text: "补充：查看 jaxpr", not "🔍 补充：
    查看 jaxpr" (``\\texorpdfstring`` with nothing for the bookmark, the space after the
    emoji included)."""
    for title in list(doctree.findall(nodes.title)):
        if not isinstance(title.parent, nodes.section):
            continue
        for text in list(title.findall(nodes.Text)):
            pieces = _artwork.EMOJI_RUN.split(str(text))
            if len(pieces) == 1 or not any(_artwork.drawn_as_picture(c) for c in str(text)):
                continue
            plain: list[nodes.Node] = []
            for at, piece in enumerate(pieces):
                if at % 2 and any(_artwork.drawn_as_picture(c) for c in piece):
                    latex = rf"\texorpdfstring{{{tex(piece)}}}{{}}"
                    plain.append(nodes.raw("", latex, format="latex"))
                elif piece:
                    plain.append(nodes.Text(piece))
            assert text.parent is not None
            text.parent.replace(text, plain)


class PaperLayout(SphinxPostTransform):
    """The PDF's rewrites of the resolved book, in this order: each cross-reference's page,
    table cells that align, names that break in links, strings that do not, code and boxes
    kept together at a page's foot, footnote marks after closing quotes, lines that may end
    short before inline code, then headings' bookmarks without emoji. After every other
    post-transform that changes what the PDF shows (the outputs' labels, the measured
    outputs and the figures, at 920 and below; the notes' tables, 520; LaTeX's own, 750 and
    below), and after the references are resolved (10), the notes' among them."""

    builders = ("latex",)
    default_priority = 950

    def run(self, **kwargs: Any) -> None:
        add_page_references(self.document, self.config.language)
        fit_table_cells(self.document)
        break_names_in_links(self.document)
        strings_whole(self.document)
        keep_code_together(self.document)
        marks_after_quotes(self.document, self.config.language)
        ragged_before_code(self.document)
        plain_bookmarks(self.document)
