"""Find, by running real releases, where each behavior that an update note describes changed.

    jaxbook evidence [--since 0.4.1] [--out docs/release-evidence.json]

Every JAX release from ``--since`` up to the one in ``uv.lock`` is listed from
the registry that ``uv.lock`` uses. A release is *visited* by installing it
the way ``jaxbook drift`` does (its own environment, the newest Python it
installs on) but with the packages of its day: nothing uploaded more than
``ERA_DAYS`` after that release. There ``python -m jaxbook.doctest.probes``
answers every probe at once.

The search visits the oldest and the newest release, and splits a range in
two wherever some probe answers differently at its ends, until each change
lies between two neighbouring releases. That finds every change point with a
few dozen installs instead of a hundred, on one assumption, written into the
file: a behavior that changed does not change back in between.

The file (one, committed) holds what every visited release answered to every
probe, and, per probe, its eras: the first and last release visited with each
answer (so the newest release with the old behavior and the first with the
new one), and what a reader saw on the visited releases in between, as runs
of releases that showed the same text. The key is what is compared; the text
may still differ inside an era (a class renamed, a pin that moves), and the
pages show each run. Releases that would not install are listed with the
reason. ``jaxbook.sphinxext.notes``
reads it for the update-notes table.
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import tomllib
import urllib.request
from pathlib import Path
from typing import Any

from packaging.version import InvalidVersion, Version

from jaxbook import project
from jaxbook.doctest import drift

ERA_DAYS = 30
SIMPLE_JSON = "application/vnd.pypi.simple.v1+json"


def registry(root: Path) -> str:
    """The package index that uv.lock takes JAX from."""
    lock = tomllib.loads((root / "uv.lock").read_text(encoding="utf-8"))
    jax = next(p for p in lock["package"] if p["name"] == "jax")
    return jax["source"]["registry"].rstrip("/")


def locked_release(root: Path) -> str:
    lock = tomllib.loads((root / "uv.lock").read_text(encoding="utf-8"))
    return next(p["version"] for p in lock["package"] if p["name"] == "jax")


def releases(index: str, since: str, until: str, package: str = "jax") -> dict[str, str]:
    """Every final, unyanked release of a package in [since, until], with its upload time."""
    request = urllib.request.Request(f"{index}/{package}/", headers={"Accept": SIMPLE_JSON})
    with urllib.request.urlopen(request, timeout=60) as response:
        files = json.load(response)["files"]
    found: dict[Version, str] = {}
    for file in files:
        name = file["filename"]
        if file.get("yanked") or not name.startswith(f"{package}-"):
            continue
        text = name.removeprefix(f"{package}-").split("-")[0].removesuffix(".tar.gz")
        try:
            version = Version(text)
        except InvalidVersion:
            continue
        if version.is_prerelease or not Version(since) <= version <= Version(until):
            continue
        uploaded = file.get("upload-time", "")
        found[version] = min(found.get(version, uploaded), uploaded)
    return {str(v): found[v] for v in sorted(found)}


def _until(uploaded: str) -> str:
    when = datetime.datetime.fromisoformat(uploaded.replace("Z", "+00:00"))
    return (when + datetime.timedelta(days=ERA_DAYS)).strftime("%Y-%m-%dT%H:%M:%SZ")


class Search:
    """Visits releases on demand and remembers what each probe answered there."""

    def __init__(
        self, uploads: dict[str, str], jaxlibs: list[str], out: Path, uv: str, the_wheel: Path
    ) -> None:
        self.names = list(uploads)
        self.oldest_jaxlib = Version(jaxlibs[0]) if jaxlibs else None
        self.uploads = uploads
        self.out = out
        self.uv = uv
        self.wheel = the_wheel
        self.answers: dict[str, dict[str, Any] | None] = {}
        self.visited: dict[str, dict[str, str]] = {}

    def answer(self, index: int) -> dict[str, Any] | None:
        release = self.names[index]
        if release not in self.answers:
            self.answers[release] = self._visit(release)
        return self.answers[release]

    def _visit(self, release: str) -> dict[str, Any] | None:
        if self.oldest_jaxlib is None or Version(release) < self.oldest_jaxlib:
            # A jax release runs on a jaxlib of its own number or older.
            self.visited[release] = {
                "cannot install": f"the registry has no jaxlib release at or below {release}"
            }
            print(f"JAX {release}: cannot install (no jaxlib)", flush=True)
            return None
        try:
            python, installed = drift.pick_environment(
                release,
                None,
                self.out / "envs",
                self.wheel,
                self.uv,
                exclude_newer=_until(self.uploads[release]),
            )
        except drift.CannotInstall as error:
            self.visited[release] = {"cannot install": str(error).split(": ", 1)[-1]}
            print(f"JAX {release}: cannot install", flush=True)
            return None
        probed = subprocess.run(
            [str(python), "-m", "jaxbook.doctest.probes"],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        if probed.returncode != 0:
            last = (probed.stderr.strip().splitlines() or ["no output"])[-1]
            self.visited[release] = {"cannot install": f"the probes do not run: {last}"}
            return None
        answers = json.loads(probed.stdout)
        self.visited[release] = {"environment": installed, "answers": answers}
        print(f"JAX {release}: {installed}", flush=True)
        return answers

    def nearest_installable(self, lo: int, hi: int) -> int | None:
        """An index strictly between lo and hi whose release installs, nearest the middle."""
        middle = (lo + hi) // 2
        order = sorted(range(lo + 1, hi), key=lambda i: (abs(i - middle), i))
        return next((i for i in order if self.answer(i) is not None), None)

    def changes(self, lo: int, hi: int, probes: list[str], found: dict[str, list]) -> None:
        a, b = self.answer(lo), self.answer(hi)
        differing = [p for p in probes if a[p]["key"] != b[p]["key"]]
        if not differing:
            return
        middle = self.nearest_installable(lo, hi)
        if middle is None:
            for name in differing:
                found[name].append((lo, hi))
            return
        self.changes(lo, middle, differing, found)
        self.changes(middle, hi, differing, found)


def eras(search: Search, name: str, points: list[tuple[int, int]], first: int, last: int) -> list:
    """The runs of releases that answered one probe the same way, oldest first."""
    bounds = [first] + [i for pair in sorted(points) for i in pair] + [last]
    result = []
    for start, end in zip(bounds[::2], bounds[1::2], strict=True):
        result.append(
            {
                "first": search.names[start],
                "last": search.names[end],
                "key": search.answer(start)[name]["key"],
                "shown": shown_runs(search, name, start, end),
            }
        )
    return result


def shown_runs(search: Search, name: str, start: int, end: int) -> list[dict[str, str]]:
    """What the visited releases in [start, end] showed, as runs of the same text."""
    runs: list[dict[str, str]] = []
    for index in range(start, end + 1):
        release = search.names[index]
        answer = search.answers.get(release)
        if answer is None:
            continue
        text = answer[name]["shown"]
        if runs and runs[-1]["text"] == text:
            runs[-1]["last"] = release
        else:
            runs.append({"first": release, "last": release, "text": text})
    return runs


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--since", default="0.4.1", help="the oldest release to search")
    parser.add_argument("--out", type=Path, default=Path("docs") / "release-evidence.json")
    parser.add_argument("--work", type=Path, default=Path("_build") / "evidence")
    parser.add_argument("--uv", default=drift.default_uv())


def run(args: argparse.Namespace) -> int:
    from jaxbook.doctest import probes, sentences

    root = project.root()
    work = args.work.resolve()
    current = locked_release(root)
    index = registry(root)
    uploads = releases(index, args.since, current)
    jaxlibs = list(releases(index, "0", current, package="jaxlib"))
    the_wheel = drift.wheel(root, work / "wheel", args.uv)
    search = Search(uploads, jaxlibs, work, args.uv, the_wheel)
    names = list(probes.PROBES)
    last = len(search.names) - 1
    first = next((i for i in range(last) if search.answer(i) is not None), None)
    if first is None or search.answer(last) is None:
        raise SystemExit(f"uv.lock:1: JAX {current}, or every release before it, does not install")
    found: dict[str, list] = {name: [] for name in names}
    search.changes(first, last, names, found)
    result = {
        "generated by": "jaxbook evidence",
        "method": (
            "Each release is installed with the packages of its day (uploaded at most "
            f"{ERA_DAYS} days after it) on the newest Python it installs on, and asked every "
            "probe (jaxbook.doctest.probes); a range is split wherever a probe answers "
            "differently at its two ends. Assumed: a behavior does not change back in between."
        ),
        "range": [search.names[first], current],
        "releases": dict(sorted(search.visited.items(), key=lambda kv: Version(kv[0]))),
        "probes": {
            name: {
                "question": probes.PROBES[name].__doc__.strip(),
                "sentences": sentences.SENTENCES[name],
                "eras": eras(search, name, found[name], first, last),
            }
            for name in names
        },
    }
    out = args.out if args.out.is_absolute() else root / args.out
    out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    visited = sum(1 for v in search.visited.values() if "environment" in v)
    print(f"{out.relative_to(root)}: {visited} releases visited of {len(search.names)}")
    return 0
