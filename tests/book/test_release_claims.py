"""What the prose says of other JAX releases is what the drift data recorded for them.

1.2 names the checked releases on which ``jnp.asarray`` may share a NumPy array's memory
on the CPU. The prose names them with a query of the drift role (``:drift:`fails ...```),
which prints the releases of the chapter's drift data, ``docs/ch01/release-drift.json``,
whose runs match it (`make release-report` writes the data, knowing the check by its
Chinese code); this test holds the query, in Chinese and English, to the copy check: every
release ran the check in both, and in no language the book lacks (one added since the
report leaves the data as it was), and the query's releases are exactly those where a run
of the check failed its assert (a query that another example's failure matched too would
name more). "May": the data keeps every result the runs of the check had, and on
0.5.0 one run shared the memory and another did not; the prose says "may" only while some
named release varies, and the data must show it. The check is a hidden block (``:hide:``):
it prints nothing, and a hidden block is not translated, so both editions run the same code.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import polib
import pytest

from jaxbook.formats import code_digest, read_drift
from jaxbook.project import languages, pinned_release
from jaxbook.sphinxext.drift_report import releases_where

ROOT = Path(__file__).resolve().parents[2]
PAGE = "docs/ch01/jax-vs-numpy.rst"
CATALOG = ROOT / "locale/en/LC_MESSAGES/ch01/jax-vs-numpy.po"
CHECK = "for n in (2, 1 << 20):"
# The book's languages (locale/languages.csv): the runs of the check are of some of them.
BOOK_LANGUAGES = set(languages(ROOT))
# The sentence that names the releases, in each language whose wording the test knows.
NAMED = {
    "zh_CN": re.compile(r"JAX :drift:`([^`]+)` 在 CPU 上的 ``jnp\.asarray`` 可能让"),
    "en": re.compile(r"``jnp\.asarray`` in JAX :drift:`([^`]+)` may make"),
}


def the_check() -> str:
    """The copy check, as the drift data names it: its code (comments left out); a hidden
    block expects no output."""
    lines = (ROOT / PAGE).read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith(CHECK))
    directive = max(i for i in range(start) if lines[i].startswith(".. testcode::"))
    assert lines[directive + 1].strip() == ":hide:", f"{PAGE}:{directive + 1}: not hidden"
    end = next(
        (i for i in range(start, len(lines)) if lines[i] and not lines[i][0].isspace()),
        len(lines),
    )
    return code_digest(textwrap.dedent("\n".join(lines[directive + 2 : end])).strip(), "")


def named_releases(language: str) -> list[str]:
    texts = [
        " ".join((e.msgid if language == "zh_CN" else e.msgstr).split())
        for e in polib.pofile(str(CATALOG))
        if "``jnp.asarray``" in e.msgid and not e.obsolete
    ]
    [found] = [match for text in texts if (match := NAMED[language].search(text))]
    return releases_where(drift(), found[1], pinned_release(ROOT))


def drift() -> dict:
    return dict(read_drift(ROOT / "docs/ch01/release-drift.json"))


def runs_of_the_check() -> dict[str, set[str]]:
    """Per release, every outcome that a run of the copy check had, in either language; each
    release ran the check as the page has it now."""
    found = {}
    for release, run in drift()["releases"].items():
        [example] = [e for e in run["examples"] if (e["file"], e["code"]) == (PAGE, the_check())]
        # Runs in every language whose sentence names releases, and in no language the book
        # lacks (a language added since the report leaves the data as it was).
        ran = {r["language"] for r in example["runs"]}
        assert set(NAMED) <= ran <= BOOK_LANGUAGES, release
        found[release] = {r["outcome"] for r in example["runs"]}
    return found


def failed_runs() -> list[str]:
    """The releases on which a run of the copy check, in either language, failed its assert."""
    return [release for release, outcomes in runs_of_the_check().items() if "assert" in outcomes]


@pytest.mark.parametrize("language", list(NAMED))
def test_the_releases_named_are_those_where_the_copy_check_failed(language):
    failed = failed_runs()
    assert failed, f"{PAGE}: no release's run failed the copy check"
    assert named_releases(language) == failed


def test_may_is_said_of_a_check_that_varies():
    """The prose says "may": some release it names must have both outcomes on record."""
    varying = [r for r, outcomes in runs_of_the_check().items() if len(outcomes) > 1]
    assert set(varying) <= set(failed_runs())
    assert varying, "no named release varies: the prose's 'may' is no longer what the data says"


# A release typed beside "since" or "removed in", in the source or in a translation; the
# role ``changed-in`` gives it from the evidence data instead. A claim that Linux CPU cannot
# check names its source, a change log, in the same passage.
TYPED = {
    "zh_CN": re.compile(r"(?<![\w.])\d+\.\d+\.\d+(?:\.\d+)?\s*(?:起|中移除)"),
    "en": re.compile(r"(?:since|removed in)\s+(?:JAX\s+)?\d+\.\d+\.\d+", re.IGNORECASE),
}


@pytest.mark.parametrize("language", list(TYPED))
def test_no_release_a_behavior_changed_in_is_typed_by_hand(language):
    typed = []
    for catalog in sorted((ROOT / "locale/en/LC_MESSAGES").glob("ch*/*.po")):
        for entry in polib.pofile(str(catalog)):
            text = " ".join((entry.msgid if language == "zh_CN" else entry.msgstr).split())
            if entry.obsolete or "changelog" in text:
                continue
            typed += [f"{catalog.name}: {m[0]}" for m in TYPED[language].finditer(text)]
    assert typed == []


# The update notes' introduction says which releases the "Changed in" column was checked on;
# no role gives the evidence file's range, so the sentence types it and this test holds it
# to the file.
CHECKED_RANGE = {
    "zh_CN": re.compile(r"在 JAX (\S+) 到 (\S+) 的各个版本上实际运行的结果"),
    "en": re.compile(r"on each release from JAX (\S+) through (\d+(?:\.\d+)+)"),
}


@pytest.mark.parametrize("language", list(CHECKED_RANGE))
def test_the_update_notes_name_the_range_the_evidence_checked(language):
    import json

    evidence = json.loads((ROOT / "docs/release-evidence.json").read_text(encoding="utf-8"))
    catalog = polib.pofile(str(ROOT / "locale/en/LC_MESSAGES/ch01/update-notes.po"))
    # The release the book runs on, the range's end, is the pinned release's fact.
    texts = [
        " ".join((e.msgid if language == "zh_CN" else e.msgstr).split()).replace(
            ":fact:`jax`", pinned_release(ROOT)
        )
        for e in catalog
        if not e.obsolete
    ]
    [found] = [match for text in texts if (match := CHECKED_RANGE[language].search(text))]
    assert [found[1], found[2]] == evidence["range"]
