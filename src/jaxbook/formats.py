"""The JSON files that pass between the book and its lab: each a JSON Schema with a format number.

Each file is declared once here, so that the book reads what the lab writes without
importing the lab: a definition in ``formats.schema.json`` (``SCHEMA_FILE``), a ``TypedDict``
of the same name, and a format number. The files are the doctest bundle (:class:`Bundle`),
the run record (:class:`Record`), a chapter's drift data (``DriftData``), the release
evidence (``Evidence``) and the book's places (``BookPlaces``). Every reader goes through
:func:`load`, which raises :class:`FormatError` for another format number or a shape the
schema rejects.

At import time this module needs only the standard library and :mod:`pagerun.blocks`: it
runs where the bundle runs, on the Python of an old JAX release (3.9 and newer).
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import tokenize
from pathlib import Path
from typing import Any, Literal, TypedDict, Union, get_args

# A page's code, as the bundle carries it and the record answers it (pagerun.blocks). Not under
# TYPE_CHECKING: get_type_hints() resolves Bundle and Record in this module.
from pagerun.blocks import Page, RecordedBlock

# The definitions of every file's shape, read where jsonschema checks one. Each TypedDict
# below, of the same name, types the code that reads or writes the file (mypy);
# tests/test_formats.py holds each to its schema: the same keys, the same required ones.
SCHEMA_FILE = Path(__file__).with_name("formats.schema.json")

# -- the doctest bundle and the run record --------------------------------------------

BUNDLE_FORMAT = 1
RECORD_FORMAT = 2


class Bundle(TypedDict):
    """``<language>.json``: every doctest of one language. Written by ``jaxbook-lab bundle
    export``, read by ``jaxbook-lab bundle run`` and ``jaxbook-lab drift``."""

    format: int  # BUNDLE_FORMAT
    language: str
    flags: list[str]  # doctest_default_flags, by name
    global_setup: str
    global_cleanup: str
    pages: list[Page]


class Machine(TypedDict):
    """Where a record was made, as the run itself found it."""

    backend: str  # jax.default_backend(): cpu, gpu, tpu
    device: str  # the first device's kind ("TPU v5 lite", "NVIDIA H200", "cpu")
    platform: str  # what ran the backend: its plugin ("libtpu 0.0.50.1"), or jaxlib
    python: str  # "3.13.0"
    jax: str
    jaxlib: str
    numpy: str
    date: str  # ISO, the day of the run
    verdict: str  # the run's last line: "220 passed, 0 failed, 0 skipped"


# Optional keys go in a total=False base class, which Python 3.9 reads (where the bundle runs).
class _RecordDetail(TypedDict, total=False):
    machine: Machine  # the bundle's runs say where they ran


class Record(_RecordDetail):
    """``bundle run --record`` (and ``make doctest``'s record): per language, every block
    that ran, in page order. Read by ``jaxbook-lab record`` and ``jaxbook-lab drift``."""

    format: int  # RECORD_FORMAT
    blocks: dict[str, list[RecordedBlock]]


# -- a chapter's drift data -------------------------------------------------------------

DRIFT_FORMAT = 4

# What an example did on another release: printed what the page shows, printed something
# else, emitted a warning, raised another exception, failed an assert, could not run (the
# release lacks an API it uses), or was skipped (its :skipif: holds there).
Outcome = Literal["same", "output", "warns", "exception", "assert", "cannot-run", "skipped"]
OUTCOMES: list[str] = list(get_args(Outcome))


class _RunDetail(TypedDict, total=False):
    detail: str  # the diff, the exception or the warning
    cut: int  # how many lines of the diff were left out


class Run(_RunDetail):
    """A result that runs of an example in one language had (each result once: a run
    again with the same result changes nothing in the file)."""

    language: str
    outcome: Outcome


class Example(TypedDict):
    """One example of the chapter, at its place, as it ran on one release.

    It is known by its code in the book's source language (``code_digest()`` of the
    code and the output the page expects), so a translation never makes the data
    older than the pages. Its runs are those of every language (each edition's run
    is a run of the example: a translated string does not change what it checks) and
    of every ``make release-report`` since its code last changed; ``runs`` holds each
    result they had once. More than one outcome is an example whose result varies
    from run to run.
    """

    page: str  # the document it is on (a file may be included by two)
    file: str  # relative to the project
    line: int | None
    code: str  # code_digest() of the example in the source language
    runs: list[Run]


class ReleaseDrift(TypedDict):
    environment: str  # "Python 3.13, jax==0.4.38, ..."
    device: str  # where it ran: the kind of the release's first device ("cpu")
    date: str  # ISO, the day of the newest run kept
    examples: list[Example]  # every example of the chapter, in page order


DriftData = TypedDict(
    "DriftData",
    {"format": int, "generated by": str, "releases": dict[str, ReleaseDrift]},
)
DriftData.__doc__ = """A chapter's drift data: every example of the chapter on each release kept.

