"""Readers see measured figures, labeled, never the wildcards that check them."""

from __future__ import annotations

import re

import pytest

# A timing, a speed-up, or a version cut short ("3.13..."); not a number quoted as 9.738718...
WILDCARD_FIGURE = re.compile(r"\.\.\. ?ms\b|\.\.\.x\b|\b\d+\.\d{1,2}\.\.\.")
LABEL = re.compile(r'<p class="pagerun-measured-label">([^<]+)</p>')


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_no_wildcard_figures_on_any_page(built_site, language):
    offenders = {}
    for page in (built_site / language).rglob("*.html"):
        if "_static" in page.parts:
            continue
        html = page.read_text(encoding="utf-8")
        # A cell skipped on this interpreter keeps its expected output (its skip says why).
        not_measured = r'<div class="[^"]*pagerun-not-measured[^"]*">.*?</pre></div>\s*</div>'
        html = re.sub(not_measured, "", html, flags=re.S)
        text = re.sub(r"<[^>]+>", "", html)
        found = WILDCARD_FIGURE.findall(text)
        if found:
            offenders[page.name] = found
    assert not offenders


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_timings_are_shown_with_where_they_were_measured(built_site, language):
    for name, lines in {
        "jax-vs-numpy.html": [r"block_until_ready[:：] *\d+\.\d{3} ms"],
        "answers.html": [
            r"JAX \+ jit[:：] *\d+\.\d\d ms",
            r"(?:耗时之比|time to jit's)[:：] *\d+\.\d",
        ],
    }.items():
        html = (built_site / language / "ch01" / name).read_text(encoding="utf-8")
        label = LABEL.search(html)
        assert label, name
        assert re.search(r"CPU.+JAX 0\.12\.0\.1", label[1]), label[1]
        for line in lines:
            assert re.search(line, html), (name, line)


DISPATCH_PROSE = {
    "zh_CN": r"派发只用了 ([\d.]+) 毫秒，等这次矩阵乘法算完则用了 ([\d.]+) 毫秒，"
    r"相差约 ([\d,]+) 倍",
    "en": r"[Dd]ispatch took ([\d.]+) ms, while waiting for this matrix multiplication to finish "
    r"took ([\d.]+) ms, about ([\d,]+) times as long",
}
DISPATCH_OUTPUT = {
    "zh_CN": r"不等待（仅派发）：([\d.]+) ms block_until_ready：([\d.]+) ms 相差约 ([\d,]+) 倍",
    "en": r"No wait \(dispatch only\): ([\d.]+) ms block_until_ready: ([\d.]+) ms "
    r"About ([\d,]+) times as long",
}


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_dispatch_figures_in_the_prose_are_the_measured_ones(built_site, language):
    html = (built_site / language / "ch01" / "jax-vs-numpy.html").read_text(encoding="utf-8")
    text = " ".join(re.sub(r"<[^>]+>", " ", html).split())
    text = re.sub(r"\s+([，。：])", r"\1", text)
    prose = re.search(DISPATCH_PROSE[language], text)
    output = re.search(DISPATCH_OUTPUT[language], text)
    assert prose, text[:3000]
    assert output, text[:3000]
    # The prose gives the printed milliseconds to a tenth (the run's value rounded, which the
    # output prints to a thousandth), and the same ratio.
    dispatch, real, about = output.groups()
    for said, printed in zip(prose.groups()[:2], (dispatch, real), strict=True):
        assert re.fullmatch(r"\d+\.\d", said), said
        assert abs(float(said) - float(printed)) <= 0.0505, (said, printed)
    assert prose[3] == about
    ratio = float(real) / float(dispatch)
    # The page claims, and its code asserts, no more than this bound.
    assert ratio > 10
    assert abs(float(about.replace(",", "")) - ratio) <= 0.1 * ratio
