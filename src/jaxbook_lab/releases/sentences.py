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
}
