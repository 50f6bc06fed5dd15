"""Each kind of bad translation makes the catalog check fail and names file:line."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import polib
import pytest

from jaxbook.i18n import po
from jaxbook.i18n.check import check_catalog, inconsistent_translations
from jaxbook.i18n.glossary import load_glossary, term_pattern
from jaxbook.i18n.parity import role_key
from jaxbook.i18n.pofile import plural_forms
from jaxbook.i18n.style import codespell, dictionary, hunspell
from jaxbook.project import Term, find_root, languages
from jaxbook.sphinxext.glossary import rules_for, uses

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
    "link": (
        "见 `JAX 文档 <https://jax.readthedocs.io/>`_。",
        "See the `JAX documentation <https://jax.readthedocs.io/>`_.",
    ),
    "long": (
        "这是一段很长的中文说明，用来检查换行宽度是否统一，它需要超过七十九列才会被折行。" * 2,
        "A long explanation that checks the catalogs are wrapped at one width; "
        "it has to be longer than seventy-nine columns to be wrapped at all.",
    ),
}


def po_text(
    entries: dict[str, tuple[str, str]], fuzzy: str | None = None, suffix: str = ".rst"
) -> str:
    parts = [HEADER]
    for name, (msgid, msgstr) in entries.items():
        flag = "#, fuzzy\n" if name == fuzzy else ""
        line = EVAL_RST_LINE if name == "eval-rst" else 1  # where the page's reST is
        parts.append(
            f"#: ../../docs/page{suffix}:{line}\n{flag}msgid {quote(msgid)}\n"
            f"msgstr {quote(msgstr)}\n"
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


# The small book's glossary: 密钥 and 纯函数, 向量化, and 量化, the exclusive term.
GLOSSARY = ROOT / "tests" / "roots" / "test-i18n-book" / "locale" / "glossary.csv"
TERMS = load_glossary(GLOSSARY, "en")


def check(path: Path) -> list[str]:
    """The findings of the catalog check on one English catalog, as it prints them."""
    return [str(finding) for finding in check_catalog(path, "en", TERMS)]


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
    assert check(write_catalog(tmp_path, po_text(ENTRIES))) == []


def test_malformed_catalog(tmp_path):
    path = tmp_path / "en" / "LC_MESSAGES" / "page.po"
    path.parent.mkdir(parents=True)
    path.write_text(po_text(ENTRIES) + '\nmsgid "unterminated\nmsgstr ""\n', encoding="utf-8")
    [finding] = check(path)
    assert re.match(rf"{re.escape(str(path))}:\d+: msgfmt: ", finding)


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
    assert result
    assert f"{path}:{line_of(path, msgid_start)}: {message}" in "\n".join(result), result


def test_quantization_without_its_chinese_term_is_flagged(tmp_path):
    entries = dict(ENTRIES)
    entries["plain"] = ("随机数要显式传递密钥。", "Random numbers need a quantization key.")
    path = write_catalog(tmp_path, po_text(entries))
    result = check(path)
    assert (
        f"{path}:{line_of(path, '随机数')}: glossary: 'quantization' is only for 量化"
        in "\n".join(result)
    ), result


def test_fuzzy_and_untranslated_entries_are_listed(tmp_path):
    entries = dict(ENTRIES)
    entries["plain"] = (entries["plain"][0], "")
    path = write_catalog(tmp_path, po_text(entries, fuzzy="prose"))
    result = check(path)
    assert result
    assert f"{path}:{line_of(path, '用 ``jax.jit``')}: fuzzy" in "\n".join(result), result
    assert f"{path}:{line_of(path, '随机数')}: untranslated" in "\n".join(result)


def test_wrong_headers(tmp_path):
    text = po_text(ENTRIES).replace('"Language: en\\n"\n', '"Language: fr\\n"\n')
    path = write_catalog(tmp_path, text)
    result = check(path)
    assert f"{path}:1: header Language is 'fr', expected 'en'" in "\n".join(result)


WORDS = ROOT / "locale" / "en" / "words.txt"


def spelling(path: Path) -> list[str]:
    return [str(finding) for finding in codespell([path], WORDS)]


def test_spelling(tmp_path):
    entries = dict(ENTRIES)
    entries["plain"] = (entries["plain"][0], "Random numbers need an explicit key, teh end.")
    path = write_catalog(tmp_path, po_text(entries))
    assert [f for f in spelling(path) if "teh" in f] == [
        f"{path}:{line_of(path, '随机数')}: spelling: teh ==> the"
    ]


def test_catalog_not_wrapped_at_the_project_width_is_named_at_its_line(tmp_path, po_command):
    path = write_catalog(tmp_path, po_text(ENTRIES))
    wrapped = path.read_text(encoding="utf-8")
    subprocess.run(["msgcat", "--no-wrap", f"--output-file={path}", str(path)], check=True)
    lines = path.read_text(encoding="utf-8").splitlines()
    first = next(n for n, line in enumerate(lines, 1) if len(line) > 79)
    assert check(path) == [
        f"{path}:{first}: not wrapped at 79 columns (powrap --check); run 'make wrap-po'"
    ]
    assert po_command("wrap", path.parent).returncode == 0
    assert path.read_text(encoding="utf-8") == wrapped
    assert check(path) == []


def test_wrap_po_leaves_a_wrapped_catalog_untouched(tmp_path, po_command):
    """Not even its time: the pages shown beside its translation depend on the file, and
    each would be read again at the next build of every language."""
    path = write_catalog(tmp_path, po_text(ENTRIES))
    assert po_command("wrap", path.parent).returncode == 0
    past = path.stat().st_mtime_ns - 10**9
    os.utime(path, ns=(past, past))
    assert po_command("wrap", path.parent).returncode == 0
    assert path.stat().st_mtime_ns == past


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
    entry = text[text.rindex("#:", 0, text.index('msgid "随机数')) :].split("\n\n")[0]
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
    findings = check(broken)
    assert len(findings) == 1, findings
    assert re.match(rf"{re.escape(str(broken))}:\d+: {message}", findings[0]), findings[0]
    assert {path: path.read_bytes() for path in before} == before


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def po_command(capsys):
    """``jaxbook po ACTION ARGS...``, run in-process: its status and what it printed."""

    def run(action: str, *args: Path) -> Ran:
        parser = argparse.ArgumentParser()
        po.add_arguments(parser)
        status = po.run(parser.parse_args([action, *map(str, args)]))
        out, err = capsys.readouterr()
        return Ran(status, out, err)

    return run


@pytest.mark.parametrize("case", list(EDITOR_FAULTS), ids=list(EDITOR_FAULTS))
def test_update_po_refuses_to_merge_into_a_broken_catalog(tmp_path, case, po_command):
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
def test_wrap_po_normalises_line_endings_and_byte_order_mark_and_says_so(
    tmp_path, fault, po_command
):
    good, broken, before = two_catalogs(tmp_path, fault)
    result = po_command("wrap", good.parent)
    assert result.returncode == 0, result.stderr
    assert f"{broken}: " in result.stdout
    assert broken.read_bytes() == before[good]
    assert check(broken) == []


def test_wrap_po_leaves_a_catalog_it_cannot_read(tmp_path, po_command):
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
    assert f"{path}:{line_of(path, '随机数')}: spelling: behaviour ==> behavior" in spelling(path)


@pytest.mark.parametrize(
    ("msgid", "msgstr", "finding"),
    [
        ("在 CPU / GPU 上运行。", "Runs on CPU / GPU.", "a spaced slash in prose"),
        ("先创建密钥；", "create a key first;", "the list item ends with a semicolon"),
        ("例如密钥。", "For example, e.g. a key.", "write 'e.g.,' and 'i.e.,' with a comma"),
        ("等等……", "And so on...", "write an ellipsis as '…', not '...'"),
    ],
)
def test_house_style_in_prose(tmp_path, msgid, msgstr, finding):
    entries = dict(ENTRIES)
    entries["plain"] = (msgid, msgstr)
    path = write_catalog(tmp_path, po_text(entries))
    result = check(path)
    assert f"{path}:{line_of(path, msgid[:3])}: {finding}" in "\n".join(result), result


def test_dots_the_source_has_too_or_in_inline_code_are_no_ellipsis(tmp_path):
    entries = dict(ENTRIES)
    entries["plain"] = ("耗时：... ms", "Time: ... ms")
    entries["other"] = ("用 ``x[...]`` 索引……", "Index with ``x[...]``…")
    assert check(write_catalog(tmp_path, po_text(entries))) == []


@pytest.mark.parametrize(
    ("suffix", "code"), [(".rst", "``a / b``"), (".md", "`a / b`"), (".md", "{math}`a / b`")]
)
def test_a_slash_inside_code_is_not_prose(tmp_path, suffix, code):
    entries = dict(PAGE_ENTRIES[suffix])
    entries["plain"] = (f"用 {code} 相除。", f"Divide with {code}.")
    assert check(page_catalog(tmp_path, suffix, entries)) == []


# A MyST Markdown page and its catalog, laid out like the book. The msgids are the
# page's, as Sphinx's gettext builder writes them (a test below builds them): the
# markup kept as written, a paragraph's lines joined with a space, the content of
# {eval-rst} in reST.
MYST_PAGE = Path(__file__).parent / "myst" / "page.md"
MYST_CONF = """\
extensions = ["myst_parser", "sphinx.ext.doctest"]
myst_enable_extensions = ["colon_fence", "substitution"]
myst_substitutions = {"version": "0.12"}
root_doc = "page"
language = "zh_CN"
gettext_compact = False
gettext_additional_targets = ["literal-block"]
"""
MYST_ENTRIES = {
    "title": ("随机数与 `jax.random`", "Random numbers and `jax.random`"),
    "section": ("引言", "Introduction"),
    "prose": (
        "用 `jax.jit` 编译，见 {doc}`arrays` 和 [JAX 文档](https://jax.readthedocs.io/)。",
        "Compile with `jax.jit`; see {doc}`arrays` and the "
        "[JAX documentation](https://jax.readthedocs.io/).",
    ),
    "roles": (
        "见 {ref}`引言 <sec-intro>`，用 {term}`密钥`，测得 {measured}`trig_jnp:.2f` 倍， "
        "详见 <https://jax.dev/>。",
        "See {ref}`the introduction <sec-intro>`; with a {term}`key <密钥>` it measured "
        "{measured}`trig_jnp:.2f` times faster; more at <https://jax.dev/>.",
    ),
    "backticks": ("多个反引号：``a `b` c``。", "Several backticks: ``a `b` c``."),
    "footnote": (
        "密钥要显式传递[^key]，版本号是 {{ version }}。",
        "Keys are passed explicitly[^key]; the version is {{ version }}.",
    ),
    "footnote text": ("见 `jax.random.key`。", "See `jax.random.key`."),
    "html": (
        "按 <kbd>Ctrl</kbd>+<kbd>C</kbd> 复制。",
        "Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to copy.",
    ),
    "term": ("“向量化”不是量化。", "{zh}`向量化` is vectorization, not quantization."),
    "plain": ENTRIES["plain"],
    "item": ("先创建密钥；", "Create a key first."),
    "numbered": ("拆分密钥", "Split the key"),
    "code": ENTRIES["code"],
    "admonition": ("注意密钥", "Mind the key"),
    "admonition text": ("密钥不能重复使用。", "A key must not be reused."),
    "note": ("提示 `jax.random` 是函数式的。", "Tip: `jax.random` is functional."),
    "eval-rst": (
        "用 ``jax.grad`` 求导，见 :doc:`arrays` 和 `JAX 文档 <https://jax.readthedocs.io/>`_。",
        "Differentiate with ``jax.grad``; see :doc:`arrays` and the "
        "`JAX documentation <https://jax.readthedocs.io/>`_.",
    ),
}
PAGE_ENTRIES = {".rst": ENTRIES, ".md": MYST_ENTRIES}
# The line of the page's {eval-rst} content: its message is reST.
EVAL_RST_LINE = (
    MYST_PAGE.read_text(encoding="utf-8").splitlines().index(MYST_ENTRIES["eval-rst"][0]) + 1
)


def book(tmp_path: Path, suffix: str) -> Path:
    """A project with the one page ``docs/page<suffix>``; the directory for its catalogs."""
    (tmp_path / "conf.py").write_text(MYST_CONF, encoding="utf-8")
    (tmp_path / "docs").mkdir()
    page = MYST_PAGE.read_text(encoding="utf-8") if suffix == ".md" else "页面\n====\n"
    (tmp_path / "docs" / f"page{suffix}").write_text(page, encoding="utf-8")
    return tmp_path / "locale"


def page_catalog(tmp_path: Path, suffix: str, entries: dict[str, tuple[str, str]]) -> Path:
    return write_catalog(book(tmp_path, suffix), po_text(entries, suffix=suffix))


def test_myst_entries_are_the_messages_sphinx_takes_from_the_page(tmp_path):
    book(tmp_path, ".md")
    command = [sys.executable, "-m", "sphinx", "-b", "gettext", "-q", "-c", str(tmp_path)]
    command += [str(tmp_path / "docs"), str(tmp_path / "gettext")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    pot = polib.pofile(str(tmp_path / "gettext" / "page.pot"))
    assert sorted(entry.msgid for entry in pot) == sorted(m for m, _ in MYST_ENTRIES.values())


@pytest.mark.parametrize("suffix", list(PAGE_ENTRIES))
def test_good_page_catalog_is_clean(tmp_path, suffix):
    assert check(page_catalog(tmp_path, suffix, PAGE_ENTRIES[suffix])) == []


CHANGED_CODE = '# Create a key\nkey = jax.random.key(1)\nprint("key:", key)'
PLAIN = ENTRIES["plain"][1]
# Each fault, planted in the catalog of a reST page and of a MyST page: the entry,
# its bad translation, the finding.
PLANTED = {
    "changed code": {
        ".rst": ("code", CHANGED_CODE, "translated code differs from the source at its line 2"),
        ".md": ("code", CHANGED_CODE, "translated code differs from the source at its line 2"),
    },
    "missing code span": {
        ".rst": (
            "prose",
            "Compile with jax.jit; see :doc:`arrays`.",
            "inline code missing from the translation: 'jax.jit'",
        ),
        ".md": (
            "prose",
            "Compile with jax.jit; see {doc}`arrays` and the "
            "[JAX documentation](https://jax.readthedocs.io/).",
            "inline code missing from the translation: 'jax.jit'",
        ),
    },
    "escaped code span": {
        ".md": (
            "prose",
            "Compile with \\`jax.jit`; see {doc}`arrays` and the "
            "[JAX documentation](https://jax.readthedocs.io/).",
            "inline code missing from the translation: 'jax.jit'",
        ),
    },
    "changed multi-backtick code span": {
        ".md": (
            "backticks",
            "Several backticks: ``a `c` b``.",
            "inline code missing from the translation: 'a `b` c'",
        ),
    },
    "changed role target": {
        ".rst": (
            "prose",
            "Compile with ``jax.jit``; see :doc:`devices`.",
            "role missing from the translation: ('doc', 'arrays')",
        ),
        ".md": (
            "prose",
            "Compile with `jax.jit`; see {doc}`devices` and the "
            "[JAX documentation](https://jax.readthedocs.io/).",
            "role missing from the translation: ('doc', 'arrays')",
        ),
    },
    "changed ref target": {
        ".md": (
            "roles",
            "See {ref}`the introduction <sec-setup>`; with a {term}`key <密钥>` it measured "
            "{measured}`trig_jnp:.2f` times faster; more at <https://jax.dev/>.",
            "role missing from the translation: ('ref', 'sec-intro')",
        ),
    },
    "changed reST role in eval-rst": {
        ".md": (
            "eval-rst",
            "Differentiate with ``jax.grad``; see :doc:`devices` and the "
            "`JAX documentation <https://jax.readthedocs.io/>`_.",
            "role missing from the translation: ('doc', 'arrays')",
        ),
    },
    "changed reST link in eval-rst": {
        ".md": (
            "eval-rst",
            "Differentiate with ``jax.grad``; see :doc:`arrays` and the "
            "`JAX documentation <https://jax.example.com/>`_.",
            "link target missing from the translation: 'https://jax.readthedocs.io/'",
        ),
    },
    "changed link URL": {
        ".rst": (
            "link",
            "See the `JAX documentation <https://jax.example.com/>`_.",
            "link target missing from the translation: 'https://jax.readthedocs.io/'",
        ),
        ".md": (
            "prose",
            "Compile with `jax.jit`; see {doc}`arrays` and the "
            "[JAX documentation](https://jax.example.com/).",
            "link target missing from the translation: 'https://jax.readthedocs.io/'",
        ),
    },
    "changed autolink": {
        ".md": (
            "roles",
            "See {ref}`the introduction <sec-intro>`; with a {term}`key <密钥>` it measured "
            "{measured}`trig_jnp:.2f` times faster; more at <https://jax.example.com/>.",
            "link target missing from the translation: 'https://jax.dev/'",
        ),
    },
    "added image": {
        ".md": (
            "plain",
            f"{PLAIN} ![key](../conf.py)",
            "link target not in the source: '../conf.py'",
        ),
    },
    "missing footnote": {
        ".md": (
            "footnote",
            "Keys are passed explicitly; the version is {{ version }}.",
            "footnote reference missing from the translation: '[^key]'",
        ),
    },
    "added substitution": {
        ".md": (
            "footnote",
            "Keys are passed explicitly[^key]; the version is {{ env.config.project }}.",
            "substitution not in the source: '{{ env.config.project }}'",
        ),
    },
    "added directive": {
        ".rst": (
            "plain",
            f"{PLAIN}\n\n.. include:: ../conf.py",
            "directive not in the source: .. include::",
        ),
        ".md": (
            "plain",
            f"{PLAIN}\n\n```{{raw}} html\n<b>key</b>\n```",
            "directive not in the source: ```{raw}",
        ),
    },
    "added colon-fence directive": {
        ".md": (
            "plain",
            f"{PLAIN}\n\n:::{{include}} ../conf.py\n:::",
            "directive not in the source: :::{include}",
        ),
    },
    "added eval-rst": {
        ".md": (
            "plain",
            f"{PLAIN}\n\n```{{eval-rst}}\n.. include:: ../conf.py\n```",
            "directive not in the source: ```{eval-rst}, .. include::",
        ),
    },
    "added substitution definition": {
        ".rst": (
            "plain",
            f"{PLAIN} |x|\n\n.. |x| raw:: latex\n\n   \\input{{../conf.py}}",
            "directive not in the source: .. raw::",
        ),
    },
    "raw HTML": {
        ".rst": (
            "plain",
            "Random numbers need an <b>explicit</b> key.",
            "raw HTML not in the source: '<b>', '</b>'",
        ),
        ".md": (
            "plain",
            f"{PLAIN}<img src=x onerror=alert(1)>",
            "raw HTML not in the source: '<img src=x onerror=alert(1)>'",
        ),
    },
    "changed HTML attribute": {
        ".md": (
            "html",
            "Press <kbd onclick=alert(1)>Ctrl</kbd>+<kbd>C</kbd> to copy.",
            "raw HTML not in the source: '<kbd onclick=alert(1)>'",
        ),
    },
    "unclosed HTML block": {
        ".md": (
            "plain",
            f"{PLAIN}\n\n<div onmouseover=alert(1)",
            "raw HTML not in the source: '<div onmouseover=alert(1)'",
        ),
    },
    "HTML comment": {
        ".md": (
            "plain",
            "Random numbers need an <!-- hidden --> explicit key.",
            "raw HTML not in the source: '<!-- hidden -->'",
        ),
    },
    "script": {
        ".rst": (
            "plain",
            f"{PLAIN}<script>alert(1)</script>",
            "<script> in the translation",
        ),
        ".md": (
            "plain",
            f"{PLAIN}<script>alert(1)</script>",
            "<script> in the translation",
        ),
    },
    "front matter": {
        ".md": (
            "plain",
            f"---\nmyst:\n  html_meta:\n    robots: noindex\n---\n{PLAIN}",
            "front matter in the translation",
        ),
    },
    "glossary term missing": {
        ".rst": (
            "plain",
            "Random numbers need an explicit seed.",
            "glossary: 密钥 must be translated as 'key'",
        ),
        ".md": (
            "plain",
            "Random numbers need an explicit seed.",
            "glossary: 密钥 must be translated as 'key'",
        ),
    },
    "glossary term only in a zh mention": {
        ".rst": (
            "plain",
            "Random numbers need an explicit :zh:`key`.",
            "glossary: 密钥 must be translated as 'key'",
        ),
        ".md": (
            "plain",
            "Random numbers need an explicit {zh}`key`.",
            "glossary: 密钥 must be translated as 'key'",
        ),
    },
    "exclusive term misused": {
        ".rst": (
            "term",
            ":zh:`向量化` is quantization.",
            "glossary: 向量化 must be translated as 'vectorization'",
        ),
        ".md": (
            "term",
            "{zh}`向量化` is quantization.",
            "glossary: 向量化 must be translated as 'vectorization'",
        ),
    },
    "raw role": {
        ".rst": (
            "plain",
            "Random numbers need an explicit :raw-html:`<i>key</i>`.",
            "raw-html role in the translation",
        ),
        ".md": (
            "plain",
            "Random numbers need an explicit {raw-html}`<i>key</i>`.",
            "raw-html role in the translation",
        ),
    },
}
PLANTED_CASES = [(fault, suffix) for fault, pages in PLANTED.items() for suffix in pages]


@pytest.mark.parametrize(
    ("fault", "suffix"),
    PLANTED_CASES,
    ids=[f"{fault} ({suffix})" for fault, suffix in PLANTED_CASES],
)
def test_fault_in_a_page_catalog_is_reported_at_its_line(tmp_path, fault, suffix):
    name, msgstr, message = PLANTED[fault][suffix]
    entries = dict(PAGE_ENTRIES[suffix])
    msgid = entries[name][0]
    entries[name] = (msgid, msgstr)
    path = page_catalog(tmp_path, suffix, entries)
    result = check(path)
    assert result
    assert f"{path}:{line_of(path, msgid[:6])}: {message}" in "\n".join(result), result


@pytest.mark.parametrize(
    "name", ["title", "section", "item", "numbered", "admonition", "note", "footnote text"]
)
def test_obsolete_translation_the_myst_page_still_shows(tmp_path, name):
    entries = dict(MYST_ENTRIES)
    msgid, msgstr = entries.pop(name)
    text = (
        po_text(entries, suffix=".md") + f"\n#~ msgid {quote(msgid)}\n#~ msgstr {quote(msgstr)}\n"
    )
    path = write_catalog(book(tmp_path, ".md"), text)
    result = check(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    line = lines.index(f"#~ msgid {quote(msgid)}") + 1
    assert f"{path}:{line}: obsolete, but page.md still shows this text" in "\n".join(result), (
        result
    )


def test_each_po_action_takes_several_catalog_directories(tmp_path, po_command):
    good = write_catalog(tmp_path / "a", po_text(ENTRIES))
    entries = dict(ENTRIES)
    entries["plain"] = (entries["plain"][0], "")
    untranslated = write_catalog(tmp_path / "b", po_text(entries))
    result = po_command("check", good.parent, untranslated.parent)
    assert result.returncode == 1
    assert re.search(rf"^{re.escape(str(untranslated))}:\d+: untranslated$", result.stdout, re.M)
    assert result.stderr.count("1 catalogs,") == 2, result.stderr


def test_without_a_directory_a_po_action_takes_every_language():
    # The source's too: its directory holds its catalogs of the interface.
    assert po.every_language() == [
        Path("locale", language, "LC_MESSAGES") for language in languages()
    ]


def test_update_po_merges_into_no_directory_while_one_has_a_broken_catalog(tmp_path, po_command):
    _, broken, before = two_catalogs(tmp_path / "broken", crlf)
    elsewhere = write_catalog(tmp_path / "good", po_text(ENTRIES))
    before[elsewhere] = elsewhere.read_bytes()
    templates = tmp_path / "gettext"
    templates.mkdir()
    (templates / "page.pot").write_text(
        po_text({**ENTRIES, "new": ("新的一段。", "")}), encoding="utf-8"
    )
    result = po_command("update", templates, elsewhere.parent, broken.parent)
    assert result.returncode == 1
    assert "nothing merged" in result.stderr
    assert {path: path.read_bytes() for path in before} == before


def test_a_message_of_several_pages_is_translated_one_way(tmp_path):
    def catalog(name: str, heading: str) -> Path:
        path = tmp_path / name
        path.write_text(
            'msgid ""\nmsgstr ""\n"Language: en\\n"\n'
            '"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
            f'msgid "学习目标"\nmsgstr "{heading}"\n',
            encoding="utf-8",
        )
        return path

    first = catalog("a.po", "Learning objectives")
    same = catalog("b.po", "Learning objectives")
    other = catalog("c.po", "Learning goals")
    assert inconsistent_translations([first, same]) == []
    [finding] = inconsistent_translations([first, same, other])
    assert str(finding).startswith(f"{other}:7: translated otherwise in {first}:6")


def test_a_glossary_term_alone_takes_the_form_its_place_needs(tmp_path):
    """纯函数 as a table's row ("Pure functions") and as an index entry's headword ("pure
    function", the glossary's term): both hold to the glossary, which check_glossary sees
    to; a message the glossary does not have is still translated one way."""

    def catalog(name: str, messages: dict[str, str]) -> Path:
        path = tmp_path / name
        body = "".join(
            f'msgid "{msgid}"\nmsgstr "{msgstr}"\n\n' for msgid, msgstr in messages.items()
        )
        path.write_text(
            'msgid ""\nmsgstr ""\n"Language: en\\n"\n'
            '"Content-Type: text/plain; charset=UTF-8\\n"\n\n' + body,
            encoding="utf-8",
        )
        return path

    table = catalog("a.po", {"纯函数": "Pure functions", "学习目标": "Learning objectives"})
    index = catalog("b.po", {"纯函数": "pure function", "学习目标": "learning objectives"})
    assert "纯函数" in [term.source for term in TERMS]
    [finding] = inconsistent_translations([table, index], TERMS)
    assert "'Learning objectives'" in str(finding)
    # Without the glossary, 纯函数 is one more message said two ways.
    assert len(inconsistent_translations([table, index])) == 2


def test_a_course_link_keeps_its_target_and_translates_its_title():
    """``:course:`` text is the course's title in the page's language; its target is
    the path under the course's address, which a translation must keep."""
    assert role_key("course", "《JAX 入门》") == role_key("course", "Getting Started with JAX")
    assert role_key("course", "《JAX 入门》 <chapter-1>") == ("course", "chapter-1")
    assert role_key("course", "Chapter 1 <chapter-1>") != role_key("course", "Chapter 1 <ch-2>")
    assert role_key("doc", "arrays") != role_key("doc", "devices")


def test_a_link_to_the_other_edition_names_the_other_language():
    """``:edition:`` links the other language's edition: the source's names the translation's
    language, the translation's the source's; both are the one role."""
    assert role_key("edition", "英文版 <en>") == role_key("edition", "Chinese edition <zh_CN>")
    assert role_key("edition", "英文版 <en>") != role_key("doc", "英文版 <en>")


# -- Every catalog, every language (the interface's catalogs, templates, Chinese left) --

EXTENSIONS_ZH = ROOT / "src" / "jaxbook" / "sphinxext" / "locales" / "zh_CN" / "LC_MESSAGES"
THEME_ZH = ROOT / "locale" / "zh_CN" / "LC_MESSAGES" / "sphinx.po"
LAB_ZH = (
    ROOT / "packages" / "jaxbook-lab" / "src" / "jaxbook_lab" / "sphinxext" / "locales" / "zh_CN"
) / "LC_MESSAGES"


def interface_copy(tmp_path: Path, source: Path, old: str, new: str) -> tuple[Path, int]:
    """A copy of one of the book's interface catalogs with ``old`` replaced by ``new`` (once);
    the line of the change."""
    path = tmp_path / "zh_CN" / "LC_MESSAGES" / source.name
    path.parent.mkdir(parents=True)
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path, text[: text.index(old)].count("\n") + 1


def test_the_book_interface_catalogs_are_clean():
    for path in (EXTENSIONS_ZH / "jaxbook.po", THEME_ZH):
        assert check_catalog(path, "zh_CN", []) == []


def test_a_broken_placeholder_in_the_extensions_catalog_is_named_at_its_msgstr(tmp_path):
    path, line = interface_copy(
        tmp_path,
        EXTENSIONS_ZH / "jaxbook.po",
        '"%(backend)s 后端、%(device)s、JAX %(version)s"',
        '"%(backend)s 后端、%(设备)s、JAX %(version)s"',
    )
    assert [str(f) for f in check_catalog(path, "zh_CN", [])] == [
        f"{path}:{line}: msgfmt: a format specification for argument 'device' doesn't exist "
        "in 'msgstr'"
    ]


BOOK_PO = ROOT / "locale" / "en" / "LC_MESSAGES" / "book.po"
CREDIT_LINK = '<a href=\\"%(course)s\\">Getting Started with JAX</a>'


@pytest.mark.parametrize(
    ("link", "finding"),
    [
        (
            CREDIT_LINK.replace("%(course)s", "%(curso)s"),
            "placeholder '%(curso)s' not in the source: a placeholder's name is not "
            "translated; write '%(course)s' as the source does",
        ),
        (
            "Getting Started with JAX",
            "placeholder '%(course)s' missing from the translation: the build puts its value "
            "there; keep it as the source writes it",
        ),
    ],
    ids=["renamed", "lost with its link"],
)
def test_a_placeholder_of_the_book_texts_is_named_as_a_placeholder_not_as_raw_html(
    tmp_path, link, finding
):
    """book.po's credit is HTML with the course's address as ``%(course)s``: a translator
    who renames or drops it is told so, not that the link is raw HTML."""
    path = tmp_path / "en" / "LC_MESSAGES" / "book.po"
    path.parent.mkdir(parents=True)
    catalog = polib.pofile(str(BOOK_PO))
    link_of = CREDIT_LINK.replace('\\"', '"')
    [credit] = [e for e in catalog if not e.obsolete and link_of in e.msgstr]
    credit.msgstr = credit.msgstr.replace(link_of, link.replace('\\"', '"'))
    catalog.save(str(path))
    subprocess.run(["msgcat", "--width=79", f"--output-file={path}", str(path)], check=True)
    assert check_catalog(BOOK_PO, "en", []) == []
    line = line_of(path, "本书整理自")
    assert [str(f) for f in check_catalog(path, "en", [])] == [f"{path}:{line}: {finding}"]


PLURALS = {
    # The counted labels are the lab's report's (the book's extensions have none now).
    "lab's catalog": (
        LAB_ZH / "jaxbook_lab.po",
        'msgstr[0] "%d 个输出相同"\n',
        'msgstr[0] "%d 个输出相同"\nmsgstr[1] "%d 个输出相同"\n',
    ),
    "theme's catalog": (
        THEME_ZH,
        'msgstr[0] "搜索完成，找到 ${resultCount} 个匹配的页面。"\n',
        'msgstr[0] "搜索完成，找到 ${resultCount} 个匹配的页面。"\nmsgstr[1] "找到了"\n',
    ),
}


@pytest.mark.parametrize("case", list(PLURALS), ids=list(PLURALS))
def test_a_wrong_plural_count_is_one_sentence_at_its_message(tmp_path, case):
    source, old, new = PLURALS[case]
    path, line = interface_copy(tmp_path, source, old, new)
    header = path.read_text(encoding="utf-8").splitlines().index('msgstr ""') + 1
    assert [str(f) for f in check_catalog(path, "zh_CN", [])] == [
        f"{path}:{line}: msgfmt: this message has 2 plural form(s), but the header (line "
        f"{header}) says nplurals = 1: give it one msgstr[n] per form"
    ]


def test_a_wrong_plural_count_in_a_page_catalog_too(tmp_path):
    text = po_text(ENTRIES) + (
        '\nmsgid "one key"\nmsgid_plural "%d keys"\nmsgstr[0] "one key"\n'
        'msgstr[1] "%d keys"\nmsgstr[2] "%d keys"\n'
    )
    path = tmp_path / "en" / "LC_MESSAGES" / "page.po"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    line = text[: text.index("msgstr[0]")].count("\n") + 1
    assert [str(f) for f in check_catalog(path, "en", TERMS)] == [
        f"{path}:{line}: msgfmt: this message has 3 plural form(s), but the header (line 2) "
        "says nplurals = 2: give it one msgstr[n] per form"
    ]


def test_too_few_plural_forms_are_one_sentence_at_the_message_not_only_at_the_header(tmp_path):
    """Spanish has three forms (CLDR): a message with two is named where it is, as the
    guide's table words it."""
    path = catalog_in(tmp_path, "es", {"plain": ("随机数要显式传递密钥。", "Hace falta la clave.")})
    text = path.read_text(encoding="utf-8") + (
        '\n#, python-format\nmsgid "%d key"\nmsgid_plural "%d keys"\n'
        'msgstr[0] "%d clave"\nmsgstr[1] "%d claves"\n'
    )
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    line, header = lines.index('msgstr[0] "%d clave"') + 1, lines.index('msgstr ""') + 1
    assert [str(f) for f in check_catalog(path, "es", [])] == [
        f"{path}:{line}: msgfmt: this message has 2 plural form(s), but the header (line "
        f"{header}) says nplurals = 3: give it one msgstr[n] per form"
    ]


@pytest.mark.parametrize(
    ("suffix", "msgid", "msgstr", "finding"),
    [
        (
            ".md",
            "用 **粗体** 强调密钥。",
            "Stress the key with **bold*.",
            "strong emphasis (**…**): the source has 1, the translation 0; is a '*' "
            "missing or unmatched?",
        ),
        (
            ".rst",
            "用 **粗体** 强调密钥。",
            "Stress the key with **bold.",
            "the markup is broken: Inline strong start-string without end-string",
        ),
        (
            ".rst",
            "密钥用 ``jax.jit`` 编译。",
            "Compile the key with ``jax.jit.",
            "the markup is broken: Inline literal start-string without end-string",
        ),
        (
            ".md",
            "本节用到的导入：",
            "Importaciones que usa ``esta sección:",
            "the markup is broken: '``esta sección:' opens inline code that is not closed; "
            "end it with '``'",
        ),
        (
            ".md",
            "密钥用 `jax.jit` 编译。",
            "Compile the key with `jax.jit.",
            "the markup is broken: '`jax.jit.' opens inline code that is not closed; end it "
            "with '`'",
        ),
        (
            ".rst",
            "本节用到的导入：",
            "Importaciones que usa `` esta sección:",
            "the markup is broken: '`` esta sección:' opens inline code that is not closed; "
            "end it with '``'",
        ),
    ],
    ids=["MyST **bold*", "reST **bold", "reST ``code", "MyST ``code", "MyST `code", "reST `` code"],
)
def test_broken_markup_is_named_at_its_msgstr(tmp_path, suffix, msgid, msgstr, finding):
    """In one sentence, also where the parser reads the unclosed span as plain text."""
    entries = dict(PAGE_ENTRIES[suffix])
    entries["plain"] = (msgid, msgstr)
    path = page_catalog(tmp_path, suffix, entries)
    found = check(path)
    assert f"{path}:{line_of(path, msgid[:3])}: {finding}" in found
    if "`" in msgstr and "`" not in msgid:  # nothing else is wrong: one finding, one sentence
        assert len(found) == 1, found


def test_added_emphasis_is_the_translators_choice(tmp_path):
    entries = dict(MYST_ENTRIES)
    entries["plain"] = ("《JAX 入门》讲密钥。", "*Getting Started with JAX* explains keys.")
    assert check(page_catalog(tmp_path, ".md", entries)) == []


def book_with_template(tmp_path: Path, entries: dict[str, tuple[str, str]]) -> Path:
    """A book whose committed template (locale/pot/page.pot) has ``entries``' msgids."""
    catalogs = book(tmp_path, ".rst")
    template = tmp_path / "locale" / "pot" / "page.pot"
    template.parent.mkdir(parents=True)
    template.write_text(po_text({k: (m, "") for k, (m, _s) in entries.items()}), "utf-8")
    return write_catalog(catalogs, po_text(entries))


def test_a_msgid_edited_by_hand_is_named_with_the_template_line_to_copy_back(tmp_path):
    """Advice that works in a language git has never seen: the template's line to copy the
    msgid back from (git has nothing to restore, and 'make update-po' would turn the
    translation fuzzy); following it leaves nothing to report."""
    path = book_with_template(tmp_path, ENTRIES)
    assert check(path) == []
    text = path.read_text(encoding="utf-8")
    # The msgid and the msgstr both edited: each check of the msgstr would pass.
    path.write_text(
        text.replace('msgid "随机数要显式传递密钥。"', 'msgid "随机数要传递密钥。"').replace(
            "Random numbers need an explicit key.", "Random numbers need a key."
        ),
        encoding="utf-8",
    )
    line = path.read_text(encoding="utf-8").splitlines().index('msgid "随机数要传递密钥。"') + 1
    template = tmp_path / "locale" / "pot" / "page.pot"
    template_lines = template.read_text(encoding="utf-8").splitlines()
    at = template_lines.index('msgid "随机数要显式传递密钥。"') + 1
    assert check(path) == [
        f"{path}:{line}: this msgid is not in the template locale/pot/page.pot: if you edited "
        f"it, copy back the msgid at locale/pot/page.pot:{at}, keeping the msgstr (only the "
        "msgstr is the translator's); if the page changed since the last merge, run 'make "
        "update-po'"
    ]
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[line - 1] = template_lines[at - 1]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert check(path) == []


def test_a_msgid_like_none_of_the_template_is_named_and_a_missing_one_waits_for_it(tmp_path):
    path = book_with_template(tmp_path, ENTRIES)
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace('msgid "随机数要显式传递密钥。"', 'msgid "完全不同的一句话"'), encoding="utf-8"
    )
    line = path.read_text(encoding="utf-8").splitlines().index('msgid "完全不同的一句话"') + 1
    assert check(path) == [
        f"{path}:{line}: this msgid is not in the template locale/pot/page.pot, nor any like "
        "it: if you edited it, delete the entry (only the msgstr is the translator's); if "
        "the page changed since the last merge, run 'make update-po'",
        f"{path}:1: 1 message(s) of the template locale/pot/page.pot are not in the catalog: "
        "run 'make update-po', once the msgids named above are mended",
    ]