The file a chapter's ``drift-report`` directive names: written by ``jaxbook-lab drift --save``
(``make release-report``), read by it and by :mod:`jaxbook.sphinxext.drift_report`."""


def code_digest(code: str, expected: str = "") -> str:
    """A short name for an example: its code and the output the page expects of it, the
    same in the drift data and in the build.

    Comments are left out: a comment edited (or translated) does not change what a
    release prints, and does not make the drift data older than the page. The expected
    output is in: a release's run compared with an output the page no longer shows
    would print a difference against text the reader cannot find.
    """
    output = "\n".join(" ".join(line.split()) for line in expected.strip().splitlines())
    text = _without_comments(code.strip()) + ("\n\0\n" + output if output else "")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _without_comments(code: str) -> str:
    try:
        tokens = [
            (token.type, token.string)
            for token in tokenize.generate_tokens(io.StringIO(code).readline)
            if token.type != tokenize.COMMENT
        ]
        # Types and strings only: the spaces a comment took up are not kept either.
        return tokenize.untokenize(tokens)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return code  # not Python (a doctest block with prompts): as it is


# -- the evidence data ------------------------------------------------------------------

EVIDENCE_FORMAT = 1


class Answer(TypedDict):
    """What one release answered to one probe (``jaxbook_lab.releases.probes``)."""

    key: str  # what is compared between releases
    shown: str  # what a reader saw


class Visited(TypedDict):
    environment: str
    answers: dict[str, Answer]  # probe -> its answer


# A release that would not install, and why.
Uninstallable = TypedDict("Uninstallable", {"cannot install": str})


class Shown(TypedDict):
    """A run of visited releases that showed the same text."""

    first: str
    last: str
    text: str


class Era(TypedDict):
    """The releases from ``first`` to ``last`` answered ``key``."""

    first: str
    last: str
    key: str
    shown: list[Shown]


class ProbeEvidence(TypedDict):
    question: str
    sentences: dict[str, str]  # key (or "*") -> English msgid (PROBE_PHRASES)
    eras: list[Era]  # oldest first


# What each probe's answers mean, as phrases of the update-notes table: the book's words, which
# its "Changed in" cells show (jaxbook.sphinxext.evidence_column, through _eras) and its
# catalog translates (jaxbook.pot, where jaxbook.sphinxext.interface extracts them from this
# assignment); ``jaxbook-lab evidence`` writes each probe's into the evidence file, its
# ``sentences``. Each says what holds on a release that gave the answer (the key: a probe of
# the lab, jaxbook_lab.releases.probes, which every probe here must name), in the present
# tense, starting in lower case, without a full stop. ````code```` becomes a code span,
# ``%(shown)s`` what the release showed (in full, as code), ``%(listed)s`` the names it
# showed, as a list of code spans, and "*" is the phrase for any key a probe's table does not
# name; where a cell lists older answers, a "*" phrase is shortened to what was shown.
PROBE_PHRASES: dict[str, dict[str, str]] = {
    "dot-value": {"*": "``jnp.dot(x, x)`` gives %(shown)s"},
    "threefry-partitionable-default": {
        "False": "``jax_threefry_partitionable`` is off by default",
        "True": "``jax_threefry_partitionable`` is on by default",
        "absent": "there is no ``jax_threefry_partitionable`` flag",
    },
    "device-method": {
        "method": "``x.device()`` is a method that returns the device",
        "deprecated method": "``x.device()`` works but warns that it is deprecated",
        "AttributeError": "arrays have no ``device`` attribute",
        "TypeError": "``x.device`` is an attribute, and calling it raises ``TypeError``",
    },
    "array-type": {"*": "``type(x)`` is %(shown)s"},
    "devicearray-name": {
        "present": "``jnp.DeviceArray`` exists",
        "removed": "``jnp.DeviceArray`` no longer exists",
    },
    "typed-keys": {
        "present": "``jax.random.key`` exists",
        "absent": "there is no ``jax.random.key``",
    },
    "prngkey-warning": {
        "silent": "``jax.random.PRNGKey`` gives no warning",
        "warns": "``jax.random.PRNGKey`` warns: %(shown)s",
    },
    "shard-map-top-level": {
        "present": "``jax.shard_map`` exists",
        "absent": "there is no top-level ``jax.shard_map``",
    },
    "pmap-doc": {
        "current": "the documentation of ``jax.pmap`` begins %(shown)s",
        "old interface": "the documentation of ``jax.pmap`` calls it the “old way” of "
        "doing a parallel map and points to ``jax.shard_map``",
    },
    "jaxlib-with-jax": {
        "no": "``pip install jax`` does not install jaxlib",
        "yes": "``pip install jax`` also installs jaxlib",
    },
    "cuda-extras": {"*": "the CUDA extras are %(listed)s"},
    "cuda-find-links": {
        "needs -f": "every CUDA extra needs the ``-f`` download page",
        "some need -f": "only ``jax[cuda12]`` installs from the package registry",
        "registry only": "every CUDA extra installs from the package registry alone",
        "no CUDA extra": "the release has no CUDA extra",
    },
    "requires-python": {"*": "JAX requires Python %(minimum)s or later"},
    "committed-devices": {
        "one-device": "the machine has a single device, so this cannot be tried",
        "no-error": "adding the two arrays works",
        "ValueError": "adding the two arrays raises ``ValueError``",
        "*": "adding the two arrays raises %(shown)s",
    },
    "empty-uninitialized": {
        "zeros": "``jnp.empty`` and ``jnp.empty_like`` give zeros on every platform",
        "uninitialized": "``jnp.empty`` and ``jnp.empty_like`` leave their arrays "
        "uninitialized on TPU and GPU",
        "*": "``jnp.empty`` and ``jnp.empty_like`` give %(shown)s",
    },
    "key-dtype": {
        "accepted": "``jax.random.key`` takes the PRNG implementation as ``dtype=``",
        "no jax.random.key": "there is no ``jax.random.key``",
        "*": '``jax.random.key(0, dtype="rbg")`` raises %(shown)s',
    },
    "debug-key-reuse": {
        "both": "``jax.debug_key_reuse`` and the ``jax_debug_key_reuse`` flag exist",
        "flag only": "only the ``jax_debug_key_reuse`` flag exists",
        "context manager only": "only ``jax.debug_key_reuse`` exists",
        "absent": "there is no key-reuse check",
    },
    "num-cpu-devices-config": {
        "4 devices": "``jax_num_cpu_devices`` sets the number of CPU devices",
        "*": "setting ``jax_num_cpu_devices`` gives %(shown)s",
    },
    "num-cpu-devices-variable": {
        "4 devices": "``JAX_NUM_CPU_DEVICES=4`` gives four CPU devices",
        "1 devices": "``JAX_NUM_CPU_DEVICES`` has no effect",
        "*": "with ``JAX_NUM_CPU_DEVICES=4``, JAX gives %(shown)s",
    },
    "make-mesh-axis-types": {
        "Explicit": "``jax.make_mesh`` makes explicit axes by default",
        "Auto": "``jax.make_mesh`` makes automatic axes by default",
        "no jax.make_mesh": "there is no ``jax.make_mesh``",
        "no axis types": "a mesh has no axis types",
        "*": "``jax.make_mesh`` gives %(shown)s by default",
    },
    "p-top-level": {
        "present": "``jax.P`` exists",
        "absent": "there is no top-level ``jax.P``",
    },
    "set-mesh-top-level": {
        "present": "``jax.set_mesh`` exists",
        "absent": "there is no top-level ``jax.set_mesh``",
    },
    "device-put-replicated": {
        "present": "``jax.device_put_replicated`` and ``jax.device_put_sharded`` exist",
        "deprecated": "``jax.device_put_replicated`` warns that it is deprecated",
        "removed": "``jax.device_put_replicated`` and ``jax.device_put_sharded`` no longer exist",
        "*": "``jax.device_put_replicated`` raises %(shown)s",
    },
    "threefry-partitionable-context": {
        "context manager": "``with jax.threefry_partitionable(True):`` turns the flag on "
        "inside the block",
        "absent": "there is no ``jax.threefry_partitionable``",
        "*": "``jax.threefry_partitionable(True)`` gives %(shown)s",
    },
    "enable-x64-context": {
        "context manager": "``with jax.enable_x64(True):`` turns on 64-bit types inside the block",
        "absent": "there is no top-level ``jax.enable_x64``",
        "*": "``jax.enable_x64(True)`` gives %(shown)s",
    },
}

Evidence = TypedDict(
    "Evidence",
    {
        "format": int,
        "generated by": str,
        "method": str,
        "range": list[str],  # the first release that installed, and the locked one
        # Union, not |: this is evaluated as the module is imported, on Python 3.9 too.
        "releases": dict[str, Union[Visited, Uninstallable]],  # noqa: UP007
        "probes": dict[str, ProbeEvidence],
    },
)
Evidence.__doc__ = """``docs/release-evidence.json``: every visited release, every probe's eras.

