"""Each kind of bad translation makes the catalog check fail and names file:line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from jaxbook.project import find_root

ROOT = find_root(Path(__file__).parent)

HEADER = r"""msgid ""
msgstr ""
"Project-Id-Version: test\n"
"Language: en\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
"""

ENTRIES = {
    "prose": (
        "用 ``jax.jit`` 编译,见 :doc:`arrays`。",
        "Compile with ``jax.jit``; see :doc:`arrays`.",
    ),
    "code": (
        '# 创建密钥\nkey = jax.random.key(0)\nprint("密钥:", key)',
        '# Create a key\nkey = jax.random.key(0)\nprint("key:", key)',
    ),
    "term": ("“向量化”不是量化。", ":zh:`向量化` is vectorization, not quantization."),
    "plain": ("随机数要显式传递密钥。", "Random numbers need an explicit key."),
    "long": (
        "这是一段很长的中文说明，用来检查换行宽度是否统一，它需要超过七十九列才会被折行。" * 2,
        "A long explanation that checks the catalogs are wrapped at one width; "
        "it has to be longer than seventy-nine columns to be wrapped at all.",
    ),
}


def po_text(entries: dict[str, tuple[str, str]], fuzzy: str | None = None) -> str:
    parts = [HEADER]
    for name, (msgid, msgstr) in entries.items():
        flag = "#, fuzzy\n" if name == fuzzy else ""
        parts.append(
            f"#: ../../docs/{name}.rst:1\n{flag}msgid {quote(msgid)}\nmsgstr {quote(msgstr)}\n"
        )
    return "\n".join(parts)


def quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def write_catalog(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "en" / "LC_MESSAGES" / "page.po"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    subprocess.run(["msgcat", "--width=79", f"--output-file={path}", str(path)], check=True)
    return path


def check(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jaxbook", "po", "check", str(path.parent)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def line_of(path: Path, msgid_start: str) -> int:
    """The msgstr line of the entry whose msgid starts with ``msgid_start``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(
        i
        for i, line in enumerate(lines)
        if line.startswith(f'msgid "{msgid_start}')
        or (
            line == 'msgid ""' and i + 1 < len(lines) and lines[i + 1].startswith(f'"{msgid_start}')
        )
    )
    return next(i for i in range(start, len(lines)) if lines[i].startswith("msgstr")) + 1


def test_good_catalog_is_clean(tmp_path):
    result = check(write_catalog(tmp_path, po_text(ENTRIES)))
    assert result.returncode == 0, result.stdout
    assert result.stdout == ""


def test_malformed_catalog(tmp_path):
    path = tmp_path / "en" / "LC_MESSAGES" / "page.po"
    path.parent.mkdir(parents=True)
    path.write_text(po_text(ENTRIES) + '\nmsgid "unterminated\nmsgstr ""\n', encoding="utf-8")
    result = check(path)
    assert result.returncode == 1
    assert re.search(rf"^{re.escape(str(path))}:\d+: msgfmt: ", result.stdout, re.MULTILINE)


BROKEN = {
    "broken inline code": (
        "prose",
        "Compile with ``jax.jit`; see :doc:`arrays`.",
        "用 ``jax.jit``",
        "inline code missing from the translation: 'jax.jit'",
    ),
    "changed role target": (
        "prose",
        "Compile with ``jax.jit``; see :doc:`devices`.",
        "用 ``jax.jit``",
        "role missing from the translation: ('doc', 'arrays')",
    ),
    "changed code token": (
        "code",
        '# Create a key\nkey = jax.random.key(1)\nprint("key:", key)',
        "# 创建密钥",
        "translated code differs from the source at its line 2: expected '0', found '1'",
    ),
    "raw script": (
        "plain",
        "Random numbers need an explicit key.<script>alert(1)</script>",
        "随机数",
        "<script> in the translation",
    ),
    "new directive": (
        "plain",
        "Random numbers need an explicit key.\n\n.. raw:: html",
        "随机数",
        "directive not in the source: .. raw::",
    ),
    "glossary term missing": (
        "plain",
        "Random numbers need an explicit seed.",
        "随机数",
        "glossary: 密钥 must be translated as 'key'",
    ),
    "exclusive term misused": (
        "term",
        ":zh:`向量化` is quantization.",
        "“向量化”",
        "glossary: 向量化 must be translated as 'vectorization'",
    ),
}