@pytest.mark.parametrize(
    ("language", "msgstr", "left"),
    [
        ("en", "Random numbers need an explicit 密钥.", "'密钥.'"),
        ("es", "Los números aleatorios necesitan una clave 显式传递.", "'显式传递.'"),
        (
            "ja",
            "乱数には随机数要显式传递が必要です。",
            "'随机数要显式传递' is copied from the source",
        ),
    ],
)
def test_chinese_left_in_a_translation_is_named_in_every_language(tmp_path, language, msgstr, left):
    path = catalog_in(tmp_path, language, {"plain": ("随机数要显式传递密钥。", msgstr)})
    found = [str(f) for f in check_catalog(path, language, [])]
    assert any(
        f.startswith(f"{path}:{line_of(path, '随机数')}: Chinese left in the translation: {left}")
        for f in found
    ), found


def test_kanji_a_japanese_translation_shares_with_the_source_is_not_chinese_left(tmp_path):
    entries = {"plain": ("随机数要显式传递密钥。", "乱数には鍵を明示的に渡します。")}
    assert check_catalog(catalog_in(tmp_path, "ja", entries), "ja", []) == []


def test_an_unescaped_quote_is_one_finding_with_no_traceback(tmp_path, po_command):
    path = write_catalog(tmp_path, po_text(ENTRIES))
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("an explicit key", 'an "explicit" key'), encoding="utf-8")
    line = text[: text.index("an explicit key")].count("\n") + 1
    result = po_command("check", path.parent)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"{path}:{line}: msgfmt: syntax error: a '\"' that is not escaped ends the string "
        'early; write it as \\" inside a string'
    ]
    assert "Traceback" not in result.stderr


