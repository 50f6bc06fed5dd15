"""The English house style of a translation (the JAX and Python docs' US style): in prose,
no spaced slash, "e.g.," with its comma, "…" for an ellipsis; US spelling (codespell's
British-to-American list) and, in a language with a hunspell dictionary, its spelling.

The checks of :mod:`jaxbook.i18n.check`.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import tokenize
from collections import Counter
from pathlib import Path

import polib
from babel.core import get_global

from jaxbook.chinese import HAN
from jaxbook.i18n.parity import (
    CODE_SPAN,
    HTML_TAG,
    Reading,
    Syntax,
    entry_syntax,
    is_python,
    source_page,
)
from jaxbook.i18n.pofile import (
    Finding,
    entry_line,
    is_interface,
    msgstr_line,
    readable,
    shown,
)

SPACED_SLASH = re.compile(r"(?<=[\w)]) / (?=[\w(])")


def check_style(msgid: str, msgstr: str, ids: Reading, strs: Reading) -> list[str]:
    """The English house style, in prose (code and inline markup aside)."""
    prose = "".join(strs.prose)
    problems = []
    if SPACED_SLASH.search(prose):
        problems.append(
            "a spaced slash in prose: write a list ('CPU, GPU, or TPU') or an unspaced "
            "pair ('CPU/GPU')"
        )
    if re.search(r"\b(e\.g|i\.e)\.(?!,)", prose):
        problems.append("write 'e.g.,' and 'i.e.,' with a comma")
    if "..." in prose and "..." not in "".join(ids.prose):
        problems.append("write an ellipsis as '\u2026', not '...'")
    if msgid.rstrip().endswith("；") and msgstr.rstrip().endswith(";"):
        problems.append("the list item ends with a semicolon: end it with a period")
    return problems


def codespell(paths: list[Path], words: Path) -> list[Finding]:
    """US spelling (the JAX and Python docs'): codespell's British-to-American list."""
    if not paths:
        return []
    command = [
        sys.executable,
        "-m",
        "codespell_lib",
        "--builtin",
        "clear,rare,en-GB_to_en-US",
        *(["--ignore-words", str(words)] if words.is_file() else []),
        *map(str, paths),
    ]
    result = subprocess.run(command, capture_output=True, text=True)
    findings = []
    for line in result.stdout.splitlines():
        match = re.match(r"(.+?):(\d+): (.*)", line)
        if match:
            findings.append(Finding(Path(match[1]), int(match[2]), f"spelling: {match[3]}"))
    return findings


# Where Debian's hunspell dictionaries are (hunspell-en-us, hunspell-es, ...); DICPATH first.
DICTIONARY_DIRS = ("/usr/share/hunspell", "/usr/share/myspell", "/usr/share/myspell/dicts")
# A word, without a possessive's "'s" (which a word list's entries do not take).
WORD = re.compile(r"[^\W\d_]+(?:['’](?![sS]\b)[^\W\d_]+)*")
PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|%[sdr]|\{\w*\}")


def dictionary(language: str) -> Path | None:
    """``language``'s hunspell dictionary (``es`` is ``es_ES``, as CLDR's likely subtags
    say), or None where none is installed."""
    base = language.split("_")[0]
    region = get_global("likely_subtags").get(base, base).split("_")[-1]
    names = dict.fromkeys([language, f"{base}_{region}", base])
    places = [*filter(None, os.environ.get("DICPATH", "").split(os.pathsep)), *DICTIONARY_DIRS]
    for name in names:
        for place in places:
            if Path(place, f"{name}.dic").is_file() and Path(place, f"{name}.aff").is_file():
                return Path(place, name)
    return None


def code_text(code: str) -> str:
    """What a translator writes in code: its comments and the text of its strings."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return ""
    kinds = {"COMMENT", "STRING", "FSTRING_MIDDLE"}
    text = "\n".join(t.string for t in tokens if tokenize.tok_name[t.type] in kinds)
    return re.sub(r"\\[ntr]", " ", text)  # "\njax" is a line break before "jax"


def is_literal(msgid: str) -> bool:
    """Whether a message is a literal block other than code (an output, an example of
    markup): Sphinx joins a paragraph's lines, and keeps a literal block's."""
    return "\n" in msgid.strip() and not is_python(msgid)


# A token with a name's punctuation inside (block_until_ready, jax.numpy, x=1) is no word.
NAME_LIKE = re.compile(r"\S*\w[_.=/\\@]\w\S*")
# Nor is code in backquotes (`xs`, ``jax.jit``), in prose or in a code block's comment.
BACKQUOTED = re.compile(r"(`+)[^`\n]+?\1")


