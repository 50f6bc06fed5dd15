"""The real chapter, built once: every seed element is on the site."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jaxbook.project import find_root

ROOT = find_root(Path(__file__).parent)
CH01 = "ch01"


@pytest.fixture(scope="module")
def site(built_site) -> Path:
    return built_site / "zh_CN"


def page(site: Path, name: str) -> str:
    return (site / CH01 / f"{name}.html").read_text(encoding="utf-8")


def test_one_page_per_section(site):
    titles = {
        "what-is-jax": "1.1",
        "jax-vs-numpy": "1.2",
        "transformations": "1.3",
        "installation": "1.4",
        "arrays": "1.5",
        "devices": "1.6",
        "exercises": "1.7",
    }
    for name, number in titles.items():
        # The toctree's number, which the HTML writer prints before the title.
        heading = rf'<h1><span class="section-number">{re.escape(number)} </span>'
        assert re.search(heading, page(site, name)), name
    # A chapter's summary pages name it, as the navigation lists them beside other chapters'.
    for name in ["quiz", "summary", "update-notes", "answers"]:
        assert "<h1>第 1 章" in page(site, name), name


def sources() -> list[str]:
    """The chapter's pages as the author wrote them (reST and MyST)."""
    pages = sorted((ROOT / "docs" / CH01).iterdir())
    return [p.read_text(encoding="utf-8") for p in pages if p.suffix in {".rst", ".md"}]


def test_every_pair_has_both_halves(site):
    written = sum(len(re.findall(r"^\.\. pair::|^:{3,}\{pair\}", s, re.M)) for s in sources())
    assert written >= 4
    pages = [p.read_text(encoding="utf-8") for p in (site / CH01).glob("*.html")]
    assert sum(p.count('class="jb-pair"') for p in pages) == written
    assert sum(p.count("jb-half jb-outdated") for p in pages) == written
    assert sum(p.count("jb-half jb-recommended") for p in pages) == written


def test_update_notes_table_has_a_row_per_note_whose_links_resolve(site):
    html = page(site, "update-notes")
    rows = re.findall(r'<tr class="row-(?:odd|even)" id="update-row-([\w-]+)"', html)
    written = [i for s in sources() for i in re.findall(r"^\s*:id: ([\w-]+)$", s, re.M)]
    assert len(written) >= 18
    assert sorted(rows) == sorted(written)
    for href in set(re.findall(r'href="([\w-]+\.html)#([\w-]+)"', html)):
        target = page(site, href[0].removesuffix(".html"))
        assert f'id="{href[1]}"' in target, href


def test_quiz_has_eight_questions_with_folded_answers(site):
    html = page(site, "quiz")
    assert len(re.findall(r"<h2>第 \d 题<", html)) == 8
    details = re.findall(r"<details[^>]*>", html)
    assert len(details) == 8
    assert not any(" open" in tag for tag in details)


def test_exercise_figure_is_drawn_at_build_time(site):
    html = page(site, "exercises")
    image = re.search(r'<img [^>]*src="([^"]+\.png)"', html)
    assert image
    assert (site / CH01 / image[1]).stat().st_size > 5000
    assert not list((ROOT / "docs").rglob("*.png")), "figures must not be committed"


def test_exercises_have_answer_areas_and_their_self_checks_in_the_notebook(site):
    """The pages show the answer areas and the answers; the self-checks run in the
    exercises' notebook, where the reader runs them, and never on a printed page."""
    exercises = page(site, "exercises")
    answers = page(site, "answers")
    notebook = (site / "_notebooks" / CH01 / "exercises.ipynb").read_text(encoding="utf-8")
    for n in range(1, 5):
        assert f"作答区：练习 E{n}" in exercises
        assert f"参考答案 E{n}" in answers
        assert f"自检：练习 E{n}" in notebook
        assert f"自检：练习 E{n}" not in exercises + answers


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_books_places_stay_out_of_the_published_site(built_site, language):
    """``book-places.json`` is the guides' input, not a page for readers: the build keeps it
    beside its doctrees, where the guides read it, and the site holds none."""
    assert not list((built_site / language).rglob("book-places.json"))
    # make test's build keeps its doctrees beside its site; a test's own build, inside it.
    doctrees = next(
        d for d in (built_site / "doctrees", built_site.parent / "doctrees") if d.is_dir()
    )
    assert (doctrees / language / "book-places.json").is_file()