SPANISH_GLOSSARY = (
    "zh_CN,en,pattern_en,es,pattern_es,exclusive,note,definition_zh_CN,definition_en,"
    "definition_es\n密钥,key,\\bkeys?\\b,clave,\\bclaves?\\b,,,随机数的密钥。,A key.,Una clave.\n"
)


def test_the_glossary_is_checked_in_every_language_it_has_columns_for(tmp_path):
    glossary = tmp_path / "glossary.csv"
    glossary.write_text(SPANISH_GLOSSARY, encoding="utf-8")
    entries = {"plain": ("随机数要显式传递密钥。", "Los números aleatorios necesitan una llave.")}
    path = catalog_in(tmp_path, "es", entries)
    found = [str(f) for f in check_catalog(path, "es", load_glossary(glossary, "es"))]
    assert (
        f"{path}:{line_of(path, '随机数')}: glossary: 密钥 must be translated as 'clave'" in found
    )
    good = path.read_text(encoding="utf-8").replace("una llave", "una clave")
    path.write_text(good, encoding="utf-8")
    assert check_catalog(path, "es", load_glossary(glossary, "es")) == []


def test_check_po_reads_a_languages_own_glossary_and_refuses_a_term_it_does_not_know(
    tmp_path, po_command
):
    glossary = tmp_path / "locale" / "glossary.csv"
    glossary.parent.mkdir()
    glossary.write_text(
        "zh_CN,en,pattern_en,exclusive,note,definition_zh_CN,definition_en\n"
        "密钥,key,\\bkeys?\\b,,,随机数的密钥。,A key.\n",
        encoding="utf-8",
    )
    own = tmp_path / "locale" / "es" / "glossary.csv"
    own.parent.mkdir()
    own.write_text(
        "zh_CN,es,pattern_es,definition_es\n密钥,clave,\\bclaves?\\b,Una clave.\n",
        encoding="utf-8",
    )
    path = spanish(tmp_path, "Los números aleatorios necesitan una llave.")
    ran = po_command("check", "--glossary", glossary, path.parent)
    assert ran.returncode == 1
    line = line_of(path, "随机数")
    found = ran.stdout.splitlines()
    assert f"{path}:{line}: glossary: 密钥 must be translated as 'clave'" in found
    # A term the shared glossary lacks is refused, at its line in the language's file.
    own.write_text(
        own.read_text(encoding="utf-8") + "钥匙,llave,\\bllaves?\\b,Una llave.\n", encoding="utf-8"
    )
    ran = po_command("check", "--glossary", glossary, path.parent)
    assert ran.returncode == 1
    assert ran.stdout.splitlines() == [f"{own}:3: '钥匙' is not a term of the shared glossary"]


