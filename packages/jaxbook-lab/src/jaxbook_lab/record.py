"""Write an accelerator's outputs onto the pages, from a record of a real run there.

    jaxbook-lab record --backend tpu RECORD.json [...]

A record comes from ``jaxbook-lab bundle run --record`` on a machine of that
backend (with ``JAXBOOK_RUN_UNRECORDED=1``, so that the cells skipped there
for want of a record run too); it names the machine it ran on. For every
``testcode`` whose output there differed from the page, in the source
language (:mod:`jaxbook.backends` names the conditions):

- an ``unrecorded_on(backend, ...)`` condition of the cell is removed;
- a cell with one expected output keeps it for the backends it held on (the
  CPU, and each other recorded backend the cell is not marked unrecorded on),
  and gets a second, with what it printed on the new backend;
- a cell with per-backend outputs gets one more, or, where the new backend
  printed what one of them holds, that one names the new backend too.

Then the catalogs are merged (``jaxbook.i18n.catalogs.update_translations``,
what ``make update-po`` does) and each new output entry of the other
languages gets, as its translation, what the translated block printed there.
Records in which a block failed for a reason that is not the backend (another
Python or NumPy, say) must be left out first. Review the diff: this tool
records behavior, it does not judge it. A file that is not a record of
``jaxbook.formats.RECORD_FORMAT`` is refused before anything is written.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import polib

from jaxbook import project
from jaxbook.backends import KNOWN, backends_of, condition
from jaxbook.formats import FormatError, read_record
from jaxbook.i18n import catalogs, parsers
from jaxbook.i18n.pofile import save_wrapped
from jaxbook.project import SOURCE_LANGUAGE

CODE_DIRECTIVES = ("testcode", "testplot")


@dataclass
class Directive:
    """A doctest directive in a page's lines: where its options and its body are."""

    start: int  # the directive's own line
    options: int  # the first line after its options
    end: int  # the line after its body (for MyST, the closing fence)
    option_indent: str
    myst: bool

    def skipif(self, lines: list[str]) -> str | None:
        for line in lines[self.start + 1 : self.options]:
            if line.strip().startswith(":skipif:"):
                return line.strip()[len(":skipif:") :].strip()
        return None

    def kept_options(self, lines: list[str]) -> list[str]:
        return [
            line.strip()
            for line in lines[self.start + 1 : self.options]
            if line.strip() and not line.strip().startswith(":skipif:")
        ]

    def body(self, lines: list[str]) -> str:
        text = [line[len(self.option_indent) :] for line in lines[self.options : self.end]]
        return "\n".join(line.rstrip() for line in text).strip("\n")

    def set_skipif(self, lines: list[str], value: str | None) -> None:
        """Replace the ``:skipif:`` option (``None``: remove it)."""
        options = [
            line for line in lines[self.start + 1 : self.options] if line.strip()
        ]  # a MyST cell's blank line after its options is put back below
        kept = [line for line in options if not line.strip().startswith(":skipif:")]
        if value is not None:
            kept.insert(0, f"{self.option_indent}:skipif: {value}")
        if self.myst and kept and self.options < len(lines) and lines[self.options].strip():
            kept.append("")
        lines[self.start + 1 : self.options] = kept


