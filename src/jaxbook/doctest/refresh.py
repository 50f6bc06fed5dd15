"""Fill the ``testoutput`` blocks of pages with what their code really prints.

    jaxbook refresh [--language LANG]... [--check] [--record FILE] docs/ch01/arrays.rst [...]

Each expected output that failed in the build's run of its page is rewritten with what the
code printed: in the page for the source language, and in the page's catalog
(``locale/<language>/LC_MESSAGES/<page>.po``) for a translation. ``--check`` writes nothing
and fails if anything is stale; ``--record FILE`` writes a run record
(:class:`jaxbook.formats.Record`), as ``make doctest`` does. Review the diff before
committing it: this tool records behavior, it does not judge it.
"""

from __future__ import annotations

import argparse
import glob
import io
import json
import sys
from pathlib import Path

import polib
from docutils import nodes
from sphinx.application import Sphinx

from jaxbook import project
from jaxbook.doctest import environment, runner
from jaxbook.files import write_text_atomically
from jaxbook.i18n import parsers
from jaxbook.i18n.pofile import save_wrapped
from jaxbook.project import SOURCE_LANGUAGE
from pagerun.engine import Outcome, PageRun
from pagerun.pages import records


def outputs(
    app: Sphinx, docname: str
) -> tuple[list[tuple[nodes.Element, str]], list[str], PageRun, list[nodes.Element]]:
    """What the build's run of one page recorded: (testoutput node, what its code printed)
    for every output that does not match, a ``file:line: ...`` sentence for each that no
    expected output could match, the run, and the nodes its blocks came from.

    An output that still passes, ``...`` wildcards included, is left alone (but see
    ``_printed_otherwise``). Code that prints and then raises is only reported: the run
    exits non-zero and the output is left as it is.
    """
    from pagerun.pages import doctest_nodes_of

    record = records(app.env).get(docname)
    if record is None:  # a page without code
        return [], [], PageRun(), []
    result = record.run
    page_nodes = doctest_nodes_of(app.env.get_doctree(docname), app.config)
    found, cannot = [], []
    for outcome in result.outcomes:
        if outcome.output is None or (outcome.passed and not _printed_otherwise(outcome)):
            continue
        node = page_nodes[outcome.output]
        if outcome.exception is not None and outcome.got:
            # doctest compares an exception only when the expected output begins
            # with the traceback, and then it ignores what was printed before.
            cannot.append(
                f"{node.source}:{node.line}: its code printed output and then raised "
                f"{outcome.exception}; no expected output can hold both, so it was left "
                "as it is: raise before printing, or catch the exception"
            )
        else:
            found.append((node, outcome.shown))
    return found, cannot, result, page_nodes


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.rstrip().splitlines()]


def _printed_otherwise(outcome: Outcome) -> bool:
    """A passing output that is not what the code prints: NORMALIZE_WHITESPACE let a
    space at a line's start or inside it pass ("Matrix m:\\n [[1 2 3]" after the code
    stopped printing that space). Wildcards (``...``) are the author's, and stay."""
    want = outcome.want
    if want is None or outcome.exception is not None or "..." in want:
        return False
    return _lines(want) != _lines(outcome.got)


def untranslated(entry: polib.POEntry) -> bool:
    """An entry the build does not translate: no translation yet, or a fuzzy one (which
    the compiled catalog leaves out), so the page shows its source text."""
    return not entry.obsolete and (not entry.msgstr or "fuzzy" in entry.flags)


def catalog_entry(catalog: polib.POFile, shown: str) -> polib.POEntry | None:
    """The entry whose translation (or, untranslated or fuzzy, whose source) is the text
    shown."""
    hits = [e for e in catalog if not untranslated(e) and not e.obsolete and e.msgstr == shown]
    if not hits:
        hits = [e for e in catalog if untranslated(e) and e.msgid == shown]
    return hits[0] if len(hits) == 1 else None


def code_not_translated(
    path: Path, catalog: polib.POFile, result: PageRun, page_nodes: list[nodes.Element]
) -> list[str]:
    """A sentence for each code block of the run that the translation does not run yet:
    the catalog lacks it (the catalogs were not merged since the page changed: ``make
    update-po`` comes first), or has it untranslated or fuzzy. Its outputs would be the
    source's, written into the translation as if translated; a hidden block is no message
    (a comment node) and runs as it is."""
    translations = {e.msgstr for e in catalog if not untranslated(e) and not e.obsolete}
    sources = {e.msgid: e for e in catalog if not e.obsolete}
    found = []
    for block in dict.fromkeys(outcome.block for outcome in result.outcomes):
        node = page_nodes[block]
        shown = node.astext()
        if not isinstance(node, nodes.literal_block) or shown in translations:
            continue
        entry = sources.get(shown)
        if entry is None:
            found.append(
                f"{node.source}:{node.line}: this code is not in {path}; run 'make update-po' "
                "before 'make refresh-outputs', translate it, then refresh again"
            )
        elif untranslated(entry):
            state = "fuzzy" if entry.msgstr else "untranslated"
            found.append(
                f"{node.source}:{node.line}: this code is {state} in {path}:{entry.linenum}; "
                "translate it, then refresh again (its output would be the source's)"
            )
    return found


