"""Every JAX name and variable the prose recommends is current in the installed JAX."""

from __future__ import annotations

import re
import subprocess
import sys

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


# The roots of the names' checks, built in a fresh process (the test process may have imported
# JAX): what the checks found, and whether the build's process imported JAX.
BUILD = """
import shutil
import sys
from pathlib import Path

from sphinx.testing.util import SphinxTestApp

roots, out = Path(sys.argv[1]), Path(sys.argv[2])
for name in ("api-names", "book-index"):
    shutil.copytree(roots / f"test-{name}", out / name)
    app = SphinxTestApp("html", srcdir=out / name)
    try:
        app.build()
    finally:
        app.cleanup()
    print(app.warning.getvalue().count("WARNING"), end=" ")
    if name == "book-index":
        entries = app.env.domains.index_domain.entries["ch01/page"]
        print(sorted({entry[1].split("; ")[0] for entry in entries} & {"jax.Array.at",
              "jax_enable_x64", "jax.random.key"}), end=" ")
print("jax" in sys.modules, "jaxlib" in sys.modules)
"""


def test_the_build_process_never_imports_jax_to_check_names(rootdir, tmp_path):
    """The names are checked in the build's kernel (jaxbook.doctest.jax_names), which answers
    what the installed JAX has: a build that checks names but runs no page, too."""
    built = subprocess.run(
        [sys.executable, "-c", BUILD, str(rootdir), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )

    assert built.returncode == 0, built.stderr
    found = built.stdout.split("\n")[-2]
    # Five stale names warned about; the index names an array's attribute, an option, a function:
    # asked, and answered.
    expected = "5 0 ['jax.Array.at', 'jax.random.key', 'jax_enable_x64'] False False"
    assert found == expected, built.stdout + built.stderr
