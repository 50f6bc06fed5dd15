"""`make doctest` fails, names page and line, and shows expected and actual output
when an expected output or an assert on a page is wrong."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest


def corrupt(path: Path, old: str, new: str) -> int:
    """Replace ``old`` once; return the line of the directive of the block it sits in."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    before = text[: text.index(old)]
    path.write_text(text.replace(old, new), encoding="utf-8")
    # The directive: ".. testcode::" on a reST page, "```{testcode}" on a MyST one.
    start = max(before.rfind(".. test"), before.rfind("```{test"))
    return before[:start].count("\n") + 1


@pytest.fixture
def run_doctest(jaxbook):
    def run(project: Path, *pages: str, jobs: str = "auto"):
        only = [arg for page in pages for arg in ("--only", str(project / page))]
        return jaxbook(
            "doctest", "--jobs", jobs, "--builddir", project / "_build", *only, "zh_CN", cwd=project
        )

    return run


def reported_line(output: str, page: str) -> int:
    match = re.search(
        rf"^docs/{re.escape(page)}:(\d+): doctest failed \[zh_CN\]$", output, re.MULTILINE
    )
    assert match, output
    return int(match[1])


def test_clean_pages_pass(run_doctest, project_copy):
    result = run_doctest(project_copy, "docs/ch01/quiz.rst")
    assert result.returncode == 0, result.stdout
    assert re.search(r"^\d+ passed, 0 failed$", result.stdout.splitlines()[-1])


def test_one_worker_and_three_give_the_same_verdict(run_doctest, project_copy):
    """One worker runs both pages in turn, three run them side by side: the same verdict."""
    quiz = project_copy / "docs/ch01/quiz.rst"
    corrupt(quiz, "   .. testoutput::\n\n      2.0\n", "   .. testoutput::\n\n      3.0\n")
    pages = ("docs/ch01/quiz.rst", "docs/ch01/what-is-jax.md")
    outputs = []
    for jobs in ("1", "3"):
        shutil.rmtree(project_copy / "_build", ignore_errors=True)
        result = run_doctest(project_copy, *pages, jobs=jobs)
        assert result.returncode != 0
        # The first line says how many workers ran; the verdict below it must not differ.
        outputs.append(result.stdout.split("\n", 1)[1])
    assert outputs[0] == outputs[1]
    assert outputs[0].splitlines()[-1].endswith("passed, 1 failed")


def test_a_wrong_output_and_a_broken_assert_fail_by_page_and_line(run_doctest, project_copy):
    quiz = project_copy / "docs/ch01/quiz.rst"
    # Q5's answer: the doctest must reject a page that claims the global is re-read.
    text = quiz.read_text(encoding="utf-8")
    q5 = text.index("Q5.")
    q5_output = text.index("   .. testoutput::\n\n      2.0\n", q5)
    quiz.write_text(
        text[:q5_output]
        + "   .. testoutput::\n\n      100.0\n"
        + text[q5_output + len("   .. testoutput::\n\n      2.0\n") :],
        encoding="utf-8",
    )
    q5_code_line = text[: text.index(".. testcode::", q5)].count("\n") + 1

    what = project_copy / "docs/ch01/what-is-jax.md"
    assert_line = corrupt(what, 'startswith("Vectorizing map")', 'startswith("Quantizing map")')

    result = run_doctest(project_copy, "docs/ch01/quiz.rst", "docs/ch01/what-is-jax.md")
    out = result.stdout
    assert result.returncode != 0
    assert re.search(r"^\d+ passed, 2 failed$", out.splitlines()[-1]), out

    assert abs(reported_line(out, "ch01/quiz.rst") - q5_code_line) <= 2
    assert re.search(r"Expected:\n\s+100\.0\nGot:\n\s+2\.0\n", out)

    assert abs(reported_line(out, "ch01/what-is-jax.md") - assert_line) <= 2
    assert "AssertionError" in out