@pytest.mark.parametrize("case", list(BROKEN), ids=list(BROKEN))
def test_bad_translation_is_reported_at_its_line(tmp_path, case):
    name, msgstr, msgid_start, message = BROKEN[case]
    entries = dict(ENTRIES)
    entries[name] = (entries[name][0], msgstr)
    path = write_catalog(tmp_path, po_text(entries))
    result = check(path)
    assert result.returncode == 1
    assert f"{path}:{line_of(path, msgid_start)}: {message}" in result.stdout, result.stdout


def test_quantization_without_its_chinese_term_is_flagged(tmp_path):
    entries = dict(ENTRIES)
    entries["plain"] = ("随机数要显式传递密钥。", "Random numbers need a quantization key.")
    path = write_catalog(tmp_path, po_text(entries))
    result = check(path)
    assert (
        f"{path}:{line_of(path, '随机数')}: glossary: 'quantization' is only for 量化"
        in result.stdout
    ), result.stdout


def test_fuzzy_and_untranslated_entries_are_listed(tmp_path):
    entries = dict(ENTRIES)
    entries["plain"] = (entries["plain"][0], "")
    path = write_catalog(tmp_path, po_text(entries, fuzzy="prose"))
    result = check(path)
    assert result.returncode == 1
    assert f"{path}:{line_of(path, '用 ``jax.jit``')}: fuzzy" in result.stdout, result.stdout
    assert f"{path}:{line_of(path, '随机数')}: untranslated" in result.stdout


def test_wrong_headers(tmp_path):
    text = po_text(ENTRIES).replace('"Language: en\\n"\n', '"Language: fr\\n"\n')
    path = write_catalog(tmp_path, text)
    result = check(path)
    assert f"{path}:1: header Language is 'fr', expected 'en'" in result.stdout


def test_spelling(tmp_path):
    entries = dict(ENTRIES)
    entries["plain"] = (entries["plain"][0], "Random numbers need an explicit key, teh end.")
    path = write_catalog(tmp_path, po_text(entries))
    result = check(path)
    assert re.search(rf"{re.escape(str(path))}:\d+: spelling: teh ==> the", result.stdout)


def test_catalog_not_wrapped_at_the_project_width(tmp_path):
    path = write_catalog(tmp_path, po_text(ENTRIES))
    subprocess.run(["msgcat", "--no-wrap", f"--output-file={path}", str(path)], check=True)
    result = check(path)
    assert re.search(rf"{re.escape(str(path))}:\d+: not wrapped at 79 columns", result.stdout)


def crlf(data: bytes) -> bytes:
    return data.replace(b"\n", b"\r\n")


def bom(data: bytes) -> bytes:
    return b"\xef\xbb\xbf" + data


def latin1(data: bytes) -> bytes:
    text = data.decode("utf-8").replace("Random numbers", "Random numbers ¿")
    return text.encode("latin-1", errors="replace")


def gbk(data: bytes) -> bytes:
    return data.decode("utf-8").encode("gbk", errors="replace")


def duplicate(data: bytes) -> bytes:
    text = data.decode("utf-8")
    entry = text[text.index("#: ../../docs/plain.rst") :].split("\n\n")[0]
    return (text + "\n" + entry + "\n").encode("utf-8")


def cut_off(data: bytes) -> bytes:
    text = data.decode("utf-8")
    return text[: text.index("Random numbers need") + 10].encode("utf-8")


def cut_after_msgid(data: bytes) -> bytes:
    text = data.decode("utf-8")
    end = text.index("\n", text.index('msgid "随机数'))
    return text[: end + 1].encode("utf-8")


EDITOR_FAULTS = {
    "CRLF line endings": (crlf, r"Windows \(CRLF\) line endings; 'make wrap-po' converts"),
    "byte-order mark": (bom, "the file starts with a UTF-8 byte-order mark"),
    "Latin-1 claiming UTF-8": (latin1, r"byte 0x.. at column \d+ is not UTF-8"),
    "GBK claiming UTF-8": (gbk, r"byte 0x.. at column \d+ is not UTF-8"),
    "duplicate msgid": (duplicate, r"msgfmt: duplicate message definition \(first defined"),
    "cut off in a string": (cut_off, "the last line has no newline: the file looks cut off"),
    "cut off after a msgid": (cut_after_msgid, "msgfmt: "),
}


