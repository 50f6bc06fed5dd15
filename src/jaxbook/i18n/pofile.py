"""One catalog file as the tools read it: its format, its faults, its width.

The lowest part of :mod:`jaxbook.i18n`: :mod:`~jaxbook.i18n.catalogs` (merge, wrap),
:mod:`~jaxbook.i18n.check` (the QA), :mod:`~jaxbook.i18n.loss` and
:mod:`~jaxbook.i18n.zh_lint` build on it and import none of each other; only
:mod:`~jaxbook.i18n.po`, the ``jaxbook po`` command, imports them all. :func:`faults`
says why a catalog cannot be read; :func:`save_wrapped` is how every tool that changes a
catalog with polib writes it back, wrapped at ``WIDTH``; :func:`foreign_marks` finds what
a merge tool other than msgmerge wrote, and :func:`tidy` removes it.
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import polib
from babel import Locale, UnknownLocaleError
from babel.messages.plurals import get_plural
from powrap import powrap

from jaxbook import project
from jaxbook.files import write_text_atomically

# GNU gettext's default width, at which powrap (msgcat) and msgmerge write catalogs.
WIDTH = 79
# A page's text is never a format string; with the flag, msgfmt --check would
# hold the prose's braces and percent signs to the rules of Python formats.
FORMAT_FLAGS = ("python-format", "python-brace-format")
CHARSET = "text/plain; charset=UTF-8"
BOM = b"\xef\xbb\xbf"


@dataclass
class Finding:
    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def entry_line(entry: polib.POEntry) -> int:
    """The line ``entry`` starts on in the catalog polib read it from."""
    # polib types linenum as optional: an entry made in code has none.
    assert entry.linenum is not None, "polib numbers every entry it parses"
    return entry.linenum


def plural_forms(language: str) -> str:
    """The ``Plural-Forms`` header of ``language``'s catalogs, from Babel's CLDR data (as
    ``pybabel init`` writes it): ``nplurals=2; plural=(n != 1);`` for English."""
    return get_plural(known_locale(language)).plural_forms


def nplurals(forms: str) -> int:
    """The number of plural forms a ``Plural-Forms`` header gives."""
    found = re.search(r"nplurals\s*=\s*(\d+)", forms)
    if found is None:
        raise ValueError(f"no nplurals in {forms!r}")
    return int(found[1])


def known_locale(language: str) -> Locale:
    """``language`` (``ja``, ``pt_BR``) as a locale CLDR knows; ValueError for any other code."""
    try:
        return Locale.parse(language)
    except (ValueError, UnknownLocaleError) as exc:
        raise ValueError(f"{language!r} is not a language code CLDR knows ({exc})") from None


def gettext(*command: str) -> None:
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)}: {result.stderr.strip()}")


def _line_at(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def file_faults(path: Path) -> list[Finding]:
    """The first fault of the file as bytes (at most one finding: the rest may follow from it).

    A catalog that a translator's editor saved may not be the file GNU gettext expects: a
    UTF-8 byte-order mark or CRLF line endings (``make wrap-po`` removes them,
    :func:`normalise`); bytes that are not UTF-8 (a file saved as Latin-1 or GBK, which
    only the translator can mend); a last line without its newline (a file cut off).
    """
    data = path.read_bytes()
    if data.startswith(BOM):
        return [
            Finding(
                path, 1, "the file starts with a UTF-8 byte-order mark; 'make wrap-po' removes it"
            )
        ]
    crlf = data.find(b"\r\n")
    if crlf >= 0:
        return [
            Finding(
                path,
                _line_at(data, crlf),
                "Windows (CRLF) line endings; 'make wrap-po' converts them to LF",
            )
        ]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = _line_at(data, exc.start)
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return [
            Finding(
                path,
                line,
                f"byte 0x{data[exc.start]:02x} at column {column} is not UTF-8, which the "
                "header declares; the file was saved in another encoding (Latin-1, GBK?): "
                "save it as UTF-8",
            )
        ]
    if data and not data.endswith(b"\n"):
        return [
            Finding(
                path,
                _line_at(data, len(data)),
                "the last line has no newline: the file looks cut off; restore the rest of it",
            )
        ]
    return []


def msgfmt_check(path: Path) -> list[Finding]:
    """What GNU gettext itself refuses (syntax, a duplicate msgid, an entry without its
    ``msgstr``), each at its line, in words a translator can act on."""
    result = subprocess.run(
        ["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True
    )
    if result.returncode == 0:
        return []
    findings: list[Finding] = []
    for line in result.stderr.splitlines():
        match = re.match(rf"{re.escape(str(path))}:(\d+)(?::\d+)?: (.*)", line)
        if not match or match[2].startswith("warning:"):
            continue
        # "...but some messages have 2 plural forms", "... have only one plural form",
        # "... have only 2 plural forms".
        plurals = re.match(r"\.\.\.but some messages have (?:only )?(\d+|one) plural", match[2])
        if plurals and findings and findings[-1].message.startswith("msgfmt: nplurals ="):
            # "nplurals = 1..." at the header, "...but some messages have 2" at the message.
            header = findings.pop()
            findings.append(
                Finding(
                    path,
                    int(match[1]),
                    f"msgfmt: this message has {plurals[1].replace('one', '1')} plural "
                    f"form(s), but the header "
                    f"(line {header.line}) says {header.message[8:].rstrip('.')}: "
                    "give it one msgstr[n] per form",
                )
            )
        elif (
            match[2] == "syntax error"
            and findings
            and findings[-1].line == int(match[1])
            and re.match(r'msgfmt: keyword ".*" unknown', findings[-1].message)
        ):
            # What follows a quote that closed the string early reads as an unknown keyword.
            findings[-1].message = (
                "msgfmt: syntax error: a '\"' that is not escaped ends the string early; "
                'write it as \\" inside a string'
            )
        elif match[2].startswith("...") and findings:
            # "...this is the location of the first definition": part of the finding before.
            note = match[2].strip(".")
            if "first definition" in note:
                note = "first defined"
            findings[-1].message += f" ({note} at line {match[1]})"
        else:
            findings.append(Finding(path, int(match[1]), f"msgfmt: {match[2].rstrip('.')}"))
    return findings or [Finding(path, 1, f"msgfmt: {result.stderr.strip()}")]


def faults(path: Path) -> list[Finding]:
    """Why the file cannot be merged or checked further; empty when it can."""
    stat = path.stat()
    return list(_faults(path, stat.st_mtime_ns, stat.st_size))


@functools.cache
def _faults(path: Path, _mtime: int, _size: int) -> tuple[Finding, ...]:
    # Each tool asks for a catalog's faults before it reads it; msgfmt runs once per version.
    return tuple(file_faults(path) or msgfmt_check(path))


def readable(paths: list[Path]) -> list[Path]:
    """The catalogs among ``paths`` that parse (``faults`` names what is wrong with the rest)."""
    return [path for path in paths if not faults(path)]


def msgid_line(lines: list[str], start: int) -> int:
    """The line of the ``msgid`` of the entry that starts at line ``start``, counted from 1."""
    for number in range(max(start, 1), len(lines) + 1):
        if lines[number - 1].startswith(("msgid", "#~ msgid")):
            return number
    return start


def is_interface(path: Path) -> bool:
    """Whether ``path`` is one of the interface's catalogs (the theme's, the extensions', a
    package catalog's), whose messages are English and may be format strings."""
    return path.stem in project.interface_domains() and path.parent.name == "LC_MESSAGES"


