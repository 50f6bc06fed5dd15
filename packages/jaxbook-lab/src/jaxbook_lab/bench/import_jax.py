"""``python -m jaxbook_lab.bench.import_jax``: start Python and import JAX, nothing else.

``make bench`` times it with bytecode compiled at install and without.
"""

import jax  # noqa: F401