def catalog_in(directory: Path, language: str, entries: dict[str, tuple[str, str]]) -> Path:
    """A page's catalog in ``language``, with its header's language and plural forms."""
    path = directory / language / "LC_MESSAGES" / "page.po"
    path.parent.mkdir(parents=True)
    text = po_text(entries).replace("Language: en", f"Language: {language}")
    text = text.replace("nplurals=2; plural=(n != 1);", plural_forms(language))
    path.write_text(text, encoding="utf-8")
    subprocess.run(["msgcat", "--width=79", f"--output-file={path}", str(path)], check=True)
    return path


def spanish(tmp_path: Path, msgstr: str) -> Path:
    return catalog_in(tmp_path / "locale", "es", {"plain": ("随机数要显式传递密钥。", msgstr)})


@pytest.mark.skipif(
    dictionary("es") is None, reason="no Spanish hunspell dictionary (preflight: hunspell-es)"
)
def test_spanish_is_spelled_with_the_spanish_dictionary_and_its_word_list(tmp_path):
    path = spanish(tmp_path, "Hace falta pasar a jax la clave: lo nesesita.")
    words = path.parents[1] / "words.txt"
    line = line_of(path, "随机数")
    found, unchecked = hunspell([path], "es", words)
    assert unchecked is None
    # "hace" is Spanish (codespell's English says "have"); "nesesita" is misspelled.
    assert [str(f) for f in found] == [
        f"{path}:{line}: spelling: 'jax' is not in the es_ES dictionary: correct it, "
        f"or, if it is right, add it to {words}",
        f"{path}:{line}: spelling: 'nesesita' is not in the es_ES dictionary: correct it, "
        f"or, if it is right, add it to {words}",
    ]
    words.write_text("jax\n", encoding="utf-8")
    assert [f.message.split("'")[1] for f in hunspell([path], "es", words)[0]] == ["nesesita"]


