"""`jaxbook-lab drift` runs a book on a JAX release in an environment of its own and sorts
each cell into same / output / warns / exception / assert / cannot-run / skipped."""

from __future__ import annotations

import datetime
import json
import re
import sys
from pathlib import Path

import jax
import pytest

from jaxbook import formats
from jaxbook.project import find_root
from jaxbook_lab.releases import drift


@pytest.fixture(scope="module")
def report(jaxbook_lab, rootdir: Path, tmp_path_factory) -> dict:
    """The tiny root run through the whole drift command, on the release installed here."""
    out = tmp_path_factory.mktemp("drift")
    result = jaxbook_lab(
        "drift",
        "--srcdir",
        rootdir / "test-drift",
        "--jax",
        jax.__version__,
        "--python",
        sys.executable,
        "--out",
        out,
        "en",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    last = result.stdout.strip().splitlines()[-1]
    assert last == (
        f"JAX {jax.__version__}: 1 same, 1 output, 1 warns, 1 exception, 1 assert, "
        "1 cannot-run, 1 skipped (of 7 cells)"
    )
    return json.loads((out / f"jax-{jax.__version__}.json").read_text(encoding="utf-8"))


def first_code_line(source: list[str], directive_line: int) -> str:
    """The first line of code under the directive at ``directive_line`` (1-based)."""
    body = source[directive_line:]
    return next(line.strip() for line in body if line.strip() and not line.strip().startswith(":"))


def test_each_cell_gets_its_outcome(report, rootdir):
    source = (rootdir / "test-drift" / "index.rst").read_text(encoding="utf-8").splitlines()
    by_code = {first_code_line(source, cell["line"]): cell for cell in report["cells"]["en"]}
    assert by_code["print(sum(range(4)))"]["outcome"] == "same"
    assert by_code['print("new behaviour")']["outcome"] == "output"
    assert by_code['print("new behaviour")']["detail"] == "-old behaviour\n+new behaviour"
    assert by_code['raise ValueError("changed")'] == {
        **by_code['raise ValueError("changed")'],
        "outcome": "exception",
        "detail": "ValueError: changed",
    }
    assert by_code["import warnings"] == {
        **by_code["import warnings"],
        "outcome": "warns",
        "detail": "DeprecationWarning: old_api is deprecated",
    }
    assert by_code['assert 1 + 1 == 3, "the claim"']["outcome"] == "assert"
    assert by_code["jax.numpy.no_such_function(1)"]["outcome"] == "cannot-run"
    assert by_code['print("never")']["outcome"] == "skipped"


def test_the_environment_is_the_release_asked_for(report):
    assert f"jax=={jax.__version__}" in report["environment"]
    assert report["environment"].startswith(f"Python {sys.version_info[0]}.{sys.version_info[1]}")


def test_a_release_that_cannot_be_installed_is_one_clear_error(jaxbook_lab, rootdir, tmp_path):
    result = jaxbook_lab(
        "drift",
        "--srcdir",
        rootdir / "test-drift",
        "--jax",
        "99.0",
        "--python",
        sys.executable,
        "--out",
        tmp_path,
        "en",
    )
    assert result.returncode == 2
    lines = result.stdout.strip().splitlines()
    assert lines[-1].startswith("JAX 99.0 cannot be installed here: on Python 3."), lines
    assert "jax" in lines[-1]
    assert not list(tmp_path.glob("envs/*")), "a failed environment is removed"


def test_an_expected_exception_that_changed_is_an_exception():
    record = {
        "file": "p.rst",
        "line": 3,
        "want": "Traceback (most recent call last):\n  ...\nTypeError: old\n",
        "got": "Traceback (most recent call last):\n  ...\nKeyError: 'new'\n",
        "passed": False,
        "exception": None,
    }
    assert drift.classify(record) == {
        "file": "p.rst",
        "line": 3,
        "outcome": "exception",
        "detail": "KeyError: 'new'",
    }


def test_what_the_page_leaves_to_vary_is_not_a_difference():
    record = {
        "file": "p.rst",
        "line": 3,
        "want": "jax: 0.12.0.1\nplatform: node='...', machine='...'...\n",
        "got": "jax: 0.4.38\nplatform: node='somehost', machine='x86_64')\nCACHE_DIR=/home/x\n",
        "passed": False,
        "exception": None,
    }
    assert drift.classify(record)["detail"] == "-jax: 0.12.0.1\n+jax: 0.4.38"


@pytest.mark.parametrize("name", ["ch01/release-drift.json", "release-evidence.json"])
def test_the_kept_data_names_no_local_path(name):
    """The data the pages are made from is committed: no absolute path of a machine in it."""
    text = (find_root(Path(__file__).parent) / "docs" / name).read_text(encoding="utf-8")
    assert not re.findall(r"(?<![\w.:/])/(?:[\w.-]+/){2,}", text)


@pytest.mark.parametrize(
    "error", ["DeprecationWarning: jax.foo is deprecated", "jax._src.x.FutureWarning: soon"]
)
def test_a_warning_on_another_release_is_its_own_outcome(error):
    record = {"file": "p.rst", "line": 3, "want": "1\n", "got": "", "passed": False}
    assert drift.classify({**record, "exception": error})["outcome"] == "warns"
    in_output = {
        **record,
        "exception": None,
        "got": f"Traceback (most recent call last):\n  ...\n{error}\n",
    }
    assert drift.classify(in_output) == {
        "file": "p.rst",
        "line": 3,
        "outcome": "warns",
        "detail": error,
    }


CELL = {
    "page": "ch01/a",
    "file": "docs/ch01/a.rst",
    "line": 3,
    "outcome": "output",
    "detail": "-1\n+2",
    "code": "c",
}
ENV = "Python 3.13, jax==0.4.38"
SOURCE = "zh_CN"  # the book's source language, whose code the data knows an example by


def test_each_saved_release_is_added_to_a_drift_file_of_its_format(tmp_path):
    path = tmp_path / "release-drift.json"
    same = {**CELL, "outcome": "same"}
    del same["detail"]
    drift.save(path, "0.5.0", "Python 3.13, jax==0.5.0", {SOURCE: [same]})
    drift.save(path, "0.4.38", ENV, {SOURCE: [CELL]}, device="cpu", date="2026-12-03")
    data = drift.read_drift(path)
    assert data["format"] == formats.DRIFT_FORMAT
    assert list(data["releases"]) == ["0.4.38", "0.5.0"]  # in version order
    release = data["releases"]["0.4.38"]
    assert (release["environment"], release["device"], release["date"]) == (
        ENV,
        "cpu",
        "2026-12-03",
    )
    assert release["examples"] == [
        {
            "page": "ch01/a",
            "file": "docs/ch01/a.rst",
            "line": 3,
            "code": "c",
            "runs": [{"language": SOURCE, "outcome": "output", "detail": "-1\n+2"}],
        }
    ]
    # Where it ran and when, as the run record says: today's date unless given.
    assert data["releases"]["0.5.0"]["date"] == datetime.date.today().isoformat()


def test_a_chapters_file_keeps_the_examples_of_its_chapter_only(tmp_path):
    other = {**CELL, "page": "ch02/b", "file": "docs/ch02/b.rst"}
    path = tmp_path / "release-drift.json"
    drift.save(path, "0.4.38", ENV, {SOURCE: [CELL, other]}, "docs/ch02/")
    [example] = drift.read_drift(path)["releases"]["0.4.38"]["examples"]
    assert example["file"] == "docs/ch02/b.rst"


def outcomes(path, release="0.4.38") -> list[list[tuple[str, str]]]:
    return [
        [(run["language"], run["outcome"]) for run in example["runs"]]
        for example in drift.read_drift(path)["releases"][release]["examples"]
    ]


def test_an_example_is_known_by_its_source_code_so_a_translation_never_changes_the_file(
    tmp_path,
):
    """The English run of an example rides on the Chinese one: its translated code is no
    key, so translating a string in it, and running again, changes nothing in the file."""
    path = tmp_path / "release-drift.json"
    translated = {**CELL, "code": "c-en"}
    drift.save(path, "0.4.38", ENV, {SOURCE: [CELL], "en": [translated]}, date="2026-12-03")
    [example] = drift.read_drift(path)["releases"]["0.4.38"]["examples"]
    assert example["code"] == "c"
    before = path.read_text(encoding="utf-8")
    translated_again = {**CELL, "code": "c-en, translated again"}
    drift.save(path, "0.4.38", ENV, {SOURCE: [CELL], "en": [translated_again]}, date="2026-12-03")
    assert path.read_text(encoding="utf-8") == before
    # Runs of a language alone, without the source's, know no example.
    drift.save(path, "0.5.0", ENV, {"en": [translated]})
    assert drift.read_drift(path)["releases"]["0.5.0"]["examples"] == []


def test_an_outcome_that_varies_from_run_to_run_is_kept_as_varying(tmp_path):
    """The two editions' runs of one example are two runs of it, and a new run of a release
    is merged with what the file keeps: whichever outcome came last does not win."""
    path = tmp_path / "release-drift.json"
    shared = {**CELL, "outcome": "assert", "detail": "AssertionError"}
    translated = {**CELL, "outcome": "same", "code": "c-en"}  # its strings are translated
    del translated["detail"]
    drift.save(path, "0.4.38", ENV, {SOURCE: [shared], "en": [translated]})
    assert outcomes(path) == [[(SOURCE, "assert"), ("en", "same")]]

    # Run again, the Chinese run shares no memory this time: its earlier failure is kept.
    passed = {**translated, "code": "c"}
    drift.save(path, "0.4.38", ENV, {SOURCE: [passed], "en": [translated]})
    assert outcomes(path) == [[(SOURCE, "assert"), ("en", "same"), (SOURCE, "same")]]


def test_a_run_with_the_same_results_changes_nothing_but_its_date_and_new_code_starts_over(
    tmp_path,
):
    """The file does not churn: running a release again changes only what came out otherwise."""
    path = tmp_path / "release-drift.json"
    drift.save(path, "0.4.38", ENV, {SOURCE: [CELL]}, date="2026-12-03")
    before = path.read_text(encoding="utf-8")
    drift.save(path, "0.4.38", ENV, {SOURCE: [CELL]}, date="2026-12-03")
    assert path.read_text(encoding="utf-8") == before
    drift.save(path, "0.4.38", ENV, {SOURCE: [CELL]}, date="2026-12-04")
    assert path.read_text(encoding="utf-8") == before.replace("2026-12-03", "2026-12-04")
    drift.save(path, "0.4.38", ENV, {SOURCE: [{**CELL, "code": "edited", "outcome": "same"}]})
    assert outcomes(path) == [[(SOURCE, "same")]]
    # Another environment for the release (a new NumPy, say): its runs start over too.
    drift.save(path, "0.4.38", "Python 3.12, jax==0.4.38", {SOURCE: [{**CELL, "code": "edited"}]})
    assert outcomes(path) == [[(SOURCE, "output")]]


def test_an_example_repeated_in_a_file_is_merged_in_its_order(tmp_path):
    path = tmp_path / "release-drift.json"
    first = {**CELL, "line": 3}
    second = {**CELL, "line": 9, "outcome": "same"}
    del second["detail"]
    drift.save(path, "0.4.38", ENV, {SOURCE: [first, second]})
    drift.save(path, "0.4.38", ENV, {SOURCE: [first, second]})
    assert outcomes(path) == [[(SOURCE, "output")], [(SOURCE, "same")]]


def test_a_line_that_differs_only_by_the_releases_name_is_no_difference():
    only_the_name = {**CELL, "detail": "-JAX version: 0.12.0.1\n+JAX version: 0.11.2"}
    assert drift.without_release_name(only_the_name, "0.11.2", "0.12.0.1") == {
        k: v for k, v in CELL.items() if k != "detail"
    } | {"outcome": "same"}
    more = {**only_the_name, "detail": only_the_name["detail"] + "\n-numpy>=2.2\n+numpy>=2.1"}
    kept = drift.without_release_name(more, "0.11.2", "0.12.0.1")
    assert (kept["outcome"], kept["detail"]) == ("output", "-numpy>=2.2\n+numpy>=2.1")
    # A value that is no release's name still differs.
    other = {**CELL, "detail": "-result: 0.12\n+result: 0.13"}
    assert drift.without_release_name(other, "0.11.2", "0.12.0.1") == other


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"generated by": "jaxbook-lab drift --save", "releases": {}}', "it has no format number"),
        ('{"format": 4, "generated by": "x", "releases": {"0.4.38": {}}}',
         '["releases"]["0.4.38"] has no "environment"'),
    ],
)  # fmt: skip
def test_saving_into_a_drift_file_of_another_format_or_shape_is_refused(tmp_path, text, problem):
    path = tmp_path / "release-drift.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit) as refused:
        drift.save(path, "0.4.38", ENV, {SOURCE: [CELL]})
    assert str(refused.value) == (
        f"{path}: not a drift file of format 4 ({problem}); write it again with make release-report"
    )
    assert path.read_text(encoding="utf-8") == text


