"""The book's use of pagerun's kernel: a build runs pages that import JAX without importing
it, and asks the kernel what it must know of JAX. What the kernel promises of itself (crash
and timeout isolation, no kernel outliving its build, its pipes, ``ask``) is held by
pagerun's own tests (packages/pagerun/tests/test_kernel.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pagerun import kernel


def cell(code: str) -> str:
    return "\n```{testcode}\n" + code + "\n```\n"


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


# A build of the tiny book, one of its pages importing JAX, in a process of its own: whether
# the build's process imported JAX, and the verdict.
BUILD = """
import sys
from pathlib import Path

from jaxbook.doctest import runner

root = Path(sys.argv[1])
ok = runner.check(runner.Spec(root, root / "_build", force=True), ["zh_CN"])
print("jax" in sys.modules, ok)
"""


def test_the_build_process_never_imports_jax(book):
    code = "import jax\n\nprint(jax.numpy.add(1, 2))\n```\n\n```{testoutput}\n3"
    append(book / "docs/fence.md", cell(code))

    built = subprocess.run(
        [sys.executable, "-c", BUILD, str(book)], capture_output=True, text=True, timeout=300
    )

    assert built.returncode == 0, built.stderr
    *_, verdict, last = built.stdout.splitlines()
    assert verdict == "6 passed, 0 failed"  # the cell that imports JAX ran, and passed
    assert last == "False True"


def test_the_book_asks_the_kernel_of_jax_names():
    """What the build never imports (JAX) is asked in the kernel (jaxbook.sphinxext.api_names)."""
    assert kernel.ask("jaxbook.doctest.jax_names", "name_problem", "jax.jit") is None
    assert kernel.ask("jaxbook.doctest.jax_names", "name_problem", "jax.no_such_name")
