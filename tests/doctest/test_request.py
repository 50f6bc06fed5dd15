"""A doctest run request is one frozen value: the runner's argument and the server's wire format."""

from __future__ import annotations

import argparse
import dataclasses
import json
import socket
from pathlib import Path

import pytest

from jaxbook.doctest import server
from jaxbook.doctest.request import FORMAT, RequestError, RunRequest
from jaxbook.doctest.runner import add_arguments


def parsed(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(list(argv))


def request(tmp_path: Path) -> RunRequest:
    args = parsed(
        "--only", "docs/ch01/quiz.rst", "--shard", "2/3", "--json", "v.json", "--force", "zh_CN",
        "en",
    )  # fmt: skip
    return RunRequest.from_args(args, tmp_path, {"JAX_PLATFORMS": "cpu"})


def test_the_command_line_becomes_a_request_with_absolute_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    made = request(tmp_path)
    assert made.languages == ("zh_CN", "en")
    assert made.only == (tmp_path / "docs" / "ch01" / "quiz.rst",)
    assert made.builddir == tmp_path / "_build"
    assert made.json_file == tmp_path / "v.json"
    assert made.shard == (2, 3)
    assert made.shard_text == "2/3"
    assert made.force
    assert not made.record_timings


def test_the_wire_format_reads_back_into_an_equal_request(tmp_path):
    made = request(tmp_path)
    wire = json.loads(json.dumps(made.to_json()))
    assert wire["format"] == FORMAT
    assert RunRequest.from_json(wire) == made
    whole = RunRequest(root=tmp_path, builddir=tmp_path / "_build", languages=("en",))
    assert RunRequest.from_json(json.loads(json.dumps(whole.to_json()))) == whole


def test_a_request_cannot_be_changed(tmp_path):
    made = request(tmp_path)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.force = False  # type: ignore[misc]
    with pytest.raises(TypeError):
        made.environment["JAX_PLATFORMS"] = "gpu"  # type: ignore[index]


def wire(tmp_path: Path, **changes) -> dict:
    data = request(tmp_path).to_json()
    data.update(changes)
    return {key: value for key, value in data.items() if value is not ...}


@pytest.mark.parametrize(
    ("changes", "sentence"),
    [
        ({"format": 2}, f"the run request is of format 2, this server reads format {FORMAT}"),
        ({"format": ...}, f"the run request is of format None, this server reads format {FORMAT}"),
        ({"languages": ...}, f"the run request of format {FORMAT} lacks languages"),
        ({"json": "v.json"}, f"the run request of format {FORMAT} has unknown fields json"),
        ({"languages": "en"}, "the run request's 'languages' is not a list of str"),
        ({"shard": [1]}, "the run request's 'shard' is not [i, N]"),
        ({"shard": [True, 2]}, "the run request's 'shard' is not a list of int"),
        ({"force": "yes"}, "the run request's 'force' is not a bool"),
        ({"environment": {"A": 1}}, "the run request's 'environment' is not an object of strings"),
    ],
)
def test_a_request_of_another_format_or_shape_is_refused_in_one_sentence(
    tmp_path, changes, sentence
):
    with pytest.raises(RequestError) as refused:
        RunRequest.from_json(wire(tmp_path, **changes))
    assert str(refused.value) == sentence


def test_a_list_is_not_a_request():
    with pytest.raises(RequestError, match=r"^the run request is not a JSON object$"):
        RunRequest.from_json([])


class NoServer:
    """A server that must not be asked anything: the request is refused before."""

    def refusal(self, request):
        raise AssertionError("a request of another format reached the server")

    run = refusal


def answer(line: str) -> tuple[dict, bool]:
    ours, theirs = socket.socketpair()
    with ours:
        ours.sendall(line.encode() + b"\n")
        stop = server.handle(NoServer(), theirs)  # type: ignore[arg-type]
        with ours.makefile(encoding="utf-8") as stream:
            reply = json.loads(stream.readline())
    return reply, stop


def test_the_server_refuses_another_format_and_stops(tmp_path):
    reply, stop = answer(json.dumps({**request(tmp_path).to_json(), "format": 0}))
    assert reply == {
        "refused": f"the run request is of format 0, this server reads format {FORMAT} "
        "(it stops now; start it again with make doctest-server)"
    }
    assert stop


def test_the_server_refuses_a_line_that_is_not_json_and_keeps_serving():
    reply, stop = answer("not json")
    assert reply["refused"].startswith("the run request is not JSON (Expecting value")
    assert not stop


def test_asking_a_server_imports_no_sphinx(imported_by):
    result, imported = imported_by("-c", "import jaxbook.doctest.client, jaxbook.doctest.request")
    assert result.returncode == 0, result.stderr[-2000:]
    assert not imported & {"sphinx", "docutils", "jax"}, sorted(imported)
