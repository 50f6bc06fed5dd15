from __future__ import annotations

import re

import pytest


@pytest.mark.sphinx("html", testroot="guards")
def test_guards_flag_each_dishonest_block_by_line(built):
    warnings = built.warnings
    lines = {
        "prompts": r"index\.rst:(\d+): WARNING: code block with '>>>' prompts is not a doctest",
        "wildcard": r"index\.rst:(\d+): WARNING: expected output has a line that is only",
        "skipif": r"index\.rst:(\d+): WARNING: testoutput has :skipif: None but its testcode",
        "config": r"index\.rst:(\d+): WARNING: page code calls jax\.config\.update",
        "timeout": r"index\.rst:(\d+): WARNING: page code runs subprocess\.run without timeout=",
    }
    found = {name: re.search(pattern, warnings) for name, pattern in lines.items()}
    assert all(found.values()), warnings
    assert warnings.count("WARNING") == 6
    # The directive's cell and the ">>>" block: both run, both flagged.
    assert len(re.findall(lines["config"], warnings)) == 2, warnings
    source = (built.app.srcdir / "index.rst").read_text(encoding="utf-8").splitlines()
    assert ">>> 1 + 1" in "\n".join(source[int(found["prompts"][1]) - 1 :][:4])