def catalog_files(po_dir: Path) -> list[Path]:
    """Every catalog of a language: those under its directory (``locale/<language>/
    LC_MESSAGES``), and each interface catalog that a package holds for it (the extensions'
    labels, the lab's), where the book has none of its own."""
    found = sorted(po_dir.rglob("*.po"))
    root = project.find_root(po_dir)
    if root is not None and po_dir.name == "LC_MESSAGES":
        language = project.catalog_language(po_dir)
        for domain in project.interface_domains():
            extension = project.interface_catalog(root, language, domain)
            if extension.is_file() and extension.resolve() not in {f.resolve() for f in found}:
                found.append(
                    Path(os.path.relpath(extension)) if po_dir.is_absolute() is False else extension
                )
    return found


def normalise(path: Path) -> str | None:
    """Remove a byte-order mark and CRLF line endings; say what was done, if anything."""
    data = path.read_bytes()
    done = []
    if data.startswith(BOM):
        data = data[len(BOM) :]
        done.append("removed its byte-order mark")
    if b"\r\n" in data:
        data = data.replace(b"\r\n", b"\n")
        done.append("converted CRLF line endings to LF")
    if not done:
        return None
    path.write_bytes(data)
    return " and ".join(done)


def wrap(po: Path) -> None:
    """Wrap ``po`` as powrap does (``msgcat`` at its default width, ``WIDTH``), writing it only
    if that changes it: every page shown beside its translation depends on the catalog's
    file, and a catalog rewritten as it was (its time changed, not its text) would have
    each such page of every language read again at the next build."""
    with tempfile.TemporaryDirectory() as tmp:
        wrapped = Path(tmp) / po.name
        shutil.copyfile(po, wrapped)
        if powrap.fix_style([str(wrapped)], quiet=True):
            sys.exit(f"{po}: powrap could not wrap it")
        text = wrapped.read_text(encoding="utf-8")
    if text != po.read_text(encoding="utf-8"):
        write_text_atomically(po, text)