def test_a_language_without_a_dictionary_is_unchecked_not_checked_in_english(tmp_path):
    path = spanish(tmp_path, "Hace falta pasar la clave.")
    assert dictionary("xx") is None
    found, unchecked = hunspell([path], "xx", path.parents[1] / "words.txt")
    assert found == []
    assert unchecked == (
        "xx: spelling unchecked: no hunspell dictionary for xx is installed "
        "(Debian/Ubuntu: 'apt-cache search hunspell-xx' names it)"
    )


def test_english_spelling_is_hunspells_too(tmp_path):
    entries = dict(ENTRIES)
    entries["plain"] = (entries["plain"][0], "Random numbers need an explicit kee.")
    path = write_catalog(tmp_path, po_text(entries))
    found, unchecked = hunspell([path], "en", tmp_path / "words.txt")
    assert unchecked is None
    assert [f.message.split("'")[1] for f in found] == ["kee"]


def test_names_of_the_code_and_code_in_backquotes_are_not_spelled(tmp_path):
    """A comment that names the code's variable (xs), with backquotes or without, and code in
    backquotes in prose (MyST's `xs`, reST's ``xs``) are no words; the words around them are."""
    entries = {
        "code": (
            "# 一批样本 xs，每行一个\nxs = jnp.ones((4, 3))\nprint(xs.shape)",
            "# `xs` is a batch, one exampel per row; xs has 4\nxs = jnp.ones((4, 3))\n"
            "print(xs.shape)",
        ),
        "prose": ("数据 ``xs`` 和 ``ys`` 是一批样本。", "The data ``xs`` and `ys` are a batch."),
    }
    path = write_catalog(tmp_path, po_text(entries))
    found, unchecked = hunspell([path], "en", tmp_path / "words.txt")
    assert unchecked is None
    assert [f.message.split("'")[1] for f in found] == ["exampel"]


