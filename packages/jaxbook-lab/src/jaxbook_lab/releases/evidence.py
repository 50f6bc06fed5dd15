"""Find, by running real releases, where each behavior that an update note describes changed.

    jaxbook-lab evidence [--since 0.4.1] [--out docs/release-evidence.json]

Every JAX release from ``--since`` up to the one in ``uv.lock`` is listed from
the registry that ``uv.lock`` uses. A release is *visited* by installing it
in an environment of its own (``jaxbook_lab.releases.environments``, on the
newest Python it installs on) with the packages of its day: nothing uploaded
more than ``ERA_DAYS`` after that release. There ``python -m
jaxbook_lab.releases.probes`` answers every probe at once.

The search (:class:`Search`, :func:`bisect`) visits the oldest and the newest
release, and splits a range in two wherever some probe answers differently at
its ends, until each change lies between two neighbouring releases. That
finds every change point with a few dozen installs instead of a hundred, on
one assumption, written into the file: a behavior that changed does not
change back in between. Where the middle of a range cannot be installed,
the installable release nearest it is visited instead; a range with none
inside is a change between its ends. The search runs from the oldest release
that installs to the newest, which must install. What visits
a release is a parameter of the search, a :data:`Visitor`: :func:`visit`
installs and asks the probes; the tests give one that installs nothing. A
visitor that raises :class:`~jaxbook_lab.releases.environments.CannotInstall`
has its sentence printed and its reason kept in the file.

The file (one, committed) holds what every visited release answered to every
probe, and, per probe, its eras: the first and last release visited with each
answer (so the newest release with the old behavior and the first with the
new one), and what a reader saw on the visited releases in between, as runs
of releases that showed the same text. The key is what is compared; the text
may still differ inside an era (a class renamed, a pin that moves), and the
pages show each run. Releases that would not install are listed with the
reason. ``jaxbook.sphinxext.evidence_column`` reads it for the update-notes
table's "Changed in" column. Its shape is :class:`jaxbook.formats.Evidence`;
the build refuses a file of another format or shape.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import subprocess
import tomllib
import urllib.request
from collections.abc import Callable
from pathlib import Path

from packaging.version import InvalidVersion, Version

from jaxbook import project
from jaxbook.formats import (
    EVIDENCE_FORMAT,
    PROBE_PHRASES,
    Answer,
    Era,
    Evidence,
    Shown,
    Uninstallable,
    Visited,
)
from jaxbook_lab.releases.environments import CannotInstall, default_uv, pick_environment, wheel

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


# What one release answered to every probe; raises CannotInstall where it cannot say.
Visitor = Callable[[str], Visited]


def visit(
    release: str,
    *,
    uploads: dict[str, str],
    jaxlibs: list[str],
    envs: Path,
    uv: str,
    the_wheel: Path,
) -> Visited:
    """The real visitor: install the release with the packages of its day, ask every probe."""
    if not jaxlibs or Version(release) < Version(jaxlibs[0]):
        # A jax release runs on a jaxlib of its own number or older.
        raise CannotInstall(release, f"the registry has no jaxlib release at or below {release}")
    python, installed = pick_environment(
        release, None, envs, the_wheel, uv, exclude_newer=_until(uploads[release])
    )
    probed = subprocess.run(
        [str(python), "-m", "jaxbook_lab.releases.probes"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if probed.returncode != 0:
        last = (probed.stderr.strip().splitlines() or ["no output"])[-1]
        raise CannotInstall(release, f"the probes do not run: {last}")
    print(f"JAX {release}: {installed}", flush=True)
    return {"environment": installed, "answers": json.loads(probed.stdout)}


class Search:
    """Visits releases on demand, oldest first by index, and remembers what each answered.

    ``visited`` holds every release visited, in the file's shape: what it
    answered, or why it would not install (also printed, as one sentence).
    """

    def __init__(self, names: list[str], visitor: Visitor) -> None:
        self.names = names
        self.visitor = visitor
        self.answers: dict[str, dict[str, Answer] | None] = {}
        self.visited: dict[str, Visited | Uninstallable] = {}

    def answer(self, index: int) -> dict[str, Answer] | None:
        release = self.names[index]
        if release not in self.answers:
            try:
                visited = self.visitor(release)
            except CannotInstall as error:
                print(error, flush=True)
                self.visited[release] = {"cannot install": error.why}
                self.answers[release] = None
            else:
                self.visited[release] = visited
                self.answers[release] = visited["answers"]
        return self.answers[release]

    def installed(self, index: int) -> dict[str, Answer]:
        """The answers of a release the search already found to install: a range's end."""
        answers = self.answer(index)
        assert answers is not None, f"{self.names[index]} bounds a range, so it installs"
        return answers

    def nearest_installable(self, lo: int, hi: int) -> int | None:
        """An index strictly between lo and hi whose release installs, nearest the middle."""
        middle = (lo + hi) // 2
        order = sorted(range(lo + 1, hi), key=lambda i: (abs(i - middle), i))
        return next((i for i in order if self.answer(i) is not None), None)

    def changes(
        self, lo: int, hi: int, probes: list[str], found: dict[str, list[tuple[int, int]]]
    ) -> None:
        a, b = self.installed(lo), self.installed(hi)
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


