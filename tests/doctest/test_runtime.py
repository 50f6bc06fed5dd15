from __future__ import annotations

import time

import pytest

from jaxbook.doctest import runtime as doctest_runtime


def test_unrecorded_on_skips_only_that_backend_and_says_why(monkeypatch, capsys):
    monkeypatch.setattr(doctest_runtime, "BACKEND", "gpu")
    assert doctest_runtime.unrecorded_on("gpu", "device reprs differ") is True
    assert "skipped on gpu: device reprs differ" in capsys.readouterr().err
    assert doctest_runtime.unrecorded_on("tpu", "not here") is False
    assert capsys.readouterr().err == ""


def test_page_timer_turns_a_hang_into_an_error(monkeypatch):
    monkeypatch.setattr(doctest_runtime, "PAGE_TIMEOUT_S", 1)
    doctest_runtime.start_page_timer()
    try:
        with pytest.raises(doctest_runtime.PageTimeout, match="longer than 1 s"):
            time.sleep(5)
    finally:
        doctest_runtime.stop_page_timer()
