"""The committed release evidence says, for every era, what each visited release answered;
the bisection, with a visitor that installs nothing, finds each change between two
neighbouring releases and keeps, with its reason, a release that would not install."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from types import SimpleNamespace

import pytest
from packaging.version import Version

from jaxbook.formats import PROBE_PHRASES as SENTENCES
from jaxbook.project import find_root
from jaxbook_lab.releases import evidence
from jaxbook_lab.releases.environments import CannotInstall

EVIDENCE = find_root(Path(__file__).parent) / "docs" / "release-evidence.json"


@pytest.fixture(scope="module")
def data() -> dict:
    return json.loads(EVIDENCE.read_text(encoding="utf-8"))


def visited(data: dict) -> dict[str, dict]:
    return {r: v["answers"] for r, v in data["releases"].items() if "environment" in v}


def test_every_probe_has_its_sentences_and_an_era_for_every_visited_release(data):
    answers = visited(data)
    assert answers
    assert set(data["probes"]) == set(SENTENCES)
    for name, entry in data["probes"].items():
        assert entry["sentences"] == SENTENCES[name]
        covered = [
            release
            for era in entry["eras"]
            for release in answers
            if Version(era["first"]) <= Version(release) <= Version(era["last"])
        ]
        assert sorted(covered, key=Version) == sorted(answers, key=Version), name


def test_each_era_holds_for_every_visited_release_in_it(data):
    answers = visited(data)
    for name, entry in data["probes"].items():
        for era in entry["eras"]:
            inside = sorted(
                (r for r in answers if Version(era["first"]) <= Version(r) <= Version(era["last"])),
                key=Version,
            )
            assert {answers[r][name]["key"] for r in inside} == {era["key"]}, (name, era)
            shown = {
                r: run["text"]
                for run in era["shown"]
                for r in inside
                if Version(run["first"]) <= Version(r) <= Version(run["last"])
            }
            assert shown == {r: answers[r][name]["shown"] for r in inside}, (name, era)
            assert SENTENCES[name].get(era["key"], SENTENCES[name].get("*"))


def test_no_era_that_reaches_the_pinned_release_shows_an_older_releases_text(data):
    pinned = data["range"][1]
    for name, entry in data["probes"].items():
        newest = entry["eras"][-1]
        assert newest["last"] == pinned
        text = " ".join(run["text"] for run in newest["shown"] if run["last"] == pinned)
        assert "xla_extension" not in text, name
        assert "<=0.4.30" not in text, name


def test_runs_split_where_the_text_changes():
    search = SimpleNamespace(
        names=["1", "2", "3", "4"],
        answers={
            "1": {"p": {"key": "k", "shown": "a"}},
            "2": None,  # did not install
            "3": {"p": {"key": "k", "shown": "a"}},
            "4": {"p": {"key": "k", "shown": "b"}},
        },
    )
    assert evidence.shown_runs(search, "p", 0, 3) == [
        {"first": "1", "last": "3", "text": "a"},
        {"first": "4", "last": "4", "text": "b"},
    ]


def test_every_probe_has_sentences_and_importing_them_leaves_jax_alone():
    """The probes set XLA_FLAGS when imported; the sentences are read without them."""
    code = (
        "import os, sys; from jaxbook.formats import PROBE_PHRASES as SENTENCES; "
        "assert 'XLA_FLAGS' not in os.environ and 'jax' not in sys.modules; "
        "from jaxbook_lab.releases.probes import PROBES; "
        "assert set(PROBES) == set(SENTENCES), set(PROBES) ^ set(SENTENCES)"
    )
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr


# -- the bisection, with a visitor that installs nothing -------------------------------


class FakeReleases:
    """A visitor over releases "1", "2", ...: probe ``p`` answers ``keys[release]``;
    the releases in ``broken`` cannot be installed. It counts its visits."""

    def __init__(self, keys: dict[str, str], broken: frozenset[str] = frozenset()) -> None:
        self.keys = keys
        self.broken = broken
        self.calls: list[str] = []

    def __call__(self, release: str) -> evidence.Visited:
        self.calls.append(release)
        if release in self.broken:
            raise CannotInstall(release, "its jaxlib has no wheel for this Python")
        key = self.keys[release]
        answer = {"key": key, "shown": f"{key} on {release}"}
        return {"environment": f"Python 3.12, jax=={release}", "answers": {"p": answer}}


def fake(*keys: str, broken: Iterable[str] = ()) -> tuple[evidence.Search, FakeReleases]:
    visitor = FakeReleases({str(i): key for i, key in enumerate(keys, 1)}, frozenset(broken))
    return evidence.Search([str(i) for i in range(1, len(keys) + 1)], visitor), visitor


def spans(eras: list[dict]) -> list[tuple[str, str, str]]:
    return [(era["first"], era["last"], era["key"]) for era in eras]


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        (["old"] * 8 + ["new"], [("1", "8", "old"), ("9", "9", "new")]),
        (["old"] + ["new"] * 8, [("1", "1", "old"), ("2", "9", "new")]),
    ],
    ids=["newest", "oldest"],
)
def test_a_change_at_one_end_of_the_range_is_found(keys, expected):
    search, visitor = fake(*keys)
    first, eras = evidence.bisect(search, ["p"])
    assert first == 0
    assert spans(eras["p"]) == expected
    assert len(visitor.calls) == len(set(visitor.calls)) < len(keys), "each visit once, not all"


def test_a_change_in_the_middle_is_found_between_two_neighbours():
    keys = ["old"] * 11 + ["new"] * 6
    search, visitor = fake(*keys)
    _first, eras = evidence.bisect(search, ["p"])
    assert spans(eras["p"]) == [("1", "11", "old"), ("12", "17", "new")]
    assert {"11", "12"} <= set(visitor.calls)
    assert len(visitor.calls) <= 7, visitor.calls  # about log2(17) + 2, not 17
    # What each visited release showed is kept, up to the last one of each era.
    assert eras["p"][0]["shown"][-1] == {"first": "11", "last": "11", "text": "old on 11"}
    assert eras["p"][1]["shown"][0] == {"first": "12", "last": "12", "text": "new on 12"}


def test_no_change_visits_the_two_ends_only():
    search, visitor = fake(*["same"] * 9)
    _first, eras = evidence.bisect(search, ["p"])
    assert spans(eras["p"]) == [("1", "9", "same")]
    assert visitor.calls == ["1", "9"]


def test_a_release_that_cannot_be_installed_is_said_and_kept(capsys):
    # 4 is where the change would be looked for; it cannot say, so 3 and 5 are asked.
    search, visitor = fake("old", "old", "old", "new", "new", "new", "new", broken={"4"})
    _first, eras = evidence.bisect(search, ["p"])
    assert "4" in visitor.calls
    assert spans(eras["p"]) == [("1", "3", "old"), ("5", "7", "new")]
    assert search.visited["4"] == {"cannot install": "its jaxlib has no wheel for this Python"}
    said = capsys.readouterr().out.splitlines()
    assert said == ["JAX 4 cannot be installed here: its jaxlib has no wheel for this Python"]


def test_the_range_starts_at_the_oldest_release_that_installs():
    search, _visitor = fake("old", "old", "new", broken={"1"})
    first, eras = evidence.bisect(search, ["p"])
    assert search.names[first] == "2"
    assert spans(eras["p"]) == [("2", "2", "old"), ("3", "3", "new")]
    assert "cannot install" in search.visited["1"]


def test_without_the_newest_release_there_is_no_range():
    search, _visitor = fake("old", "new", broken={"2"})
    assert evidence.bisect(search, ["p"]) is None
    assert search.visited["2"] == {"cannot install": "its jaxlib has no wheel for this Python"}


def test_the_real_visitor_says_when_the_registry_has_no_jaxlib_for_a_release(tmp_path):
    with pytest.raises(CannotInstall) as raised:
        evidence.visit(
            "0.4.1",
            uploads={"0.4.1": "2022-12-13T00:00:00Z"},
            jaxlibs=["0.4.2"],
            envs=tmp_path,
            uv="uv",
            the_wheel=tmp_path / "w.whl",
        )
    assert str(raised.value) == (
        "JAX 0.4.1 cannot be installed here: the registry has no jaxlib release at or below 0.4.1"
    )