def catalog_path(root: Path, language: str, page: Path) -> Path:
    """``locale/<language>/LC_MESSAGES/<page>.po`` for ``page``, relative to ``docs/``."""
    return project.catalog_dir(root, language) / page.with_suffix(".po")


def refresh_catalog(app: Sphinx, docname: str) -> tuple[int, list[str]]:
    """Write the real outputs of the translated page into its catalog; say what could not be.

    What the translated code prints becomes the ``msgstr`` of the output block's entry
    (re-wrapped at the catalogs' width); the source page is not touched. An output entry
    left fuzzy by ``make update-po`` is the one the page shows, and is rewritten.
    """
    path = catalog_path(Path(app.confdir), app.config.language, Path(docname))
    catalog = polib.pofile(str(path))
    changed = 0
    found, cannot, result, page_nodes = outputs(app, docname)
    # Nothing is written while the translation runs any of the source's code.
    if refused := code_not_translated(path, catalog, result, page_nodes):
        return 0, cannot + refused
    for node, actual in found:
        entry = catalog_entry(catalog, node.astext())
        if entry is None:
            sys.exit(
                f"{path}: cannot tell which entry holds the output block at "
                f"{node.source}:{node.line}; fix it by hand or run 'make update-po'"
            )
        entry.msgstr = actual.rstrip("\n")
        entry.flags = [flag for flag in entry.flags if flag != "fuzzy"]
        entry.previous_msgid = None
        changed += 1
    # An output the translation prints as the source does ("[0 2 4]") is translated too,
    # as itself: an untranslated entry would be a finding of make check-po.
    for outcome in result.outcomes:
        if outcome.output is None or not outcome.passed:
            continue
        shown = page_nodes[outcome.output].astext()
        entry = next(
            (e for e in catalog if not e.obsolete and not e.msgstr and e.msgid == shown), None
        )
        if entry is not None:
            entry.msgstr = shown
            changed += 1
    if changed:
        save_wrapped(catalog, path)
    return changed, cannot


# The directives that hold an expected output (pagerun.sphinxext.measured's too).
OUTPUT_DIRECTIVES = ("testoutput", "measured-output")
# Sphinx gives an output's node its directive's line, or one a few lines below it.
OUTPUT_LINES_BEFORE = 5


