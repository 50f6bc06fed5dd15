"""`jaxbook refresh` records real outputs and leaves matching ones alone."""

from __future__ import annotations


def test_pending_output_is_filled_and_wildcards_are_kept(jaxbook, project_copy):
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

    result = jaxbook("refresh", "docs/ch01/quiz.rst", "docs/ch01/answers.rst", cwd=project_copy)
    assert result.returncode == 0, result.stderr
    assert "docs/ch01/quiz.rst: 1 output(s) rewritten" in result.stdout
    assert "docs/ch01/answers.rst: 0 output(s) rewritten" in result.stdout
    assert quiz.read_text(encoding="utf-8") == original_quiz
    # The timings there are wildcards; the real run matches them, so they stay.
    assert answers.read_text(encoding="utf-8") == original_answers


def test_an_output_that_passes_only_by_normalized_whitespace_is_rewritten(jaxbook, project_copy):
    """NORMALIZE_WHITESPACE lets " [[1 2 3]" pass where the code prints "[[1 2 3]"; the
    page must show what the code prints."""
    page = project_copy / "docs/ch01/exercises.rst"
    original = page.read_text(encoding="utf-8")
    planted = original.replace("   矩阵 m：\n   [[1 2 3]\n", "   矩阵 m：\n    [[1 2 3]\n")
    assert planted != original
    page.write_text(planted, encoding="utf-8")

    result = jaxbook("refresh", "docs/ch01/exercises.rst", cwd=project_copy)
    assert result.returncode == 0, result.stderr
    assert "docs/ch01/exercises.rst: 1 output(s) rewritten" in result.stdout
    assert page.read_text(encoding="utf-8") == original


def test_english_outputs_are_written_into_the_catalog(jaxbook, project_copy):
    catalog = project_copy / "locale/en/LC_MESSAGES/ch01/quiz.po"
    original = catalog.read_text(encoding="utf-8")
    assert 'msgid "2.0"\nmsgstr "2.0"\n' in original
    catalog.write_text(
        original.replace('msgid "2.0"\nmsgstr "2.0"\n', 'msgid "2.0"\nmsgstr "100.0"\n'),
        encoding="utf-8",
    )
    source = (project_copy / "docs/ch01/quiz.rst").read_text(encoding="utf-8")

    result = jaxbook("refresh", "--language", "en", "docs/ch01/quiz.rst", cwd=project_copy)
    assert result.returncode == 0, result.stderr
    assert "quiz.rst [en]: 1 output(s) rewritten in the catalog" in result.stdout
    assert catalog.read_text(encoding="utf-8") == original
    assert (project_copy / "docs/ch01/quiz.rst").read_text(encoding="utf-8") == source


def test_english_refresh_of_a_page_without_a_catalog_says_so(jaxbook, project_copy):
    page = project_copy / "docs/ch01/quiz.rst"
    (project_copy / "locale/en/LC_MESSAGES/ch01/quiz.po").unlink()

    result = jaxbook("refresh", "--language", "en", "docs/ch01/quiz.rst", cwd=project_copy)
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "docs/ch01/quiz.rst: no en catalog yet; run 'make update-po' to create it, "
        "translate it, then refresh the outputs"
    )
    assert page.is_file()


def test_a_myst_page_gets_its_output_in_its_fence(jaxbook, project_copy):
    page = project_copy / "docs/ch01/what-is-jax.md"
    original = page.read_text(encoding="utf-8")
    fence = "```{testoutput}\nhttps://github.com/jax-ml/jax\ndocs.jax.dev\n```\n"
    assert original.count(fence) == 1
    page.write_text(original.replace(fence, "```{testoutput}\n(pending)\n```\n"), "utf-8")

    result = jaxbook("refresh", "docs/ch01/what-is-jax.md", cwd=project_copy)
    assert result.returncode == 0, result.stderr
    assert "docs/ch01/what-is-jax.md: 1 output(s) rewritten" in result.stdout
    assert page.read_text(encoding="utf-8") == original


def test_several_languages_run_in_order_and_the_first_failure_stops(jaxbook, project_copy):
    (project_copy / "locale/en/LC_MESSAGES/ch01/quiz.po").unlink()
    languages = ("--language", "zh_CN", "--language", "en", "--language", "zh_CN")

    result = jaxbook("refresh", *languages, "docs/ch01/quiz.rst", cwd=project_copy)

    assert result.returncode == 1
    # The source ran once: the failing English refresh kept the second from starting.
    assert result.stdout.count("docs/ch01/quiz.rst: 0 output(s) rewritten") == 1
    assert "no en catalog yet" in result.stderr


def test_code_that_prints_and_then_raises_is_reported_and_left_alone(jaxbook, project_copy):
    quiz = project_copy / "docs/ch01/quiz.rst"
    original = quiz.read_text(encoding="utf-8")
    pending = original.replace(
        "   .. testoutput::\n\n      2.0\n", "   .. testoutput::\n\n      (pending)\n"
    )
    raising = (
        '\n.. testcode::\n\n   print("before")\n   raise ValueError("boom")\n'
        "\n.. testoutput::\n\n   (pending too)\n"
    )
    quiz.write_text(pending + raising, encoding="utf-8")
    line = (pending + raising).splitlines().index("   (pending too)") - 1

    result = jaxbook("refresh", "docs/ch01/quiz.rst", cwd=project_copy)

    assert result.returncode == 1
    assert f"quiz.rst:{line}: its code printed output and then raised ValueError: boom" in (
        result.stderr
    )
    assert "docs/ch01/quiz.rst: 1 output(s) rewritten" in result.stdout
    # The output that could be recorded was; the other is as it was.
    assert quiz.read_text(encoding="utf-8") == original + raising