Written by ``jaxbook-lab evidence``, read by :mod:`jaxbook.sphinxext.evidence_column`; the
phrases it carries for each probe are the book's words, ``PROBE_PHRASES``, which the book's
catalog translates."""


# -- the book's places --------------------------------------------------------------

PLACES_FORMAT = 1

InlineKind = Literal["text", "literal", "emphasis", "strong"]


class Inline(TypedDict):
    """A piece of an update note's point: plain text, or text set as code, emphasis or
    strong."""

    kind: InlineKind
    text: str


class NotePlace(TypedDict):
    page: str  # the docname of a page the note stands on
    anchor: str  # the note's anchor there


class NoteRow(TypedDict):
    """An update note, as the row of its table numbers it."""

    id: str
    number: int  # from 1, in the table
    point: list[Inline]
    anchor: str  # the row's, on the table's page
    notes: list[NotePlace]  # every place of the note, in reading order
    probes: list[str]  # the probes of its :evidence:, in their order
    old: dict[str, str]  # probe -> the old answer the note claims (:old:)


class ExamplePlace(TypedDict):
    """Where an example stands on its page."""

    line: int | None
    code: str  # code_digest() of the example in the source language
    anchor: str  # the label right before it, or its section's id
    section: str  # its section's title
    nth: int  # its place among its section's examples, from 1
    of: int


class BookPage(TypedDict):
    docname: str
    title: str
    chapter: str  # its directory, which the generated pages call its chapter ("" at the top)
    examples: list[ExamplePlace]  # in page order


BookPlaces = TypedDict(
    "BookPlaces",
    {
        "format": int,
        "generated by": str,
        "language": str,
        "pages": list[BookPage],  # every page of the book, in reading order
        "update notes": dict[str, list[NoteRow]],  # table docname -> its rows, in order
    },
)
BookPlaces.__doc__ = """``book-places.json``: what the book's build of one language publishes of
its pages, for the lab's report in the guides, a project apart. Written by
:mod:`jaxbook.sphinxext.places`."""


# Each kind of file ``load`` reads: its schema, its format, what it is, how to get one that
# fits (``load``'s arguments after the path).
KINDS: dict[str, tuple[str, int, str, str]] = {
    "bundle": (
        "Bundle", BUNDLE_FORMAT, "a doctest bundle", "export it again with make doctest-bundle"
    ),
    "record": (
        "Record", RECORD_FORMAT, "a run record",
        "record it again with jaxbook-lab bundle run --record",
    ),
    "drift": ("DriftData", DRIFT_FORMAT, "a drift file", "write it again with make release-report"),
    "evidence": (
        "Evidence", EVIDENCE_FORMAT, "an evidence file", "write it again with make evidence"
    ),
    "places": (
        "BookPlaces", PLACES_FORMAT, "the book's places", "build the book again with make html"
    ),
}  # fmt: skip


def read_bundle(path: Path) -> Bundle:
    return load(path, *KINDS["bundle"])


def read_record(path: Path) -> Record:
    return load(path, *KINDS["record"])


def recorded_on(path: Path) -> dict[str, str]:
    """Where the outputs of a committed record ran, as ``conf.py``'s ``jaxbook_recorded_on``
    gives it for a backend: device, platform, Python, JAX and date."""
    record = read_record(path)
    if "machine" not in record:
        raise FormatError(path, "a run record that does not say where it ran")
    machine = record["machine"]
    return {key: machine[key] for key in ("device", "platform", "python", "jax", "date")}


def read_drift(path: Path) -> DriftData:
    return load(path, *KINDS["drift"])


def read_checked(kind: str, path: Path) -> Any:
    """For an extension: the data of ``path``, a file of ``kind`` (a key of ``KINDS``), or
    the :class:`FormatError` that says what is wrong with it, to warn with; None without a
    file. Each file is read and validated once per change (its time), not at every build of
    a long-lived process (the warm doctest, the live preview): 0.2 s a drift file."""
    return _checked(kind, path, path.stat().st_mtime) if path.exists() else None


@functools.lru_cache(maxsize=128)
def _checked(kind: str, path: Path, stamp: float) -> Any:
    try:
        return load(path, *KINDS[kind])
    except FormatError as error:
        return error


# -- reading --------------------------------------------------------------------------


class FormatError(ValueError):
    """A file of another format or shape; ``str()`` is one sentence that starts with the file.

    A command that reads the file exits with the sentence; an extension warns with it, at
    the file, and goes on as without the file."""

    def __init__(self, path: Path, sentence: str, line: int = 1) -> None:
        super().__init__(f"{path}: {sentence}")
        self.path = path
        self.sentence = sentence  # without the file, for a reader that names it apart
        self.line = line

    @property
    def location(self) -> str:
        """``file:line``, as ``sphinx.util.logging`` takes a location that is not a document."""
        return f"{self.path}:{self.line}"


def load(path: Path, schema: Any, number: int, what: str, remedy: str) -> Any:
    """The data of ``path``, ``what`` (``"a doctest bundle"``) of format ``number`` and of
    ``schema`` (the name of a definition of ``SCHEMA_FILE``, or a JSON Schema); else
    FormatError.

    ``remedy`` ends the sentence: how to get a file that fits (``export it again``).

    A writer puts ``"format": <number>`` in; a change of shape that an older reader would
    misread takes the next number. Where jsonschema is not installed (where the bundle
    runs), only the format number is checked.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise FormatError(path, f"cannot be read ({error.strerror or error}); {remedy}") from None
    try:
        data = json.loads(text)
    except ValueError as error:
        line = getattr(error, "lineno", 1)
        reason = getattr(error, "msg", str(error))
        raise FormatError(
            path, f"not {what}: not JSON ({reason} at line {line}); {remedy}", line
        ) from None
    problem = format_problem(data, number)
    if problem is None and checks_shapes():
        problem = shape_problem(data, schema)
    if problem is not None:
        raise FormatError(path, f"not {what} of format {number} ({problem}); {remedy}")
    return data


