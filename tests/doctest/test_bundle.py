"""The doctest bundle runs the blocks as sphinx.ext.doctest does, and fails as loudly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture
def run_bundle(jaxbook):
    def run(*args: str):
        return jaxbook("bundle", *args, timeout=300)

    return run


@pytest.fixture
def exported(run_bundle, rootdir: Path, tmp_path: Path) -> Path:
    result = run_bundle(
        "export", "-o", str(tmp_path), "--srcdir", str(rootdir / "test-bundle"), "en"
    )
    assert result.returncode == 0, result.stderr
    return tmp_path / "en.json"


@pytest.mark.sphinx("doctest", testroot="bundle")
def test_bundle_counts_what_the_doctest_builder_counts(
    built, run_bundle, exported: Path, tmp_path: Path
) -> None:
    assert built.warnings == ""
    tries, failures = built.doctest_counts()
    assert failures == 0

    record = tmp_path / "record.json"
    result = run_bundle("run", "--record", str(record), str(exported))

    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().splitlines()[-1] == f"{tries} passed, 0 failed, 1 skipped"
    printed = [block["got"] for block in json.loads(record.read_text(encoding="utf-8"))["en"]]
    assert "43\n" in printed
    assert "False\n" in printed  # another group starts from the global setup alone


def test_a_wrong_expected_output_fails_at_its_page_line(
    run_bundle, exported: Path, tmp_path: Path
) -> None:
    bundle = json.loads(exported.read_text(encoding="utf-8"))
    blocks = bundle["pages"][0]["blocks"]
    output = next(
        block for block in blocks if block["type"] == "testoutput" and block["code"] == "43"
    )
    output["code"] = "44"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(bundle), encoding="utf-8")

    result = run_bundle("run", str(broken))

    assert result.returncode == 1
    assert "[en] index.rst:8: doctest failed\nExpected:\n    44\nGot:\n    43" in result.stdout
    assert result.stdout.strip().splitlines()[-1].endswith("1 failed, 1 skipped")


def test_a_failing_example_inside_a_doctest_block_is_reported_at_its_own_line(
    run_bundle, exported: Path, tmp_path: Path
) -> None:
    bundle = json.loads(exported.read_text(encoding="utf-8"))
    block = next(b for b in bundle["pages"][0]["blocks"] if b["type"] == "doctest")
    block["code"] = block["code"].replace("two examples in one block\n", "two examples\n", 1)
    block["code"] = block["code"].replace("two examples in one block", "two examples", 1)
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(bundle), encoding="utf-8")

    result = run_bundle("run", str(broken))

    assert result.returncode == 1
    assert f"[en] index.rst:{block['line'] + 2}: doctest failed" in result.stdout


def test_a_file_that_is_not_a_bundle_is_refused(run_bundle, tmp_path: Path) -> None:
    stray = tmp_path / "stray.json"
    stray.write_text('{"pages": []}', encoding="utf-8")

    result = run_bundle("run", str(stray))

    assert result.returncode == 2
    assert f"{stray}:1: not a doctest bundle" in result.stdout
