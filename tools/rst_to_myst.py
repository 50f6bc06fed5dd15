"""Rewrite one reST page of the book as MyST Markdown, carry its translations, and prove it.

    .venv/bin/python tools/rst_to_myst.py docs/ch01/what-is-jax.rst

1. The page is rewritten as ``.md`` (``git mv``, so its history follows it):
   titles become ``#`` headings, labels ``(name)=``, the doctest and code
   directives code fences, ``list-table`` a fenced directive, update notes
   ``:::`` fences, and inline markup (````code````, ``:role:`x```, the
   escaped spaces around emphasis) its MyST form. A directive or a construct
   it does not know stops it with ``file:line`` before anything is written.
2. The book's templates are extracted before and after. The page must give the
   same number of messages, in the same order, and each new msgid must be the
   old one with only its inline markup rewritten as in the page.
3. Each catalog of the page (``locale/<lang>/LC_MESSAGES/<page>.po``) is
   rewritten for the new msgids: every translation, fuzzy flag, previous
   msgid and obsolete entry is carried, its inline markup rewritten alike;
   then ``jaxbook po update`` merges the new templates (the references move
   to the ``.md`` lines) and the counts must be those from before.
4. Both languages of the page are built before and after, and the text that
   a reader sees in the page's article must be the same.

If a proof fails, the page and every catalog are put back as they were.

It prints one line per proof and exits 1 at the first that fails.
"""

from __future__ import annotations

import difflib
import html
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import polib

from jaxbook import project
from jaxbook.i18n.catalogs import templates_command
from jaxbook.i18n.pofile import save_wrapped
from jaxbook.site.build import html_command

HEADINGS = {"#": "#", "=": "##", "-": "###", "~": "####"}
FENCED = {"testcode", "testoutput", "testsetup", "testcleanup", "measured-output", "list-table"}
PROSE = {"update-note", "note", "tip", "warning", "important"}
DIRECTIVE = re.compile(r"^\.\. ([\w-]+)::\s*(.*)$")
OPTION = re.compile(r"^   (:[\w-]+:.*)$")


def inline(text: str) -> str:
    """reST inline markup as MyST writes it."""
    text = re.sub(r"``(.+?)``", r"`\1`", text, flags=re.DOTALL)
    text = re.sub(r"(?<![\w`]):([\w:-]+):`([^`]+)`", r"{\1}`\2`", text)
    return text.replace("\\ **", "**").replace("**\\ ", "**")


def fail(message: str) -> None:
    sys.exit(message)


def body_end(lines: list[str], start: int) -> int:
    end = start
    while end < len(lines) and (not lines[end].strip() or lines[end].startswith("   ")):
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return end


def convert(path: Path) -> str:
    lines = path.read_text(encoding="utf-8").split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        below = lines[i + 1] if i + 1 < len(lines) else ""
        if re.fullmatch(r"#{3,}", line):
            out.append(f"# {inline(below)}")
            i += 3
            continue
        if line.strip() and re.fullmatch(r"([=\-~])\1{2,}", below):
            out.append(f"{HEADINGS[below[0]]} {inline(line)}")
            i += 2
            continue
        target = re.fullmatch(r"\.\. _([\w-]+):", line)
        if target:
            out.append(f"({target[1]})=")
            i += 1
            while i < len(lines) and not lines[i].strip():
                i += 1
            continue
        directive = DIRECTIVE.match(line)
        if directive:
            name, argument = directive[1], directive[2]
            j = i + 1
            options = []
            while j < len(lines) and OPTION.match(lines[j]):
                options.append(OPTION.match(lines[j])[1])
                j += 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            end = body_end(lines, j)
            body = [row[3:] for row in lines[j:end]]
            if name == "code-block":
                out += [f"```{argument}", *options, *body, "```"]
            elif name in FENCED:
                if name == "list-table":
                    body = [inline(row) for row in body]
                blank = [""] if options and name == "list-table" else []
                fence = f"```{{{name}}} {argument}".rstrip()
                out += [fence, *options, *blank, *body, "```"]
            elif name in PROSE:
                options = [inline(option) for option in options]
                body = [inline(row) for row in body]
                out += [f":::{{{name}}} {inline(argument)}".rstrip(), *options, "", *body, ":::"]
            else:
                fail(f"{path}:{i + 1}: '.. {name}::' is not converted by this tool; do it by hand")
            i = end
            continue
        if line.startswith((".. ", "   ")) or line.rstrip().endswith("::"):
            fail(f"{path}:{i + 1}: a construct this tool does not convert: {line.strip()!r}")
        out.append(inline(line))
        i += 1
    return "\n".join(out).rstrip("\n") + "\n"


def run(*command: str | Path, cwd: Path) -> None:
    result = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"{' '.join(map(str, command))}:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")


def templates(root: Path, out: Path) -> None:
    run(*templates_command(root, out, "-q"), cwd=root)