CODE_SOURCE = ENTRIES["code"][0]  # '# 创建密钥\nkey = jax.random.key(0)\nprint("密钥:", key)'


@pytest.mark.parametrize(
    ("msgstr", "finding"),
    [
        # A comment may take more lines than the source's, a blank line may come or go, and
        # a statement may break elsewhere inside its brackets: its tokens are the same.
        ('# Create a key,\n# then print it\nkey = jax.random.key(0)\n\nprint("key:", key)', None),
        ('# Create a key\nkey = jax.random.key(\n    0\n)\nprint("key:", key)', None),
        # A statement more, or two statements on one line, is other code.
        (
            '# Create a key\nkey = jax.random.key(0)\nkey = key\nprint("key:", key)',
            "translated code differs from the source at its line 3: expected 'print', found 'key'",
        ),
        (
            '# Create a key\nkey = jax.random.key(0); print("key:", key)',
            "translated code differs from the source at its line 2: expected '\\n', found ';'",
        ),
    ],
    ids=["comment-lines", "wrapped-in-brackets", "statement-added", "statements-joined"],
)
def test_translated_code_keeps_its_statements_and_its_comments_may_take_other_lines(
    tmp_path, msgstr, finding
):
    entries = dict(ENTRIES)
    entries["code"] = (CODE_SOURCE, msgstr)
    path = write_catalog(tmp_path, po_text(entries))
    found = [f for f in check(path) if "translated code" in f]
    assert found == ([f"{path}:{line_of(path, '# 创建密钥')}: {finding}"] if finding else [])