def rewrite(path: Path, updates: dict[int, str]) -> None:
    """Replace the body of the output directive (reST) or fence (MyST) that each of the
    given lines starts (the line Sphinx gives its node), keeping its options."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    blocks = [
        block
        for block in parsers.located(text, markdown=path.suffix == ".md")
        if block.name in OUTPUT_DIRECTIVES
    ]
    for start in sorted(updates, reverse=True):
        block = max((b for b in blocks if b.line <= start), key=lambda b: b.line, default=None)
        if block is None or start - block.line > OUTPUT_LINES_BEFORE:
            raise ValueError(f"{path}:{start}: no expected output starts here")
        new = updates[start].rstrip("\n").split("\n")
        at = block.body - 1
        if path.suffix == ".md":
            lines[at : at + block.lines] = [line.rstrip() for line in new]
            continue
        written = lines[at] if block.lines else lines[block.line - 1] + "   "
        indent = " " * (len(written) - len(written.lstrip()))
        body = [(indent + line).rstrip() for line in new]
        # An empty reST directive's body goes after the blank line that ends its options.
        lines[at : at + block.lines] = body if block.lines else ["", *body]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pages", nargs="+", type=Path)
    parser.add_argument(
        "--language",
        action="append",
        help="the language to refresh (again for more, in order); default: the source language",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; name every expected output that is not what its code prints",
    )
    parser.add_argument(
        "--record", type=Path, help="write what every example printed to this JSON file"
    )
    parser.add_argument(
        "--builddir", type=Path, default=Path("_build"), help="whose doctrees to read into"
    )


def refresh_language(
    root: Path,
    builddir: Path,
    language: str,
    pages: list[Path],
    check: bool,
    record: dict[str, list],
) -> list[str]:
    """Refresh (or check) ``pages`` in ``language``; the sentences of what could not be done.

    The outputs are those of the build's one run of each page: the doctrees in ``builddir``
    are brought up to date as ``make doctest ONLY=...`` does, so a named page that changed
    since the last build is read, and run, again (:mod:`pagerun.sphinxext.run`).
    """
    srcdir = root / "docs"
    if language != SOURCE_LANGUAGE:
        # A page not yet translated is a step to come, not a fault: said, and left out.
        missing = [
            page
            for page in pages
            if not catalog_path(root, language, page.resolve().relative_to(srcdir)).is_file()
        ]
        for page in missing:
            print(
                f"{page}: no {language} catalog yet, left out; run 'make update-po' to "
                "create it, translate it, then refresh the outputs"
            )
        pages = [page for page in pages if page not in missing]
        if not pages:
            return []
    warning = io.StringIO()
    docnames = tuple(
        page.resolve().relative_to(srcdir).with_suffix("").as_posix() for page in pages
    )
    # The pages asked for run if they changed; the others are left to the next build.
    app, _read = runner.read(runner.Spec(root, builddir), language, warning, only=docnames)
    if warning.getvalue():
        return [f"docs: reading the {language} pages warned:\n{warning.getvalue()}"]
    cannot: list[str] = []
    printed = record.setdefault(language, [])
    for page in pages:
        docname = str(page.resolve().relative_to(srcdir).with_suffix(""))
        if docname not in app.env.found_docs:
            print(f"{page}: not a page of its own (included or excluded), skipped")
            continue
        if check:
            found, left, result, _nodes = outputs(app, docname)
            printed += result.printed
            cannot += left
            cannot += [
                f"{node.source}:{node.line}: the expected output is not what its code "
                f"prints [{language}]; it prints:\n{actual}"
                for node, actual in found
            ]
            checked = sum(outcome.output is not None for outcome in result.outcomes)
            print(f"{page} [{language}]: {checked} output(s) checked, {len(found)} stale")
        elif language != SOURCE_LANGUAGE:
            changed, left = refresh_catalog(app, docname)
            cannot += left
            print(f"{page} [{language}]: {changed} output(s) rewritten in the catalog")
        else:
            found, left, _result, _nodes = outputs(app, docname)
            cannot += left
            updates: dict[int, str] = {}
            for node, actual in found:
                assert node.line is not None, "sphinx.ext.doctest gives a testoutput its line"
                updates[node.line] = actual
            if updates:
                rewrite(page, updates)
            print(f"{page}: {len(updates)} output(s) rewritten")
    return cannot


def pages_named(paths: list[Path]) -> tuple[list[Path], list[str]]:
    """The pages a command line names, and a sentence for each path that names none.

    A path is a file or a pattern (``docs/ch02/*``, quoted or expanded by the shell;
    ``make refresh-outputs`` hands ``PAGES`` over unexpanded): a pattern stands for the pages
    (``.rst``, ``.md``) it matches; another file, such as a chapter's
    ``release-drift.json``, is no page and is said to be left out. A path that names no
    file stops the run.
    """
    pages: list[Path] = []
    problems: list[str] = []
    for path in paths:
        text = str(path)
        if any(mark in text for mark in "*?["):
            matches = sorted(Path(name) for name in glob.glob(text))
            named = [match for match in matches if match.suffix in project.SOURCE_SUFFIX]
            if not named:
                problems.append(f"{text}: no such file (no page matches it)")
            pages += named
        elif not path.is_file():
            problems.append(f"{text}: no such file")
        elif path.suffix not in project.SOURCE_SUFFIX:
            print(f"{text}: not a page, left out")
        else:
            pages.append(path)
    return list(dict.fromkeys(pages)), problems


def run(args: argparse.Namespace) -> int:
    """Refresh each language given (default: the source language) in order; outside
    ``--check`` the first that fails stops the rest. ``make refresh-outputs`` gives every
    language, the source first."""
    from sphinx.util.docutils import docutils_namespace

    root = project.root()
    builddir = args.builddir.resolve()
    args.pages, problems = pages_named(args.pages)
    if problems:
        for sentence in problems:
            print(sentence, file=sys.stderr)
        return 1
    environment.apply(root)
    record: dict[str, list] = {}
    cannot: list[str] = []
    # One language after the other: a translation's outputs follow the source's.
    for language in args.language or [SOURCE_LANGUAGE]:
        with docutils_namespace():
            cannot += refresh_language(root, builddir, language, args.pages, args.check, record)
        if cannot and not args.check:
            break
    if args.record:
        from jaxbook.formats import RECORD_FORMAT

        text = json.dumps({"format": RECORD_FORMAT, "blocks": record}, ensure_ascii=False)
        write_text_atomically(args.record, text + "\n")
    for sentence in cannot:
        print(sentence, file=sys.stderr)
    return 1 if cannot else 0
