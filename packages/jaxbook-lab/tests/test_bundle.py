"""The doctest bundle runs the blocks as sphinx.ext.doctest does, and fails as loudly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jaxbook.formats import read_record


@pytest.fixture
def run_bundle(jaxbook_lab):
    def run(*args: str):
        return jaxbook_lab("bundle", *args, timeout=300)

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
    written = read_record(record)
    printed = [block["got"] for block in written["blocks"]["en"]]
    assert "43\n" in printed
    assert "False\n" in printed  # another group starts from the global setup alone
    # The record says where it ran, and what the run's verdict was.
    assert written["machine"]["backend"] == "cpu"
    assert written["machine"]["verdict"] == f"{tries} passed, 0 failed, 1 skipped"
    assert result.stdout.startswith("running on cpu: cpu, jaxlib ")


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


def test_a_page_that_hangs_fails_at_its_line_and_the_next_page_runs(
    run_bundle, exported: Path, tmp_path: Path, monkeypatch
) -> None:
    bundle = json.loads(exported.read_text(encoding="utf-8"))
    [page] = bundle["pages"]
    hanging = {**CODE, "code": "import time\ntime.sleep(60)", "line": 7, "groups": ["default"]}
    hanging["skipif"] = None
    bundle["pages"] = [{"docname": "hangs", "blocks": [hanging]}, page]
    broken = tmp_path / "hangs.json"
    broken.write_text(json.dumps(bundle), encoding="utf-8")
    monkeypatch.setenv("PAGERUN_PAGE_TIMEOUT", "2")

    result = run_bundle("run", str(broken))

    assert result.returncode == 1
    assert "[en] docs/index.rst:7: " in result.stdout, result.stdout
    assert "did not finish within 2 s" in result.stdout
    # The page after it ran, and passed.
    tries = result.stdout.strip().splitlines()[-1]
    assert tries.endswith(" passed, 1 failed, 1 skipped"), tries
    assert not tries.startswith("0 "), tries


BUNDLE = {
    "format": 1,
    "language": "en",
    "flags": [],
    "global_setup": "",
    "global_cleanup": "",
    "pages": [{"docname": "index", "blocks": []}],
}
CODE = {"type": "testcode", "code": "print(1)", "file": "docs/index.rst", "line": 3, "options": {}}


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"pages": []}, "it has no format number"),
        ({**BUNDLE, "format": 2}, "it is of format 2"),
        ({**BUNDLE, "pages": [{"docname": "index"}]}, '["pages"][0] has no "blocks"'),
        (
            {**BUNDLE, "pages": [{"docname": "i", "blocks": [{**CODE, "groups": ["default"]}]}]},
            '["pages"][0]["blocks"][0] has no "skipif"',
        ),
        (
            {
                **BUNDLE,
                "pages": [
                    {"docname": "i", "blocks": [{**CODE, "groups": "default", "skipif": None}]}
                ],
            },
            '["pages"][0]["blocks"][0]["groups"] is a string, not a list',
        ),
    ],
)
def test_a_file_that_is_not_a_bundle_is_refused(run_bundle, tmp_path: Path, data, problem) -> None:
    stray = tmp_path / "stray.json"
    stray.write_text(json.dumps(data), encoding="utf-8")

    result = run_bundle("run", str(stray))

    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"{stray}: not a doctest bundle of format 1 ({problem}); "
        "export it again with make doctest-bundle\n"
    )


def test_a_record_is_refused_by_jaxbook_record_unless_of_its_format(jaxbook_lab, tmp_path: Path):
    project = tmp_path / "book"
    (project / "docs").mkdir(parents=True)
    (project / "conf.py").write_text("", encoding="utf-8")
    record = tmp_path / "record.json"
    # A record as bundle run wrote it before it had a format number.
    record.write_text(json.dumps({"en": []}), encoding="utf-8")

    result = jaxbook_lab("record", "--backend", "gpu", record, cwd=project)

    assert result.returncode == 1
    assert result.stderr == (
        f"{record}: not a run record of format 2 (it has no format number); "
        "record it again with jaxbook-lab bundle run --record\n"
    )
    block = {"file": "docs/index.rst", "line": 3, "code": "print(2)", "want": "1\n", "got": "2\n"}
    block["passed"] = "no"
    record.write_text(
        json.dumps({"format": 2, "blocks": {"en": [{**block, "exception": None}]}}),
        encoding="utf-8",
    )

    result = jaxbook_lab("record", "--backend", "gpu", record, cwd=project)

    assert result.returncode == 1
    assert result.stderr.startswith(
        f'{record}: not a run record of format 2 (["blocks"]["en"][0]["passed"] is a string, '
        "not a boolean); "
    )


@pytest.mark.parametrize(
    ("backend", "verdict"),
    [("tpu", "3 passed, 0 failed, 1 skipped"), ("rocm", "0 passed, 0 failed, 4 skipped")],
)
def test_a_backend_runs_the_outputs_recorded_for_it_and_skips_what_has_none(
    run_bundle, rootdir: Path, tmp_path: Path, monkeypatch, backend: str, verdict: str
) -> None:
    """Every cell with per-backend outputs, run under a backend's name: where it has an
    output for that backend that one is compared; where it has none it is skipped, with
    its reason, and never compared with nothing."""
    exported = run_bundle(
        "export", "-o", str(tmp_path), "--srcdir", str(rootdir / "test-backend-tabs"), "en"
    )
    assert exported.returncode == 0, exported.stderr
    monkeypatch.setenv("JAXBOOK_BACKEND", backend)

    result = run_bundle("run", str(tmp_path / "en.json"))

    assert result.returncode == 0, result.stdout
    assert result.stdout.strip().splitlines()[-1] == verdict
    skipped = int(verdict.split(", ")[2].split()[0])
    assert result.stderr.count(f"skipped on {backend}: the output depends on the backend") == (
        skipped
    )


def test_the_engine_and_the_bundle_import_no_sphinx(imported_by) -> None:
    """A GPU machine runs the bundle with Python and JAX alone: so does the engine."""
    result, imported = imported_by(
        "-c", "import pagerun.engine, jaxbook_lab.bundle, jaxbook_lab.cli"
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert not imported & {"sphinx", "docutils", "jax", "jsonschema"}, sorted(imported)


def test_languages_export_side_by_side_through_the_labs_own_command(monkeypatch, tmp_path):
    """Each language exports in a child process of the lab's command (the book's has none)."""
    import argparse
    import subprocess

    from jaxbook_lab import bundle

    started: list[list[str]] = []

    class Child:
        def __init__(self, command: list[str]) -> None:
            started.append(command)

        def wait(self) -> int:
            return 0

    monkeypatch.setattr(subprocess, "Popen", Child)
    args = argparse.Namespace(
        action="export", languages=["zh_CN", "en"], outdir=tmp_path, srcdir=tmp_path
    )
    assert bundle.run(args) == 0
    assert [command[1:5] for command in started] == [["-m", "jaxbook_lab", "bundle", "export"]] * 2
    assert [command[-1] for command in started] == ["zh_CN", "en"]


IMPORT_THE_RUNNER = """
import sys
# The three distributions' sources; with -I, the standard library alone besides them.
sys.path[:0] = sys.argv[1].split(":")
import jaxbook_lab.bundle
print("imported")
"""


def test_the_bundles_runner_imports_on_the_python_of_an_old_jax_release(older_python):
    """make drift runs the bundle with the Python an old JAX release needs (3.9 to 3.11):
    every module its runner imports (the lab's, the book's formats, pagerun's engine and
    kernel) must parse and import there, with the standard library alone."""
    import subprocess

    root = Path(__file__).resolve().parents[3]
    sources = ":".join(
        str(root / part) for part in ("src", "packages/pagerun/src", "packages/jaxbook-lab/src")
    )
    result = subprocess.run(
        [older_python, "-I", "-c", IMPORT_THE_RUNNER, sources], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "imported\n"
