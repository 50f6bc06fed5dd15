"""An environment of its own for a JAX release, where the book's code can run on it.

``environment(release, python, envs, wheel, uv)`` makes (or reuses)
``<envs>/jax-<release>-py<X.Y>``: ``jax[cpu]`` at that release, which brings
its own ``jaxlib``, the NumPy and Matplotlib that resolve with it, and the
``jaxbook`` wheel (:func:`wheel`), whose doctest runtime needs Python and JAX alone, with
the wheels of the workspace's other distributions beside it: ``pagerun`` (the engine and
kernel the runner imports) and ``jaxbook-lab`` (the bundle runner and the probes).
``.venv`` and the pages are never touched.
A release that needs NumPy 1 (its jaxlib fails to import under NumPy 2) gets
``numpy<2``; a release that had no jaxlib of its own runs on the one before.
With ``exclude_newer`` (a timestamp) only packages uploaded before it go in,
in an environment of its own (``...-of-its-day``): the release with the
NumPy, SciPy and ml_dtypes of its day. An environment is ready once
``jaxbook backend`` starts in it; a reused one gets this checkout's wheel
again.

:func:`pick_environment` takes the newest Python that the release installs
and runs on, among those found on ``PATH`` and under pyenv
(:func:`interpreters`), or the one given. Whatever cannot be installed or
started raises :class:`CannotInstall`, whose message is one sentence that
says why (for every interpreter tried), and leaves no half-made environment
behind.

``jaxbook-lab drift`` runs the pages' bundle there; ``jaxbook-lab evidence`` asks the
probes there. Comparing what they print is theirs, not this module's.
"""

from __future__ import annotations

import datetime
import functools
import re
import shutil
import subprocess
import sys
from pathlib import Path

IGNORE_PYTHON = ["--ignore-requires-python"]
# Never compile these from source: an old release on a new Python would try for
# many minutes and fail. jax itself is pure Python, and before 0.4.14 it came
# only as a source archive, so it may be built.
BINARY_ONLY = ["jaxlib", "numpy", "scipy", "ml-dtypes", "matplotlib", "contourpy", "pillow"]
NUMPY_ABI = re.compile(r"numpy\.core\.multiarray failed to import|compiled using NumPy 1\.x")


class CannotInstall(SystemExit):
    """The release cannot be installed or started here; the message says why."""

    def __init__(self, release: str, why: str) -> None:
        super().__init__(f"JAX {release} cannot be installed here: {why}")
        self.release = release
        self.why = why


# -- interpreters ---------------------------------------------------------------


def _version_of(python: str) -> tuple[int, int] | None:
    try:
        result = subprocess.run(
            [python, "-V"], capture_output=True, text=True, timeout=30, check=False
        )
    except OSError:
        return None
    match = re.match(r"Python (\d+)\.(\d+)", result.stdout or result.stderr)
    return (int(match[1]), int(match[2])) if result.returncode == 0 and match else None


@functools.cache
def interpreters() -> list[tuple[tuple[int, int], str]]:
    """Every usable CPython 3.9+ found on PATH or under pyenv, newest first, one per minor."""
    found: dict[tuple[int, int], str] = {}
    candidates = [shutil.which(f"python3.{minor}") for minor in range(20, 8, -1)]
    pyenv = shutil.which("pyenv")
    if pyenv:
        root = subprocess.run([pyenv, "root"], capture_output=True, text=True).stdout.strip()
        versions = sorted(Path(root, "versions").glob("3.*"), reverse=True)
        candidates += [str(v / "bin" / "python3") for v in versions]
    for candidate in filter(None, candidates):
        version = _version_of(candidate)
        if version and version >= (3, 9) and version not in found:
            found[version] = candidate
    return sorted(found.items(), reverse=True)


# -- the environment -------------------------------------------------------------


def _run(command: list[str], **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=False, **kwargs)


def _reason(result: subprocess.CompletedProcess[str]) -> str:
    lines = [line.strip() for line in (result.stderr or result.stdout).splitlines()]
    useful = [line for line in lines if line and not line.startswith(("Using ", "Resolved "))]
    return " ".join(useful[:4])[:400] or f"exit status {result.returncode}"


def wheel(root: Path, out: Path, uv: str) -> Path:
    """Build the jaxbook wheel that the release's environment runs the bundles with, and
    beside it the wheels of the workspace's other distributions: pagerun, which it imports,
    and jaxbook-lab, whose bundle runner and probes run there."""
    shutil.rmtree(out, ignore_errors=True)
    command = [uv, "build", "--quiet", "--all-packages", "--wheel", "--out-dir", str(out)]
    result = _run(command, cwd=root)
    if result.returncode != 0:
        raise SystemExit(f"pyproject.toml:1: the jaxbook wheel does not build: {_reason(result)}")
    return next(out.glob("jaxbook-*.whl"))


def default_uv() -> str:
    """The uv installed beside this Python (the project's, from the lock), else the one on PATH."""
    beside = Path(sys.executable).with_name("uv")
    return str(beside) if beside.exists() else shutil.which("uv") or "uv"