def article_text(root: Path, language: str, docname: str, out: Path) -> str:
    run(*html_command(root, language, out / language, out / "doctrees" / language, "-q"), cwd=root)
    page = (out / language / f"{docname}.html").read_text(encoding="utf-8")
    article = re.search(r"<article[^>]*>(.*?)</article>", page, re.DOTALL)
    text = re.sub(r"<[^>]+>", " ", article[1] if article else page)
    return " ".join(html.unescape(text).split())


def same_but_newline(new: str, old: str) -> str:
    """``old`` carried to ``new``: a code fence's text ends with the newline MyST keeps."""
    return old + "\n" if new.endswith("\n") and not old.endswith("\n") else old


def carry(catalog: Path, renamed: dict[str, str]) -> None:
    po = polib.pofile(str(catalog))
    for entry in po:
        new = renamed.get(entry.msgid)
        if new is None and not entry.obsolete:
            fail(f"{catalog}:{entry.linenum}: this message is not on the page's templates")
        # Text that MyST reads as the page does; code (its msgid kept as it was) keeps its text.
        markup = new is None or new.removesuffix("\n") == inline(entry.msgid)
        entry.msgid = new if new is not None else inline(entry.msgid)
        if entry.msgstr:
            msgstr = inline(entry.msgstr) if markup else entry.msgstr
            entry.msgstr = same_but_newline(entry.msgid, msgstr)
        if entry.previous_msgid:
            entry.previous_msgid = inline(entry.previous_msgid)
    save_wrapped(po, catalog)


def counts(catalog: Path) -> tuple[int, int, int]:
    """(messages, translated, fuzzy) of a catalog, obsolete entries aside."""
    po = polib.pofile(str(catalog))
    translated, fuzzy = len(po.translated_entries()), len(po.fuzzy_entries())
    return translated + fuzzy + len(po.untranslated_entries()), translated, fuzzy


def main(page: Path) -> int:
    root = project.root()
    kept = {path: path.read_bytes() for path in [page, *(root / "locale").rglob("*.po")]}
    try:
        return convert_page(root, page)
    except SystemExit:
        # Whole or not at all: the reST page and every catalog as they were.
        page.with_suffix(".md").unlink(missing_ok=True)
        subprocess.run(
            ["git", "rm", "-q", "--cached", "--ignore-unmatch", str(page.with_suffix(".md"))],
            cwd=root,
        )
        for path, data in kept.items():
            path.write_bytes(data)
        subprocess.run(["git", "add", str(page)], cwd=root)
        raise


def convert_page(root: Path, page: Path) -> int:
    docname = page.relative_to(root / "docs").with_suffix("").as_posix()
    target = page.with_suffix(".md")
    markdown = convert(page)
    languages = list(project.languages(root))
    # Each translation's catalog of the page, by the directory `jaxbook po update` merges.
    catalogs = {
        path: po_dir
        for language in project.translations(root)
        if (path := (po_dir := project.catalog_dir(root, language)) / f"{docname}.po").is_file()
    }
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        templates(root, work / "before")
        shown = {
            lang: article_text(root, lang, docname, work / "html-before") for lang in languages
        }
        before = {c: counts(c) for c in catalogs}
        run("git", "mv", page, target, cwd=root)
        target.write_text(markdown, encoding="utf-8")
        # Where `make gettext` writes them: the catalogs' references are relative to it.
        pots = root / "_build" / "gettext"
        templates(root, pots)
        old = polib.pofile(str(work / "before" / f"{docname}.pot"))
        new = polib.pofile(str(pots / f"{docname}.pot"))
        if len(old) != len(new):
            fail(f"{docname}: {len(old)} messages before, {len(new)} after")
        renamed = {}
        for was, now in zip(old, new, strict=True):
            if now.msgid.removesuffix("\n") not in (was.msgid, inline(was.msgid)) or (
                was.msgctxt != now.msgctxt
            ):
                fail(f"{target}: message changed beyond its markup: {was.msgid!r} -> {now.msgid!r}")
            renamed[was.msgid] = now.msgid
        print(f"templates: {len(new)} messages before and after, each the same but for markup")
        for catalog, po_dir in catalogs.items():
            carry(catalog, renamed)
            # msgmerge then writes the new references (the .md lines), as `make update-po` does.
            run(sys.executable, "-m", "jaxbook", "po", "update", pots, po_dir, cwd=root)
            after = counts(catalog)
            if after != before[catalog]:
                fail(f"{catalog}: (messages, translated, fuzzy) {before[catalog]} -> {after}")
            print(
                f"{catalog.relative_to(root)}: {after[0]} messages, {after[1]} translated, "
                f"{after[2]} fuzzy, as before"
            )
        for lang in languages:
            now = article_text(root, lang, docname, work / "html-after")
            if now != shown[lang]:
                diff = difflib.unified_diff(shown[lang].split("。"), now.split("。"), lineterm="")
                fail(f"{docname} [{lang}]: the page reads differently:\n" + "\n".join(diff))
            print(f"{docname} [{lang}]: the page reads the same ({len(now)} characters)")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]).resolve()))
