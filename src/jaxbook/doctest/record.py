"""Write another backend's outputs onto the pages, from a record of a real run there.

    jaxbook record --backend gpu [--wildcard 'NVIDIA H200=NVIDIA ...'] RECORD.json [...]

A record comes from ``jaxbook bundle run --record`` on a machine of
that backend (usually with ``JAXBOOK_RUN_UNRECORDED=1``, so that blocks
marked ``unrecorded_on(backend, ...)`` run too). For every ``testcode`` whose
output there differed from the page, in the source language:

- the block's ``unrecorded_on(backend, ...)`` condition is removed;
- its expected output gets ``:skipif: not ON_CPU``;
- a second expected output with ``:skipif: not ON_<BACKEND>`` holds what the
  block printed there. ``jaxbook.sphinxext.backend_tabs`` shows the two as tabs.

Then the catalogs are merged (``jaxbook.i18n.catalogs.update_translations``, what
``make update-po`` does) and each new output entry of
the other languages gets, as its translation, what the translated block
printed there. ``--wildcard OLD=NEW`` replaces text that names one machine
(a GPU model, say) in both languages before it is written; use it only for
such names. Records in which a block failed for a reason that is not the
backend (another Python or NumPy, say) must be left out of the record file
first. Review the diff: this tool records behavior, it does not judge it. A
file that is not a record of ``jaxbook.formats.RECORD_FORMAT`` is
refused before anything is written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polib

from jaxbook import project
from jaxbook.formats import FormatError, read_record
from jaxbook.i18n import catalogs
from jaxbook.i18n.pofile import save_wrapped
from jaxbook.myst import FENCE, fence_body, fence_end
from jaxbook.project import SOURCE_LANGUAGE

CODE_DIRECTIVES = (".. testcode::", ".. testplot::")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _options_end(lines: list[str], directive: int) -> int:
    i = directive + 1
    while i < len(lines) and lines[i].strip().startswith(":"):
        i += 1
    return i


def add_backend_output(lines: list[str], testcode_line: int, backend: str, text: str) -> None:
    """Edit the testcode at 1-based line ``testcode_line`` and its testoutput in place."""
    start = testcode_line - 1
    if not lines[start].lstrip().startswith(CODE_DIRECTIVES):
        raise ValueError(f"line {testcode_line} is not a code block ({', '.join(CODE_DIRECTIVES)})")
    unrecorded = f'unrecorded_on("{backend}"'
    for i in range(_options_end(lines, start) - 1, start, -1):
        if lines[i].strip().startswith(":skipif:") and unrecorded in lines[i]:
            del lines[i]
    directive_indent = _indent(lines[start])
    output = next(
        (
            i
            for i in range(start + 1, len(lines))
            if lines[i].lstrip().startswith((".. testoutput::", *CODE_DIRECTIVES))
            and _indent(lines[i]) == directive_indent
        ),
        None,
    )
    if output is None or not lines[output].lstrip().startswith(".. testoutput::"):
        raise ValueError(f"the testcode at line {testcode_line} has no testoutput of its own")
    options_end = _options_end(lines, output)
    option_indent = " " * (directive_indent + 3)
    kept = [
        line for line in lines[output + 1 : options_end] if not line.strip().startswith(":skipif:")
    ]
    lines[output + 1 : options_end] = [f"{option_indent}:skipif: not ON_CPU", *kept]
    end = _options_end(lines, output)
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > directive_indent):
        end += 1
    while not lines[end - 1].strip():
        end -= 1
    block = [
        "",
        " " * directive_indent + ".. testoutput::",
        f"{option_indent}:skipif: not ON_{backend.upper()}",
        *kept,
        "",
        *[(option_indent + line).rstrip() for line in text.rstrip("\n").split("\n")],
    ]
    lines[end:end] = block


def add_backend_output_markdown(
    lines: list[str], testcode_line: int, backend: str, text: str
) -> None:
    """``add_backend_output`` for a MyST page: the fences of the cell and its output."""
    start = testcode_line - 1
    code = FENCE.match(lines[start])
    if not code or code[3] not in ("testcode", "testplot"):
        raise ValueError(f"line {testcode_line} is not a code fence (testcode, testplot)")
    unrecorded = f'unrecorded_on("{backend}"'
    for i in range(fence_body(lines, start) - 1, start, -1):
        if lines[i].strip().startswith(":skipif:") and unrecorded in lines[i]:
            del lines[i]
    if fence_body(lines, start) == start + 1 and not lines[start + 1].strip():
        del lines[start + 1]  # the blank line that separated the options from the code
    after = fence_end(lines, start, code[2]) + 1
    found = next(
        ((i, m) for i in range(after, len(lines)) if (m := FENCE.match(lines[i])) and m[3]), None
    )
    if found is None or found[1][3] != "testoutput":
        raise ValueError(f"the testcode at line {testcode_line} has no testoutput of its own")
    output, fence = found
    body = fence_body(lines, output)
    kept = [line for line in lines[output + 1 : body] if not line.strip().startswith(":skipif:")]
    lines[output + 1 : body] = [":skipif: not ON_CPU", *kept]
    marks = fence[2]
    end = fence_end(lines, output, marks) + 1
    lines[end:end] = [
        "",
        lines[output],
        f":skipif: not ON_{backend.upper()}",
        *kept,
        "",
        *[line.rstrip() for line in text.rstrip("\n").split("\n")],
        marks,
    ]


def shown(text: str, wildcards: list[tuple[str, str]]) -> str:
    for old, new in wildcards:
        text = text.replace(old, new)
    return "\n".join(line.rstrip() for line in text.rstrip("\n").split("\n"))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backend", required=True, choices=["gpu"])
    parser.add_argument("--wildcard", action="append", default=[], metavar="OLD=NEW")
    parser.add_argument("records", nargs="+", type=Path)


def run(args: argparse.Namespace) -> int:
    root = project.root()
    wildcards = [tuple(item.split("=", 1)) for item in args.wildcard]
    records: dict[str, dict[tuple[str, int], str]] = {}
    for path in args.records:
        try:
            recorded = read_record(path)
        except FormatError as error:
            sys.exit(str(error))
        for language, blocks in recorded["blocks"].items():
            for block in blocks:
                if not block["passed"] and block["want"] is not None:
                    if block["line"] is None:
                        sys.exit(
                            f"{path}: {block['file']}: a block whose output differed has no "
                            "line number, so it cannot be placed on its page"
                        )
                    key = (block["file"], block["line"])
                    records.setdefault(language, {})[key] = shown(block["got"], wildcards)
    source = records.get(SOURCE_LANGUAGE, {})
    for file in sorted({file for file, _ in source}):
        path = root / file
        lines = path.read_text(encoding="utf-8").splitlines()
        for _, line in sorted((key for key in source if key[0] == file), reverse=True):
            try:
                add = add_backend_output_markdown if path.suffix == ".md" else add_backend_output
                add(lines, line, args.backend, source[(file, line)])
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
                for entry in catalog:
                    if entry.msgid == source[key] and not entry.obsolete:
                        entry.msgstr = translated
                        entry.flags = [flag for flag in entry.flags if flag != "fuzzy"]
                        entry.previous_msgid = None
                        filled += 1
            if filled:
                save_wrapped(catalog, catalog_path)
                where = catalog_path.relative_to(root)
                print(f"{where}: {filled} {args.backend} output(s) translated")
    return 0
