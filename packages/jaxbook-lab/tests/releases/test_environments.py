"""A release's environment: what cannot be made is one sentence, and nothing is left behind.

The environment that installs is tested through ``jaxbook-lab drift``
(packages/jaxbook-lab/tests/releases/test_drift.py); these need no install.
"""

from __future__ import annotations

import pytest

from jaxbook_lab.releases import environments


def test_an_interpreter_that_does_not_run_is_one_sentence(tmp_path):
    missing = str(tmp_path / "python3.99")
    with pytest.raises(environments.CannotInstall) as raised:
        environments.environment("0.4.38", missing, tmp_path / "envs", tmp_path / "w.whl", "uv")
    assert str(raised.value) == (
        f"JAX 0.4.38 cannot be installed here: {missing} is not a Python interpreter that runs"
    )
    assert raised.value.release == "0.4.38"
    assert raised.value.why == f"{missing} is not a Python interpreter that runs"
    assert not (tmp_path / "envs").exists()


def test_the_interpreters_found_are_python_3_9_or_newer_newest_first():
    found = environments.interpreters()
    assert found, "at least the Python that runs the tests"
    assert all(version >= (3, 9) for version, _path in found)
    assert [version for version, _path in found] == sorted({v for v, _p in found}, reverse=True)