GUIDE = ROOT / "guides" / "translating.rst"


def guide_table(name: str) -> list[list[list[str]]]:
    """The rows of the guide's list-table ``name`` (its header aside): each cell's inline code."""
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(f"   :name: {name}\n")
    rows: list[list[str]] = []
    for line in text[start:].splitlines()[1:]:
        if line.strip() and not line.startswith("   "):
            break
        if line.startswith("   * - "):
            rows.append([line[len("   * - ") :]])
        elif line.startswith("     - "):
            rows[-1].append(line[len("     - ") :])
    return [[re.findall(r"``(.+?)``", cell) for cell in row] for row in rows[1:]]


def test_the_guides_pattern_examples_match_as_the_check_matches():
    """Each pattern the translator's guide shows finds a use of its term in what it says
    counts, and none in what it says does not, as check-po searches a translation."""
    rows = guide_table("pattern-examples")
    assert len(rows) == 8
    for [pattern], counted, others in rows:
        compiled = term_pattern(pattern)
        for text in counted:
            assert compiled.search(text), (pattern, text)
        for text in others:
            assert not compiled.search(text), (pattern, text)


def test_the_guides_word_start_rule_is_the_links():
    """ "vectori[sz] also links vectorized": the readers' glossary links a use from a word's
    start to the word's end in a language with spaces, and as written in Japanese."""
    term = Term(
        names={"zh_CN": "向量化", "en": "vectorization", "ja": "ベクトル化"},
        patterns={"en": "vectori[sz]", "ja": "ベクトル化"},
        definitions={"zh_CN": ""},
        exclusive=False,
        note="",
    )

    def linked(text: str, language: str) -> list[str]:
        return [text[start:end] for start, end, _key in uses(text, rules_for([term], language))]

    assert linked("vectorized code, not devectorized", "en") == ["vectorized"]
    assert linked("ベクトル化する", "ja") == ["ベクトル化"]