def _install_wheel(env_python: str, the_wheel: Path, release: str) -> None:
    # The wheel says Python >= the project's; its runner and runtime need far less. pagerun
    # (which the runner imports) and the lab (the runner and the probes) are distributions of
    # their own: :func:`wheel` built them beside.
    pip = [env_python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    beside = [*the_wheel.parent.glob("pagerun-*.whl"), *the_wheel.parent.glob("jaxbook_lab-*.whl")]
    wheels = [str(the_wheel), *map(str, sorted(beside))]
    ours = _run([*pip, "--no-deps", "--no-index", "--force-reinstall", *IGNORE_PYTHON, *wheels])
    if ours.returncode != 0:
        raise CannotInstall(release, f"the jaxbook wheel: {_reason(ours)}")


def environment(
    release: str,
    python: str,
    envs: Path,
    the_wheel: Path,
    uv: str,
    exclude_newer: str | None = None,
) -> tuple[Path, str]:
    """Create (or reuse) the release's environment; return its python and what went in.

    With ``exclude_newer`` (a timestamp), only packages uploaded before it are
    used: the release with the NumPy, SciPy and ml_dtypes of its day.
    """
    version = _version_of(python)
    if version is None:
        raise CannotInstall(release, f"{python} is not a Python interpreter that runs")
    era = "-of-its-day" if exclude_newer else ""
    env = envs / f"jax-{release}-py{version[0]}.{version[1]}{era}"
    ready = env / "jaxbook-drift-ready"
    env_python = str(env / "bin" / "python")
    if ready.exists():
        # The release stays; this checkout's runner and probes replace the old ones.
        _install_wheel(env_python, the_wheel, release)
        return Path(env_python), ready.read_text(encoding="utf-8")
    shutil.rmtree(env, ignore_errors=True)
    created = _run([uv, "venv", "--quiet", "--seed", "-p", python, str(env)])
    if created.returncode != 0:
        raise CannotInstall(release, _reason(created))
    wanted = [f"jax[cpu]=={release}", "matplotlib"]
    if exclude_newer:
        # JAX's own wheels are exempt: some were uploaded again years later.
        now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        wanted += ["--exclude-newer", exclude_newer]
        wanted += [
            "--exclude-newer-package",
            f"jax={now}",
            "--exclude-newer-package",
            f"jaxlib={now}",
        ]
    for package in BINARY_ONLY:
        wanted += ["--only-binary", package]
    installed = _run([uv, "pip", "install", "--quiet", "-p", env_python, *wanted])
    if installed.returncode != 0 and f"no version of jaxlib=={release}" in installed.stderr:
        # A few releases had no jaxlib of their own: they ran on the one before.
        wanted[0:1] = [f"jax=={release}", f"jaxlib<={release}"]
        installed = _run([uv, "pip", "install", "--quiet", "-p", env_python, *wanted])
    if installed.returncode != 0:
        shutil.rmtree(env, ignore_errors=True)
        raise CannotInstall(release, f"on Python {version[0]}.{version[1]}: {_reason(installed)}")
    _install_wheel(env_python, the_wheel, release)
    smoke = _run([env_python, "-m", "jaxbook", "backend"])
    if smoke.returncode != 0 and NUMPY_ABI.search(smoke.stderr + smoke.stdout):
        wanted.append("numpy<2")
        _run([uv, "pip", "install", "--quiet", "-p", env_python, *wanted])
        smoke = _run([env_python, "-m", "jaxbook", "backend"])
    if smoke.returncode != 0:
        last = (smoke.stderr or smoke.stdout).strip().splitlines()[-1:] or ["no output"]
        shutil.rmtree(env, ignore_errors=True)
        raise CannotInstall(release, f"it installs but does not start: {last[0]}")
    freeze = _run([uv, "pip", "freeze", "-p", env_python]).stdout
    pins = [
        line
        for line in freeze.splitlines()
        if line.split("==")[0].lower() in {"jax", "jaxlib", "numpy", "ml-dtypes", "matplotlib"}
    ]
    summary = f"Python {version[0]}.{version[1]}, " + ", ".join(pins)
    ready.write_text(summary, encoding="utf-8")
    return Path(env_python), summary


def pick_environment(
    release: str,
    python: str | None,
    envs: Path,
    the_wheel: Path,
    uv: str,
    exclude_newer: str | None = None,
) -> tuple[Path, str]:
    """The release's environment on ``python``, else on the newest interpreter it works on."""
    if python:
        return environment(release, python, envs, the_wheel, uv, exclude_newer)
    tried = []
    for (major, minor), candidate in interpreters():
        try:
            return environment(release, candidate, envs, the_wheel, uv, exclude_newer)
        except CannotInstall as error:
            tried.append(f"Python {major}.{minor}: {error.why}")
    if not tried:
        raise CannotInstall(release, "no Python 3.9 or newer was found (give one with PYTHON=)")
    raise CannotInstall(release, "; ".join(tried))
