from __future__ import annotations

import sys
from pathlib import Path

import pytest

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


def test_a_page_that_leaves_a_setting_changed_fails_naming_it():
    """As the global setup and cleanup bracket a page: one that leaves JAX's configuration
    or NumPy's print options changed fails at its cleanup, which puts them back; one that
    puts them back itself passes."""
    import jax
    import numpy

    doctest_runtime.keep_settings()
    doctest_runtime.settings_left_as_found()  # a page that changed nothing
    doctest_runtime.keep_settings()
    jax.config.update("jax_enable_x64", True)
    numpy.set_printoptions(precision=3)
    try:
        with pytest.raises(AssertionError) as raised:
            doctest_runtime.settings_left_as_found()
        # Put back, so that the next page runs as it would have.
        assert jax.config.values["jax_enable_x64"] is False
        assert numpy.get_printoptions()["precision"] == 8
    finally:
        jax.config.update("jax_enable_x64", False)
        numpy.set_printoptions(precision=8)
    assert str(raised.value) == (
        "the page left settings changed, which the next page in this process would run "
        "with: NumPy's print option precision (8, now 3); jax.config jax_enable_x64 (False, "
        "now True). Put them back in the page, or run the code as a snippet, in a new process."
    )
    doctest_runtime.keep_settings()
    jax.config.update("jax_debug_nans", True)
    jax.config.update("jax_debug_nans", False)
    doctest_runtime.settings_left_as_found()  # changed and put back
