"""Recording an accelerator's output gives a cell one expected output per backend."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from jaxbook.project import SOURCE_LANGUAGE
from jaxbook_lab.record import add_arguments, add_backend_output, run

PAGE = """\
Title
=====

.. testcode::
   :skipif: unrecorded_on("gpu", "prints a CpuDevice repr")

   print(jax.devices())

.. testoutput::
   :skipif: unrecorded_on("gpu", "prints a CpuDevice repr")
   :options: +NORMALIZE_WHITESPACE

   [CpuDevice(id=0)]

Next paragraph.
"""

RECORDED = """\
Title
=====

.. testcode::

   print(jax.devices())

.. testoutput::
   :skipif: not ON_CPU
   :options: +NORMALIZE_WHITESPACE

   [CpuDevice(id=0)]

.. testoutput::
   :skipif: not ON_GPU
   :options: +NORMALIZE_WHITESPACE

   [CudaDevice(id=0)]

Next paragraph.
"""


def test_the_cpu_output_stays_and_the_gpu_output_follows_it() -> None:
    """The cell was not recorded on a GPU: its one output held on the CPU alone."""
    lines = PAGE.splitlines()

    add_backend_output(lines, 4, "gpu", "[CudaDevice(id=0)]", ("cpu",))

    assert "\n".join(lines) + "\n" == RECORDED


def test_a_nested_block_keeps_its_indentation() -> None:
    nested = ["   " + line if line else "" for line in PAGE.splitlines()]

    add_backend_output(nested, 4, "gpu", "[CudaDevice(id=0)]", ("cpu",))

    assert nested == ["   " + line if line else "" for line in RECORDED.splitlines()]


SHARED = """\
.. testcode::

   print(x)

.. testoutput::

   1.0

Next.
"""


def test_an_output_every_recorded_backend_shares_keeps_them_all() -> None:
    lines = SHARED.splitlines()

    add_backend_output(lines, 1, "tpu", "0.99999994 \n", ("cpu", "gpu"))

    assert "\n".join(lines) + "\n" == SHARED.replace(
        ".. testoutput::\n\n   1.0\n",
        ".. testoutput::\n   :skipif: not (ON_CPU or ON_GPU)\n\n   1.0\n\n"
        ".. testoutput::\n   :skipif: not ON_TPU\n\n   0.99999994\n",
    )


def test_a_third_backend_joins_the_outputs_or_the_one_it_prints_too() -> None:
    other = RECORDED.splitlines()
    add_backend_output(other, 4, "tpu", "[TpuDevice(id=0)]", ("cpu", "gpu"))
    assert "\n".join(other).endswith(
        "   [CudaDevice(id=0)]\n\n.. testoutput::\n   :skipif: not ON_TPU\n"
        "   :options: +NORMALIZE_WHITESPACE\n\n   [TpuDevice(id=0)]\n\nNext paragraph."
    )

    same = RECORDED.splitlines()
    add_backend_output(same, 4, "tpu", "[CudaDevice(id=0)]\n", ("cpu", "gpu"))
    assert "\n".join(same) + "\n" == RECORDED.replace(
        ":skipif: not ON_GPU", ":skipif: not (ON_GPU or ON_TPU)"
    )


def test_a_line_that_is_not_a_code_block_is_refused() -> None:
    with pytest.raises(ValueError, match="line 1 is not a code block"):
        add_backend_output(PAGE.splitlines(), 1, "gpu", "x", ("cpu",))


def test_a_code_block_without_its_own_output_is_refused() -> None:
    lines = PAGE.replace(".. testoutput::", ".. testcode::").splitlines()
    with pytest.raises(ValueError, match="has no testoutput of its own"):
        add_backend_output(lines, 4, "gpu", "x", ("cpu",))


MACHINE = {
    "backend": "gpu",
    "device": "NVIDIA H200",
    "platform": "jax-cuda13-plugin 0.12.0.1",
    "python": "3.12.3",
    "jax": "0.12.0.1",
    "jaxlib": "0.12.0.1",
    "numpy": "2.5.5",
    "date": "2026-11-29",
    "verdict": "1 passed, 1 failed, 0 skipped",
}

MYST_PAGE = """\
# Title

