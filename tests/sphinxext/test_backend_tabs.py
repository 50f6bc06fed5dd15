from __future__ import annotations

import re

import pytest


@pytest.mark.sphinx("html", testroot="backend-tabs")
def test_cpu_and_gpu_outputs_show_as_tabs(built):
    html = built.page()
    tabs = re.search(r'<div class="jb-backend-tabs[^"]*">(.*?)</div>\n', html, re.DOTALL)
    assert tabs
    assert re.findall(r'<label class="jb-tab-label" for="[^"]+">(\w+)</label>', html) == [
        "CPU",
        "GPU",
    ]
    assert not built.warnings


@pytest.mark.sphinx("doctest", testroot="backend-tabs")
def test_each_backend_checks_its_own_output(built):
    assert built.doctest_counts() == (1, 0)
