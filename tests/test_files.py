"""An atomic write leaves the file with the mode a plain write would."""

from __future__ import annotations

import os
import stat

from jaxbook.files import write_text_atomically


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_rewritten_file_keeps_its_mode_and_a_new_one_gets_the_umask(tmp_path):
    kept = tmp_path / "catalog.po"
    kept.write_text("old\n", encoding="utf-8")
    kept.chmod(0o664)
    write_text_atomically(kept, "new\n")
    assert kept.read_text(encoding="utf-8") == "new\n"
    assert mode(kept) == 0o664

    umask = os.umask(0o022)
    try:
        write_text_atomically(tmp_path / "new.json", "{}\n")
    finally:
        os.umask(umask)
    assert mode(tmp_path / "new.json") == 0o644
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
