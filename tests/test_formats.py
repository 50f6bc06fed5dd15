"""Declared JSON formats: a file of another format number or shape is refused in one sentence."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import get_args, get_type_hints

import pytest

from jaxbook import formats
from pagerun import blocks

ROOT = Path(__file__).resolve().parents[1]


# A schema of every kind the definitions use: types, enums, unions, nullable values, required
# and optional keys, maps with restricted keys, nested objects.
INNER = {
    "type": "object",
    "required": ["name"],
    "additionalProperties": False,
    "properties": {"name": {"type": "string"}, "size": {"type": "integer"}},
}
OTHER = {
    "type": "object",
    "required": ["path", "lines"],
    "additionalProperties": False,
    "properties": {"path": {"type": "string"}, "lines": {"type": "integer"}},
}
SHAPE = {
    "type": "object",
    "required": ["format", "counts", "either", "kind", "ratio", "items", "by_name", "note"],
    "additionalProperties": False,
    "properties": {
        "format": {"type": "integer"},
        "counts": {
            "type": "object",
            "propertyNames": {"enum": ["x", "y"]},
            "additionalProperties": {"type": "integer"},
        },
        "either": {"type": "array", "items": {"anyOf": [INNER, OTHER]}},
        "kind": {"enum": ["a", "b"]},
        "ratio": {"type": "number"},
        "items": {"type": "array", "items": INNER},
        "by_name": {
            "type": "object",
            "additionalProperties": {"anyOf": [INNER, {"type": "string"}]},
        },
        "note": {"type": ["string", "null"]},
    },
}

GOOD = {
    "format": 3,
    "counts": {"x": 1},
    "either": [{"name": "n"}, {"path": "p", "lines": 2}],
    "kind": "a",
    "ratio": 1,
    "items": [{"name": "x"}, {"name": "y", "size": 2}],
    "by_name": {"one": {"name": "z"}, "two": "text"},
    "note": None,
}


def load(tmp_path: Path, data: object) -> object:
    path = tmp_path / "data.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return formats.load(path, SHAPE, 3, "a test file", "write it again")


def test_a_file_of_the_declared_format_and_shape_is_read(tmp_path):
    assert load(tmp_path, GOOD) == GOOD


def test_an_extension_reads_a_file_once_per_change_and_is_told_what_is_wrong(tmp_path, monkeypatch):
    """``read_checked``: a long-lived build process (the warm doctest, the live preview)
    validates a file once, and again when it changes; a bad file is its FormatError."""
    monkeypatch.setitem(formats.KINDS, "test", (SHAPE, 3, "a test file", "write it again"))
    reads = []
    real = formats.load
    monkeypatch.setattr(formats, "load", lambda *args: reads.append(args[0]) or real(*args))
    path = tmp_path / "data.json"
    assert formats.read_checked("test", path) is None
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    first = formats.read_checked("test", path)
    assert first == GOOD
    assert formats.read_checked("test", path) is first
    assert reads == [path]
    path.write_text("{", encoding="utf-8")
    later = path.stat().st_mtime + 1
    os.utime(path, (later, later))
    error = formats.read_checked("test", path)
    assert isinstance(error, formats.FormatError)
    assert str(error).startswith(f"{path}: not a test file: not JSON")
    assert reads == [path, path]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"format": 2}, "it is of format 2"),
        ({"format": True}, "it is of format true"),
        ({"format": ...}, "it has no format number"),
        ({"kind": "c"}, '["kind"] is "c", not "a" or "b"'),
        ({"ratio": "1"}, '["ratio"] is a string, not a number'),
        ({"ratio": False}, '["ratio"] is a boolean, not a number'),
        ({"items": {}}, '["items"] is an object, not a list'),
        ({"items": [{"name": "x"}, {}]}, '["items"][1] has no "name"'),
        (
            {"items": [{"name": "x", "size": 1.5}]},
            '["items"][0]["size"] is a number, not an integer',
        ),
        ({"items": [{"name": "x", "extra": 1}]}, '["items"][0] has an unknown field "extra"'),
        ({"by_name": {"one": 1}}, '["by_name"]["one"] is an integer, not an object or a string'),
        (
            {"by_name": {"one": {"name": 1}}},
            '["by_name"]["one"]["name"] is an integer, not a string',
        ),
        ({"note": ...}, 'the top level has no "note"'),
        ({"counts": {"z": 1}}, '["counts"] has the key "z", not "x" or "y"'),
        ({"either": [{"path": "p"}]}, '["either"][0] has no "lines"'),
        (
            {"either": [{"path": "p", "name": "n"}]},
            '["either"][0] is an object of none of its 2 shapes',
        ),
        ({"more": 1}, 'the top level has an unknown field "more"'),
    ],
)
def test_another_format_or_shape_is_one_sentence_naming_the_file(tmp_path, change, problem):
    data = {key: value for key, value in {**GOOD, **change}.items() if value is not ...}
    with pytest.raises(formats.FormatError) as refused:
        load(tmp_path, data)
    path = tmp_path / "data.json"
    assert str(refused.value) == (
        f"{path}: not a test file of format 3 ({problem}); write it again"
    )
    assert refused.value.location == f"{path}:1"


def test_a_file_that_is_not_json_or_not_an_object_is_refused(tmp_path):
    with pytest.raises(formats.FormatError, match=r"not a test file: not JSON \(Expecting"):
        load(tmp_path, "{\n oops")
    with pytest.raises(formats.FormatError, match=r"\(the top level is a list, not an object\)"):
        load(tmp_path, [])
    with pytest.raises(formats.FormatError, match=r": cannot be read \(No such file"):
        formats.load(tmp_path / "missing.json", SHAPE, 3, "a test file", "write it again")


def read_kind(kind: str):
    """The reader of a kind that the book reads through ``formats.read_checked`` alone."""
    return lambda path: formats.load(path, *formats.KINDS[kind])


READERS = {
    "docs/ch01/release-drift.json": (formats.read_drift, formats.DRIFT_FORMAT),
    "docs/release-evidence.json": (read_kind("evidence"), formats.EVIDENCE_FORMAT),
}


@pytest.mark.parametrize("name", READERS)
def test_the_committed_data_is_of_its_declared_format(name):
    reader, declared = READERS[name]
    assert reader(ROOT / name)["format"] == declared


@pytest.mark.parametrize(
    ("reader", "what", "remedy", "declared"),
    [
        (formats.read_bundle, "a doctest bundle", "export it again with make doctest-bundle", 1),
        (
            formats.read_record,
            "a run record",
            "record it again with jaxbook-lab bundle run --record",
            2,
        ),
        (formats.read_drift, "a drift file", "write it again with make release-report", 4),
        (read_kind("evidence"), "an evidence file", "write it again with make evidence", 1),
        (read_kind("places"), "the book's places", "build the book again with make html", 1),
    ],
)
def test_each_reader_names_its_file_its_format_and_its_remedy(
    tmp_path, reader, what, remedy, declared
):
    path = tmp_path / "old.json"
    path.write_text('{"format": 0}', encoding="utf-8")
    with pytest.raises(formats.FormatError) as refused:
        reader(path)
    assert str(refused.value) == (
        f"{path}: not {what} of format {declared} (it is of format 0); {remedy}"
    )
    path.write_text(f'{{"format": {declared}}}', encoding="utf-8")
    with pytest.raises(
        formats.FormatError, match=rf"^{path}: not {what} of format {declared} \(the top"
    ):
        reader(path)


SOURCES = f"{ROOT / 'src'}:{ROOT / 'packages' / 'pagerun' / 'src'}"
READ_ON_AN_OLDER_PYTHON = """
import sys
from pathlib import Path
# The packages' sources (the book's and pagerun's, whose blocks it declares): with -I, the
# standard library alone.
sys.path[:0] = sys.argv[1].split(":")
from jaxbook import formats
for name in sys.argv[2:]:
    kind = "drift" if "drift" in name else "evidence"
    print(name, formats.load(Path(name), *formats.KINDS[kind])["format"])
