"""Every run of the book's code has JAX's key-reuse checker on: reusing a key fails.

The book's ``doctest_global_setup`` (``conf.py``) turns on ``jax_debug_key_reuse``
for every page, so ``make doctest``, refresh, the measured outputs and the bundle,
which all run pages with it, fail a cell that draws from a key twice. A cell that
shows reuse on purpose says so with ``jax.debug_key_reuse(False)``, or catches the
error.
"""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest
from sphinx.util.tags import Tags

from pagerun import engine

ROOT = Path(__file__).resolve().parents[2]


def book_settings() -> engine.Settings:
    conf = runpy.run_path(str(ROOT / "conf.py"), {"tags": Tags()})
    return engine.Settings(
        conf["doctest_default_flags"], conf["doctest_global_setup"], conf["doctest_global_cleanup"]
    )


def page(code: str, output: str) -> engine.Page:
    def block(kind: str, text: str, line: int) -> engine.Block:
        return {
            "type": kind,
            "code": text,
            "file": "docs/ch01/planted.rst",
            "line": line,
            "options": {},
            "groups": ["default"],
            "skipif": None,
        }

    return {
        "docname": "ch01/planted",
        "blocks": [block("testcode", code, 3), block("testoutput", output, 12)],
    }


SAMPLE_THEN_SPLIT = """\
import jax
key = jax.random.key(0)
x = jax.random.normal(key, (2,))
key, subkey = jax.random.split(key)  # the key was consumed by normal()
print(x.shape)
"""
SPLIT_FIRST = SAMPLE_THEN_SPLIT.replace(
    "x = jax.random.normal(key, (2,))\nkey, subkey = jax.random.split(key)",
    "key, subkey = jax.random.split(key)\nx = jax.random.normal(subkey, (2,))",
)
ON_PURPOSE = "with jax.debug_key_reuse(False):\n" + "".join(
    f"    {line}\n" for line in SAMPLE_THEN_SPLIT.splitlines()
)


@pytest.mark.parametrize(
    ("code", "fails"),
    [(SAMPLE_THEN_SPLIT, True), (SPLIT_FIRST, False), ("import jax\n" + ON_PURPOSE, False)],
    ids=["planted reuse", "split first", "reuse declared"],
)
def test_a_reused_key_fails_the_cell_under_the_books_setup(code, fails):
    run = engine.run(page(code, "(2,)\n"), book_settings())
    assert run.tries == 1
    assert (run.failures == 1) is fails
    if fails:
        assert any("KeyReuseError" in report.detail for report in run.reports), run.reports
        assert str(run.reports[0]).startswith("docs/ch01/planted.rst:3: doctest failed")


def test_without_the_checker_the_planted_reuse_would_pass():
    """What the setup adds: the same cell under a setup without the checker passes."""
    settings = book_settings()
    unchecked = engine.Settings(
        settings.flags,
        settings.global_setup.replace("check_key_reuse()", ""),
        settings.global_cleanup.replace("stop_checking_key_reuse()", ""),
    )
    assert engine.run(page(SAMPLE_THEN_SPLIT, "(2,)\n"), unchecked).failures == 0
