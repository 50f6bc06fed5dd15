"""What each probe's answers mean, as phrases for the update-notes table (no JAX import).

``jaxbook_lab.releases.probes`` imports JAX and sets ``XLA_FLAGS`` as it is
imported, since it runs in a release's own environment; ``jaxbook-lab evidence``
reads the phrases from here instead and writes them into the evidence file,
from which ``jaxbook.sphinxext.evidence_column`` makes the "Changed in"
cells ("Since JAX 0.4.31, <phrase>; before that, <phrase> (0.4.27–0.4.30)").

Each phrase says what holds on a release that gave the answer (the *key*),
in the present tense, starting in lower case, without a full stop. They are
English msgids that the book's extensions translate: ````code```` becomes a
code span, ``%(shown)s`` what the release showed (in full, as code),
``%(listed)s`` the names it showed, as a list of code spans, and
"*" is the phrase for any key a probe's table does not name; where a cell
lists older answers, a "*" phrase is shortened to what was shown.
"""

from __future__ import annotations

SENTENCES: dict[str, dict[str, str]] = {
    "dot-value": {"*": "``jnp.dot(x, x)`` gives %(shown)s"},
    "threefry-partitionable-default": {
        "False": "``jax_threefry_partitionable`` is off by default",
        "True": "``jax_threefry_partitionable`` is on by default",
        "absent": "there is no ``jax_threefry_partitionable`` flag",
    },
    "device-method": {
        "method": "``x.device()`` is a method that returns the device",
        "deprecated method": "``x.device()`` works but warns that it is deprecated",
        "AttributeError": "arrays have no ``device`` attribute",
        "TypeError": "``x.device`` is an attribute, and calling it raises ``TypeError``",
    },
    "array-type": {"*": "``type(x)`` is %(shown)s"},
    "devicearray-name": {
        "present": "``jnp.DeviceArray`` exists",
        "removed": "``jnp.DeviceArray`` no longer exists",
    },
    "typed-keys": {
        "present": "``jax.random.key`` exists",
        "absent": "there is no ``jax.random.key``",
    },
    "prngkey-warning": {
        "silent": "``jax.random.PRNGKey`` gives no warning",
        "warns": "``jax.random.PRNGKey`` warns: %(shown)s",
    },
    "shard-map-top-level": {
        "present": "``jax.shard_map`` exists",
        "absent": "there is no top-level ``jax.shard_map``",
    },
    "pmap-doc": {
        "current": "the documentation of ``jax.pmap`` begins %(shown)s",
        "old interface": "the documentation of ``jax.pmap`` calls it the “old way” of "
        "doing a parallel map and points to ``jax.shard_map``",
    },
    "jaxlib-with-jax": {
        "no": "``pip install jax`` does not install jaxlib",
        "yes": "``pip install jax`` also installs jaxlib",
    },
    "cuda-extras": {"*": "the CUDA extras are %(listed)s"},
    "cuda-find-links": {
        "needs -f": "every CUDA extra needs the ``-f`` download page",
        "some need -f": "only ``jax[cuda12]`` installs from the package registry",
        "registry only": "every CUDA extra installs from the package registry alone",
        "no CUDA extra": "the release has no CUDA extra",
    },
    "requires-python": {"*": "JAX requires Python %(minimum)s or later"},
    "committed-devices": {
        "one-device": "the machine has a single device, so this cannot be tried",
        "no-error": "adding the two arrays works",
        "ValueError": "adding the two arrays raises ``ValueError``",
        "*": "adding the two arrays raises %(shown)s",
    },
    "empty-uninitialized": {
        "zeros": "``jnp.empty`` and ``jnp.empty_like`` give zeros on every platform",
        "uninitialized": "``jnp.empty`` and ``jnp.empty_like`` leave their arrays "
        "uninitialized on TPU and GPU",
        "*": "``jnp.empty`` and ``jnp.empty_like`` give %(shown)s",
    },
    "key-dtype": {
        "accepted": "``jax.random.key`` takes the PRNG implementation as ``dtype=``",
        "no jax.random.key": "there is no ``jax.random.key``",
        "*": '``jax.random.key(0, dtype="rbg")`` raises %(shown)s',
    },
    "debug-key-reuse": {
        "both": "``jax.debug_key_reuse`` and the ``jax_debug_key_reuse`` flag exist",
        "flag only": "only the ``jax_debug_key_reuse`` flag exists",
        "context manager only": "only ``jax.debug_key_reuse`` exists",
        "absent": "there is no key-reuse check",
    },
    "num-cpu-devices-config": {
        "4 devices": "``jax_num_cpu_devices`` sets the number of CPU devices",
        "*": "setting ``jax_num_cpu_devices`` gives %(shown)s",
    },
    "num-cpu-devices-variable": {
        "4 devices": "``JAX_NUM_CPU_DEVICES=4`` gives four CPU devices",
        "1 devices": "``JAX_NUM_CPU_DEVICES`` has no effect",
        "*": "with ``JAX_NUM_CPU_DEVICES=4``, JAX gives %(shown)s",
    },
    "make-mesh-axis-types": {
        "Explicit": "``jax.make_mesh`` makes explicit axes by default",
        "Auto": "``jax.make_mesh`` makes automatic axes by default",
        "no jax.make_mesh": "there is no ``jax.make_mesh``",
        "no axis types": "a mesh has no axis types",
        "*": "``jax.make_mesh`` gives %(shown)s by default",
    },
    "p-top-level": {
        "present": "``jax.P`` exists",
        "absent": "there is no top-level ``jax.P``",
    },
    "set-mesh-top-level": {
        "present": "``jax.set_mesh`` exists",
        "absent": "there is no top-level ``jax.set_mesh``",
    },
    "device-put-replicated": {
        "present": "``jax.device_put_replicated`` and ``jax.device_put_sharded`` exist",
        "deprecated": "``jax.device_put_replicated`` warns that it is deprecated",
        "removed": "``jax.device_put_replicated`` and ``jax.device_put_sharded`` no longer exist",
        "*": "``jax.device_put_replicated`` raises %(shown)s",
    },
    "threefry-partitionable-context": {
        "context manager": "``with jax.threefry_partitionable(True):`` turns the flag on "
        "inside the block",
        "absent": "there is no ``jax.threefry_partitionable``",
        "*": "``jax.threefry_partitionable(True)`` gives %(shown)s",
    },
    "enable-x64-context": {
        "context manager": "``with jax.enable_x64(True):`` turns on 64-bit types inside the block",
        "absent": "there is no top-level ``jax.enable_x64``",
        "*": "``jax.enable_x64(True)`` gives %(shown)s",
    },
}
