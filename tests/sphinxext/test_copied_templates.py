"""The templates copied from Sphinx notice when Sphinx changes its own.

A changed copy (``src/jaxbook/sphinxext/templates``) records, in the comment at its
top, the upstream file it was made from and that file's sha256 in each release of
Sphinx that ``uv.lock`` names (Python 3.12 builds with one, 3.13 with another). The
installed Sphinx's file must be the one recorded for its release: an upgrade that
changes it fails here, by name, until the change is carried into the copy (or found
not to matter) and the record renewed. A file copied unchanged (an EPUB's
``container.xml`` and ``mimetype``, which the EPUB builder's own template directory
must hold too) must be Sphinx's, byte for byte.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from pathlib import Path

import pytest
import sphinx

from jaxbook.sphinxext import TEMPLATES

ROOT = Path(__file__).resolve().parents[2]
UPSTREAM = Path(sphinx.package_dir) / "templates"
# The first comment of a copy, in the Jinja of the HTML builders or of the LaTeX one.
FIRST_COMMENT = re.compile(r"\A(?:\{#|<#).*?(?:#\}|#>)", re.DOTALL)
COPIED_FROM = re.compile(r"Copied from Sphinx's sphinx/templates/(\S+?),")
RELEASE_HASH = re.compile(r"^\s*Sphinx (\d+(?:\.\d+)+) sha256 ([0-9a-f]{64})\b", re.MULTILINE)
# What the book copied when this test was written: found again, or the search went wrong.
KNOWN = {
    "epub3/container.xml",
    "epub3/content.opf.jinja",
    "epub3/mimetype",
    "epub3/nav.xhtml.jinja",
    "epub3/toc.ncx.jinja",
    "longtable.tex.jinja",
}


def copies() -> list[Path]:
    """Each file of the book's templates that has a namesake among Sphinx's."""
    names = {path.name for path in UPSTREAM.rglob("*") if path.is_file()}
    return sorted(p for p in TEMPLATES.rglob("*") if p.is_file() and p.name in names)


def record(copy: Path) -> tuple[str, dict[str, str]] | None:
    """The upstream file ``copy`` was made from (under sphinx/templates) and its sha256
    per Sphinx release, as the copy's first comment records them; None where it has none."""
    first = FIRST_COMMENT.match(copy.read_text(encoding="utf-8"))
    upstream = COPIED_FROM.search(first.group()) if first else None
    if upstream is None:
        return None
    return upstream.group(1), dict(RELEASE_HASH.findall(first.group()))


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def locked_sphinx() -> set[str]:
    packages = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))["package"]
    return {p["version"] for p in packages if p["name"] == "sphinx"}


def named(copy: Path) -> str:
    return copy.relative_to(TEMPLATES).as_posix()


def test_the_search_finds_every_copy_known():
    assert {named(copy) for copy in copies()} >= KNOWN


@pytest.mark.parametrize("copy", copies(), ids=named)
def test_a_copy_is_recorded_for_each_locked_sphinx_or_is_sphinxs_file(copy):
    found = record(copy)
    if found is None:
        upstream = UPSTREAM / named(copy)
        assert upstream.is_file(), f"{named(copy)} records no upstream file"
        assert copy.read_bytes() == upstream.read_bytes(), (
            f"{named(copy)} differs from Sphinx's {upstream.relative_to(UPSTREAM.parent)} "
            "and records no upstream file: copy Sphinx's again, or (a copy changed on purpose) "
            "record at its top what it was made from"
        )
        return
    path, hashes = found
    assert (UPSTREAM / path).is_file(), f"{named(copy)}: Sphinx has no templates/{path}"
    assert set(hashes) == locked_sphinx(), (
        f"{named(copy)} records Sphinx {sorted(hashes)}, uv.lock has {sorted(locked_sphinx())}: "
        f"compare templates/{path} of the new release with the copy, then record its sha256"
    )


@pytest.mark.parametrize("copy", [c for c in copies() if record(c)], ids=named)
def test_the_installed_sphinxs_file_is_the_one_a_copy_was_made_from(copy):
    path, hashes = record(copy)  # type: ignore[misc]
    installed = sha256(UPSTREAM / path)
    release = sphinx.__version__
    # A release the lock does not name (an environment of one's own) passes where the file
    # is unchanged since a recorded one.
    expected = {hashes[release]} if release in hashes else set(hashes.values())
    assert installed in expected, (
        f"{named(copy)}: Sphinx {release} changed templates/{path} since the copy was made: "
        "carry the change into the copy (or see that it does not matter), then record "
        f"Sphinx {release} sha256 {installed}"
    )