def bisect(search: Search, probes: list[str]) -> tuple[int, dict[str, list[Era]]] | None:
    """Every probe's eras, from the oldest release that installs to the newest.

    Returns that oldest release's index with the eras; None when the newest
    release does not install, or none before it does.
    """
    last = len(search.names) - 1
    first = next((i for i in range(last) if search.answer(i) is not None), None)
    if first is None or search.answer(last) is None:
        return None
    found: dict[str, list[tuple[int, int]]] = {name: [] for name in probes}
    search.changes(first, last, probes, found)
    return first, {name: eras(search, name, found[name], first, last) for name in probes}


def eras(
    search: Search, name: str, points: list[tuple[int, int]], first: int, last: int
) -> list[Era]:
    """The runs of releases that answered one probe the same way, oldest first."""
    bounds = [first] + [i for pair in sorted(points) for i in pair] + [last]
    result: list[Era] = []
    for start, end in zip(bounds[::2], bounds[1::2], strict=True):
        result.append(
            {
                "first": search.names[start],
                "last": search.names[end],
                "key": search.installed(start)[name]["key"],
                "shown": shown_runs(search, name, start, end),
            }
        )
    return result


def shown_runs(search: Search, name: str, start: int, end: int) -> list[Shown]:
    """What the visited releases in [start, end] showed, as runs of the same text."""
    runs: list[Shown] = []
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
    parser.add_argument("--uv", default=default_uv())


def run(args: argparse.Namespace) -> int:
    from jaxbook_lab.releases import probes

    root = project.root()
    work = args.work.resolve()
    current = locked_release(root)
    index = registry(root)
    uploads = releases(index, args.since, current)
    jaxlibs = list(releases(index, "0", current, package="jaxlib"))
    the_wheel = wheel(root, work / "wheel", args.uv)
    visitor = functools.partial(
        visit, uploads=uploads, jaxlibs=jaxlibs, envs=work / "envs", uv=args.uv, the_wheel=the_wheel
    )
    search = Search(list(uploads), visitor)
    names = list(probes.PROBES)
    found = bisect(search, names)
    if found is None:
        raise SystemExit(f"uv.lock:1: JAX {current}, or every release before it, does not install")
    first, probe_eras = found
    questions = {}
    for name in names:
        doc = probes.PROBES[name].__doc__
        assert doc, f"the probe {name} has no docstring, which is its question"
        questions[name] = doc.strip()
    result: Evidence = {
        "format": EVIDENCE_FORMAT,
        "generated by": "jaxbook-lab evidence",
        "method": (
            "Each release is installed with the packages of its day (uploaded at most "
            f"{ERA_DAYS} days after it) on the newest Python it installs on, and asked every "
            "probe (jaxbook_lab.releases.probes); a range is split wherever a probe answers "
            "differently at its two ends. Assumed: a behavior does not change back in between."
        ),
        "range": [search.names[first], current],
        "releases": dict(sorted(search.visited.items(), key=lambda kv: Version(kv[0]))),
        "probes": {
            name: {
                "question": questions[name],
                "sentences": PROBE_PHRASES[name],
                "eras": probe_eras[name],
            }
            for name in names
        },
    }
    out = args.out if args.out.is_absolute() else root / args.out
    out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    visited = sum(1 for v in search.visited.values() if "environment" in v)
    print(f"{out.relative_to(root)}: {visited} releases visited of {len(search.names)}")
    return 0
