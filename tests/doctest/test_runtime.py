from __future__ import annotations

import sys
from pathlib import Path

from jaxbook.doctest import runtime as doctest_runtime


def test_unrecorded_on_skips_only_that_backend_and_says_why(monkeypatch, capsys):
    monkeypatch.setattr(doctest_runtime, "BACKEND", "gpu")
    assert doctest_runtime.unrecorded_on("gpu", "device reprs differ") is True
    assert "skipped on gpu: device reprs differ" in capsys.readouterr().err
    assert doctest_runtime.unrecorded_on("tpu", "not here") is False
    assert capsys.readouterr().err == ""


def test_a_cell_recorded_for_other_backends_only_is_skipped_here_saying_why(monkeypatch, capsys):
    monkeypatch.setattr(doctest_runtime, "BACKEND", "tpu")
    assert doctest_runtime.unrecorded_here(("cpu", "tpu")) is False
    assert capsys.readouterr().err == ""
    assert doctest_runtime.unrecorded_here(("cpu", "gpu")) is True
    assert capsys.readouterr().err == (
        "skipped on tpu: the output depends on the backend and is recorded for cpu, gpu only\n"
    )
    monkeypatch.setattr(doctest_runtime, "RUN_UNRECORDED", True)
    assert doctest_runtime.unrecorded_here(("cpu", "gpu")) is False


def test_outputs_are_recorded_on_the_python_of_python_version():
    pinned = (Path(__file__).resolve().parents[2] / ".python-version").read_text().strip()
    assert tuple(int(part) for part in pinned.split(".")[:2]) == doctest_runtime.RECORDED_PYTHON


def test_other_python_skips_only_on_another_minor_version(monkeypatch, capsys):
    monkeypatch.setattr(doctest_runtime, "RECORDED_PYTHON", sys.version_info[:2])
    assert doctest_runtime.other_python("prints the version") is False
    monkeypatch.setattr(doctest_runtime, "RECORDED_PYTHON", (2, 7))
    assert doctest_runtime.other_python("prints the version") is True
    assert "skipped on Python 3." in capsys.readouterr().err


def test_pages_that_each_draw_a_figure_leave_none_to_the_next():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    # pyplot warns at its 21st open figure; pages run with warnings as errors.
    for _ in range(plt.rcParams["figure.max_open_warning"] + 5):
        doctest_runtime.watch_warnings()
        try:
            plt.subplots()
        finally:
            doctest_runtime.close_figures()
            doctest_runtime.unwatch_warnings()
    assert plt.get_fignums() == []