def problem(data: Any, kind: str) -> str | None:
    """What in ``data``, to be written as a file of ``kind`` (a key of ``KINDS``), does not
    fit that kind's format number and schema, as ``load`` would say it; None where all does
    (or where jsonschema is not installed, whatever the shape)."""
    schema, number, _what, _remedy = KINDS[kind]
    found = format_problem(data, number)
    if found is None and checks_shapes():
        found = shape_problem(data, schema)
    return found


def format_problem(data: Any, number: int) -> str | None:
    if not isinstance(data, dict):
        return f"the top level is {_a(data)}, not an object"
    if "format" not in data:
        return "it has no format number"
    if data["format"] != number or isinstance(data["format"], bool):
        return f"it is of format {json.dumps(data['format'])}"
    return None


@functools.cache
def checks_shapes() -> bool:
    """Whether jsonschema is there to check a file's shape (not where the bundle runs)."""
    try:
        import jsonschema  # noqa: F401
    except ImportError:
        return False
    return True


@functools.cache
def schemas() -> dict[str, Any]:
    """``SCHEMA_FILE``, read once."""
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def _validator(schema: Any) -> Any:
    from jsonschema import Draft202012Validator

    if isinstance(schema, str):
        return _named_validator(schema)
    return Draft202012Validator(schema)


