"""Every JAX name and variable the prose recommends is current in the installed JAX."""

from __future__ import annotations

import re

import pytest


@pytest.mark.sphinx("html", testroot="api-names")
def test_stale_names_and_variables_are_warned_about_at_their_line(built):
    warnings = built.warnings
    expected = {
        7: "jax.numpy has no DeviceArray",
        9: "jax.device_put_sharded is deprecated",
        11: "XLA_PYTHON_CLIENT_MEM_FRACTION is deprecated in jax/jaxlib",
        13: "JAX_NO_SUCH_VARIABLE is read by neither jax nor jaxlib",
        17: "jax.random.PRNGKey is marked :old-name:, but it is current",
    }
    for line, message in expected.items():
        assert re.search(rf"index\.rst:{line}: WARNING: {re.escape(message)}", warnings), warnings
    assert warnings.count("WARNING") == len(expected), warnings
    assert re.search(r'<code class="[^"]*jb-old-name[^"]*"[^>]*>.*jax\.get_device', built.page())
