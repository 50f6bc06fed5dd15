"""A page's prose as Jupyter Markdown: what the notebooks show between the code cells.

Inline markup keeps its meaning (``code``, **strong**, *emphasis*, links,
math as ``$...$``, superscripts and subscripts as ``<sup>``/``<sub>``, which
Jupyter's and Colab's Markdown render); display math is a ``$$`` block;
lists, tables (as GitHub tables), admonitions (as quotes under their title)
and code that the page shows but does not run (shell commands, text blocks)
are kept, the last as fenced blocks that the notebook does not execute.
``link`` turns a reference's URI into one that works from the notebook, or
into ``""`` where none would: the reference is then its text alone.
"""

from __future__ import annotations

from collections.abc import Callable

from docutils import nodes

Link = Callable[[str], str]
ESCAPED = str.maketrans({"|": "\\|"})


def inline(node: nodes.Node, link: Link) -> str:
    """The Markdown of a paragraph's (or a title's) inline content."""
    if isinstance(node, (nodes.image, nodes.system_message, nodes.target, nodes.raw)):
        return ""  # a raw node is the site's markup (a dropdown's chevron icon), not text
    if isinstance(node, nodes.Text):
        return node.astext().replace("\n", " ")  # astext() drops the escapes' null bytes
    if isinstance(node, nodes.literal):
        text = node.astext()
        fence = "``" if "`" in text else "`"
        return f"{fence}{text}{fence}"
    if isinstance(node, nodes.math):
        return f"${node.astext()}$"
    inner = "".join(inline(child, link) for child in node.children)
    if isinstance(node, nodes.superscript):
        return f"<sup>{inner}</sup>"  # "10<sup>6</sup>", not "106"
    if isinstance(node, nodes.subscript):
        return f"<sub>{inner}</sub>"
    if isinstance(node, nodes.strong):
        return f"**{inner}**" if inner.strip() else inner
    if isinstance(node, nodes.emphasis):
        return f"*{inner}*" if inner.strip() else inner
    if isinstance(node, nodes.reference):
        uri = node.get("refuri") or ("#" + node["refid"] if node.get("refid") else "")
        target = link(uri) if uri else ""
        return f"[{inner}]({target})" if target and inner.strip() else inner
    return inner


def display_math(node: nodes.math_block, quoted: bool = False) -> str:
    """A ``.. math::`` block as Jupyter's display math: ``$$`` on its own lines around the
    LaTeX, written as the page's MathJax gets it (several equations aligned, one broken
    with ``\\`` split), with no blank line inside, which would end the Markdown block.
    In a quote (an admonition's body) it is one line: a quote's ``> `` before each line
    would be read as part of the LaTeX."""
    latex = node.astext()
    if not node.get("no-wrap", node.get("nowrap", False)):
        parts = [part.strip() for part in latex.split("\n\n") if part.strip()]
        parts = [f"\\begin{{split}}{p}\\end{{split}}" if "\\\\" in p else p for p in parts]
        latex = " \\\\\n".join(parts)
        if len(parts) > 1:
            latex = f"\\begin{{aligned}}\n{latex}\n\\end{{aligned}}"
    lines = [line.strip() for line in latex.splitlines() if line.strip()]
    if quoted:
        return "$$ " + " ".join(lines) + " $$"
    return "\n".join(["$$", *lines, "$$"])


def table(node: nodes.table, link: Link) -> str:
    rows = []
    for row in node.findall(nodes.row):
        cells = []
        for entry in row.children:
            text = " ".join(
                inline(p, link) for p in entry.findall(nodes.paragraph) if p.parent is entry
            ) or entry.astext().replace("\n", " ")
            cells.append(text.translate(ESCAPED))
        rows.append(cells)
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * width]
    lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return "\n".join(lines)


def fenced(node: nodes.literal_block) -> str:
    language = node.get("language", "")
    if language in ("default", "none", "python3"):
        language = "python" if language == "python3" else "text"
    return f"```{language}\n{node.astext()}\n```"


def quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.split("\n"))