def _directive(lines: list[str], block: parsers.Located, myst: bool) -> Directive:
    """Where ``block``'s options and body are in ``lines``."""
    start, body = block.line - 1, min(block.body - 1, len(lines))
    if myst:
        # The options are every line before the body (a blank one after them too); the
        # closing fence is the first line after the body that is not blank.
        end = body + block.lines
        while end < len(lines) and not lines[end].strip():
            end += 1
        return Directive(start, body, end, "", myst=True)
    # A reST directive's options end at the blank line before its body.
    options = body
    while options > start + 1 and not lines[options - 1].strip():
        options -= 1
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = body + block.lines if block.lines else options
    return Directive(start, options, end, " " * (indent + 3), myst=False)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _cells(
    lines: list[str], markdown: bool | None, at: int | None = None
) -> tuple[bool, list[tuple[Directive, list[Directive]]]]:
    """Whether the page is MyST, and its code cells (only the one at 0-based line ``at``, if
    given), each with the expected outputs that follow it, found by the book's locator
    (:func:`jaxbook.i18n.parsers.located`). Without ``markdown``, the page is MyST if read
    as MyST it has a code fence: read so, a reST page has none."""
    text = "\n".join(lines) + "\n"
    blocks = parsers.located(text, markdown=True) if markdown is not False else []
    if markdown is None:
        markdown = any(block.name in CODE_DIRECTIVES for block in blocks)
    if not markdown:
        blocks = parsers.located(text, markdown=False)
    # A MyST page's ``{eval-rst}`` content is reST.
    rest = parsers.eval_rst_lines(text) if markdown else set()
    directives = [_directive(lines, b, markdown and b.line not in rest) for b in blocks]
    cells = []
    for k, block in enumerate(blocks):
        if block.name not in CODE_DIRECTIVES or at not in (None, block.line - 1):
            continue
        code = directives[k]
        outputs: list[Directive] = []
        after = code.end + (1 if code.myst else 0)
        for other, directive in zip(blocks[k + 1 :], directives[k + 1 :], strict=True):
            # Only blank lines between, and for reST at the cell's indentation.
            if (
                other.name != "testoutput"
                or any(line.strip() for line in lines[after : directive.start])
                or (
                    not directive.myst
                    and _indent(lines[directive.start]) != _indent(lines[code.start])
                )
            ):
                break
            outputs.append(directive)
            after = directive.end + (1 if directive.myst else 0)
        cells.append((code, outputs))
    return markdown, cells


def cells_of(
    lines: list[str], markdown: bool | None = None
) -> list[tuple[Directive, list[Directive]]]:
    """Every code cell of a page's lines (reST or MyST) with the expected outputs after it."""
    return _cells(lines, markdown)[1]


def _new_output(lines: list[str], after: Directive, backend: str, text: str) -> list[str]:
    options = after.kept_options(lines)
    body = text.rstrip("\n").split("\n")
    if after.myst:
        return [
            "",
            "```{testoutput}",
            f":skipif: {condition([backend])}",
            *options,
            "",
            *[line.rstrip() for line in body],
            "```",
        ]
    directive_indent = after.option_indent[3:]
    return [
        "",
        f"{directive_indent}.. testoutput::",
        f"{after.option_indent}:skipif: {condition([backend])}",
        *[after.option_indent + option for option in options],
        "",
        *[(after.option_indent + line).rstrip() for line in body],
    ]


def add_backend_output(
    lines: list[str],
    testcode_line: int,
    backend: str,
    text: str,
    recorded: tuple[str, ...],
    markdown: bool | None = None,
) -> None:
    """Record ``text`` as what the cell at 1-based line ``testcode_line`` prints on
    ``backend``; ``recorded`` are the book's other recorded backends (the CPU first).
    ``markdown``: whether the page is MyST (by default, whether it has a code fence)."""
    myst, cells = _cells(lines, markdown, at=testcode_line - 1)
    if not cells:
        kind = "code fence" if myst else "code block"
        raise ValueError(f"line {testcode_line} is not a {kind} ({', '.join(CODE_DIRECTIVES)})")
    code, outputs = cells[0]
    if not outputs:
        raise ValueError(f"the testcode at line {testcode_line} has no testoutput of its own")
    own = code.skipif(lines) or ""
    held = [b for b in recorded if f'unrecorded_on("{b}"' not in own]
    text = "\n".join(line.rstrip() for line in text.rstrip("\n").split("\n"))
    per_backend = [(o, backends_of(o.skipif(lines))) for o in outputs]
    same = next((o for o, b in per_backend if b is not None and o.body(lines) == text), None)
    # From the bottom up, so that each edit leaves the lines above where they were.
    if same is not None:
        backends = backends_of(same.skipif(lines)) or frozenset()
        same.set_skipif(lines, condition(backends | {backend}))
    else:
        end = outputs[-1].end + (1 if outputs[-1].myst else 0)
        lines[end:end] = _new_output(lines, outputs[-1], backend, text)
        if all(b is None for _o, b in per_backend):
            outputs[-1].set_skipif(lines, condition(held))
    if f'unrecorded_on("{backend}"' in own:
        code.set_skipif(lines, None)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backend", required=True, choices=[b for b in KNOWN if b != "cpu"])
    parser.add_argument("records", nargs="+", type=Path)


