"""The JSON files that pass between the book's tools: each a declared shape with a format number.

The doctest tools, the release lab (``jaxbook_lab.releases``) and the book's
extensions (``jaxbook.sphinxext``) exchange four files; each is declared
here, once, as a ``TypedDict`` with a ``format`` field and a constant with
its number, so that the book reads what the lab writes without importing
the lab:

- the doctest bundle, :class:`Bundle` (``BUNDLE_FORMAT``): written by ``jaxbook
  bundle export``, read by ``jaxbook-lab bundle run`` and ``jaxbook-lab drift``;
- the run record, :class:`Record` (``RECORD_FORMAT``): written by ``jaxbook-lab bundle
  run --record``, read by ``jaxbook-lab record`` and ``jaxbook-lab drift``;
- a chapter's drift data, :class:`DriftData` (``DRIFT_FORMAT``), the file a
  chapter's ``drift-report`` directive names: written by ``jaxbook-lab drift --save``
  (``make release-report``), read by it and by ``jaxbook.sphinxext.drift_report``;
- the evidence data, :class:`Evidence` (``EVIDENCE_FORMAT``),
  ``docs/release-evidence.json``: written by ``jaxbook-lab evidence``, read by
  ``jaxbook.sphinxext.evidence_column``.

A writer puts ``"format": <number>`` in; every reader goes through
:func:`load`, which refuses a file of another format number, or of another
shape than the declaration, with one sentence that names the file
(:class:`FormatError`). A change of shape that an older reader would misread
takes the next number. A command that reads one exits with the sentence; an
extension warns with it, at the file, and goes on as without the file.

The shape is checked against the declaration itself: ``str``, ``int``,
``float``, ``bool``, ``None``, ``Literal``, unions, ``list``, ``dict`` with
string keys, nested ``TypedDict``s and their optional keys. A key the
declaration does not name is another shape too.

Nothing here imports more than the standard library, and it runs where the
bundle runs: on the Python of an old JAX release (3.9 and newer). Below
Python 3.10, whose ``typing`` cannot read the declarations, only the format
number is checked. Optional keys are declared in a ``total=False`` base
class, which every such Python reads.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import sys
import tokenize
import types
import typing
from pathlib import Path
from typing import Any, Literal, TypedDict, Union, get_args, get_origin, get_type_hints

_NOT_REQUIRED = getattr(typing, "NotRequired", None)  # Python 3.11
_REQUIRED = getattr(typing, "Required", None)
_UNION_TYPE = getattr(types, "UnionType", Union)  # X | Y, Python 3.10
CHECKS_SHAPES = sys.version_info >= (3, 10)

# -- the doctest bundle and the run record --------------------------------------------

BUNDLE_FORMAT = 1
RECORD_FORMAT = 2


class Block(TypedDict):
    """One doctest directive of a page, as ``sphinx.ext.doctest`` collected it."""

    type: Literal["testsetup", "testcleanup", "doctest", "testcode", "testoutput"]
    code: str
    file: str  # relative to the project, as messages name it
    line: int | None
    options: dict[str, bool]  # doctest option flag name -> on or off
    groups: list[str]
    skipif: str | None  # the condition, evaluated where the page runs


class Page(TypedDict):
    docname: str
    blocks: list[Block]


class Bundle(TypedDict):
    """``<language>.json``: every doctest of one language."""

    format: int  # BUNDLE_FORMAT
    language: str
    flags: list[str]  # doctest_default_flags, by name
    global_setup: str
    global_cleanup: str
    pages: list[Page]


class _RecordedDetail(TypedDict, total=False):
    failed_at: str  # the line of its code that raised, when an assert failed


class RecordedBlock(_RecordedDetail):
    """What one testcode or doctest block printed where the bundle ran."""

    file: str
    line: int | None
    code: str  # the block's code, as the page's language has it
    want: str | None  # the page's expected output (None for a doctest block)
    got: str
    passed: bool
    exception: str | None  # the last line of an exception it raised


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


class _RecordDetail(TypedDict, total=False):
    machine: Machine  # the bundle's runs say where they ran


class Record(_RecordDetail):
    """``bundle run --record`` (and ``make doctest``'s record): per language, every block
    that ran, in page order."""

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
DriftData.__doc__ = """A chapter's drift data: every example of the chapter on each release kept."""


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
    sentences: dict[str, str]  # key (or "*") -> English msgid (jaxbook_lab.releases.sentences)
    eras: list[Era]  # oldest first


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
Evidence.__doc__ = """``docs/release-evidence.json``: every visited release, every probe's eras."""


def read_bundle(path: Path) -> Bundle:
    again = "export it again with make doctest-bundle"
    return load(path, Bundle, BUNDLE_FORMAT, "a doctest bundle", again)


def read_record(path: Path) -> Record:
    again = "record it again with jaxbook-lab bundle run --record"
    return load(path, Record, RECORD_FORMAT, "a run record", again)


def recorded_on(path: Path) -> dict[str, str]:
    """Where the outputs of a committed record ran, as ``conf.py``'s ``jaxbook_recorded_on``
    gives it for a backend: device, platform, Python, JAX and date."""
    record = read_record(path)
    if "machine" not in record:
        raise FormatError(path, "a run record that does not say where it ran")
    machine = record["machine"]
    return {key: machine[key] for key in ("device", "platform", "python", "jax", "date")}


def read_drift(path: Path) -> DriftData:
    again = "write it again with make release-report"
    return load(path, DriftData, DRIFT_FORMAT, "a drift file", again)


def read_evidence(path: Path) -> Evidence:
    again = "write it again with make evidence"
    return load(path, Evidence, EVIDENCE_FORMAT, "an evidence file", again)


# -- reading --------------------------------------------------------------------------


class FormatError(ValueError):
    """A file of another format or shape; ``str()`` is one sentence that starts with the file."""

    def __init__(self, path: Path, sentence: str, line: int = 1) -> None:
        super().__init__(f"{path}: {sentence}")
        self.path = path
        self.sentence = sentence  # without the file, for a reader that names it apart
        self.line = line

    @property
    def location(self) -> str:
        """``file:line``, as ``sphinx.util.logging`` takes a location that is not a document."""
        return f"{self.path}:{self.line}"


def load(path: Path, shape: Any, number: int, what: str, remedy: str) -> Any:
    """The data of ``path``, ``what`` (``"a doctest bundle"``) of format ``number`` and of
    ``shape``; else FormatError.

    ``remedy`` ends the sentence: how to get a file that fits (``export it again``).
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
    if problem is None and CHECKS_SHAPES:
        problem = shape_problem(data, shape)
    if problem is not None:
        raise FormatError(path, f"not {what} of format {number} ({problem}); {remedy}")
    return data


def format_problem(data: Any, number: int) -> str | None:
    if not isinstance(data, dict):
        return f"the top level is {_a(data)}, not an object"
    if "format" not in data:
        return "it has no format number"
    if data["format"] != number or isinstance(data["format"], bool):
        return f"it is of format {json.dumps(data['format'])}"
    return None


def shape_problem(value: Any, shape: Any, where: str = "") -> str | None:
    """What in ``value`` does not fit ``shape``, as a phrase (``["pages"][0] has no "docname"``).

    Python 3.10 or newer (``CHECKS_SHAPES``).
    """
    here = where or "the top level"
    origin = get_origin(shape)
    if shape is Any:
        return None
    if origin is Literal:
        choices = get_args(shape)
        # 1 == True in Python; in the file they are different values.
        if any(value == c and type(value) is type(c) for c in choices):
            return None
        return f"{here} is {json.dumps(value)}, not {' or '.join(map(json.dumps, choices))}"
    if origin in (Union, _UNION_TYPE):
        return _union_problem(value, get_args(shape), where)
    if _is_typeddict(shape):
        return _object_problem(value, shape, where)
    if origin is list:
        if not isinstance(value, list):
            return f"{here} is {_a(value)}, not a list"
        (item,) = get_args(shape)
        return _first(shape_problem(v, item, f"{where}[{i}]") for i, v in enumerate(value))
    if origin is dict:
        if not isinstance(value, dict):
            return f"{here} is {_a(value)}, not an object"
        key_shape, item = get_args(shape)
        wrong = next((k for k in value if shape_problem(k, key_shape) is not None), None)
        if wrong is not None:
            return f"{here} has the key {json.dumps(wrong)}, not {_name(key_shape)}"
        return _first(shape_problem(v, item, f"{where}[{json.dumps(k)}]") for k, v in value.items())
    if isinstance(value, _PYTHON_OF.get(shape, ())) and not (
        isinstance(value, bool) and shape is not bool
    ):
        return None
    if shape not in _PYTHON_OF:
        raise TypeError(f"formats: cannot check a value against {shape!r}")
    return f"{here} is {_a(value)}, not {_NAMES[shape]}"


_PYTHON_OF: dict[Any, tuple[type, ...]] = {
    str: (str,),
    int: (int,),
    float: (int, float),
    bool: (bool,),
    type(None): (type(None),),
}
_NAMES = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "a boolean",
    type(None): "null",
}


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


def _first(problems) -> str | None:
    return next((problem for problem in problems if problem is not None), None)


def _is_typeddict(shape: Any) -> bool:
    return typing.is_typeddict(shape)


def _union_problem(value: Any, options: tuple, where: str) -> str | None:
    problems = [shape_problem(value, option, where) for option in options]
    if any(problem is None for problem in problems):
        return None
    # Where one option is of the value's own kind, what is wrong inside it says the most;
    # of two objects, the one whose keys the value has.
    alike = [(o, p) for o, p in zip(options, problems, strict=True) if _same_kind(value, o)]
    if len(alike) > 1 and all(_is_typeddict(option) for option, _ in alike):
        shared = [len(set(value) & set(_fields(option))) for option, _ in alike]
        if shared.count(max(shared)) == 1:
            alike = [alike[shared.index(max(shared))]]
    if len(alike) == 1:
        return alike[0][1]
    if alike:
        return f"{where or 'the top level'} is {_a(value)} of none of its {len(options)} shapes"
    names = " or ".join(_name(option) for option in options)
    return f"{where or 'the top level'} is {_a(value)}, not {names}"


def _same_kind(value: Any, shape: Any) -> bool:
    if _is_typeddict(shape) or get_origin(shape) is dict:
        return isinstance(value, dict)
    if get_origin(shape) is list:
        return isinstance(value, list)
    return False


def _name(shape: Any) -> str:
    if _is_typeddict(shape) or get_origin(shape) is dict:
        return "an object"
    if get_origin(shape) is list:
        return "a list"
    if get_origin(shape) is Literal:
        return " or ".join(map(json.dumps, get_args(shape)))
    return _NAMES.get(shape, repr(shape))


@functools.cache
def _fields(shape: Any) -> dict[str, tuple[Any, bool]]:
    """Each key of a TypedDict: its shape, and whether it must be there."""
    fields = {}
    for key, hint in get_type_hints(shape, include_extras=True).items():
        # A key of a total=False base class is optional in every TypedDict built on it.
        required = key in shape.__required_keys__
        if _NOT_REQUIRED is not None and get_origin(hint) in (_NOT_REQUIRED, _REQUIRED):
            required = get_origin(hint) is _REQUIRED
            (hint,) = get_args(hint)
        fields[key] = (hint, required)
    return fields


def _object_problem(value: Any, shape: Any, where: str) -> str | None:
    here = where or "the top level"
    if not isinstance(value, dict):
        return f"{here} is {_a(value)}, not an object"
    fields = _fields(shape)
    for key, (hint, required) in fields.items():
        if key not in value:
            if required:
                return f"{here} has no {json.dumps(key)}"
            continue
        problem = shape_problem(value[key], hint, f"{where}[{json.dumps(key)}]")
        if problem is not None:
            return problem
    unknown = sorted(set(value) - set(fields))
    if unknown:
        return f"{here} has an unknown field {json.dumps(unknown[0])}"
    return None
