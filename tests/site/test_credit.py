"""Every page credits the course, and the project claims only what it owns."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from jaxbook.project import find_root

ROOT = find_root(Path(__file__).parent)
# The course, in each language it is published in: the book credits it whole, whatever
# chapters it holds.
COURSE = {
    "zh_CN": "https://apxml.com/zh/courses/getting-started-with-jax",
    "en": "https://apxml.com/courses/getting-started-with-jax",
}
TITLE = {"zh_CN": "《JAX 入门》", "en": "Getting Started with JAX"}
CREDIT = re.compile(r'<p class="jb-credit">(.*?)</p>', re.DOTALL)


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_every_footer_credits_the_course(built_site, language):
    pages = [p for p in (built_site / language).rglob("*.html") if "_static" not in p.parts]
    assert len(pages) >= 15
    for page in pages:
        html = page.read_text(encoding="utf-8")
        footer = html[html.index("<footer>") :]
        credit = CREDIT.search(footer)
        assert credit, f"{page}: no credit in the footer"
        assert f'href="{COURSE[language]}"' in credit[1]
        assert "ApX Machine Learning" in credit[1]
        assert TITLE[language] in credit[1]
        assert "课程作者" not in html, page
        assert "course authors" not in html, page


def test_home_page_names_the_course_in_both_languages(built_site):
    for language in ["zh_CN", "en"]:
        body = (built_site / language / "index.html").read_text(encoding="utf-8")
        article = body[body.index("<article") : body.index("</article>")]
        assert COURSE[language] in article
        assert "ApX Machine Learning" in article
        assert "Python 3.14" not in article


def test_the_package_licence_is_the_code_licence():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