@functools.cache
def _named_validator(name: str) -> Any:
    from jsonschema import Draft202012Validator

    root = schemas()
    if name not in root["$defs"]:
        raise KeyError(f"formats: {SCHEMA_FILE.name} defines no {name!r}")
    return Draft202012Validator({**root, "$ref": f"#/$defs/{name}"})


def shape_problem(value: Any, schema: Any) -> str | None:
    """What in ``value`` does not fit ``schema``, as a phrase (``["pages"][0] has no "docname"``),
    or None; jsonschema checks it (``checks_shapes()``)."""
    from jsonschema.exceptions import best_match

    error = best_match(_validator(schema).iter_errors(value))
    return None if error is None else _phrase(error)


def _phrase(error: Any) -> str:
    """One jsonschema error as a phrase that names where in the file it is."""
    where = "".join(f"[{json.dumps(step)}]" for step in error.absolute_path)
    here = where or "the top level"
    value, kind, expected = error.instance, error.validator, error.validator_value
    if "propertyNames" in error.absolute_schema_path:
        return f"{here} has the key {json.dumps(value)}, not {_name(error.schema)}"
    if kind in ("anyOf", "oneOf") and isinstance(value, dict):
        closest = _closest_object(error, value)
        if closest is not None:
            return closest
    if kind == "required":
        missing = next(key for key in expected if key not in value)
        return f"{here} has no {json.dumps(missing)}"
    if kind == "additionalProperties" and expected is False:
        known = error.schema.get("properties", {})
        unknown = sorted(key for key in value if key not in known)
        return f"{here} has an unknown field {json.dumps(unknown[0])}"
    if kind == "type":
        kinds = [expected] if isinstance(expected, str) else expected
        return f"{here} is {_a(value)}, not {' or '.join(_TYPE_NAMES[k] for k in kinds)}"
    if kind == "enum":
        return f"{here} is {json.dumps(value)}, not {' or '.join(map(json.dumps, expected))}"
    if kind in ("anyOf", "oneOf"):
        names = " or ".join(dict.fromkeys(_name(option) for option in expected))
        if all(_name(option) == "an object" for option in expected):
            return f"{here} is {_a(value)} of none of its {len(expected)} shapes"
        return f"{here} is {_a(value)}, not {names}"
    return f"{here}: {error.message}"


