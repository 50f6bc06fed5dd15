"""What each probe's answers mean, as sentences for the pages (no JAX import).

``jaxbook.releases.probes`` imports JAX and sets ``XLA_FLAGS`` as it is
imported, since it runs in a release's own environment; the build and the
tests read the sentences from here instead. ``jaxbook evidence`` writes them
into the evidence file, and ``jaxbook.sphinxext._eras`` turns them into the
"Changed in" cells.
"""

from __future__ import annotations

# English msgids that the book's extensions translate: ``code`` becomes a code span,
# and "*" is the sentence for any key a table does not name.
SENTENCES: dict[str, dict[str, str]] = {
    "dot-value": {"*": "``jnp.dot(x, x)`` prints %(shown)s"},
    "threefry-partitionable-default": {
        "False": "``jax_threefry_partitionable`` is off by default",
        "True": "``jax_threefry_partitionable`` is on by default",
        "absent": "there is no ``jax_threefry_partitionable`` flag",
    },
    "device-method": {
        "method": "``x.device()`` is a method and returns the device",
        "deprecated method": "``x.device()`` still works, with %(shown)s",
        "AttributeError": "arrays have no ``device`` attribute: %(shown)s",
        "TypeError": "``x.device`` is a property, so calling it raises %(shown)s",
    },
    "array-type": {"*": "``type(x)`` is %(shown)s"},
    "devicearray-name": {
        "present": "``jnp.DeviceArray`` still exists",
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
        "old interface": "the documentation of ``jax.pmap`` calls it the old way: %(shown)s",
    },
    "jaxlib-with-jax": {
        "no": "``pip install jax`` does not install jaxlib",
        "yes": "``pip install jax`` also installs jaxlib",
    },
    "cuda-extras": {"*": "the CUDA extras are %(shown)s"},
    "cuda-find-links": {
        "needs -f": "the ``cuda`` extras pin a jaxlib build that only the ``-f`` download page has",
        "registry only": "the CUDA extras install from the package registry alone",
    },
    "requires-python": {"*": "the release declares the Python versions %(shown)s"},
    "committed-devices": {
        "one-device": "the machine has a single device, so this cannot be tried",
        "no-error": "adding the two arrays works",
        "*": "adding the two arrays raises %(shown)s",
    },
}
