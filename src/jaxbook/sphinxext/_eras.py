"""The "Changed in" cell of the update-notes table, in sentences.

``jaxbook evidence`` records, for every probe, its eras (the releases that
gave the same answer, the *key*) and, inside each era, what the visited
releases showed, as runs of the same text. A cell says, for each era, what
holds on every release in it: a sentence chosen by the probe and its key, in
the page's language, and, where the sentence takes the releases' own text
(``%(shown)s``), every run of it with the releases that showed it. The
sentences are English msgids written for the probes
(``jaxbook.doctest.sentences``) and the evidence file carries; this
package's catalog translates them. A key with no sentence is a warning, so a
new probe or a new answer cannot reach the page as a probe expression.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes

from jaxbook.sphinxext._locale import _

ANY = "*"  # the sentence for any key a probe's table does not name
SHOWN_WIDTH = 70

CODE = re.compile(r"``(.+?)``")


def sentence(entry: dict[str, Any], key: str) -> str | None:
    """The msgid that says what answering ``key`` to a probe means, if there is one."""
    known = entry.get("sentences", {})
    return known.get(key, known.get(ANY))


def span(first: str, last: str) -> str:
    return first if first == last else _("%s–%s") % (first, last)


def clipped(text: str) -> str:
    """The text as a cell shows it: cut after a whole word, and without its own full stop
    (the cell's sentence has one)."""
    text = " ".join(text.split())
    if len(text) > SHOWN_WIDTH:
        cut = text[: SHOWN_WIDTH - 1]
        return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "…"
    return text[:-1] if text.endswith(".") and not text.endswith("..") else text


def _shown(runs: list[dict[str, str]]) -> list[nodes.Node]:
    """Each run's text as code; with its releases when the era showed more than one.

    Runs that differ only past what a cell shows are one: the part they share.
    """
    merged: list[dict[str, str]] = []
    for run in runs:
        text = clipped(run["text"])
        if merged and merged[-1]["text"] == text:
            merged[-1]["last"] = run["last"]
        else:
            merged.append({**run, "text": text})
    runs = merged
    if len(runs) == 1:
        return [nodes.literal("", clipped(runs[0]["text"]))]
    out: list[nodes.Node] = []
    for i, run in enumerate(runs):
        if i:
            out.append(nodes.Text(_(", ")))
        out.append(nodes.literal("", clipped(run["text"])))
        out.append(nodes.Text(_(" (%s)") % span(run["first"], run["last"])))
    return out


def era_nodes(entry: dict[str, Any], era: dict[str, Any]) -> list[nodes.Node] | None:
    """The sentence for one era of a probe's entry, or None when its key has none."""
    msgid = sentence(entry, era["key"])
    if msgid is None:
        return None
    text = _(msgid)
    if "%(shown)s" not in text:
        return _inline(text)
    before, after = text.split("%(shown)s", 1)
    return [*_inline(before), *_shown(era["shown"]), *_inline(after)]


def _inline(text: str) -> list[nodes.Node]:
    out: list[nodes.Node] = []
    for i, piece in enumerate(CODE.split(text)):
        if piece:
            out.append(nodes.literal("", piece) if i % 2 else nodes.Text(piece))
    return out