def _recorded_backends(root: Path, backend: str) -> tuple[str, ...]:
    """The CPU and the backends ``conf.py`` names a recording for, but ``backend``."""
    from sphinx.config import Config
    from sphinx.util.tags import Tags

    config = Config.read(root, overrides={}, tags=Tags())
    config.add("jaxbook_recorded_on", {}, "env", frozenset({dict}))
    config.init_values()
    others = [b for b in config.jaxbook_recorded_on if b not in ("cpu", backend)]
    return ("cpu", *others)


def run(args: argparse.Namespace) -> int:
    root = project.root()
    records: dict[str, dict[tuple[str, int], str]] = {}
    for path in args.records:
        try:
            recorded = read_record(path)
        except FormatError as error:
            sys.exit(str(error))
        ran_on = recorded.get("machine", {}).get("backend")
        if ran_on != args.backend:
            sys.exit(
                f"{path}: a record of a run on {ran_on or 'an unnamed backend'}, "
                f"not on {args.backend}"
            )
        for language, blocks in recorded["blocks"].items():
            for block in blocks:
                if not block["passed"] and block["want"] is not None:
                    if block["line"] is None:
                        sys.exit(
                            f"{path}: {block['file']}: a block whose output differed has no "
                            "line number, so it cannot be placed on its page"
                        )
                    key = (block["file"], block["line"])
                    records.setdefault(language, {})[key] = block["got"]
    others = _recorded_backends(root, args.backend)
    source = records.get(SOURCE_LANGUAGE, {})
    for file in sorted({file for file, _ in source}):
        path = root / file
        lines = path.read_text(encoding="utf-8").splitlines()
        for _, line in sorted((key for key in source if key[0] == file), reverse=True):
            try:
                add_backend_output(
                    lines,
                    line,
                    args.backend,
                    source[(file, line)],
                    others,
                    markdown=path.suffix == ".md",
                )
            except ValueError as error:
                sys.exit(f"{file}:{line}: {error}")
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        count = sum(1 for key in source if key[0] == file)
        print(f"{file}: {count} {args.backend} output(s) recorded")
    if catalogs.update_translations(root, root / "_build" / "gettext", quiet=True):
        sys.exit("the pages are written but the catalogs are not updated (see above)")
    for language, outputs in records.items():
        if language == SOURCE_LANGUAGE:
            continue
        for catalog_path in sorted(project.catalog_dir(root, language).rglob("*.po")):
            catalog = polib.pofile(str(catalog_path))
            filled = 0
            for key, translated in outputs.items():
                if key not in source:
                    sys.exit(f"{key[0]}:{key[1]}: failed in {language} only; run the record again")
                wanted = "\n".join(line.rstrip() for line in source[key].rstrip("\n").split("\n"))
                for entry in catalog:
                    if entry.msgid == wanted and not entry.obsolete:
                        entry.msgstr = "\n".join(
                            line.rstrip() for line in translated.rstrip("\n").split("\n")
                        )
                        entry.flags = [flag for flag in entry.flags if flag != "fuzzy"]
                        entry.previous_msgid = None
                        filled += 1
            if filled:
                save_wrapped(catalog, catalog_path)
                where = catalog_path.relative_to(root)
                print(f"{where}: {filled} {args.backend} output(s) translated")
    return 0
