"""Recording a GPU output turns one expected output into a CPU/GPU pair."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from jaxbook.doctest.record import (
    add_arguments,
    add_backend_output,
    add_backend_output_markdown,
    run,
    shown,
)
from jaxbook.project import SOURCE_LANGUAGE

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
    lines = PAGE.splitlines()

    add_backend_output(lines, 4, "gpu", "[CudaDevice(id=0)]")

    assert "\n".join(lines) + "\n" == RECORDED


def test_a_nested_block_keeps_its_indentation() -> None:
    nested = ["   " + line if line else "" for line in PAGE.splitlines()]

    add_backend_output(nested, 4, "gpu", "[CudaDevice(id=0)]")

    assert nested == ["   " + line if line else "" for line in RECORDED.splitlines()]


def test_a_line_that_is_not_a_code_block_is_refused() -> None:
    with pytest.raises(ValueError, match="line 1 is not a code block"):
        add_backend_output(PAGE.splitlines(), 1, "gpu", "x")


def test_a_code_block_without_its_own_output_is_refused() -> None:
    lines = PAGE.replace(".. testoutput::", ".. testcode::").splitlines()
    with pytest.raises(ValueError, match="has no testoutput of its own"):
        add_backend_output(lines, 4, "gpu", "x")


def test_a_machine_name_becomes_a_wildcard_and_trailing_spaces_go() -> None:
    text = "kind=NVIDIA H200 \nid=0\n"

    assert shown(text, [("NVIDIA H200", "NVIDIA ...")]) == "kind=NVIDIA ...\nid=0"


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

    add_backend_output_markdown(lines, 3, "gpu", "[CudaDevice(id=0)]")

    assert "\n".join(lines) + "\n" == MYST_RECORDED


def test_a_myst_cell_without_its_own_output_is_refused() -> None:
    lines = MYST_PAGE.replace("```{testoutput}", "```{testcode}").splitlines()
    with pytest.raises(ValueError, match="has no testoutput of its own"):
        add_backend_output_markdown(lines, 3, "gpu", "[CudaDevice(id=0)]")


def test_a_differing_block_without_a_line_is_refused_before_a_page_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "book"
    (project / "docs").mkdir(parents=True)
    (project / "conf.py").write_text("", encoding="utf-8")
    page = project / "docs" / "index.rst"
    page.write_text(PAGE, encoding="utf-8")
    block = {"file": "docs/index.rst", "line": None, "want": "[CpuDevice(id=0)]\n"}
    record = tmp_path / "record.json"
    record.write_text(
        json.dumps(
            {
                "format": 1,
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