def _closest_object(error: Any, value: dict) -> str | None:
    """Of the object shapes a union offers, the one whose keys the value shares most, if one
    does: what is wrong inside it says the most."""
    from jsonschema.exceptions import best_match

    options = [_resolved(option) for option in error.validator_value]
    shared = [
        len(set(value) & set(option.get("properties", {})))
        if option.get("type") == "object"
        else -1
        for option in options
    ]
    if max(shared) < 0 or shared.count(max(shared)) > 1:
        return None
    index = shared.index(max(shared))
    inside = [e for e in error.context if e.relative_schema_path[0] == index]
    return _phrase(best_match(inside)) if inside else None


def _resolved(schema: Any) -> Any:
    if "$ref" in schema:
        return schemas()["$defs"].get(schema["$ref"].rpartition("/")[2], {})
    return schema


_TYPE_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "null": "null",
    "array": "a list",
    "object": "an object",
}


def _name(schema: Any) -> str:
    """What a (sub)schema takes, in a few words."""
    schema = _resolved(schema)
    if "enum" in schema:
        return " or ".join(map(json.dumps, schema["enum"]))
    kinds = schema.get("type", "object")
    kinds = [kinds] if isinstance(kinds, str) else kinds
    return " or ".join(_TYPE_NAMES[kind] for kind in kinds)


def _a(value: Any) -> str:
    """What JSON calls the value, with its article."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    for kind, name in ((str, "a string"), (int, "an integer"), (float, "a number")):
        if isinstance(value, kind):
            return name
    return "a list" if isinstance(value, list) else "an object"
