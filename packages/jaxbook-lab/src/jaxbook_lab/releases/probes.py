"""What one JAX release does, asked in the few ways the chapter's update notes depend on.

    python -m jaxbook_lab.releases.probes       (in an environment that has that release)

Prints one JSON object: for every probe, ``{"key": ..., "shown": ...}``. The
key is what the evidence search compares between releases (a release where a
probe's key changes is where the behavior changed); ``shown`` is what a
reader would see there (a value, an exception, a list of extras).

This module runs under every Python and JAX the evidence search installs
(Python 3.9 and JAX 0.4.1 onwards), so it uses nothing newer than those.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import warnings
from collections.abc import Callable
from importlib import metadata

# Two CPU devices, for the probe about arrays committed to different devices;
# this must be set before JAX starts its backend.
os.environ["XLA_FLAGS"] = (
    os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=2"
).strip()

import jax
import jax.numpy as jnp

# Each probe returns (key, shown).
PROBES: dict[str, Callable[[], tuple[str, str]]] = {}


def probe(function: Callable[[], tuple[str, str]]) -> Callable[[], tuple[str, str]]:
    PROBES[function.__name__.replace("_", "-")] = function
    return function


def _error(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"


@probe
def dot_value():
    """The installation check: dot(x, x) of ten normals from PRNGKey(0), default config."""
    x = jax.random.normal(jax.random.PRNGKey(0), (10,))
    value = repr(float(jnp.dot(x, x)))
    return value, value


@probe
def threefry_partitionable_default():
    """The default of jax_threefry_partitionable (absent before the flag existed)."""
    value = getattr(jax.config, "jax_threefry_partitionable", None)
    if value is None:
        return "absent", "no jax_threefry_partitionable flag"
    return str(value), f"jax_threefry_partitionable={value}"


@probe
def device_method():
    """Whether ``x.device()`` can be called (a method) or raises (a property)."""
    x = jnp.ones(3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            device = x.device()
        except Exception as error:
            return type(error).__name__, _error(error)
    deprecated = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    if deprecated:
        return "deprecated method", f"DeprecationWarning: {deprecated[0].message}"
    return "method", f"x.device() -> {device!r}"


@probe
def array_type():
    """The class of a JAX array, as ``type()`` prints it."""
    kind = type(jnp.ones(3))
    name = f"{kind.__module__}.{kind.__qualname__}"
    return name, name


@probe
def devicearray_name():
    """Whether ``jax.numpy.DeviceArray`` still exists."""
    present = hasattr(jnp, "DeviceArray")
    return ("present" if present else "removed"), f"hasattr(jnp, 'DeviceArray') = {present}"


@probe
def typed_keys():
    """Whether ``jax.random.key`` (typed keys) exists."""
    if not hasattr(jax.random, "key"):
        return "absent", "hasattr(jax.random, 'key') = False"
    same = bool(
        (
            jax.random.normal(jax.random.key(0), (3,))
            == jax.random.normal(jax.random.PRNGKey(0), (3,))
        ).all()
    )
    return "present", f"normal(key(0)) == normal(PRNGKey(0)): {same}"


@probe
def prngkey_warning():
    """Whether ``jax.random.PRNGKey`` warns when it is used."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        jax.random.normal(jax.random.PRNGKey(0), (3,))
    shown = [f"{w.category.__name__}: {str(w.message).splitlines()[0]}" for w in caught]
    return ("warns", "; ".join(shown)) if shown else ("silent", "PRNGKey(0): no warning")


@probe
def shard_map_top_level():
    """Whether ``jax.shard_map`` is part of the top-level API."""
    present = hasattr(jax, "shard_map")
    return ("present" if present else "absent"), f"hasattr(jax, 'shard_map') = {present}"


@probe
def pmap_doc():
    """Whether ``jax.pmap``'s documentation calls it the old way, pointing to ``shard_map``."""
    first = (jax.pmap.__doc__ or "").strip().splitlines()[:1] or [""]
    old = "shard_map" in first[0] or "old way" in first[0].lower()
    return ("old interface" if old else "current"), first[0]


@probe
def jaxlib_with_jax():
    """Whether ``pip install jax`` alone brings jaxlib (a dependency outside any extra)."""
    requires = metadata.requires("jax") or []
    plain = [r for r in requires if r.startswith("jaxlib") and "extra ==" not in r]
    if plain:
        return "yes", f"Requires-Dist: {plain[0]}"
    extra = [r for r in requires if r.startswith("jaxlib")][:1] or ["none"]
    return "no", f"Requires-Dist: {extra[0]}"