"""


def test_the_formats_read_the_committed_data_on_an_older_python(older_python):
    """The bundle runs where old JAX releases run (Python 3.9 and newer): the module imports
    there with the standard library alone, and reads the files it declares."""
    names = [str(ROOT / name) for name in READERS]
    result = subprocess.run(
        [older_python, "-I", "-c", READ_ON_AN_OLDER_PYTHON, SOURCES, *names],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        word
        for name, (_reader, number) in READERS.items()
        for word in (str(ROOT / name), str(number))
    ]


def test_the_schemas_are_valid_json_schemas():
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(formats.schemas())


OBJECTS = [
    name for name, schema in formats.schemas()["$defs"].items() if schema.get("type") == "object"
]


# A page's code (Block, Page, RecordedBlock) is declared apart, for the engine; the rest here.
PAGE_CODE = ["Block", "Page", "RecordedBlock"]


@pytest.mark.parametrize("name", OBJECTS)
def test_each_typed_declaration_has_the_keys_of_its_schema(name):
    """The code is typed with the TypedDicts, the files checked with the schema: they agree."""
    schema = formats.schemas()["$defs"][name]
    declared = getattr(blocks if name in PAGE_CODE else formats, name)
    assert set(get_type_hints(declared)) == set(schema["properties"])
    assert set(declared.__required_keys__) == set(schema["required"])


def test_the_bundle_and_the_record_hold_the_engines_page_code():
    """formats names a page's code as pagerun.blocks declares it, which the schema checks."""
    assert {"Block", "Page", "RecordedBlock"} <= set(OBJECTS)
    assert get_type_hints(formats.Bundle)["pages"] == list[blocks.Page]
    assert get_type_hints(formats.Record)["blocks"] == dict[str, list[blocks.RecordedBlock]]


def test_the_outcomes_are_the_schemas():
    assert (
        formats.schemas()["$defs"]["Outcome"]["enum"]
        == formats.OUTCOMES
        == list(get_args(formats.Outcome))
    )


def test_the_committed_records_are_of_their_format():
    records = sorted(ROOT.glob("records/*/*.json"))
    assert records
    for path in records:
        assert formats.read_record(path)["format"] == formats.RECORD_FORMAT


def test_without_jsonschema_only_the_format_number_is_checked(tmp_path, monkeypatch):
    """Where the bundle runs with JAX alone, a file of the right number is read as it is."""
    monkeypatch.setattr(formats, "checks_shapes", lambda: False)
    assert load(tmp_path, {"format": 3}) == {"format": 3}
    with pytest.raises(formats.FormatError, match=r"\(it is of format 2\)"):
        load(tmp_path, {"format": 2})
