"""The "Changed in" cell of the update-notes table: what the evidence says, in plain sentences.

``jaxbook evidence`` records, for every probe, its eras (the releases that
gave the same answer, the *key*) and what the visited releases showed; with
each probe come its phrases (``jaxbook.releases.sentences``), English msgids
that this package's catalog translates. A cell says, per probe that changed,
what holds since the release of its last change and, newest first, what held
before (``Since JAX 0.4.31, …; before that, … (0.4.27–0.4.30) and …``); a row
whose probes never changed says so in one short sentence; a row that claims
an old output (``:old:``) no release gives says that first. A key with no
phrase is reported to the caller, so a new probe or a new answer cannot
reach the page as a probe expression.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from docutils import nodes

from jaxbook.sphinxext._locale import _, listed, ngettext, sentence

ANY = "*"  # the phrase for any key a probe's table does not name
OLDER_SHOWN = 3  # older eras a cell names; the rest are counted


def phrase(entry: dict[str, Any], key: str) -> str | None:
    """The msgid that says what answering ``key`` to a probe means, if there is one."""
    known = entry.get("sentences", {})
    return known.get(key, known.get(ANY))


def releases(first: str, last: str) -> str:
    """A range of releases as the language writes it: 0.4.27–0.4.30, or one release."""
    return first if first == last else _("%(first)s–%(last)s") % {"first": first, "last": last}


def _shown(era: dict[str, Any]) -> nodes.literal:
    """What the newest release of the era showed, in full (without a full stop of its own:
    the cell's sentence has one)."""
    text = " ".join(era["shown"][-1]["text"].split())
    return nodes.literal("", text[:-1] if text.endswith(".") and not text.endswith("..") else text)


def state(entry: dict[str, Any], era: dict[str, Any]) -> list[nodes.Node] | None:
    """What holds in an era, as a phrase; None when its key has none."""
    msgid = phrase(entry, era["key"])
    if msgid is None:
        return None
    return sentence(_(msgid), shown=_shown(era))


def _older(entry: dict[str, Any], era: dict[str, Any]) -> list[nodes.Node] | None:
    """An older era, short: its phrase (or, for a "*" phrase, what it showed) and its range."""
    if era["key"] in entry.get("sentences", {}):
        said = state(entry, era)
    else:
        said = [_shown(era)] if phrase(entry, era["key"]) else None
    if said is None:
        return None
    return sentence(
        _("%(state)s (%(releases)s)"), state=said, releases=releases(era["first"], era["last"])
    )


Missing = Callable[[str, str], None]  # (probe, key) without a phrase


def _say(entry: dict[str, Any], era: dict[str, Any], probe: str, missing: Missing):
    said = state(entry, era)
    if said is None:
        missing(probe, era["key"])
        said = [nodes.literal("", era["key"])]
    return said


def changed(
    probe: str, entry: dict[str, Any], language: str | None, missing: Missing
) -> list[nodes.Node]:
    """One sentence on a probe whose answer changed: since when the newest holds, and before."""
    eras = entry["eras"]
    newest = eras[-1]
    older: list[list[nodes.Node]] = []
    for era in reversed(eras[:-1]):
        said = _older(entry, era)
        if said is None:
            missing(probe, era["key"])
            said = [nodes.literal("", era["key"])]
        older.append(said)
    if len(older) > OLDER_SHOWN:
        rest = len(older) - OLDER_SHOWN + 1
        older = older[: OLDER_SHOWN - 1]
        older.append(
            [
                nodes.Text(
                    ngettext(
                        "%(count)d earlier state back to %(first)s",
                        "%(count)d earlier states back to %(first)s",
                        rest,
                    )
                    % {"count": rest, "first": eras[0]["first"]}
                )
            ]
        )
    return sentence(
        _("Since JAX %(release)s, %(state)s; before that, %(older)s."),
        release=newest["first"],
        state=_say(entry, newest, probe, missing),
        older=listed([nodes.inline("", "", *item) for item in older], language),
    )


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
            if state(entries[probe], only) is None:
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
                    state=_say(entry, entry["eras"][0], probe, missing),
                )
            )
        else:
            said.append(changed(probe, entry, language, missing))
    return said


def _version(release: str) -> tuple[int, ...]:
    return tuple(int(part) for part in release.split(".") if part.isdigit())
