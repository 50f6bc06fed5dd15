"""A warning is output: one the page does not show fails `make doctest` at its cell."""

from __future__ import annotations

import pytest

PLANTED = {
    "UserWarning": 'warnings.warn("planted user warning")',
    "DeprecationWarning": 'warnings.warn("planted deprecation", DeprecationWarning)',
    "FutureWarning": 'warnings.warn("planted future change", FutureWarning)',
}


@pytest.fixture(scope="module")
def planted(tmp_path_factory, book_copier, jaxbook):
    project = book_copier(tmp_path_factory.mktemp("warnings"))
    page = project / "docs" / "ch01" / "quiz.rst"
    text = page.read_text(encoding="utf-8")
    for code in PLANTED.values():
        text += f"\n.. testcode::\n\n   import warnings\n   {code}\n"
    page.write_text(text, encoding="utf-8")
    numbered = text.splitlines()
    # doctest reports a block at its directive's line, two above the planted code.
    lines = {
        category: next(i for i, line in enumerate(numbered, 1) if code in line) - 3
        for category, code in PLANTED.items()
    }
    result = jaxbook("doctest", "--only", "docs/ch01/quiz.rst", "zh_CN", cwd=project)
    return result, lines


@pytest.mark.parametrize("category", list(PLANTED))
def test_an_unexpected_warning_fails_at_its_cell(planted, category):
    result, lines = planted
    assert result.returncode == 1
    assert result.stdout.strip().splitlines()[-1].endswith(f" {len(PLANTED)} failed")
    message = {"UserWarning": "planted user warning", "DeprecationWarning": "planted deprecation",
               "FutureWarning": "planted future change"}[category]  # fmt: skip
    headline = f"docs/ch01/quiz.rst:{lines[category]}: unexpected {category}: {message} [zh_CN]"
    assert headline in result.stdout.splitlines(), result.stdout


def test_a_warning_the_page_expects_is_caught_and_shown(jaxbook):
    """The 1.2 cell that asks for float64 shows the warning JAX gives as its output."""
    result = jaxbook("doctest", "--only", "docs/ch01/jax-vs-numpy.rst", "zh_CN", "en")
    assert result.returncode == 0, result.stdout
