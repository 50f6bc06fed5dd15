"""Publish the built notebooks to the branch that the pages' "open in Colab" links open.

    jaxbook publish-notebooks --remote URL [--branch notebooks]
                              [--builddir _build] zh_CN [en ...]

Colab opens a notebook from a branch of a GitHub repository, and a site
deployed as a Pages artifact has no branch. This writes one: an orphan commit
holding ``<language>/_notebooks/`` of each built language, exactly the paths
``jaxbook.sphinxext.notebooks.colab_url`` links to, force-pushed to
``--branch`` (default: ``jaxbook_notebooks_branch``'s default). The branch
keeps no history; each deploy replaces it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from jaxbook.sphinxext.notebooks import NOTEBOOK_DIR, NOTEBOOKS_BRANCH

README = """\
# Notebooks of the JAX course

Built from the book's pages by its deploy job, one folder per language, and
replaced on every deploy: edit the pages, not these files.
"""


def git(*args: str, cwd: Path) -> None:
    environment = {
        **os.environ,
        "GIT_AUTHOR_NAME": os.environ.get("GIT_AUTHOR_NAME", "jaxbook"),
        "GIT_AUTHOR_EMAIL": os.environ.get("GIT_AUTHOR_EMAIL", "jaxbook@users.noreply.github.com"),
    }
    environment.setdefault("GIT_COMMITTER_NAME", environment["GIT_AUTHOR_NAME"])
    environment.setdefault("GIT_COMMITTER_EMAIL", environment["GIT_AUTHOR_EMAIL"])
    result = subprocess.run(
        ["git", *args], cwd=cwd, env=environment, capture_output=True, text=True
    )
    if result.returncode:
        # Never echo the remote: it may carry a token.
        raise SystemExit(f"git {args[0]} failed: {result.stderr.strip().splitlines()[-1:]}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("languages", nargs="+")
    parser.add_argument("--remote", required=True, help="the repository to push to")
    parser.add_argument("--branch", default=NOTEBOOKS_BRANCH)
    parser.add_argument("--builddir", type=Path, default=Path("_build"))
    parser.add_argument("--message", default="Notebooks built from the book's pages")


def run(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp)
        for language in args.languages:
            built = args.builddir / "html" / language / NOTEBOOK_DIR
            notebooks = sorted(built.rglob("*.ipynb"))
            if not notebooks:
                raise SystemExit(f"{built}: no notebooks; run `make html` first")
            shutil.copytree(
                built, tree / language / NOTEBOOK_DIR, ignore=shutil.ignore_patterns("*.zip")
            )
        (tree / "README.md").write_text(README, encoding="utf-8")
        git("init", "-q", "-b", args.branch, cwd=tree)
        git("add", "-A", cwd=tree)
        git("commit", "-q", "-m", args.message, cwd=tree)
        git("push", "-q", "--force", args.remote, f"HEAD:refs/heads/{args.branch}", cwd=tree)
    count = sum(1 for _ in (args.builddir / "html").glob(f"*/{NOTEBOOK_DIR}/**/*.ipynb"))
    print(f"published {count} notebooks to branch {args.branch}")
    return 0
