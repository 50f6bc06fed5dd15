from __future__ import annotations

import re

import pytest


@pytest.mark.sphinx("html", testroot="backend-tabs")
def test_cpu_and_gpu_outputs_show_as_tabs(built):
    html = built.page()
    tabs = re.search(r'<div class="jb-backend-tabs[^"]*">(.*?)</div>\n', html, re.DOTALL)
    assert tabs
    assert (
        re.findall(r'<label class="jb-tab-label" for="[^"]+">(\w+)</label>', html)
        == [
            "CPU",
            "GPU",
        ]
        * 2
    )
    assert not built.warnings


@pytest.mark.sphinx("doctest", testroot="backend-tabs")
def test_each_backend_checks_its_own_output(built):
    assert built.doctest_counts() == (2, 0)


@pytest.mark.sphinx("html", testroot="backend-tabs")
def test_a_recorded_output_shows_the_machine_and_where_it_ran(built):
    text = re.sub(r"<[^>]+>", "", built.page())
    assert (
        "Recorded on: Planted CPU 9000, CUDA 13, Python 3.12, JAX 0.12.0.1, November 29, 2026"
        in text
    )
    assert "kind=Planted CPU 9000!" in text
    assert "..." not in text


@pytest.mark.sphinx("html", testroot="backend-tabs", confoverrides={"language": "zh_CN"})
def test_where_it_ran_reads_as_chinese_in_a_chinese_page(built):
    text = re.sub(r"<[^>]+>", "", built.page())
    assert (
        "运行环境：Planted CPU 9000、CUDA 13、Python 3.12、JAX 0.12.0.1、2026 年 11 月 29 日"
        in text
    )


@pytest.mark.sphinx("doctest", testroot="backend-tabs", confoverrides={"jaxbook_machine_names": {}})
def test_without_the_machine_name_declared_another_machine_fails(built):
    assert built.doctest_counts() == (2, 1)


@pytest.mark.sphinx("html", testroot="backend-tabs")
def test_each_group_of_tabs_is_named_by_its_place_in_the_page(built):
    """Each pair of tabs is a radio group of its own, and the page is written the same at
    every build (a name from the node's address in memory changed each time)."""
    from bs4 import BeautifulSoup

    page = BeautifulSoup(built.page(), "html.parser")
    radios = page.select("input.jb-tab-input")
    assert [radio["name"] for radio in radios] == ["jb-backend-1"] * 2 + ["jb-backend-2"] * 2
    assert [radio["id"] for radio in radios] == [
        "jb-backend-1-cpu", "jb-backend-1-gpu", "jb-backend-2-cpu", "jb-backend-2-gpu",
    ]  # fmt: skip
