"""The catalogs' templates, merge and width: what ``jaxbook po`` does with them.

:func:`extract` writes the pages' message templates (``.pot``) with Sphinx's gettext
builder; :func:`update` merges them into a language's catalogs with GNU gettext's
``msgmerge``; :func:`wrap_all` (``make wrap-po``) normalizes and re-wraps them. Every
catalog is written at one width, ``WIDTH`` (79, GNU gettext's default), so that editors
and merges produce the same line breaks. The command itself is :mod:`jaxbook.i18n.po`;
progress and fuzzy lists are potodo's (``make po-stats``, ``make fuzzy``).
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import polib

from jaxbook import project
from jaxbook.files import write_text_atomically
from jaxbook.i18n.pofile import (
    CHARSET,
    WIDTH,
    catalog_files,
    faults,
    gettext,
    normalise,
    nplurals,
    plural_forms,
    save_wrapped,
    tidy,
    wrap,
)


def same_but_template_date(old: str, new: str) -> bool:
    def without_date(text: str) -> list[str]:
        return [line for line in text.splitlines() if not line.startswith('"POT-Creation-Date:')]

    return without_date(old) == without_date(new)


def merge(po: Path, pot: Path) -> bool:
    """Merge ``pot`` into ``po``; write it only when more than the template's date changed,
    so that an update of an unchanged source changes no file.

    ``--previous`` keeps a changed paragraph's old translation as a fuzzy entry showing the
    previous source (``#|``); a removed paragraph's stays as an obsolete entry (``#~``)."""
    with tempfile.TemporaryDirectory() as tmp:
        merged = Path(tmp) / po.name
        gettext(
            "msgmerge",
            "--quiet",
            "--previous",
            f"--width={WIDTH}",
            f"--output-file={merged}",
            str(po),
            str(pot),
        )
        old, new = po.read_text(encoding="utf-8"), merged.read_text(encoding="utf-8")
        if same_but_template_date(old, new):
            return False
        # Whole or not at all: a merge cut short must not leave half a catalog.
        write_text_atomically(po, new)
        return True


def templates_command(
    root: Path, pot_dir: Path, *options: str, sources: str = project.BOOK_SOURCES
) -> list[str]:
    """The sphinx-build call that writes the templates of the book at ``root`` (`make gettext`),
    or, with ``sources="guides"``, of its guides (with their conf.py, which reads the
    book's)."""
    return project.sphinx_build(
        root, "gettext", pot_dir, "--fail-on-warning", "--keep-going", *options, sources=sources
    )


def extract(root: Path, pot_dir: Path, *options: str) -> int:
    """``make gettext``: Sphinx's gettext build of the book and of its guides, if it has any
    (``_build/gettext``), then their templates copied into the committed ones (``locale/pot``)
    and into ``pot_dir``."""
    built = root / "_build" / "gettext"
    guides = root / "_build" / f"gettext-{project.GUIDES}"
    for sources, outdir in [(project.BOOK_SOURCES, built), (project.GUIDES, guides)]:
        if not (root / sources).is_dir():
            continue  # a book without guides
        command = templates_command(root, outdir, *options, sources=sources)
        if status := subprocess.run(command).returncode:
            return status
    # The guides' pages' templates beside the book's (the interface's and book.pot are the same).
    for pot in guides.glob("*.pot"):
        if not (built / pot.name).exists():
            write_text_atomically(built / pot.name, pot.read_text(encoding="utf-8"))
    for target in dict.fromkeys([root / project.TEMPLATES, pot_dir]):
        if target.resolve() != built.resolve():
            sync_templates(built, target)
    return 0


def sync_templates(built: Path, pot_dir: Path) -> None:
    """Make ``pot_dir``'s templates those of ``built``: each copied where more than its date
    changed, and one that the build no longer makes (its page is gone) removed."""
    made = {
        pot.relative_to(built): pot.read_text(encoding="utf-8")
        for pot in built.rglob("*.pot")
        if ".doctrees" not in pot.relative_to(built).parts
    }
    for name, text in made.items():
        target = pot_dir / name
        if target.is_file() and same_but_template_date(target.read_text(encoding="utf-8"), text):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomically(target, text)
    for stale in sorted(pot_dir.rglob("*.pot")):
        if stale.relative_to(pot_dir) not in made:
            stale.unlink()


def refused(po_dirs: list[Path]) -> bool:
    """Whether any catalog has a fault that :mod:`jaxbook.i18n.pofile` finds (an editor's
    CRLF or byte-order mark, another encoding, a duplicate or cut-off entry); if so, they
    are named and nothing may be merged."""
    # A catalog that does not parse as gettext expects is never merged into: msgmerge
    # would rewrite it from what it understood, and the rest would be lost.
    broken = [finding for po_dir in po_dirs for po in catalogs(po_dir) for finding in faults(po)]
    for finding in broken:
        print(finding, file=sys.stderr)
    if broken:
        names = ", ".join(map(str, po_dirs))
        print(
            f"{names}: nothing merged; mend the catalog(s) above first ('make check-po')",
            file=sys.stderr,
        )
    return bool(broken)


def update_all(pot_dir: Path, po_dirs: list[Path], create: bool = True) -> int:
    """Merge the templates into each catalog directory, or into none while one has a fault;
    without ``create``, into the catalogs that exist only."""
    if refused(po_dirs):
        return 1
    statuses = [
        update(pot_dir, po_dir, project.catalog_language(po_dir), create) for po_dir in po_dirs
    ]
    return max(statuses, default=0)


def update_translations(root: Path, pot_dir: Path, *options: str, quiet: bool = False) -> int:
    """``make update-po``: extract the templates, merge them into every translation's catalogs
    (for the tools that change the pages, such as ``jaxbook-lab record``)."""
    quiet_options = ("-q",) if quiet else ()
    if extract(root, pot_dir, *quiet_options, *options):
        print(f"{root / 'docs'}: the gettext build failed; no catalog merged", file=sys.stderr)
        return 1
    po_dirs = [project.catalog_dir(root, language) for language in project.languages(root)]
    with contextlib.redirect_stdout(io.StringIO()) if quiet else contextlib.nullcontext():
        return update_all(pot_dir, po_dirs)


def is_interface_template(name: Path) -> bool:
    """Whether a template (named from its directory) is the interface's: sphinx.pot, jaxbook.pot,
    and a package catalog's (jaxbook_lab.pot)."""
    return name.parent == Path() and name.stem in project.interface_domains()


def target_catalog(po_dir: Path, name: Path, language: str) -> Path | None:
    """The catalog of ``language`` that the template ``name`` is merged into, or None where
    the language needs none: the source has no page catalogs, and the interface's own
    language (English) no interface catalogs. An interface catalog a package holds for
    the language (its Chinese labels) is merged where it is; a package's own directory
    takes only the catalogs it holds (the lab's, its own domain's, not the book's)."""
    if is_interface_template(name):
        if project.speaks_interface_source(language):
            return None
        if project.is_package_catalog_dir(po_dir):
            held = po_dir / name.with_suffix(".po")
            return held if held.is_file() else None
        root = project.find_root(po_dir)
        if root is not None and po_dir.resolve() == project.catalog_dir(root, language).resolve():
            return project.interface_catalog(root, language, name.stem)
        return po_dir / name.with_suffix(".po")
    if language == project.SOURCE_LANGUAGE:
        return None
    return po_dir / name.with_suffix(".po")


def new_catalog(pot: Path, po: Path, language: str) -> None:
    """A catalog of ``language`` with every message of ``pot`` untranslated, each count's
    message with one ``msgstr[n]`` per plural form of the language, and the header that
    ``msgmerge`` keeps (no ``Generated-By`` of the extractor that wrote the template)."""
    # Not msginit: for English it copies every msgid into its msgstr.
    catalog = polib.pofile(str(pot))
    forms = plural_forms(language)
    count = nplurals(forms)
    for entry in catalog:
        if entry.msgid_plural:
            entry.msgstr_plural = dict.fromkeys(range(count), "")
    catalog.metadata.pop("Generated-By", None)
    catalog.header = f"{pot.stem}: {language} translation of the JAX course book."
    catalog.metadata_is_fuzzy = False
    catalog.metadata["PO-Revision-Date"] = catalog.metadata.get(
        "POT-Creation-Date", "YEAR-MO-DA HO:MI+ZONE"
    )
    catalog.metadata["Last-Translator"] = "JAX course translators"
    catalog.metadata["Language-Team"] = f"{language} translators"
    catalog.metadata["Language"] = language
    catalog.metadata["Plural-Forms"] = forms
    catalog.metadata["Content-Type"] = CHARSET
    po.parent.mkdir(parents=True, exist_ok=True)
    save_wrapped(catalog, po)


def update(pot_dir: Path, po_dir: Path, language: str, create: bool = True) -> int:
    """Merge each template into its catalog of ``language`` in ``po_dir``, creating a missing
    one, and name what became of each (merged, unchanged, created); without ``create``
    (``jaxbook po update --existing``, which ``make zh-lint-fix`` runs), a missing one is
    named, not created."""
    pots = sorted(pot_dir.rglob("*.pot"))
    if not pots:
        sys.exit(f"{pot_dir}: no .pot files; run 'make gettext' first")
    if refused([po_dir]):
        return 1
    seen = set()
    not_created = []
    for pot in pots:
        po = target_catalog(po_dir, pot.relative_to(pot_dir), language)
        if po is None:
            continue
        seen.add(po.resolve())
        shown = os.path.relpath(po) if po.is_absolute() else po
        if po.exists():
            print(f"{shown}: {'merged' if merge(po, pot) else 'unchanged'}")
        elif create:
            new_catalog(pot, po, language)
            # In the form msgmerge leaves it (its comments wrapped as msgmerge wraps them), so
            # that the next 'make update-po' finds nothing to change.
            merge(po, pot)
            print(f"{shown}: created")
        else:
            not_created.append(shown)
    if not_created:
        print(
            f"{po_dir}: {len(not_created)} catalog(s) not created, as asked (only the "
            f"catalogs that exist were merged): {', '.join(map(str, not_created))}; "
            "'make update-po' creates them"
        )
    for po in sorted(po_dir.rglob("*.po")):
        if po.resolve() not in seen:
            print(
                f"{po}: its page is gone; the catalog is kept, delete it by hand if that is right"
            )
    return 0


def catalogs(po_dir: Path) -> list[Path]:
    return catalog_files(po_dir)


def wrap_all(po_dir: Path) -> int:
    """``make wrap-po``: remove a byte-order mark, CRLF line endings and what another merge
    tool wrote, say so, and re-wrap with powrap; a catalog it cannot read is left as it is
    (exit status 1)."""
    status = 0
    for po in catalogs(po_dir):
        done = normalise(po)
        if done:
            print(f"{po}: {done}")
        broken = faults(po)
        if broken:
            # msgcat would rewrite the catalog from what it could read of it.
            for finding in broken:
                print(f"{finding} (not re-wrapped)", file=sys.stderr)
            status = 1
            continue
        done = tidy(po)
        if done:
            print(f"{po}: {done}")
        wrap(po)
    return status
