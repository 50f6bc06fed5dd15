from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from jaxbook.doctest import runtime


def _tab_sets(html: str) -> list[dict[str, str]]:
    """Each group of tabs: its labels, in order, and the output each tab shows."""
    page = BeautifulSoup(html, "html.parser")
    sets = []
    for tabs in page.select("div.jb-backend-tabs"):
        labels = [label.get_text() for label in tabs.select("label.jb-tab-label")]
        shown = [panel.get_text().strip() for panel in tabs.find_all("div", recursive=False)]
        sets.append(dict(zip(labels, shown, strict=True)))
    return sets


@pytest.mark.sphinx("html", testroot="backend-tabs")
def test_each_backend_has_a_tab_with_the_output_that_holds_there(built):
    assert _tab_sets(built.page()) == [
        {"CPU": "cpu", "GPU": "gpu", "TPU": "tpu"},
        {"CPU": "tpu", "GPU": "tpu", "TPU": "cpu"},
        {"CPU": "kind=Planted CPU 9000!", "GPU": "kind=Planted GPU 9000!"},
        {"GPU": "gpu", "TPU": "tpu"},
    ]
    assert not built.warnings


@pytest.mark.sphinx("doctest", testroot="backend-tabs")
def test_each_backend_checks_its_own_output_and_a_cell_without_one_is_skipped(built):
    # Three cells run on this CPU; the fourth, recorded on accelerators only, is skipped.
    assert built.doctest_counts() == (3, 0)


@pytest.mark.sphinx("doctest", testroot="backend-tabs")
def test_on_a_backend_with_no_record_every_such_cell_is_skipped_saying_why(
    app, monkeypatch, capsys
):
    monkeypatch.setattr(runtime, "BACKEND", "rocm")
    monkeypatch.setattr(runtime, "ON_CPU", False)
    app.build(force_all=True)
    summary = (app.outdir / "output.txt").read_text().split("Doctest summary")[-1]
    assert "    0 tests\n    0 failures in tests" in summary
    reasons = capsys.readouterr().err
    assert reasons.count("skipped on rocm: the output depends on the backend") == 4
    assert "recorded for cpu, gpu, tpu only" in reasons
    assert "recorded for gpu, tpu only" in reasons


RECORDED = {
    "CPU": "The CPU outputs were recorded on December 1, 2026 (device: Planted CPU 9000; "
    "jaxlib 0.12.0.1, Python 3.13.0, JAX 0.12.0.1).",
    "GPU": "The GPU outputs were recorded on November 29, 2026 (device: Planted GPU 9000; "
    "CUDA 13, Python 3.12, JAX 0.12.0.1).",
    "TPU": "The TPU outputs were recorded on December 5, 2026 (device: Planted TPU 7; "
    "libtpu 0.0.50.1, Python 3.13.0, JAX 0.12.0.1).",
}
GPU_ONLY = {
    "device": "Planted GPU 9000",
    "platform": "CUDA 13",
    "python": "3.12",
    "jax": "0.12.0.1",
    "date": "2026-11-29",
}
# A paragraph that says where outputs were recorded: the preface says it, once.
RECORDING_NOTE = re.compile(r"outputs were recorded on|输出记录于")


def _titles(html: str) -> list[tuple[str, str | None]]:
    page = BeautifulSoup(html, "html.parser")
    return [(label.get_text(), label.get("title")) for label in page.select("label.jb-tab-label")]


@pytest.mark.sphinx("html", testroot="backend-tabs")
def test_where_a_backend_ran_is_its_tab_labels_title_not_a_paragraph(built):
    titles = _titles(built.page())
    assert len(titles) == 10
    assert all(title == RECORDED[label] for label, title in titles)
    page = BeautifulSoup(built.page(), "html.parser")
    assert not [p for p in page.find_all("p") if RECORDING_NOTE.search(p.get_text())]
    assert not RECORDING_NOTE.search(page.get_text())
    assert "..." not in page.get_text()


@pytest.mark.sphinx(
    "html",
    testroot="backend-tabs",
    confoverrides={"jaxbook_recorded_on": {"gpu": GPU_ONLY}},
)
def test_a_backend_with_no_recording_has_a_label_without_a_title(built):
    titles = dict(_titles(built.page())[:3])
    assert titles["CPU"] is None
    assert titles["TPU"] is None
    assert titles["GPU"] == RECORDED["GPU"]


@pytest.mark.sphinx("html", testroot="backend-tabs", confoverrides={"language": "zh_CN"})
def test_where_it_ran_reads_as_chinese_in_a_chinese_page(built):
    titles = dict(_titles(built.page())[:3])
    assert titles["GPU"] == (
        "GPU 输出记录于 2026 年 11 月 29 日（设备：Planted GPU 9000；CUDA 13、"
        "Python 3.12、JAX 0.12.0.1）。"
    )
    page = BeautifulSoup(built.page(), "html.parser")
    assert not RECORDING_NOTE.search(page.get_text())


@pytest.mark.sphinx("latex", testroot="backend-tabs")
def test_print_shows_each_output_once_under_the_backends_it_holds_on(built):
    tex = (built.app.outdir / "projectnamenotset.tex").read_text(encoding="utf-8")
    labels = re.findall(r"\\sphinxstylestrong\{Output on ([^:}]+):\}", tex)
    assert labels == [
        "CPU", "GPU", "TPU",
        "CPU and GPU", "TPU",
        "CPU", "GPU",
        "GPU", "TPU",
    ]  # fmt: skip
    # Where they were recorded is the preface's to say, not each page's.
    assert not RECORDING_NOTE.search(tex)


@pytest.mark.sphinx("epub", testroot="backend-tabs")
def test_the_epub_labels_each_output_and_carries_no_recording_note(built):
    page = (built.app.outdir / "index.xhtml").read_text(encoding="utf-8")
    text = BeautifulSoup(page, "html.parser").get_text()
    assert text.count("Output on ") == 9
    assert not RECORDING_NOTE.search(text)


@pytest.mark.sphinx(
    "doctest",
    testroot="backend-tabs",
    confoverrides={"jaxbook_recorded_on": {}},
)
def test_without_the_machine_declared_another_machine_fails(built):
    assert built.doctest_counts() == (3, 1)


@pytest.mark.sphinx("html", testroot="backend-tabs")
def test_each_group_of_tabs_is_named_by_its_place_in_the_page(built):
    """Each group is a radio group of its own, and the page is written the same at every
    build (a name from the node's address in memory changed each time)."""
    page = BeautifulSoup(built.page(), "html.parser")
    radios = page.select("input.jb-tab-input")
    assert [radio["name"] for radio in radios][:5] == ["jb-backend-1"] * 3 + ["jb-backend-2"] * 2
    assert [radio["id"] for radio in radios][:3] == [
        "jb-backend-1-cpu", "jb-backend-1-gpu", "jb-backend-1-tpu",
    ]  # fmt: skip