def wrap_faults(path: Path) -> list[Finding]:
    """``powrap --check``: the first line that wrapping would change, if any."""
    diff = io.StringIO()
    with contextlib.redirect_stderr(diff):
        would_rewrap, errors = powrap.check_style([str(path)], quiet=True, diff=True)
    if not would_rewrap and not errors:
        return []
    line, lines = 1, diff.getvalue().splitlines()
    for n, text in enumerate(lines):
        hunk = re.match(r"@@ -(\d+)", text)
        if hunk:
            context = itertools.takewhile(lambda t: t.startswith(" "), lines[n + 1 :])
            line = int(hunk[1]) + len(list(context))
            break
    return [
        Finding(path, line, f"not wrapped at {WIDTH} columns (powrap --check); run 'make wrap-po'")
    ]


def save_wrapped(catalog: polib.POFile, po: Path) -> None:
    """Save a catalog that polib changed, at the width every catalog is written at."""
    catalog.save(str(po))
    wrap(po)


def foreign_marks(po: polib.POFile) -> list[tuple[int, str]]:
    """What a merge tool other than msgmerge wrote into ``po``, as (line, what).

    Babel (``sphinx-intl update``) writes ``charset=utf-8`` and a ``Generated-By`` header,
    and flags every message with a ``%`` or ``{}`` in it as a Python format string; it
    also wraps at 76 columns, which :func:`wrap` mends.
    """
    marks = []
    if po.metadata.get("Content-Type", CHARSET) != CHARSET:
        marks.append((1, f"header Content-Type {po.metadata['Content-Type']!r}"))
    if "Generated-By" in po.metadata:
        marks.append((1, f"header Generated-By {po.metadata['Generated-By']!r}"))
    for entry in po:
        for flag in FORMAT_FLAGS:
            if flag in entry.flags:
                marks.append((entry_line(entry), f"flag {flag!r} on page text"))
    return marks


def tidy(path: Path) -> str | None:
    """Remove what ``foreign_marks`` finds; say what was done, if anything (an interface
    catalog's format flags are its own: msgfmt checks its placeholders by them)."""
    if is_interface(path):
        return None
    po = polib.pofile(str(path), wrapwidth=WIDTH)
    marks = foreign_marks(po)
    if not marks:
        return None
    if "Content-Type" in po.metadata:
        po.metadata["Content-Type"] = CHARSET
    po.metadata.pop("Generated-By", None)
    for entry in po:
        entry.flags = [flag for flag in entry.flags if flag not in FORMAT_FLAGS]
    po.save(str(path))
    return f"removed what another merge tool wrote ({len(marks)} mark(s): {marks[0][1]}, ...)"


def msgstr_line(lines: list[str], start: int) -> int:
    """The line of an entry's msgstr (what a translator edits), counted from 1."""
    for number in range(max(start, 1), len(lines) + 1):
        if lines[number - 1].startswith("msgstr"):
            return number
    return start


def shown(path: Path) -> str:
    """``path`` as a finding names it: relative to the current directory where it can be."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)
