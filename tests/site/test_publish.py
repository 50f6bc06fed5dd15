"""The notebooks branch holds exactly what the pages' "open in Colab" links open."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path


def branch_files(repo: Path, branch: str) -> set[str]:
    listing = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", branch],
        cwd=repo, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return set(listing.stdout.split())


def test_every_colab_link_opens_a_notebook_on_the_published_branch(deploy_site, jaxbook, tmp_path):
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    builddir = deploy_site["site"].parent / "deploy-build"
    (builddir / "html").mkdir(parents=True, exist_ok=True)
    for language in ("zh_CN", "en"):
        link = builddir / "html" / language
        if not link.exists():
            link.symlink_to(deploy_site["site"] / language)

    for _ in range(2):  # a second deploy replaces the branch
        result = jaxbook(
            "publish-notebooks", "--remote", remote, "--builddir", builddir, "zh_CN", "en"
        )
        assert result.returncode == 0, result.stderr
    built = {
        p.relative_to(deploy_site["site"]).as_posix()
        for p in deploy_site["site"].glob("*/_notebooks/**/*.ipynb")
    }
    assert result.stdout.strip() == f"published {len(built)} notebooks to branch notebooks"
    files = branch_files(remote, "notebooks")
    log = subprocess.run(
        ["git", "rev-list", "--count", "notebooks"], cwd=remote, capture_output=True, text=True
    )
    assert log.stdout.strip() == "1"

    prefix = "https://colab.research.google.com/github/example/jaxbook/blob/notebooks/"
    links = set()
    for page in deploy_site["site"].glob("*/**/*.html"):
        links |= set(re.findall(rf'href="{re.escape(prefix)}([^"]+)"', page.read_text("utf-8")))
    assert links == built
    assert files == built | {"README.md"}
    assert "en/_notebooks/ch01/arrays.ipynb" in files


def test_nothing_to_publish_is_one_sentence(jaxbook, tmp_path):
    result = jaxbook("publish-notebooks", "--remote", tmp_path, "--builddir", tmp_path, "en")
    assert result.returncode == 1
    assert (
        result.stderr.strip()
        == f"{tmp_path}/html/en/_notebooks: no notebooks; run `make html` first"
    )
