"""The committed release evidence says, for every era, what each visited release answered."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from packaging.version import Version

from jaxbook.doctest.sentences import SENTENCES
from jaxbook.project import find_root
from jaxbook.releases import evidence

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
        "import os, sys; from jaxbook.doctest.sentences import SENTENCES; "
        "assert 'XLA_FLAGS' not in os.environ and 'jax' not in sys.modules; "
        "from jaxbook.releases.probes import PROBES; "
        "assert set(PROBES) == set(SENTENCES), set(PROBES) ^ set(SENTENCES)"
    )
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
