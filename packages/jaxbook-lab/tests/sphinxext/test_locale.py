"""The lab's report has a catalog of its own: every label has a Chinese text, none is unused.

(The book's catalog keeps none of them that no extension of the book uses:
tests/sphinxext/test_locale.py.)"""

from __future__ import annotations

from pathlib import Path

import polib

from jaxbook.testing.catalogs import labels_in
from jaxbook_lab.sphinxext import _locale as lab_locale

LAB_EXTENSIONS = Path(lab_locale.__file__).parent
CATALOG = lab_locale.LOCALE_DIR / "zh_CN" / "LC_MESSAGES" / f"{lab_locale.MESSAGE_CATALOG_NAME}.po"


def lab_labels() -> set[str]:
    found = labels_in(sorted(LAB_EXTENSIONS.glob("*.py")), lab_locale.__name__)
    assert len(found) > 20  # the report's modules take their labels from the lab's catalog
    return found


def catalog(path: Path) -> dict[str, str]:
    return {
        entry.msgid: entry.msgstr or "".join(entry.msgstr_plural.values())
        for entry in polib.pofile(str(path))
        if not entry.obsolete
    }


def test_every_label_of_the_report_is_translated_in_the_labs_catalog():
    translated = {msgid for msgid, msgstr in catalog(CATALOG).items() if msgstr}
    assert sorted(lab_labels() - translated) == []


def test_the_labs_catalog_keeps_no_label_that_nothing_uses():
    assert sorted(set(catalog(CATALOG)) - lab_labels() - {""}) == []