def test_a_cells_digest_ignores_its_comments_but_not_its_strings():
    """A comment edited or translated again does not make the drift data older."""
    same = formats.code_digest("x = 1  # 注释\nprint(x)")
    assert formats.code_digest("x = 1  # a comment\nprint(x)") == same
    assert formats.code_digest("x = 2  # 注释\nprint(x)") != same
    assert formats.code_digest('print("# a")') != formats.code_digest('print("# b")')


def test_a_file_of_the_releases_environment_is_kept_by_its_name_in_the_package(tmp_path):
    installed = f"{tmp_path}/_build/drift/envs/jax-0.5.0-py3.13/lib/python3.13/site-packages"
    error = "ImportError: cannot import name 'AxisType' from 'jax.sharding'"
    detail = f"{error} ({installed}/jax/sharding.py)"
    assert drift.without_paths(f"{detail} in {tmp_path}/docs", tmp_path) == (
        "ImportError: cannot import name 'AxisType' from 'jax.sharding' (jax/sharding.py) "
        "in <book>/docs"
    )


def test_a_script_that_fails_on_a_missing_api_is_a_cell_that_cannot_run():
    """The cell asserts that its script succeeded and prints the script's traceback: the
    release lacks an API, whatever the cell's own assert says."""
    printed = (
        'Traceback (most recent call last):\n  File "s.py", line 5, in <module>\n'
        "AttributeError: Unrecognized config option: jax_num_cpu_devices\n"
    )
    record = {"file": "p.rst", "line": 3, "want": "ok\n", "got": printed, "passed": False}
    failed = {**record, "exception": "AssertionError", "failed_at": "assert r.returncode == 0"}
    assert drift.classify(failed) == {
        "file": "p.rst",
        "line": 3,
        "outcome": "cannot-run",
        "detail": "AttributeError: Unrecognized config option: jax_num_cpu_devices",
    }
    # A script that printed nothing of the kind leaves the cell's assert as the outcome.
    other = {**failed, "got": "wrong\n"}
    assert drift.classify(other)["outcome"] == "assert"


def test_jaxs_note_on_its_traceback_is_no_exception():
    from pagerun.engine import exception_line

    error = NameError("name 'repeat_sum' is not defined")
    # As JAX 0.4 adds it: a rule, then the sentence, in one note of two lines.
    error.add_note("-" * 20 + "\nFor simplicity, JAX has removed its internal frames")
    assert exception_line(error) == "NameError: name 'repeat_sum' is not defined"
    want = "Traceback (most recent call last):\n  ...\nTypeError: old\n"
    got = (
        "Traceback (most recent call last):\n  ...\nNameError: name 'f' is not defined\n"
        "For simplicity, JAX has removed its internal frames from the traceback of the "
        "following exception. Set JAX_TRACEBACK_FILTERING=off to include these.\n"
    )
    record = {"file": "p.rst", "line": 3, "want": want, "got": got, "passed": False}
    assert drift.classify({**record, "exception": None}) == {
        "file": "p.rst",
        "line": 3,
        "outcome": "cannot-run",
        "detail": "NameError: name 'f' is not defined",
    }
