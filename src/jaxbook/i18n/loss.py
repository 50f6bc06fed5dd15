"""Translations the catalogs had at git ``HEAD`` that the working tree has lost.

    jaxbook po lost locale/en/LC_MESSAGES

Whatever merged the templates (``make update-po``, ``sphinx-intl update``, Poedit,
Weblate), this compares every catalog of the directory with the same directory at
``HEAD`` and reports each translation, live, fuzzy or obsolete there, that no catalog of
the directory still holds (:func:`why_lost`); it exits 1 if there is any. Outside a git
checkout, or before the first commit, it says so in one line and exits 0.
"""

from __future__ import annotations

import difflib
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import polib

from jaxbook.i18n.pofile import Finding, entry_line, faults, file_faults

SIMILAR = 0.6


@dataclass(frozen=True)
class Held:
    """One translation of one catalog: where it is and what state it is in."""

    path: Path
    line: int
    key: tuple[str | None, str]
    msgstr: str
    previous: tuple[str | None, str] | None
    fuzzy: bool
    obsolete: bool


def translations(path: Path, text: str) -> list[Held]:
    held = []
    for entry in polib.pofile(text):
        msgstr = entry.msgstr or "".join(entry.msgstr_plural.values())
        previous = (entry.previous_msgctxt, entry.previous_msgid) if entry.previous_msgid else None
        held.append(
            Held(
                path,
                entry_line(entry),
                (entry.msgctxt, entry.msgid),
                msgstr,
                previous,
                "fuzzy" in entry.flags,
                entry.obsolete,
            )
        )
    return held


def git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, encoding="utf-8"
    )


def head_catalogs(po_dir: Path) -> dict[Path, str] | str:
    """The text of each catalog under ``po_dir`` at ``HEAD``, or why there is none."""
    top = git(po_dir, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        return f"{po_dir}: not in a git checkout, so no translation can be compared with HEAD"
    root = Path(top.stdout.strip())
    if git(root, "rev-parse", "--verify", "--quiet", "HEAD").returncode != 0:
        return f"{po_dir}: the checkout has no commit yet, so nothing to compare with HEAD"
    prefix = PurePosixPath(po_dir.resolve().relative_to(root.resolve()).as_posix())
    listed = git(root, "ls-tree", "-r", "--name-only", "HEAD", "--", str(prefix))
    catalogs = {}
    for name in listed.stdout.splitlines():
        if not name.endswith(".po"):
            continue
        shown = git(root, "show", f"HEAD:{name}")
        if shown.returncode == 0:
            path = po_dir / PurePosixPath(name).relative_to(prefix)
            catalogs[path] = shown.stdout
    return catalogs


def working_catalogs(po_dir: Path) -> tuple[list[Held], list[Finding]]:
    held, unreadable = [], []
    for path in sorted(po_dir.rglob("*.po")):
        # A catalog msgfmt refuses for a duplicate (an entry beside its obsolete twin) is
        # still read: that is one of the losses named here.
        broken = file_faults(path)
        try:
            if not broken:
                held += translations(path, path.read_text(encoding="utf-8"))
                continue
        except (OSError, ValueError):
            broken = faults(path) or [Finding(path, 1, "")]
        unreadable.append(
            Finding(
                path,
                broken[0].line,
                "cannot be read (make check-po says why), so its translations are not "
                "compared with HEAD until it is mended",
            )
        )
    return held, unreadable


def why_lost(old: Held, now: list[Held], revisions: list[Held]) -> str | None:
    """Why ``old`` is lost from ``now``; None when a catalog of the directory still holds it:

    - live: an entry with the same message (context and msgid) has a translation;
    - fuzzy: a live entry's previous msgid (``#|``, ``msgmerge --previous``) is that
      message, or a live entry has the same translation (Babel's fuzzy match, which
      sphinx-intl uses, keeps no ``#|``);
    - obsolete: an obsolete entry (``#~``) holds it and the page does not show the message
      again untranslated (else a merge added an empty entry beside its obsolete twin, and
      the translation is only a comment);
    - revised: a live, reviewed entry whose message ``HEAD`` did not have reads like the
      lost one (``difflib`` ratio at least ``SIMILAR``, msgmerge's threshold for a fuzzy
      match), once: a translator who rewrites a fuzzy entry drops its ``#|`` lines.
    """
    same = [h for h in now if h.key == old.key]
    if any(h.msgstr and not h.obsolete for h in same):
        return None
    live = [h for h in now if not h.obsolete and h.msgstr]
    # Fuzzy, or reviewed while the merge's "#|" lines still name the message it replaced.
    if any(h.previous == old.key for h in live):
        return None
    if old.msgstr and any(h.msgstr == old.msgstr for h in live):
        return None
    shown_untranslated = [h for h in same if not h.obsolete]
    kept_obsolete = any(h.obsolete and h.msgstr for h in same)
    if shown_untranslated and kept_obsolete:
        return (
            f"the page shows this text again, but its entry (now at line "
            f"{shown_untranslated[0].line}) is "
            "untranslated and the translation is only in an obsolete (#~) twin"
        )
    if kept_obsolete:
        return None
    for revision in revisions:
        matcher = difflib.SequenceMatcher(None, old.key[1], revision.key[1], autojunk=False)
        if revision.key[0] == old.key[0] and matcher.ratio() >= SIMILAR:
            revisions.remove(revision)
            return None
    if shown_untranslated:
        return f"its entry (now at line {shown_untranslated[0].line}) is untranslated"
    return "it is neither live, fuzzy nor obsolete now"


def lost(po_dir: Path) -> tuple[list[Finding], str | None]:
    """The findings, and a note when there is nothing to compare with.

    Each finding is at its line in the catalog at ``HEAD``: the working file may have lost
    the entry, or be gone.
    """
    head = head_catalogs(po_dir)
    if isinstance(head, str):
        return [], head
    now, findings = working_catalogs(po_dir)
    unreadable = {finding.path for finding in findings}
    before = [
        h
        for path, text in head.items()
        if path not in unreadable
        for h in translations(path, text)
        if h.msgstr
    ]
    keys_before = {h.key for h in before}
    revisions = [
        h for h in now if h.msgstr and not h.obsolete and not h.fuzzy and h.key not in keys_before
    ]
    for old in before:
        reason = why_lost(old, now, revisions)
        if reason is None:
            continue
        state = "obsolete" if old.obsolete else "fuzzy" if old.fuzzy else "translated"
        first = old.key[1].splitlines()[0] if old.key[1] else ""
        findings.append(
            Finding(
                old.path,
                old.line,
                f"translation lost since HEAD (this line at HEAD, {state} there) of "
                f"{first[:50]!r}: {reason}; restore the catalog from HEAD "
                "(git checkout HEAD -- FILE) and run 'make update-po', which keeps it",
            )
        )
    return findings, None


def run(po_dir: Path) -> int:
    findings, note = lost(po_dir)
    if note:
        print(note, file=sys.stderr)
    for finding in findings:
        print(finding)
    return 1 if findings else 0