def code_names(code: str) -> set[str]:
    """The names a code block uses (``xs``, ``in_axes``, its keywords): a comment or a
    string that names one of them names the code, not a word."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return set()
    return {token.string for token in tokens if token.type == tokenize.NAME}


# What markup spells that no dictionary need know: an HTML entity's name (&ndash;).
HTML_ENTITY = re.compile(r"&#?\w+;")
# A phrase in another language, marked as HTML marks one (the book's texts, MyST pages): the
# browser and screen readers read it in that language, and no dictionary spells it.
LANGUAGE_SPAN = re.compile(r'<span lang="[\w-]+">(.*?)</span>', re.DOTALL)


def is_html_message(entry: polib.POEntry) -> bool:
    """Whether a message is one of ``conf.py``'s texts (``book.po``: the footer's credit),
    which the templates insert as HTML."""
    files = [Path(file).name for file, _line in entry.occurrences]
    return bool(files) and set(files) == {"conf.py"}


def language_tags(msgstr: str) -> Counter:
    """The tags of the foreign phrases a translation marks (``LANGUAGE_SPAN``)."""
    opened = [re.match(r"<[^<>]*>", span[0]) for span in LANGUAGE_SPAN.finditer(msgstr)]
    return Counter(tag[0] for tag in opened if tag) + Counter({"</span>": len(opened)})


def spelled_words(entry: polib.POEntry, syntax: Syntax | None) -> set[str]:
    """The words of a translation that its language's dictionary must know: its prose (code,
    roles and links aside), or a code block's comments and strings (the code's own names
    aside); not the names of its placeholders, HTML tags and entities, nor a phrase marked
    as another language's, nor a word the message itself has (English the Chinese source
    quotes, or every word of an interface message, which is English); names written with
    capitals inside (NumPy, XLA) are names, not words, and so is anything in backquotes."""
    names: set[str] = set()
    msgstr = LANGUAGE_SPAN.sub(" ", entry.msgstr)
    if syntax is None:  # an interface message: plain text with code spans and placeholders
        text = CODE_SPAN.sub(" ", msgstr)
    elif is_python(entry.msgid):
        text = code_text(msgstr)
        names = code_names(msgstr)
    elif HAN.search(entry.msgid) and not is_literal(entry.msgid):
        text = "".join(syntax.read(msgstr).prose)
    else:
        return set()  # an output, an example or a name: nothing the translator wrote
    text = HTML_ENTITY.sub(" ", HTML_TAG.sub(" ", PLACEHOLDER.sub(" ", text)))
    # A word as the translator typed it, outside backquotes: a parser may join a name's
    # pieces (count_labels read as a reference to count_).
    typed = set(WORD.findall(NAME_LIKE.sub(" ", BACKQUOTED.sub(" ", msgstr))))
    quoted = {word.casefold() for word in WORD.findall(entry.msgid)}
    return {
        word
        for word in WORD.findall(NAME_LIKE.sub(" ", text))
        if word in typed
        and word not in names
        and word.casefold() not in quoted
        and len(word) > 1
        and not HAN.search(word)
        and not any(c.isupper() for c in word[1:])
    }


def hunspell(paths: list[Path], language: str, words: Path) -> tuple[list[Finding], str | None]:
    """Each word of the translations that ``language``'s hunspell dictionary and the word
    list ``words`` do not know, at its entry; or, without a dictionary, why nothing was."""
    found = dictionary(language)
    if found is None or shutil.which("hunspell") is None:
        base = language.split("_")[0]
        return [], (
            f"{language}: spelling unchecked: no hunspell dictionary for {language} is "
            f"installed (Debian/Ubuntu: 'apt-cache search hunspell-{base}' names it)"
        )
    where: dict[str, list[tuple[Path, int]]] = {}
    for path in readable(paths):
        po = polib.pofile(str(path))
        lines = path.read_text(encoding="utf-8").splitlines()
        syntax_of = None if is_interface(path) else entry_syntax(source_page(path))
        for entry in po:
            if entry.obsolete or entry.fuzzy or not entry.msgstr:
                continue
            line = msgstr_line(lines, entry_line(entry))
            for word in spelled_words(entry, syntax_of(entry) if syntax_of else None):
                where.setdefault(word, []).append((path, line))
    command = ["hunspell", "-d", str(found), "-i", "UTF-8", "-l"]
    if words.is_file():
        command += ["-p", str(words)]
    result = subprocess.run(
        command, input="\n".join(sorted(where)), capture_output=True, text=True, encoding="utf-8"
    )
    unknown = sorted(set(result.stdout.split()) & set(where))
    return [
        Finding(
            path,
            line,
            f"spelling: {word!r} is not in the {found.name} dictionary: correct it, or, if it "
            f"is right, add it to {shown(words)}",
        )
        for word in unknown
        for path, line in where[word]
    ], None
