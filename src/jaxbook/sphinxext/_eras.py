"""The "Changed in" cell of the update-notes table: what the evidence says, in plain sentences.

``jaxbook-lab evidence`` records, for every probe, its eras (the releases that
gave the same answer, the *key*) and what the visited releases showed; with
each probe come its phrases (``jaxbook.formats.PROBE_PHRASES``), English msgids
that this package's catalog translates. A cell says, per probe that changed,
what holds since the release of its last change and, newest first, what held
in the releases before, a sentence each (``Since JAX 0.4.31, …. In JAX
0.4.27–0.4.30, ….``); a row whose probes never changed says so in one short
sentence; a row that claims
an old output (``:old:``) no release gives says that first. A key with no
phrase is reported to the caller, so a new probe or a new answer cannot
reach the page as a probe expression.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from docutils import nodes

from jaxbook.sphinxext._locale import _, listed, sentence

ANY = "*"  # the phrase for any key a probe's table does not name
OLDER_SHOWN = 2  # older eras a cell names; the rest are named by their releases only


def phrase(entry: dict[str, Any], key: str) -> str | None:
    """The msgid that says what answering ``key`` to a probe means, if there is one."""
    known = entry.get("sentences", {})
    return known.get(key, known.get(ANY))


def releases(first: str, last: str) -> str:
    """A range of releases as the language writes it: 0.4.27–0.4.30, or one release."""
    # Translators: A range of JAX releases, 0.4.27–0.4.30, in the update notes' "Changed in"
    # sentences.
    return first if first == last else _("%(first)s–%(last)s") % {"first": first, "last": last}


def _shown(era: dict[str, Any]) -> nodes.literal:
    """What the newest release of the era showed, in full (without a full stop of its own:
    the cell's sentence has one)."""
    text = " ".join(era["shown"][-1]["text"].split())
    return nodes.literal("", text[:-1] if text.endswith(".") and not text.endswith("..") else text)


def _words(era: dict[str, Any], language: str | None) -> list[nodes.Node]:
    """What the era showed, a list of names ("cuda cuda12"), as the language lists them."""
    return listed([nodes.literal("", word) for word in _shown(era).astext().split()], language)


def state(
    entry: dict[str, Any], era: dict[str, Any], language: str | None = None
) -> list[nodes.Node] | None:
    """What holds in an era, as a phrase; None when its key has none."""
    msgid = phrase(entry, era["key"])
    if msgid is None:
        return None
    shown = _shown(era)
    # A requirement such as ">=3.12" reads as "3.12 or later" in the phrase.
    minimum = nodes.Text(shown.astext().removeprefix(">=").strip())
    return sentence(_(msgid), shown=shown, listed=_words(era, language), minimum=minimum)


Missing = Callable[[str, str], None]  # (probe, key) without a phrase


def _say(
    entry: dict[str, Any], era: dict[str, Any], probe: str, missing: Missing, language: str | None
):
    said = state(entry, era, language)
    if said is None:
        missing(probe, era["key"])
        said = [nodes.literal("", era["key"])]
    return said


def changed(
    probe: str, entry: dict[str, Any], language: str | None, missing: Missing
) -> list[list[nodes.Node]]:
    """The sentences on a probe whose answer changed: since when the newest holds, then,
    newest first, what held in the releases before."""
    eras = entry["eras"]
    newest = eras[-1]
    said = [
        sentence(
            # Translators: In the update notes' "Changed in" cells: %(state)s is a phrase such
            # as "``jax.random.key`` exists" (the phrases are in this catalog too).
            _("Since JAX %(release)s, %(state)s."),
            release=newest["first"],
            state=_say(entry, newest, probe, missing, language),
        )
    ]
    older_eras = list(reversed(eras[:-1]))
    # One era more than the cell names takes no more room than the words that sum it up.
    shown = OLDER_SHOWN if len(older_eras) > OLDER_SHOWN + 1 else len(older_eras)
    for era in older_eras[:shown]:
        said.append(
            sentence(
                # Translators: In the update notes' "Changed in" cells: %(releases)s is a
                # release or a range of them, %(state)s a phrase such as "``jax.random.key``
                # exists".
                _("In JAX %(releases)s, %(state)s."),
                releases=releases(era["first"], era["last"]),
                state=_say(entry, era, probe, missing, language),
            )
        )
    if len(older_eras) > shown:
        said.append(
            sentence(
                _("Older releases (%(releases)s) are not described here."),
                releases=releases(older_eras[-1]["first"], older_eras[shown]["last"]),
            )
        )
    return said


def cell(
    evidence: dict[str, Any],
    probes: list[str],
    old: dict[str, str],
    language: str | None,
    missing: Missing,
) -> list[list[nodes.Node]]:
    """The sentences of one row's cell, in order (nodes of each sentence)."""
    known = evidence["probes"]
    entries = {p: known[p] for p in probes if known.get(p, {}).get("eras")}
    said: list[list[nodes.Node]] = []
    for probe, answer in old.items():
        eras = entries.get(probe, {}).get("eras", [])
        if eras and all(era["key"] != answer for era in eras):
            said.append(
                sentence(
                    _("No checked release (%(releases)s) gives %(old)s."),
                    releases=releases(eras[0]["first"], eras[-1]["last"]),
                    old=nodes.literal("", answer),
                )
            )
    steady = [p for p, entry in entries.items() if len(entry["eras"]) == 1]
    if entries and len(steady) == len(entries):
        first = min((entries[p]["eras"][0]["first"] for p in steady), key=_version)
        last = max((entries[p]["eras"][-1]["last"] for p in steady), key=_version)
        for probe in steady:  # a key without a phrase is reported, though the cell needs none
            only = entries[probe]["eras"][0]
            if state(entries[probe], only, language) is None:
                missing(probe, only["key"])
        said.append(
            sentence(
                _("No change in any checked release (%(releases)s)."),
                releases=releases(first, last),
            )
        )
        return said
    for probe, entry in entries.items():
        if probe in steady:
            said.append(
                sentence(
                    _("On every checked release, %(state)s."),
                    state=_say(entry, entry["eras"][0], probe, missing, language),
                )
            )
        else:
            said.extend(changed(probe, entry, language, missing))
    return said


def _version(release: str) -> tuple[int, ...]:
    return tuple(int(part) for part in release.split(".") if part.isdigit())