@probe
def cuda_extras():
    """The CUDA extras of the jax package (the install commands the docs give)."""
    extras = metadata.metadata("jax").get_all("Provides-Extra") or []
    # PEP 685 spells extras with hyphens; older metadata has underscores.
    cuda = sorted(re.sub(r"[-_.]+", "-", e) for e in extras if e.startswith("cuda"))
    return " ".join(cuda) or "none", " ".join(cuda) or "no CUDA extra"


@probe
def cuda_find_links():
    """Which CUDA extras pin a jaxlib build that only the ``-f`` download page had.

    Read per extra, from the ``extra == "..."`` markers of the release's requirements:
    from 0.4.22 the ``cuda12`` extra the docs recommend installs from the registry
    alone, while the older ``cuda12_pip`` and ``cuda12_local`` still needed ``-f``.
    """
    by_extra: dict[str, list[str]] = {}
    for requirement in metadata.requires("jax") or []:
        marker = re.search(r"""extra\s*==\s*["']([^"']+)["']""", requirement)
        if marker and marker.group(1).startswith("cuda"):
            by_extra.setdefault(re.sub(r"[-_.]+", "-", marker.group(1)), []).append(requirement)
    if not by_extra:
        return "no CUDA extra", "no CUDA extra"
    pinned = sorted(e for e, reqs in by_extra.items() if any("+cuda" in r for r in reqs))
    if not pinned:
        return "registry only", "every CUDA extra installs from the package registry alone"
    if len(pinned) == len(by_extra):
        return "needs -f", "every CUDA extra needs a jaxlib build from the -f download page"
    free = sorted(set(by_extra) - set(pinned))
    return "some need -f", f"{' '.join(free)} from the registry; {' '.join(pinned)} need -f"


@probe
def requires_python():
    """The Python versions the release declares."""
    value = metadata.metadata("jax").get("Requires-Python") or "unspecified"
    return value, value


@probe
def committed_devices():
    """Adding arrays committed to two different devices."""
    devices = jax.devices()
    if len(devices) < 2:
        return "one-device", "len(jax.devices()) = 1"
    a = jax.device_put(jnp.ones(2), devices[0])
    b = jax.device_put(jnp.ones(2), devices[1])
    try:
        a + b
    except Exception as error:
        return type(error).__name__, _error(error)[:160]
    return "no-error", "a + b ran"


@probe
def empty_uninitialized():
    """Whether ``jnp.empty`` and ``jnp.empty_like`` leave their arrays uninitialized.

    Read from their lowering for TPU and for GPU (``jax.export`` lowers for platforms
    this machine lacks): an ``AllocateBuffer`` call there is memory left as it is. A
    jaxpr that only broadcasts a zero is zeros on every platform.
    """
    made = {"empty": lambda: jnp.empty(3), "empty_like": lambda: jnp.empty_like(jnp.ones(3))}
    answers = {}
    for name, function in made.items():
        primitives = {e.primitive.name for e in jax.make_jaxpr(function)().jaxpr.eqns}
        for platform in ("tpu", "cuda"):
            if "empty" not in primitives:
                answers[f"jnp.{name} on {platform}"] = "zeros"
                continue
            from jax import export

            lowered = export.export(jax.jit(function), platforms=[platform])().mlir_module()
            kind = "uninitialized" if "AllocateBuffer" in lowered else "zeros"
            answers[f"jnp.{name} on {platform}"] = kind
    kinds = set(answers.values())
    key = kinds.pop() if len(kinds) == 1 else "mixed"
    return key, ", ".join(f"{where}: {kind}" for where, kind in answers.items())


@probe
def key_dtype():
    """Whether ``jax.random.key`` takes the PRNG implementation as ``dtype=``."""
    if not hasattr(jax.random, "key"):
        return "no jax.random.key", "hasattr(jax.random, 'key') = False"
    try:
        key = jax.random.key(0, dtype="rbg")
    except Exception as error:
        return type(error).__name__, _error(error)
    return "accepted", f"key(0, dtype='rbg').dtype = {key.dtype}"


@probe
def debug_key_reuse():
    """Whether the key-reuse check exists: ``jax.debug_key_reuse`` and ``jax_debug_key_reuse``."""
    context = hasattr(jax, "debug_key_reuse")
    flag = hasattr(jax.config, "jax_debug_key_reuse")
    key = {
        (True, True): "both",
        (True, False): "context manager only",
        (False, True): "flag only",
        (False, False): "absent",
    }[(context, flag)]
    shown = f"jax.debug_key_reuse: {context}, jax_debug_key_reuse: {flag}"
    return key, shown


