"""No translation is lost, whatever merged the catalogs: compared with git HEAD."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import polib
import pytest

from jaxbook.i18n.loss import lost
from jaxbook.i18n.pofile import save_wrapped

PARAGRAPH = (
    "提示：有加速器时，``jax.devices()`` 只列出默认后端的设备。CPU 设备需用\n"
    '``jax.devices("cpu")`` 单独获取。\n'
)
CATALOG = "locale/en/LC_MESSAGES/ch01/devices.po"


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def committed(repo: Path) -> Path:
    (repo / ".gitignore").write_text("/_build/\n*.mo\n", encoding="utf-8")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "book")
    return repo


def run(repo: Path, *command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *command], cwd=repo, capture_output=True, text=True, timeout=600
    )


def templates(repo: Path) -> None:
    result = run(repo, "sphinx", "-b", "gettext", "-q", "-c", ".", "docs", "_build/gettext")
    assert result.returncode == 0, result.stderr


def sphinx_intl(repo: Path, *options: str) -> None:
    result = run(repo, "sphinx_intl", "update", "-p", "_build/gettext", "-l", "en", *options)
    assert result.returncode == 0, result.stdout + result.stderr


def changed(repo: Path) -> list[str]:
    status = subprocess.run(
        ["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True,
        text=True,
        check=True,
    )
    return [line[3:] for line in status.stdout.splitlines()]


@pytest.fixture(scope="module")
def book(tmp_path_factory, book_copier) -> Path:
    """A committed copy of the book with its templates built, to copy for each case."""
    repo = tmp_path_factory.mktemp("loss") / "book"
    repo.mkdir()
    committed(book_copier(repo))
    templates(repo)
    return repo


@pytest.fixture
def repo(book, tmp_path) -> Path:
    copy = tmp_path / "book"
    subprocess.run(["cp", "-a", str(book), str(copy)], check=True)
    return copy


def findings(repo: Path) -> list[str]:
    found, note = lost(repo / "locale/en/LC_MESSAGES")
    assert note is None
    return [str(f.__class__(f.path.relative_to(repo), f.line, f.message)) for f in found]


def delete_paragraph(repo: Path) -> None:
    page = repo / "docs/ch01/devices.rst"
    text = page.read_text(encoding="utf-8")
    assert PARAGRAPH in text
    page.write_text(text.replace(PARAGRAPH, ""), encoding="utf-8")


def head_line(repo: Path, msgid_start: str) -> int:
    at_head = subprocess.run(
        ["git", "-C", str(repo), "show", f"HEAD:{CATALOG}"], capture_output=True, text=True
    ).stdout
    return next(e.linenum for e in polib.pofile(at_head) if e.msgid.startswith(msgid_start))


def test_sphinx_intl_writes_only_into_the_checkouts_locale(repo):
    outside = set(repo.parent.iterdir())
    sphinx_intl(repo)
    assert all(path.startswith("locale/") for path in changed(repo)), changed(repo)
    # On an unchanged source it changes no file at all, and creates no interface catalog.
    assert changed(repo) == []
    assert set(repo.parent.iterdir()) == outside


def test_no_obsolete_after_a_deleted_paragraph_is_named_and_update_po_keeps_it(repo):
    delete_paragraph(repo)
    templates(repo)
    sphinx_intl(repo, "--no-obsolete")
    found = findings(repo)
    line = head_line(repo, "提示：有加速器时")
    assert any(
        f.startswith(
            f"{CATALOG}:{line}: translation lost since HEAD (this line at HEAD, "
            "translated there) of '提示：有加速器时"
        )
        and "neither live, fuzzy nor obsolete" in f
        for f in found
    ), found
    assert run(repo, "jaxbook", "po", "lost", "locale/en/LC_MESSAGES").returncode == 1

    git(repo, "checkout", "-q", "HEAD", "--", "locale")
    merged = run(repo, "jaxbook", "po", "update", "_build/gettext", "locale/en/LC_MESSAGES")
    assert merged.returncode == 0, merged.stderr
    assert findings(repo) == []
    entry = next(
        e for e in polib.pofile(str(repo / CATALOG)) if e.msgid.startswith("提示：有加速器时")
    )
    assert entry.obsolete
    assert entry.msgstr.startswith("Tip: when an accelerator")


def test_a_paragraph_that_came_back_beside_its_obsolete_twin_is_named(repo):
    delete_paragraph(repo)
    templates(repo)
    assert (
        run(repo, "jaxbook", "po", "update", "_build/gettext", "locale/en/LC_MESSAGES").returncode
        == 0
    )
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qam", "cut")
    git(repo, "checkout", "-q", "HEAD~1", "--", "docs")
    templates(repo)
    sphinx_intl(repo)
    found = findings(repo)
    assert len(found) == 1, found
    assert "the page shows this text again" in found[0]
    assert "only in an obsolete (#~) twin" in found[0]


def test_what_another_merge_tool_writes_is_named_and_wrap_po_normalises_it(repo):
    page = repo / "docs/ch01/devices.rst"
    page.write_text(page.read_text(encoding="utf-8").replace("数据放置", "数据的放置"), "utf-8")
    templates(repo)
    sphinx_intl(repo)
    checked = run(repo, "jaxbook", "po", "check", "locale/en/LC_MESSAGES")
    assert checked.returncode == 1
    assert f"{CATALOG}:" in checked.stdout
    assert "'make wrap-po'" in checked.stdout
    wrapped = run(repo, "jaxbook", "po", "wrap", "locale/en/LC_MESSAGES")
    assert "removed what another merge tool wrote" in wrapped.stdout, wrapped.stdout
    checked = run(repo, "jaxbook", "po", "check", "locale/en/LC_MESSAGES")
    # What is left is the translator's part: the changed heading is fuzzy.
    assert [line.split(": ", 1)[1] for line in checked.stdout.splitlines()] == [
        "fuzzy: review the translation against the page (the merge kept no #| lines to show "
        "what changed), then remove the flag"
    ], checked.stdout


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        ("clear", "is untranslated"),
        ("delete catalog", "neither live, fuzzy nor obsolete"),
        ("revise", None),
        ("retranslate", None),
        ("move to obsolete", None),
    ],
)
def test_each_kind_of_edit(repo, edit, expected):
    path = repo / CATALOG
    catalog = polib.pofile(str(path))
    entry = next(e for e in catalog if e.msgid == "数据放置")
    if edit == "clear":
        entry.msgstr = ""
    elif edit == "revise":
        # The translator rewrote a fuzzy entry with its new source and dropped the #| lines.
        entry.msgid, entry.msgstr = "数据的放置", "Placing data"
    elif edit == "retranslate":
        entry.msgstr = "Where data lives"
    elif edit == "move to obsolete":
        entry.obsolete = True
    if edit == "delete catalog":
        path.unlink()
    else:
        save_wrapped(catalog, path)
    found = [f for f in findings(repo) if "数据放置" in f]
    if expected is None:
        assert found == []
    else:
        assert len(found) == 1, found
        assert expected in found[0]


def test_outside_a_checkout_it_says_there_is_nothing_to_compare(tmp_path):
    po_dir = tmp_path / "locale/en/LC_MESSAGES"
    po_dir.mkdir(parents=True)
    found, note = lost(po_dir)
    assert found == []
    assert note.endswith("not in a git checkout, so no translation can be compared with HEAD")
