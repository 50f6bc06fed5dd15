"""The glossary's terms in a translation: where the source has a term, the translation
uses the language's (``pattern_<language>`` in ``locale/glossary.csv``), and an exclusive
term appears only where the source has it; a finished language with terms left empty is a
finding.

The checks of :mod:`jaxbook.i18n.check`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from jaxbook import project
from jaxbook.i18n.parity import Reading
from jaxbook.i18n.pofile import Finding


@dataclass
class Term:
    """A glossary term as the check of one language uses it: its pattern compiled."""

    source: str
    name: str
    pattern: re.Pattern[str]
    exclusive: bool
    source_pattern: re.Pattern[str]


def term_pattern(pattern: str) -> re.Pattern[str]:
    """A glossary's ``pattern_<language>`` as the check searches a translation with it:
    case aside, anywhere in the text (the translator's guide explains how to write one)."""
    return re.compile(pattern, re.IGNORECASE)


def load_glossary(path: Path, language: str) -> list[Term]:
    """The glossary's terms as ``language``'s catalogs are checked against them (none
    where the glossary has none in it: ``glossary_gaps`` says so of a finished language)."""
    terms = [
        Term(
            term.source,
            term.names[language],
            term_pattern(term.patterns[language]),
            term.exclusive,
            term.source_pattern,
        )
        for term in project.glossary(path)
        if language in term.patterns
    ]
    return sorted(terms, key=lambda t: len(t.source), reverse=True)


def glossary_gaps(path: Path, language: str) -> list[Finding]:
    """What a finished language lacks in the glossary: its columns, or, where it has them,
    its cells of each term it has not translated (its translations are checked against
    its terms, and its readers' glossary shows them)."""
    if language not in project.glossary_columns(path):
        own = project.language_glossary(path, language)
        return [
            Finding(
                path,
                1,
                f"no glossary terms for {language}: write {own} with the columns "
                f"{','.join([project.SOURCE_LANGUAGE, *project.language_columns(language)])}, "
                f"a row for each Chinese term of {path}",
            )
        ]
    findings = []
    for term in project.glossary(path):
        if language in term.names:
            continue
        cells = ", ".join(project.language_columns(language)).replace(", d", " and d")
        file, line = term.places.get(language, (path, term.line))
        if project.language_glossary(path, language).is_file() and language not in term.places:
            file, line = project.language_glossary(path, language), 1
            cells = f"add its row and fill its {cells}"
        else:
            cells = f"fill its {cells}"
        findings.append(
            Finding(file, line, f"glossary: {term.source} has no {language} term: {cells}")
        )
    return findings


def glossary_to_translate(path: Path, language: str) -> str:
    """How many of the glossary's terms a draft language has still to translate."""
    terms = project.glossary(path)
    if language not in project.glossary_columns(path):
        return f"the glossary has no columns for {language} yet ({path})"
    left = sum(language not in term.names for term in terms)
    own = project.language_glossary(path, language)
    where = f"{own}, where its translator fills them" if own.is_file() else str(path)
    return f"{left} of the glossary's {len(terms)} terms to translate ({where})"


def check_glossary(terms: list[Term], msgid: str, strs: Reading) -> list[str]:
    problems = []
    masked = msgid
    present = set()
    for term in terms:  # longest first: 向量化 must not count as 量化
        if term.source_pattern.search(masked):
            present.add(term.source)
            masked = term.source_pattern.sub("\0" * len(term.source), masked)
    translated = "".join(strs.english)
    for term in terms:
        if term.source in present and not term.pattern.search(translated):
            problems.append(f"glossary: {term.source} must be translated as {term.name!r}")
        if (
            term.exclusive
            and term.source not in present
            and term.pattern.search(translated)
            and not term.pattern.search(msgid)
        ):
            problems.append(
                f"glossary: {term.name!r} is only for {term.source}, which the source does not say"
            )
    return problems