def two_catalogs(tmp_path: Path, fault) -> tuple[Path, Path, dict[Path, bytes]]:
    """A good catalog and a broken one, side by side; the bytes of both before anything ran."""
    good = write_catalog(tmp_path, po_text(ENTRIES))
    broken = good.with_name("broken.po")
    broken.write_bytes(fault(good.read_bytes()))
    return good, broken, {path: path.read_bytes() for path in (good, broken)}


@pytest.mark.parametrize("case", list(EDITOR_FAULTS), ids=list(EDITOR_FAULTS))
def test_a_catalog_an_editor_broke_is_one_finding(tmp_path, case):
    fault, message = EDITOR_FAULTS[case]
    _, broken, before = two_catalogs(tmp_path, fault)
    result = check(broken)
    assert result.returncode == 1
    findings = result.stdout.splitlines()
    assert len(findings) == 1, result.stdout
    assert re.match(rf"{re.escape(str(broken))}:\d+: {message}", findings[0]), findings[0]
    assert {path: path.read_bytes() for path in before} == before


def po_command(action: str, *args: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jaxbook", "po", action, *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("case", list(EDITOR_FAULTS), ids=list(EDITOR_FAULTS))
def test_update_po_refuses_to_merge_into_a_broken_catalog(tmp_path, case):
    fault, message = EDITOR_FAULTS[case]
    good, broken, before = two_catalogs(tmp_path / "locale", fault)
    templates = tmp_path / "gettext"
    templates.mkdir()
    # Templates with one more paragraph, so that a merge would rewrite both catalogs.
    for name in ("page", "broken"):
        text = po_text({**ENTRIES, "new": ("新的一段。", "")})
        (templates / f"{name}.pot").write_text(text, encoding="utf-8")
    result = po_command("update", templates, good.parent)
    assert result.returncode == 1
    assert re.search(rf"^{re.escape(str(broken))}:\d+: {message}", result.stderr, re.MULTILINE)
    assert "nothing merged" in result.stderr
    assert {path: path.read_bytes() for path in before} == before


@pytest.mark.parametrize("fault", [crlf, bom], ids=["CRLF", "byte-order mark"])
def test_wrap_po_normalises_line_endings_and_byte_order_mark_and_says_so(tmp_path, fault):
    good, broken, before = two_catalogs(tmp_path, fault)
    result = po_command("wrap", good.parent)
    assert result.returncode == 0, result.stderr
    assert f"{broken}: " in result.stdout
    assert broken.read_bytes() == before[good]
    assert check(broken).returncode == 0


def test_wrap_po_leaves_a_catalog_it_cannot_read(tmp_path):
    _, broken, before = two_catalogs(tmp_path, gbk)
    result = po_command("wrap", broken.parent)
    assert result.returncode == 1
    assert f"{broken}:" in result.stderr
    assert "not re-wrapped" in result.stderr
    assert broken.read_bytes() == before[broken]


def test_british_spelling_is_caught(tmp_path):
    entries = dict(ENTRIES)
    entries["plain"] = (entries["plain"][0], "The behaviour of random numbers needs a key.")
    path = write_catalog(tmp_path, po_text(entries))
    result = check(path)
    assert re.search(
        rf"{re.escape(str(path))}:\d+: spelling: behaviour ==> behavior", result.stdout
    )


@pytest.mark.parametrize(
    ("msgid", "msgstr", "finding"),
    [
        ("在 CPU / GPU 上运行。", "Runs on CPU / GPU.", "a spaced slash in prose"),
        ("先创建密钥；", "create a key first;", "the list item ends with a semicolon"),
        ("例如密钥。", "For example, e.g. a key.", "write 'e.g.,' and 'i.e.,' with a comma"),
    ],
)
def test_house_style_in_prose(tmp_path, msgid, msgstr, finding):
    entries = dict(ENTRIES)
    entries["plain"] = (msgid, msgstr)
    path = write_catalog(tmp_path, po_text(entries))
    result = check(path)
    assert re.search(rf"{re.escape(str(path))}:\d+: {finding}", result.stdout), result.stdout


def test_a_slash_inside_code_is_not_prose(tmp_path):
    entries = dict(ENTRIES)
    entries["plain"] = ("用 ``a / b`` 相除。", "Divide with ``a / b``.")
    path = write_catalog(tmp_path, po_text(entries))
    assert "spaced slash" not in check(path).stdout
