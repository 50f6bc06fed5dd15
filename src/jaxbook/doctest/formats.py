"""The JSON files that one command writes and another reads: a declared shape, a format number.

Each such file is declared beside its writer, as a ``TypedDict`` with a
``format`` field, and a constant with its number. The writer puts
``"format": <number>`` in; every reader goes through :func:`load`, which
refuses a file of another format number, or of another shape than the
declaration, with one sentence that names the file (:class:`FormatError`).
A change of shape that an older reader would misread takes the next number.

- the doctest bundle, ``jaxbook.doctest.bundle.Bundle`` (format ``bundle.FORMAT``):
  written by ``jaxbook bundle export`` (``make doctest-bundle``), read by
  ``jaxbook bundle run`` and ``jaxbook drift``;
- the run record, ``jaxbook.doctest.bundle.Record`` (``bundle.RECORD_FORMAT``):
  written by ``jaxbook bundle run --record``, read by ``jaxbook record`` and
  ``jaxbook drift``;
- the drift data, ``jaxbook.releases.drift.DriftData`` (``drift.FORMAT``),
  ``docs/release-drift.json``: written by ``jaxbook drift --save``
  (``make release-report``), read by it and by ``jaxbook.sphinxext.drift_report``;
- the evidence data, ``jaxbook.releases.evidence.Evidence`` (``evidence.FORMAT``),
  ``docs/release-evidence.json``: written by ``jaxbook evidence`` (``make
  evidence``), read by ``jaxbook.sphinxext.evidence_column``.

A command that reads one exits with the sentence; an extension warns with it,
at the file, and goes on as without the file.

The shape is checked against the declaration itself: ``str``, ``int``,
``float``, ``bool``, ``None``, ``Literal``, unions, ``list``, ``dict`` with
string keys, nested ``TypedDict``s and their ``NotRequired`` keys. A key the
declaration does not name is another shape too.

Nothing here imports more than the standard library, and it runs where the
bundle runs: on the Python of an old JAX release. Below Python 3.10, whose
``typing`` cannot read the declarations, only the format number is checked.
"""

from __future__ import annotations

import functools
import json
import sys
import types
import typing
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

_NOT_REQUIRED = getattr(typing, "NotRequired", None)  # Python 3.11
_REQUIRED = getattr(typing, "Required", None)
_UNION_TYPE = getattr(types, "UnionType", Union)  # X | Y, Python 3.10
CHECKS_SHAPES = sys.version_info >= (3, 10)


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
        required = getattr(shape, "__total__", True)
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
