"""One doctest run as asked for: the runner's argument and the doctest server's wire format.

``jaxbook doctest`` turns its command line into a :class:`RunRequest` once;
the runner (``jaxbook.doctest.runner.run_with``) takes it as it is, and the
client (``jaxbook.doctest.client``) sends the same value to a running
doctest server (``jaxbook.doctest.server``) as one line of JSON, which the
server reads back into an equal value. Its paths are absolute, as the asking
process sees them: the server has a working directory of its own.

On the wire the object carries ``"format": FORMAT``. :meth:`RunRequest.from_json`
refuses another format number, a missing or unknown field and a field of the
wrong type with one sentence (:class:`RequestError`): a client and a server
from different versions of the package then say so instead of running
something else than was asked.

Only the standard library is imported, so that asking a server costs a Python
start and a socket.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any

FORMAT = 1


class RequestError(ValueError):
    """A request of another format or shape; the message says what is wrong, in one sentence."""


@dataclass(frozen=True)
class RunRequest:
    """A doctest run: which checkout, build directory, languages and pages, and how."""

    root: Path
    builddir: Path
    languages: tuple[str, ...]
    sphinxopts: str = ""
    only: tuple[Path, ...] = ()  # pages to test; empty: all of them
    force: bool = False  # run the units that have a cached pass too
    shard: tuple[int, int] | None = None  # (i, N): the i-th of N shares
    json_file: Path | None = None  # where the verdict goes; None: under the build directory
    record_timings: bool = False
    # The doctest environment of the asking process (jaxbook.doctest.environment).
    environment: Mapping[str, str] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        # Frozen all the way down: a run cannot change what it was asked.
        object.__setattr__(self, "languages", tuple(self.languages))
        object.__setattr__(self, "only", tuple(Path(page) for page in self.only))
        if self.shard is not None:
            object.__setattr__(self, "shard", tuple(self.shard))
        object.__setattr__(self, "environment", MappingProxyType(dict(self.environment)))

    @classmethod
    def from_args(
        cls, args: argparse.Namespace, root: Path, environment: Mapping[str, str]
    ) -> RunRequest:
        """The request of ``jaxbook doctest``'s command line, its paths resolved here."""
        return cls(
            root=root,
            builddir=args.builddir.resolve(),
            languages=tuple(args.languages),
            sphinxopts=args.sphinxopts,
            only=tuple(Path(page).resolve() for page in args.only),
            force=args.force,
            shard=tuple(args.shard) if args.shard else None,
            json_file=args.json.resolve() if args.json else None,
            record_timings=args.record_timings,
            environment=environment,
        )

    @property
    def shard_text(self) -> str:
        """``i/N``, as ``--shard`` and the verdict write it; empty for a whole run."""
        return f"{self.shard[0]}/{self.shard[1]}" if self.shard else ""

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "root": str(self.root),
            "builddir": str(self.builddir),
            "languages": list(self.languages),
            "sphinxopts": self.sphinxopts,
            "only": [str(page) for page in self.only],
            "force": self.force,
            "shard": list(self.shard) if self.shard else None,
            "json_file": str(self.json_file) if self.json_file else None,
            "record_timings": self.record_timings,
            "environment": dict(self.environment),
        }

    @classmethod
    def from_json(cls, data: object) -> RunRequest:
        """The request that ``to_json`` wrote; :class:`RequestError` for anything else."""
        if not isinstance(data, dict):
            raise RequestError("the run request is not a JSON object")
        if data.get("format") != FORMAT:
            raise RequestError(
                f"the run request is of format {data.get('format')!r}, this server reads "
                f"format {FORMAT}"
            )
        names = {f.name for f in fields(cls)} | {"format"}
        missing, unknown = sorted(names - set(data)), sorted(set(data) - names)
        if missing or unknown:
            what = [f"lacks {', '.join(missing)}"] if missing else []
            what += [f"has unknown fields {', '.join(unknown)}"] if unknown else []
            raise RequestError(f"the run request of format {FORMAT} {' and '.join(what)}")
        _check(data, str, "root", "builddir", "sphinxopts")
        _check(data, bool, "force", "record_timings")
        _check_list(data, "languages", str)
        _check_list(data, "only", str)
        if data["shard"] is not None:
            _check_list(data, "shard", int)
            if len(data["shard"]) != 2:
                raise RequestError("the run request's 'shard' is not [i, N]")
        if data["json_file"] is not None:
            _check(data, str, "json_file")
        environment = data["environment"]
        if not isinstance(environment, dict) or not all(
            isinstance(key, str) and isinstance(value, str) for key, value in environment.items()
        ):
            raise RequestError("the run request's 'environment' is not an object of strings")
        return cls(
            root=Path(data["root"]),
            builddir=Path(data["builddir"]),
            languages=tuple(data["languages"]),
            sphinxopts=data["sphinxopts"],
            only=tuple(Path(page) for page in data["only"]),
            force=data["force"],
            shard=tuple(data["shard"]) if data["shard"] else None,
            json_file=Path(data["json_file"]) if data["json_file"] else None,
            record_timings=data["record_timings"],
            environment=environment,
        )


def _check(data: dict[str, Any], kind: type, *names: str) -> None:
    for name in names:
        if not isinstance(data[name], kind):
            raise RequestError(f"the run request's {name!r} is not a {kind.__name__}")


def _check_list(data: dict[str, Any], name: str, kind: type) -> None:
    value = data[name]
    # bool is an int to isinstance; a shard of [true, 2] is not a shard.
    if not isinstance(value, list) or not all(
        isinstance(item, kind) and not isinstance(item, bool) for item in value
    ):
        raise RequestError(f"the run request's {name!r} is not a list of {kind.__name__}")
