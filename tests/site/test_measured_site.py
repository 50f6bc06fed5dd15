"""Readers see measured figures, labelled, never the wildcards that check them."""

from __future__ import annotations

import re

import pytest

# A timing, a speed-up, or a version cut short ("3.13..."); not a number quoted as 9.738718...
WILDCARD_FIGURE = re.compile(r"\.\.\. ?ms\b|\.\.\.x\b|\b\d+\.\d{1,2}\.\.\.")
LABEL = re.compile(r'<p class="jb-measured-label">([^<]+)</p>')


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_no_wildcard_figures_on_any_page(built_site, language):
    offenders = {}
    for page in (built_site / language).rglob("*.html"):
        if "_static" in page.parts:
            continue
        html = page.read_text(encoding="utf-8")
        # A cell skipped on this interpreter keeps its expected output (its skip says why).
        html = re.sub(
            r'<div class="[^"]*jb-not-measured[^"]*">.*?</pre></div>\s*</div>', "", html, flags=re.S
        )
        text = re.sub(r"<[^>]+>", "", html)
        found = WILDCARD_FIGURE.findall(text)
        if found:
            offenders[page.name] = found
    assert not offenders


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_timings_are_shown_with_where_they_were_measured(built_site, language):
    for name, lines in {
        "jax-vs-numpy.html": [r"block_until_ready: +\d+\.\d{3} ms"],
        "answers.html": [r"JAX \+ jit +: +\d+\.\d\d ms", r"jit .+: \d+\.\dx"],
    }.items():
        html = (built_site / language / "ch01" / name).read_text(encoding="utf-8")
        label = LABEL.search(html)
        assert label, name
        assert re.search(r"CPU.+JAX 0\.12\.0\.1", label[1]), label[1]
        for line in lines:
            assert re.search(line, html), (name, line)