def test_the_guides_list_of_catalogs_is_the_templates():
    """Each catalog a language translates (a template of locale/pot) is in the guide's list,
    once, and the list names no catalog the book does not have: a page added without its
    row fails here (chNN stands for every chapter)."""
    pot = ROOT / "locale" / "pot"
    templates = {path.relative_to(pot).with_suffix(".po").as_posix() for path in pot.rglob("*.pot")}
    names = [name for row in guide_table("catalog-list") for name in row[0]]
    covered = {
        name: {
            template
            for template in templates
            if re.fullmatch(
                re.escape(name).replace("chNN", r"ch\d\d").replace(r"\*", "[^/]+"), template
            )
        }
        for name in names
    }
    assert [name for name, found in covered.items() if not found] == []
    counted = Counter(template for found in covered.values() for template in found)
    assert sorted(templates - set(counted)) == []
    assert [template for template, count in counted.items() if count > 1] == []


def catalog_file(directory: Path, name: str, entries: list[tuple[str, str, str]]) -> Path:
    """A Spanish catalog ``name`` of (where, msgid, msgstr) entries."""
    path = directory / "es" / "LC_MESSAGES" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    header = HEADER.replace("Language: en", "Language: es").replace(
        "nplurals=2; plural=(n != 1);", plural_forms("es")
    )
    body = [
        f"#: {where}\nmsgid {quote(msgid)}\nmsgstr {quote(msgstr)}\n"
        for where, msgid, msgstr in entries
    ]
    path.write_text("\n".join([header, *body]), encoding="utf-8")
    subprocess.run(["msgcat", "--width=79", f"--output-file={path}", str(path)], check=True)
    return path


CREDIT = '本书整理自课程<a href="%(course)s">《JAX 入门》</a>。'


@pytest.mark.skipif(
    dictionary("es") is None, reason="no Spanish hunspell dictionary (preflight: hunspell-es)"
)
def test_spelling_leaves_out_what_the_translator_did_not_write_in_the_language(tmp_path):
    """Placeholders, HTML tags and entities, English the source quotes (or an interface
    message's own English), and a phrase marked as English are not Spanish to spell; a
    misspelled Spanish word beside them still is."""
    book = catalog_file(
        tmp_path,
        "book.po",
        [
            (
                "../../conf.py:37",
                CREDIT,
                'Basado en el curso <a href="%(course)s"><span lang="en">Getting Started '
                "with JAX</span></a>&nbsp;nesesario.",
            )
        ],
    )
    page = catalog_file(
        tmp_path,
        "page.po",
        [
            (
                "../../docs/page.md:1",
                "即时编译（just-in-time compilation）见 `jax.jit`。",
                "Compilación justo a tiempo (just-in-time compilation), véase `jax.jit`.",
            )
        ],
    )
    theme = catalog_file(
        tmp_path,
        "sphinx.po",
        [
            ("furo/sidebar/rtd-versions.html:24", "On Read the Docs", "En Read the Docs"),
            ("basic-ng/genindex-single.html:34", "Index &ndash; %(key)s", "Índice &ndash; %(key)s"),
        ],
    )
    found, unchecked = hunspell([book, page, theme], "es", tmp_path / "words.txt")
    assert unchecked is None
    assert [(f.path, f.message.split("'")[1]) for f in found] == [(book, "nesesario")]
    # The mark is the translator's, not raw HTML smuggled into the footer.
    assert check_catalog(book, "es", []) == []


@pytest.mark.parametrize(
    ("suffix", "allowed"), [(".md", True), (".rst", False)], ids=["MyST", "reST"]
)
def test_a_phrase_marked_as_english_is_allowed_where_html_is_rendered(tmp_path, suffix, allowed):
    """MyST renders inline HTML; reST would print the tags as text, so there they stay
    raw HTML not in the source."""
    msgstr = 'Véase el curso <span lang="en">Getting Started with JAX</span>.'
    path = catalog_file(
        tmp_path, "page.po", [(f"../../docs/page{suffix}:1", "见课程《JAX 入门》。", msgstr)]
    )
    found = [f.message for f in check_catalog(path, "es", [])]
    assert found == (
        [] if allowed else ["raw HTML not in the source: '<span lang=\"en\">', '</span>'"]
    )