```{testcode}
:skipif: unrecorded_on("gpu", "prints a CpuDevice repr")

print(jax.devices())
```

```{testoutput}
:skipif: unrecorded_on("gpu", "prints a CpuDevice repr")
:options: +NORMALIZE_WHITESPACE

[CpuDevice(id=0)]
```

Next paragraph.
"""

MYST_RECORDED = """\
# Title

```{testcode}
print(jax.devices())
```

```{testoutput}
:skipif: not ON_CPU
:options: +NORMALIZE_WHITESPACE

[CpuDevice(id=0)]
```

```{testoutput}
:skipif: not ON_GPU
:options: +NORMALIZE_WHITESPACE

[CudaDevice(id=0)]
```

Next paragraph.
"""


def test_a_myst_page_gets_a_gpu_output_fence_after_the_cpu_one() -> None:
    lines = MYST_PAGE.splitlines()

    add_backend_output(lines, 3, "gpu", "[CudaDevice(id=0)]", ("cpu",))

    assert "\n".join(lines) + "\n" == MYST_RECORDED


def test_a_myst_cell_without_its_own_output_is_refused() -> None:
    lines = MYST_PAGE.replace("```{testoutput}", "```{testcode}").splitlines()
    with pytest.raises(ValueError, match="has no testoutput of its own"):
        add_backend_output(lines, 3, "gpu", "[CudaDevice(id=0)]", ("cpu",))


def test_a_differing_block_without_a_line_is_refused_before_a_page_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "book"
    (project / "docs").mkdir(parents=True)
    (project / "conf.py").write_text("", encoding="utf-8")
    page = project / "docs" / "index.rst"
    page.write_text(PAGE, encoding="utf-8")
    block = {
        "file": "docs/index.rst",
        "line": None,
        "code": "print(jax.devices())",
        "want": "[CpuDevice(id=0)]\n",
    }
    record = tmp_path / "record.json"
    record.write_text(
        json.dumps(
            {
                "format": 2,
                "machine": MACHINE,
                "blocks": {
                    SOURCE_LANGUAGE: [
                        {**block, "got": "[CudaDevice(id=0)]\n", "passed": False, "exception": None}
                    ]
                },
            }
        ),
        encoding="utf-8",
    )
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    monkeypatch.chdir(project)

    with pytest.raises(SystemExit) as exit:
        run(parser.parse_args(["--backend", "gpu", str(record)]))

    assert str(exit.value) == (
        f"{record}: docs/index.rst: a block whose output differed has no line number, "
        "so it cannot be placed on its page"
    )
    assert page.read_text(encoding="utf-8") == PAGE


EVAL_RST_PAGE = """\
# Title

```{eval-rst}
.. testcode::

   print(jax.devices())

.. testoutput::

   [CpuDevice(id=0)]
```

Next.
"""


def test_a_myst_pages_eval_rst_cell_gets_a_rest_output_inside_the_fence() -> None:
    """The locator reads an ``{eval-rst}`` fence's content as reST: the new output is a
    reST directive, and the fence still closes after it."""
    lines = EVAL_RST_PAGE.splitlines()

    add_backend_output(lines, 4, "gpu", "[CudaDevice(id=0)]", ("cpu",), markdown=True)

    assert "\n".join(lines) + "\n" == EVAL_RST_PAGE.replace(
        ".. testoutput::\n\n   [CpuDevice(id=0)]\n",
        ".. testoutput::\n   :skipif: not ON_CPU\n\n   [CpuDevice(id=0)]\n\n"
        ".. testoutput::\n   :skipif: not ON_GPU\n\n   [CudaDevice(id=0)]\n",
    )