def _cpu_devices(environment: dict[str, str], code: str = "") -> tuple[str, str]:
    """How many CPU devices a new Python process sees, after ``code``, with ``environment``.

    The process does not inherit this module's ``XLA_FLAGS`` (two devices).
    """
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    env.update(environment, JAX_PLATFORMS="cpu")
    program = "\n".join(["import jax", code, "print(len(jax.devices()))"])
    ran = subprocess.run(
        [sys.executable, "-c", program],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if ran.returncode != 0:
        last = (ran.stderr.strip().splitlines() or ["no output"])[-1]
        return last.split(":")[0], last[:160]
    count = ran.stdout.strip().splitlines()[-1]
    return f"{count} devices", f"len(jax.devices()) = {count}"


@probe
def num_cpu_devices_config():
    """What ``jax.config.update("jax_num_cpu_devices", 4)`` does, in a new process."""
    return _cpu_devices({}, 'jax.config.update("jax_num_cpu_devices", 4)')


@probe
def num_cpu_devices_variable():
    """How many CPU devices a new process sees with ``JAX_NUM_CPU_DEVICES=4`` set."""
    return _cpu_devices({"JAX_NUM_CPU_DEVICES": "4"})


@probe
def make_mesh_axis_types():
    """The axis types of a mesh that ``jax.make_mesh`` makes when none are asked for."""
    if not hasattr(jax, "make_mesh"):
        return "no jax.make_mesh", "hasattr(jax, 'make_mesh') = False"
    mesh = jax.make_mesh((len(jax.devices()),), ("x",))
    types = getattr(mesh, "axis_types", None)
    if types is None:
        return "no axis types", "the mesh has no axis_types"
    names = re.findall(r"Explicit|Auto|Manual|Hidden|Visible|Collective|User", repr(types))
    return " ".join(sorted(set(names))) or repr(types), f"axis_types = {types!r}"


def _top_level(name: str) -> tuple[str, str]:
    present = hasattr(jax, name)
    return ("present" if present else "absent"), f"hasattr(jax, '{name}') = {present}"


@probe
def p_top_level():
    """Whether ``jax.P`` (``PartitionSpec``) is part of the top-level API."""
    return _top_level("P")


@probe
def set_mesh_top_level():
    """Whether ``jax.set_mesh`` is part of the top-level API."""
    return _top_level("set_mesh")


@probe
def device_put_replicated():
    """Whether ``jax.device_put_replicated`` and ``jax.device_put_sharded`` still exist."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        present = [n for n in ("device_put_replicated", "device_put_sharded") if hasattr(jax, n)]
        if present:
            try:
                jax.device_put_replicated(jnp.ones(1), jax.devices())
            except Exception as error:
                return type(error).__name__, _error(error)
    if not present:
        return "removed", "neither jax.device_put_replicated nor jax.device_put_sharded exists"
    deprecated = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    if deprecated:
        first = str(deprecated[0].message).splitlines()[0]
        return "deprecated", f"DeprecationWarning: {first}"
    return "present", f"{' and '.join(present)} exist"


def _context_manager(name: str, flag: str) -> tuple[str, str]:
    """Whether ``jax.<name>(True)`` is a context manager that turns ``flag`` on inside it."""
    if not hasattr(jax, name):
        return "absent", f"hasattr(jax, '{name}') = False"
    try:
        with getattr(jax, name)(True):
            inside = getattr(jax.config, flag)
    except Exception as error:
        return type(error).__name__, _error(error)
    if not inside:
        return "no effect", f"with jax.{name}(True): {flag} = {inside}"
    return "context manager", f"with jax.{name}(True): {flag} = {inside}"


@probe
def threefry_partitionable_context():
    """Whether ``with jax.threefry_partitionable(True):`` turns the flag on inside it."""
    return _context_manager("threefry_partitionable", "jax_threefry_partitionable")


@probe
def enable_x64_context():
    """Whether ``with jax.enable_x64(True):`` turns on 64-bit types inside it."""
    return _context_manager("enable_x64", "jax_enable_x64")


def main() -> int:
    results = {}
    for name, function in PROBES.items():
        try:
            key, shown = function()
        except Exception as error:
            key, shown = "probe-failed", _error(error)
        results[name] = {"key": key, "shown": shown}
    print(json.dumps(results, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
