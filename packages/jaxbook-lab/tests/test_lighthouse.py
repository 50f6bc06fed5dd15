"""Lighthouse on the deploy build: the checker passes good pages and fails a planted regression.

``make lighthouse`` audits every page, then runs these tests (``-m audit``;
``make pytest`` leaves them out): three pages keep the run short: a chapter
page as built, the search page (whose one skipped audit is stated), and a page
whose description was taken out.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest

pytestmark = pytest.mark.audit

PLANTED = "en/ch01/quiz.html"
GOOD = "zh_CN/ch01/arrays.html"
SEARCH = "zh_CN/search.html"


def test_lighthouse_passes_good_pages_and_names_a_planted_regression(
    deploy_site, jaxbook_lab, tmp_path
):
    site = tmp_path / "site"
    shutil.copytree(deploy_site["site"], site, ignore=shutil.ignore_patterns("doctrees"))
    page = site / PLANTED
    text = page.read_text(encoding="utf-8")
    planted, count = re.subn(r'<meta name="description" content="[^"]*" />\n?', "", text)
    assert count == 1
    page.write_text(planted, encoding="utf-8")

    out = tmp_path / "scores.json"
    result = jaxbook_lab(
        "lighthouse", "--site", site, "--builddir", tmp_path / "lh", "--out", out,
        GOOD, SEARCH, PLANTED,
    )  # fmt: skip

    assert result.returncode == 1, result.stdout + result.stderr
    assert re.search(
        rf"^{re.escape(str(page))}: seo \d+ < 100: meta-description \(", result.stderr, re.M
    ), result.stderr
    assert result.stdout.splitlines()[-1].startswith("lighthouse: 2 of 3 pages meet every target")
    scores = json.loads(out.read_text(encoding="utf-8"))
    for good in (GOOD, SEARCH):
        assert scores[good]["error"] == ""
        assert scores[good]["scores"]["seo"] == 100
        assert scores[good]["scores"]["accessibility"] == 100
        assert scores[good]["scores"]["best-practices"] == 100
    assert scores[PLANTED]["scores"]["seo"] < 100
    assert scores[SEARCH]["skipped"].startswith("is-crawlable not audited: Sphinx marks")
    assert f"{SEARCH}: performance" in result.stdout
    assert (tmp_path / "lh" / "reports" / "zh_CN" / "ch01" / "arrays.report.html").exists()


def test_a_missing_page_is_an_error_not_a_pass(deploy_site, jaxbook_lab, tmp_path):
    result = jaxbook_lab(
        "lighthouse", "--site", deploy_site["site"], "--builddir", tmp_path, "en/no-such-page.html"
    )
    assert result.returncode == 1
    assert "en/no-such-page.html: no such page in the site" in result.stderr
