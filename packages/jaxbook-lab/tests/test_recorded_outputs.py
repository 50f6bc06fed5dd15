"""Every accelerator output on the pages is what a committed record says that code printed.

An output for a backend other than the CPU cannot be checked here: it is written onto
the page by ``jaxbook-lab record`` from a run on that backend. So each one is held to the
records the book commits for it (``records/<backend>/<language>.json``, made by ``jaxbook
bundle run --record`` there): the cell's code, in each language, is a block of that
language's record, and what the block printed there is, line for line, the output the page
shows. A cell edited since the run no longer matches its record, and must be run there
again (or marked ``unrecorded_on``).
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

from jaxbook.backends import backends_of
from jaxbook.formats import read_record
from jaxbook.project import (
    SOURCE_LANGUAGE,
    catalog_dir,
    find_root,
    languages,
    pinned_release,
)
from jaxbook_lab.record import cells_of

ROOT = find_root(Path(__file__).parent)
BACKENDS = sorted(path.name for path in (ROOT / "records").iterdir() if path.is_dir())


def _lines(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.rstrip("\n").split("\n"))


def recorded_outputs(backend: str) -> list[tuple[str, str, str]]:
    """(file, code, output) of every cell that shows an output on ``backend``, in the source."""
    found = []
    for path in sorted([*ROOT.glob("docs/**/*.rst"), *ROOT.glob("docs/**/*.md")]):
        lines = path.read_text(encoding="utf-8").splitlines()
        for code, outputs in cells_of(lines):
            for output in outputs:
                if backend in (backends_of(output.skipif(lines)) or ()):
                    file = path.relative_to(ROOT).as_posix()
                    found.append((file, code.body(lines), output.body(lines)))
    return found


def translations(language: str) -> dict[str, str]:
    found = {}
    for catalog in catalog_dir(ROOT, language).rglob("*.po"):
        for entry in polib.pofile(str(catalog)):
            if entry.msgstr and not entry.obsolete and "fuzzy" not in entry.flags:
                found[entry.msgid] = entry.msgstr
    return found


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("language", list(languages(ROOT)))
def test_each_output_for_an_accelerator_is_what_its_record_printed(backend, language):
    record = ROOT / "records" / backend / f"{language}.json"
    if not record.exists():
        # A language no run has recorded on this backend yet (a new translation): its pages
        # show the source's outputs there, never ones a translator typed.
        translated = translations(language)
        typed = [
            f"{file}: {output.splitlines()[0]!r}"
            for file, _code, output in recorded_outputs(backend)
            if translated.get(output, output) != output
        ]
        assert not typed, (
            f"{record.relative_to(ROOT)} does not exist, so no {backend} run printed these "
            f"{language} outputs; leave them untranslated until a run records them: {typed}"
        )
        return
    data = read_record(record)
    assert data["machine"]["backend"] == backend, record
    shown = recorded_outputs(backend)
    assert shown, f"no page shows an output for {backend}"
    translated = {} if language == SOURCE_LANGUAGE else translations(language)
    printed = {
        (block["file"], block.get("code", "")): _lines(block["got"])
        for block in data["blocks"][language]
    }
    for file, code, output in shown:
        code = translated.get(code, code)
        output = translated.get(output, output)
        assert (file, code) in printed, (
            f"{file}: a cell with a {backend} output is not in {record.name} as it is "
            f"now; run it on {backend} again"
        )
        assert printed[file, code] == _lines(output), (file, language)


def test_the_tpu_record_is_of_the_pinned_release_and_passed_everything():
    """Every example it ran passed; one it skipped had no TPU output on its page to hold
    (a cell newer than the run: the test above finds every TPU output in the record)."""
    for record in sorted((ROOT / "records" / "tpu").glob("*.json")):
        data = read_record(record)
        machine = data["machine"]
        assert machine["jax"] == machine["jaxlib"] == pinned_release(ROOT), record
        passed = re.fullmatch(r"(\d+) passed, 0 failed, \d+ skipped", machine["verdict"])
        assert passed, (record, machine["verdict"])
        ran = [block for blocks in data["blocks"].values() for block in blocks]
        assert int(passed[1]) == len(ran), record
