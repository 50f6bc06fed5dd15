"""tools/refresh_outputs.py records real outputs and leaves matching ones alone."""

from __future__ import annotations

import subprocess
import sys

from test_doctest_failures import project_copy  # noqa: F401  (fixture)


def refresh(project, *pages):
    return subprocess.run(
        [
            sys.executable,
            str(project / "tools" / "refresh_outputs.py"),
            *(str(project / page) for page in pages),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=project,
    )


def test_pending_output_is_filled_and_wildcards_are_kept(project_copy):  # noqa: F811
    quiz = project_copy / "docs/ch01/quiz.rst"
    answers = project_copy / "docs/ch01/answers.rst"
    original_quiz = quiz.read_text(encoding="utf-8")
    original_answers = answers.read_text(encoding="utf-8")
    quiz.write_text(
        original_quiz.replace(
            "   .. testoutput::\n\n      2.0\n", "   .. testoutput::\n\n      (pending)\n"
        ),
        encoding="utf-8",
    )
    assert quiz.read_text(encoding="utf-8") != original_quiz

    result = refresh(project_copy, "docs/ch01/quiz.rst", "docs/ch01/answers.rst")
    assert result.returncode == 0, result.stderr
    assert "docs/ch01/quiz.rst: 1 output(s) rewritten" in result.stdout
    assert "docs/ch01/answers.rst: 0 output(s) rewritten" in result.stdout
    assert quiz.read_text(encoding="utf-8") == original_quiz
    # The timings there are wildcards; the real run matches them, so they stay.
    assert answers.read_text(encoding="utf-8") == original_answers
