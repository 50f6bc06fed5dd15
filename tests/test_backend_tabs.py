from __future__ import annotations

import re

import pytest


@pytest.mark.sphinx("html", testroot="backend-tabs")
def test_cpu_and_gpu_outputs_show_as_tabs(app):
    app.build()
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    tabs = re.search(r'<div class="jb-backend-tabs[^"]*">(.*?)</div>\n', html, re.DOTALL)
    assert tabs
    assert re.findall(r'<label class="jb-tab-label" for="[^"]+">(\w+)</label>', html) == [
        "CPU",
        "GPU",
    ]
    assert not app.warning.getvalue()


@pytest.mark.sphinx("doctest", testroot="backend-tabs")
def test_each_backend_checks_its_own_output(app):
    app.build()
    output = (app.outdir / "output.txt").read_text(encoding="utf-8")
    assert re.search(r"^\s*1 test$", output, re.MULTILINE)
    assert re.search(r"^\s*0 failures in tests$", output, re.MULTILINE)
