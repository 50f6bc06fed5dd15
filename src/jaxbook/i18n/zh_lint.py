"""Chinese copy lint for the pages' source (CJK/Latin spacing, punctuation).

    jaxbook zh-lint [--fix] docs/

Prose lines (paragraphs, headings, list items, table cells, admonition and
dropdown titles) go through autocorrect (the same rules as the autocorrect CLI
for plain text) and then through this module's punctuation rule, which follows
GB/T 15834-2011 as autocorrect does not everywhere: a half-width ``, ; : ? !``
(or a sentence-ending ``.``) next to a Chinese character, across spaces and
emphasis marks, becomes full-width; ASCII parentheses become full-width ones
around content that holds Chinese, and around an aside right beside Chinese
text ("追踪器（tracer）当输入", "XLA（Accelerated Linear Algebra）编译器"); items
joined by a spaced slash are a list, joined by 、 ("CPU、GPU、TPU"). Spaces
beside full-width punctuation go.
Code, expected outputs, math, directive options, comments and targets are left
alone, and inline markup (``code``, :roles:`...`, links, substitutions, URLs)
is shielded, so code and printed strings keep their ASCII.

Code follows the same rule where it speaks Chinese: the comments and the
string literals of Python code (``testcode`` and the other doctest blocks,
``code-block:: python``, ``>>>`` lines and the ``.py`` snippet files), read by
tokenizing the code, and the comments of shell blocks and text blocks. There
only a mark that touches a Chinese character, ASCII parentheses around
Chinese, or an aside in parentheses right after a Chinese word changes, so
``f(x, y)`` and ``(3,)`` in a comment stay as they are. Expected outputs
(``testoutput``, ``measured-output``) are checked by the same rule but never
corrected here: they are what the code prints, so the fix is the code's,
followed by ``make refresh-outputs``. An output line with a space after a
full-width colon or comma ("标签： 1", what ``print("标签：", v)`` prints) is a
finding too; the code prints it without one, ``print(f"标签：{v}")``.

An ellipsis in Chinese prose is "……", two U+2026 (GB/T 15834): "..." (three
or more ASCII dots) and a lone "…" become "……". Inline code, code and outputs
keep their dots, where "..." is Python's Ellipsis or a doctest wildcard.

MyST Markdown pages (``.md``) get the same rules, read the Markdown way:
fenced directives (````` ```{testcode} `````, ``:::{note}``) and code fences
are code or prose by their name as the reST directives are, their options
are skipped, headings (``#``), list items and directive titles are prose, and
code spans, roles, link destinations and ``$math$`` are shielded. A link or a
role with Chinese text sits in the sentence without spaces, as in reST, but
with no escaped space, which Markdown does not need.

Each finding is printed as ``file:line: <what is wrong>; expected: <corrected
line>``; the exit status is 1 when there is any. ``--fix`` rewrites the lines
instead, and lengthens a section underline when the corrected title became
wider.

``--carry LOCALE_DIR`` then keeps the translations of the entries that only
such a correction changed: after ``make update-po`` such an entry is fuzzy,
and its previous msgid differs from its msgid only in the width of its
punctuation, a list's separator and spaces (they are equal once NFKC folds
the full-width marks, 、 is read as "/" and the spaces are dropped). Its
translation is still right, since the translated text never had the Chinese
marks, so the fuzzy flag goes; an untranslated entry whose obsolete twin
differs only so (msgmerge retires a short entry instead of marking it fuzzy)
takes the twin's translation. Every other fuzzy entry stays for a translator.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import textwrap
import tokenize
import unicodedata
from pathlib import Path

import autocorrect_py
import polib

from jaxbook.i18n.pofile import save_wrapped
from jaxbook.myst import FENCE, fence_body, fence_end

LITERAL_DIRECTIVES = {
    "testcode",
    "testoutput",
    "measured-output",
    "testsetup",
    "testcleanup",
    "doctest",
    "testplot",
    "code-block",
    "code",
    "sourcecode",
    "math",
    "raw",
    "snippet",
    "literalinclude",
    "highlight",
    "toctree",
    "include",
    "only",
}
DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([\w-]+)::(.*)$")
COMMENT_OR_TARGET = re.compile(r"^\s*\.\.(\s|$)")
OPTION = re.compile(r"^\s*:([\w-]+):( |$)")
# Directive options whose value is text a reader sees.
PROSE_OPTIONS = {"alt", "caption", "title"}
UNDERLINE = re.compile(r"^([=\-~^\"'`#*+.:_])\1+\s*$")
MD_INLINE = re.compile(
    r"(`+).+?\1(?!`)"  # code span
    r"|\{[\w:-]+\}`[^`]+`"  # role
    r"|(?<=\])\([^)\s]*\)"  # a link's destination (its text is prose)
    r"|<https?://[^>\s]+>|https?://[^\s)]+"  # URLs
    r"|\{\{[^}]*\}\}"  # substitution
    r"|\$[^$\n]+\$",  # math
    re.DOTALL,
)
MD_HEADING = re.compile(r"^\s*#{1,6} ")
MD_SKIPPED = re.compile(r"^\s*(?:\([\w-]+\)=\s*$|%|<!--|\$\$)")
INLINE = re.compile(
    r"``.+?``"  # inline literal (may continue on the next line of its paragraph)
    r"|:[\w:-]+:`[^`]+`"  # role
    r"|`[^`]+`__?"  # hyperlink reference
    r"|\|[^|\s][^|]*\|"  # substitution
    r"|https?://\S+",  # bare URL
    re.DOTALL,
)


HAN_RANGE = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CHINESE = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef\u201c\u201d"
# The full-width marks are escaped: ruff rightly flags look-alike characters in code.
FULL_WIDTH = dict(zip(",;:?!.", "\uff0c\uff1b\uff1a\uff1f\uff01\u3002", strict=True))
FULL_WIDTH_MARKS = "".join(FULL_WIDTH.values()) + "\u3001\uff08\uff09"  # and 、（）
# Marks that may sit between a punctuation mark and the character it belongs to.
BETWEEN = r"[ *\\]*"
HAS_CHINESE = re.compile(rf"[{CHINESE}]")
HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
HALF_WIDTH = re.compile(
    rf"(?<=[{CHINESE}])({BETWEEN})([,;:?!])(?!:)"  # after Chinese
    rf"|()(?<!:)([,;:?!])(?!:)(?={BETWEEN}[{CHINESE}])"  # before Chinese
    r"|()(?<![:\s])([,;:?!])(?=\s|$|[^\s\d:])"  # ends a clause of a Chinese line
    rf"|(?<=[{CHINESE}])()(\.)(?=\s|$)"  # a Chinese sentence ended with "."
)
CHINESE_PARENS = re.compile(rf"\( *([^()]*[{CHINESE}][^()]*?) *\)")
# An aside in parentheses right after a Chinese word: "追踪器（tracer）", not "追踪器 (tracer)".
# In prose, an aside in parentheses beside Chinese text: "追踪器（tracer）当输入".
PAREN_ASIDE = re.compile(r"( ?)\(([^()]*[A-Za-z][^()]*)\)( ?)")
BESIDE = re.compile(rf"[{HAN_RANGE}{FULL_WIDTH_MARKS}]")


def prose_aside(text: str) -> str:
    """Full-width parentheses for an aside that touches Chinese text on either side."""

    def replace(match: re.Match[str]) -> str:
        before = text[: match.start()].rstrip("\n")
        after = text[match.end() :].lstrip("\n")
        if not (BESIDE.match(before[-1:]) or BESIDE.match(after[:1])):
            return match[0]
        # A space that is indentation stays; one between words goes.
        lead = match[1] if text[: match.start()][-1:] in ("", " ", "\n") else ""
        trail = "" if BESIDE.match(after[:1]) or not after else match[3]
        return f"{lead}（{match[2]}）{trail}"

    return PAREN_ASIDE.sub(replace, text)


# Items joined by " / " in Chinese text are a list: "CPU、GPU、TPU".
SPACED_SLASH = re.compile(r"(?<=\S) ?/( |\n *)(?=\S)")
# A tuple or a range such as "(3,)" or "(0, 2π)" is code or math, and keeps its ASCII.
ASIDE = re.compile(rf"(?<=[{HAN_RANGE}]) ?\(([^()]*[A-Za-z][^()]*)\) ?")
# In code only a mark that touches a Chinese character is Chinese punctuation.
TOUCHING = re.compile(
    rf"(?<=[{CHINESE}])( *)([,;:?!])(?!:)"
    rf"|()(?<!:)([,;:?!])(?!:)(?= *[{CHINESE}])"
    rf"|(?<=[{CHINESE}])()(\.)(?=\s|$|[\"'])"
)
# "验证 1:jit 前后一致": a colon after Chinese, a space and one word ends the clause, even
# with a word after it. Code has something else before its colon ("x[1:3]", "`a:b`"), or
# no letter after it ("https://", the device "cpu:1").
CLAUSE_COLON = re.compile(rf"([{CHINESE}] [A-Za-z0-9_]+):(?=[A-Za-z])")
# "数组 x:", "实际 dtype: {x}": in Chinese text a colon that ends the text, a line or the
# literal before a field is a label's ("\ue000" stands for the field, see FIELD); one
# after an exception's name is Python's own "TypeError: ..." and stays.
LABEL_COLON = re.compile(r"(?<!Error)(?<!Warning)(?<!Exception):(?= ?(?:\\n|\ue000)| *$)")
SPACE_BEFORE = re.compile(rf"(?<=\S)(?: |\\ )+(?=[{FULL_WIDTH_MARKS}])")
SPACE_AFTER = re.compile(rf"(?<=[{FULL_WIDTH_MARKS}]) +(?=\S)")


def _full_width(match: re.Match[str]) -> str:
    groups = [g for g in match.groups()]
    for i in range(0, len(groups), 2):
        if groups[i + 1] is not None:
            return groups[i] + FULL_WIDTH[groups[i + 1]]
    raise AssertionError(match)


ELLIPSIS = re.compile("(?<!\u2026)(?:\\.{3,}|\u2026)(?!\u2026)")
# "标签： 1": print() put a space after the label's full-width mark.
OUTPUT_SPACE = re.compile("(?<=\\S)([\uff1a\uff0c]) +(?=\\S)")
# "[1 1] （注）": print() put a space between its arguments, before the parenthesis.
OUTPUT_PAREN_SPACE = re.compile("(?<=\\S) +(?=\uff08)|(?<=\uff09) +(?=\\S)")


# One rule per mark, chosen once (the author's guide lists them): “” not 「」, a full-width
# tilde for a range of numbers, 与 not "&", no ASCII mark stacked before 。, no space after
# a full-width mark (an emphasis that ends there keeps an escaped space, as reST needs).
MARKS = [
    (re.compile("「"), "“"),
    (re.compile("」"), "”"),
    (re.compile(r"(?<=\d)~(?=\d)|(?<=[A-Za-z0-9])\u2013(?=[A-Za-z0-9])"), "\uff5e"),
    (re.compile(rf"(?<=[{HAN_RANGE}]) & (?=[{HAN_RANGE}])"), "与"),
    # Before the rule on stacked marks, which would take the last dot of "...。".
    (ELLIPSIS, "\u2026\u2026"),
    (re.compile(r"(?<![.])[.:;,](?=。)"), ""),
    (re.compile(rf"(?<=[{FULL_WIDTH_MARKS}])(\*\*?) +(?=\S)"), r"\1\\ "),
]


def punctuate(text: str, markdown: bool = False) -> str:
    """Full-width punctuation in Chinese text (its inline markup already shielded)."""
    if not HAS_CHINESE.search(text):
        return text
    fixed = text
    # Markdown has no escaped space: there the emphasis rule is left out.
    for pattern, replacement in MARKS[:-1] if markdown else MARKS:
        fixed = pattern.sub(replacement, fixed)
    # Each rule can give the other something to do: "(可复现);" and "(0, 2π)" in Chinese.
    for _ in range(3):
        before = fixed
        fixed = SPACED_SLASH.sub(lambda m: "、" + m[1].lstrip(" "), fixed)
        fixed = CHINESE_PARENS.sub(r"（\1）", fixed)
        fixed = prose_aside(fixed)
        fixed = HALF_WIDTH.sub(_full_width, fixed)
        if fixed == before:
            break
    fixed = SPACE_BEFORE.sub("", fixed)
    return SPACE_AFTER.sub("", fixed)


def punctuate_code_text(text: str) -> str:
    """Full-width punctuation in the Chinese of a comment, a string or an output line."""
    if not HAS_CHINESE.search(text):
        return text
    # Quotation marks as in prose: “” not 「」; a range of numbers with a full-width tilde.
    fixed = CODE_RANGE.sub("\uff5e", text.replace("「", "“").replace("」", "”"))
    for _ in range(3):
        before = fixed
        fixed = ASIDE.sub(r"（\1）", CHINESE_PARENS.sub(r"（\1）", fixed))
        fixed = CLAUSE_COLON.sub("\\1\uff1a", TOUCHING.sub(_full_width, fixed))
        fixed = LABEL_COLON.sub("\uff1a", fixed)
        if fixed == before:
            break
    fixed = re.sub(rf"(?<=\S) +(?=[{FULL_WIDTH_MARKS}])", "", fixed)
    return re.sub(rf"(?<=[{FULL_WIDTH_MARKS}]) +", "", fixed)


# "第 1~2 列", "0..5" in the Chinese of code: a range, as Chinese writes it ("1～2").
CODE_RANGE = re.compile(r"(?<=\d)(?:~|\.\.)(?=\d)")
FIELD = "\ue000"  # stands for an f-string's field: not a space, not Chinese
STRING_PREFIX = re.compile(r"^([rRbBuUfF]*)('''|\"\"\"|'|\")")


def _fixed_token(kind: int, text: str) -> str:
    if kind == tokenize.COMMENT:
        return "#" + punctuate_code_text(text[1:])
    if kind == tokenize.STRING:
        prefix = STRING_PREFIX.match(text)
        if prefix is None or "b" in prefix[1].lower():
            return text
        quote = prefix[2]
        start, end = prefix.end(), len(text) - len(quote)
        if "f" in prefix[1].lower():
            # Before Python 3.12 an f-string is one token: leave its fields alone.
            parts = re.split(r"(\{[^{}]*\})", text[start:end])
            literal = punctuate_code_text(FIELD.join(parts[::2])).split(FIELD)
            parts[::2] = literal if len(literal) == len(parts[::2]) else parts[::2]
            body = "".join(parts)
        else:
            body = punctuate_code_text(text[start:end])
        return text[:start] + body + text[end:]
    if kind == getattr(tokenize, "FSTRING_MIDDLE", -1):
        # A field or a quote on either side: "{x} （注）" loses its space as "x （注）" does.
        fixed = punctuate_code_text(FIELD + text + FIELD)
        return fixed[1:-1] if fixed[:1] == fixed[-1:] == FIELD else text
    return text


def correct_python(source: str) -> str:
    """The source with its comments and strings corrected; as it was if it does not tokenize."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return source
    lines = source.split("\n")
    # Right to left, so that the columns of the tokens not yet replaced stay true.
    for token in reversed(tokens):
        fixed = _fixed_token(token.type, token.string)
        if fixed == token.string:
            continue
        (row, col), (end_row, end_col) = token.start, token.end
        if row != end_row:
            block = "\n".join(lines[row - 1 : end_row])
            offset = len(block) - (len(lines[end_row - 1]) - end_col)
            block = block[:col] + fixed + block[offset:]
            lines[row - 1 : end_row] = block.split("\n")
        else:
            line = lines[row - 1]
            lines[row - 1] = line[:col] + fixed + line[end_col:]
    return "\n".join(lines)


def correct_doctest(source: str) -> str:
    """A ``>>>`` block: its code as Python, the lines it prints as output."""
    out = []
    for line in source.split("\n"):
        prompt = re.match(r"^(>>> |\.\.\. |>>>$|\.\.\.$)", line)
        if prompt:
            out.append(prompt[1] + correct_python(line[prompt.end() :]))
        else:
            out.append(punctuate_code_text(line))
    return "\n".join(out)


def correct_shell(source: str) -> str:
    """A shell block: the comments, a ``#`` that starts a line or follows a space."""
    out = []
    for line in source.split("\n"):
        comment = re.search(r"(?:^|\s)#", line)
        if (
            comment
            and line[: comment.start()].count("'") % 2 == 0
            and line[: comment.start()].count('"') % 2 == 0
        ):
            at = comment.end()
            line = line[:at] + punctuate_code_text(line[at:])
        out.append(line)
    return "\n".join(out)


def correct_lines(source: str) -> str:
    return "\n".join(punctuate_code_text(line) for line in source.split("\n"))


def check_output(source: str) -> str:
    """An expected output is what its code prints: it is corrected by correcting the
    code and refreshing the output, never here. Only its marks are compared."""
    return correct_lines(source)


def folded(text: str) -> str:
    """The text with full-width marks folded to ASCII, 、 read as the slash it replaces,
    and spaces dropped."""
    for pattern, replacement in MARKS[:4]:
        text = pattern.sub(replacement, text)
    text = unicodedata.normalize("NFKC", text).replace("、", "/").replace("\\ ", "")
    # A range, however it was marked: "E1–E4", "0..5" and "1～2" are one text.
    text = re.sub(r"(?<=[A-Za-z0-9])(?:\u2013|\.\.|~)(?=[A-Za-z0-9])", "~", text)
    return "".join(text.split())


PYTHON_DIRECTIVES = {"testcode", "testsetup", "testcleanup", "testplot"}
OUTPUT_DIRECTIVES = {"testoutput", "measured-output"}
SHELL = {"bash", "sh", "shell", "console"}


def corrector(directive: str, argument: str):
    """How the body of a literal directive is corrected, if it is corrected."""
    language = argument.strip().lower()
    if directive in PYTHON_DIRECTIVES:
        return correct_python
    if directive == "doctest":
        return correct_doctest
    if directive in OUTPUT_DIRECTIVES:
        return check_output
    if directive in ("code-block", "code", "sourcecode"):
        if language in ("python", "py", "python3", "ipython", "pycon"):
            return correct_doctest if language == "pycon" else correct_python
        if language in SHELL:
            return correct_shell
        if language in ("text", "none", ""):
            return correct_lines
    return None


def md_fences(lines: list[str]):
    """(index, fence match, index of its closing line) of each fence that opens a block.

    A directive that holds prose stays open while its body is read, so that a
    bare fence line closes it rather than opening a code block."""
    open_fences: list[str] = []
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        marks, name, argument = fence[2], fence[3], fence[4]
        if open_fences and not name and not argument:
            top = open_fences[-1]
            if marks[0] == top[0] and len(marks) >= len(top):
                open_fences.pop()
                i += 1
                continue
        if marks[0] == ":" and not name:
            i += 1
            continue
        if name and name not in LITERAL_DIRECTIVES:
            open_fences.append(marks)
            yield i, fence, None
            i += 1
            continue
        end = fence_end(lines, i, marks)
        yield i, fence, end
        i = end + 1


def md_code_blocks(lines: list[str]):
    """``code_blocks`` for a MyST page: the bodies of its code fences."""
    for i, fence, end in md_fences(lines):
        name, argument = fence[3], fence[4]
        if end is None:
            continue
        fix = corrector(name, argument) if name else corrector("code-block", argument)
        start = fence_body(lines, i) if name else i + 1
        if fix is not None and end > start:
            yield start, end, fix


def md_prose_lines(lines: list[str]):
    """``prose_lines`` for a MyST page."""
    skip, prose = set(), []
    if lines and lines[0].strip() == "---":
        skip.update(range(fence_end(lines, 0, "---") + 1))  # front matter
    for i, fence, end in md_fences(lines):
        body = fence_body(lines, i) if fence[3] else i + 1
        skip.update(range(i, (end + 1) if end is not None else body))
        if end is None:
            if fence[4]:
                prose.append((i, fence.start(4)))  # a directive's title
            for j in range(i + 1, body):
                option = OPTION.match(lines[j])
                if option and option[1] in PROSE_OPTIONS and lines[j][option.end() :].strip():
                    prose.append((j, option.end()))
    for i, line in enumerate(lines):
        if i in skip or FENCE.match(line) or MD_SKIPPED.match(line) or not line.strip():
            continue  # code, options, a closing fence, a target, a comment, math
        heading = MD_HEADING.match(line)
        prose.append((i, heading.end() if heading else 0))
    yield from sorted(prose)


def code_blocks(lines: list[str]):
    """(first line, last line, corrector) of each literal body the lint corrects."""
    i = 0
    while i < len(lines):
        directive = DIRECTIVE.match(lines[i])
        literal = lines[i].rstrip().endswith("::") and not directive
        fix = corrector(directive[2], directive[3]) if directive else None
        if fix is None and literal:
            fix = correct_doctest  # a literal block after "::" (``>>>`` or plain lines)
        if fix is None:
            i += 1
            continue
        indent = len(lines[i]) - len(lines[i].lstrip())
        j = i + 1
        while j < len(lines) and OPTION.match(lines[j]) and directive:
            j += 1
        body_start = j
        while j < len(lines) and (
            not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent
        ):
            j += 1
        while j > body_start and not lines[j - 1].strip():
            j -= 1
        if j > body_start:
            yield body_start, j, fix
        i = max(j, i + 1)


def correct_block(block: list[str], fix) -> list[str]:
    body = textwrap.dedent("\n".join(block))
    margin = next((line[: len(line) - len(line.lstrip())] for line in block if line.strip()), "")
    fixed = fix(body)
    if fixed == body:
        return block
    return [margin + line if line else "" for line in fixed.split("\n")]


def output_spaces(where: str, line: str) -> list[str]:
    """The spaces ``print()`` put beside full-width marks in an expected output line."""
    found = []
    space = OUTPUT_SPACE.search(line)
    if space:
        found.append(f"a space after a full-width '{space[1]}'")
    if OUTPUT_PAREN_SPACE.search(line):
        found.append("a space beside a full-width parenthesis")
    return [
        f"{where}: {what} in an expected output; print it without one (an f-string), "
        "then run 'make refresh-outputs'"
        for what in found
    ]


def lint_code(path: Path, lines: list[str], fix: bool) -> list[str]:
    findings = []
    blocks = md_code_blocks if path.suffix == ".md" else code_blocks
    for start, end, corrector_ in blocks(lines):
        fixed = correct_block(lines[start:end], corrector_)
        output = corrector_ is check_output
        for offset, (old, new) in enumerate(zip(lines[start:end], fixed, strict=True)):
            where = f"{path}:{start + offset + 1}"
            if output:
                findings += output_spaces(where, old)
            if old == new or (
                output and folded(old) == folded(new) and problem(old, new).startswith("CJK")
            ):
                continue  # spacing in an output is whatever print() put there
            findings.append(
                f"{where}: {problem(old, new)} in an expected output; "
                "correct the code that prints it, then run 'make refresh-outputs'"
                if output
                else f"{where}: {problem(old, new)} in code; expected: {new.strip()}"
            )
        if fix and not output:
            lines[start:end] = fixed
    return findings


def lint_python_file(path: Path, fix: bool) -> list[str]:
    source = path.read_text(encoding="utf-8")
    fixed = correct_python(source)
    findings = [
        f"{path}:{n}: {problem(old, new)} in code; expected: {new.strip()}"
        for n, (old, new) in enumerate(
            zip(source.split("\n"), fixed.split("\n"), strict=True), start=1
        )
        if old != new
    ]
    if fix and findings:
        path.write_text(fixed, encoding="utf-8")
    return findings


def width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


# A link or a cross-reference whose text is Chinese sits in the sentence without spaces
# ("以\\ `官方安装说明 <…>`__\\ 为准"); reST needs the escaped space there.
HUGGED = re.compile(r"(`[^`<]*[\u4e00-\u9fff][^`<]*<[^<>`]+>`__?|:(?:doc|ref):`[^`]+`)")
BOOK_TITLE_SPACE = re.compile(rf"(?<=[{HAN_RANGE}]) (?=`?《)|(?<=》) (?=[{HAN_RANGE}])")


# In Markdown: "以[官方安装说明](https://…)为准", "见{doc}`本章更新说明 <x>`的".
MD_HUGGED = re.compile(rf"(\[[^\]]*[{HAN_RANGE}][^\]]*\]\([^)\s]*\)|\{{(?:doc|ref)\}}`[^`]+`)")


def hug_md(text: str) -> str:
    text = BOOK_TITLE_SPACE.sub("", text)
    text = re.sub(rf"(?<=[{HAN_RANGE}{FULL_WIDTH_MARKS}]) {MD_HUGGED.pattern}", r"\1", text)
    return re.sub(rf"{MD_HUGGED.pattern} (?=[{HAN_RANGE}])", r"\1", text)


def hug(text: str) -> str:
    text = BOOK_TITLE_SPACE.sub(lambda m: "\\ " if text[m.end() : m.end() + 1] == "`" else "", text)
    text = re.sub(rf"(?<=[{HAN_RANGE}{FULL_WIDTH_MARKS}]) {HUGGED.pattern}", r"\\ \1", text)
    return re.sub(rf"{HUGGED.pattern} (?=[{HAN_RANGE}])", r"\1\\ ", text)


def correct(lines: list[str], markdown: bool = False) -> list[str]:
    """Correct the lines of one paragraph (inline markup may span its lines)."""
    if HAN.search("".join(lines)):
        lines = (hug_md if markdown else hug)("\n".join(lines)).split("\n")
    shielded: list[str] = []

    def shield(match: re.Match[str]) -> str:
        shielded.extend(match[0].split("\n"))
        first = len(shielded) - match[0].count("\n") - 1
        return "\n".join(f"Q{n}Q" for n in range(first, len(shielded)))

    masked = (MD_INLINE if markdown else INLINE).sub(shield, "\n".join(lines))
    # A line of a Chinese paragraph may hold no Chinese character, and autocorrect would
    # turn its full-width punctuation back into half-width: it only sees the one line.
    spaced = "\n".join(
        autocorrect_py.format_for(line, "text.txt") if HAN.search(line) else line
        for line in masked.split("\n")
    )
    fixed = punctuate(spaced, markdown)
    fixed = re.sub(r"Q(\d+)Q", lambda m: shielded[int(m[1])], fixed)
    # autocorrect spaces a shielded link or role off the Chinese beside it.
    return (hug_md(fixed) if markdown and HAN.search(fixed) else fixed).split("\n")


def paragraphs(lines: list[str], markdown: bool = False):
    """Group the prose lines into paragraphs (a directive title with its continuation lines)."""
    group: list[tuple[int, int]] = []
    for i, start in (md_prose_lines if markdown else prose_lines)(lines):
        if group and (start or i != group[-1][0] + 1):
            yield group
            group = []
        group.append((i, start))
    if group:
        yield group


def prose_lines(lines: list[str]):
    """Yield the indexes of the lines that hold prose."""
    literal_indent: int | None = None
    for i, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        option = OPTION.match(line)
        if option and option[1] in PROSE_OPTIONS and line[option.end() :].strip():
            yield i, option.end()  # even in a code directive's options (a figure's alt text)
            continue
        if literal_indent is not None:
            if not line.strip() or indent > literal_indent:
                continue
            literal_indent = None
        directive = DIRECTIVE.match(line)
        if directive:
            if directive[2] in LITERAL_DIRECTIVES:
                literal_indent = indent
            else:
                yield i, directive.start(3)  # the argument (a title) is prose
            continue
        if COMMENT_OR_TARGET.match(line):
            literal_indent = indent
            continue
        if option or UNDERLINE.match(line) or not line.strip():
            continue
        if line.rstrip().endswith("::"):
            literal_indent = indent
        yield i, 0


def lint(path: Path, fix: bool) -> list[str]:
    if path.suffix == ".py":
        return lint_python_file(path, fix)
    lines = path.read_text(encoding="utf-8").split("\n")
    findings = lint_code(path, lines, fix)
    markdown = path.suffix == ".md"
    for group in paragraphs(lines, markdown):
        heads = [lines[i][:start] for i, start in group]
        texts = [lines[i][start:] for i, start in group]
        fixes = correct(texts, markdown)
        for (i, _), head, text, fixed in zip(group, heads, texts, fixes, strict=True):
            if fixed == text:
                continue
            findings.append(
                f"{path}:{i + 1}: {problem(text, fixed)}; expected: {(head + fixed).strip()}"
            )
            if fix:
                lines[i] = head + fixed
                for j in (i - 1, i + 1):
                    if 0 <= j < len(lines) and UNDERLINE.match(lines[j]) and lines[j].strip():
                        needed = width(lines[i].strip())
                        if width(lines[j].strip()) < needed:
                            lines[j] = lines[j].strip()[0] * needed
    if fix and findings:
        path.write_text("\n".join(lines), encoding="utf-8")
    return findings


def problem(text: str, fixed: str) -> str:
    """Name what the correction changed, for the finding's message."""
    if fixed.count("\u2026\u2026") > text.count("\u2026\u2026"):
        return "an ellipsis in Chinese text is '\u2026\u2026'"
    if fixed.count("\uff5e") > text.count("\uff5e"):
        return "a range in Chinese text is written with '\uff5e'"
    marks = sorted(ch for ch in ",;:?!.()" if text.count(ch) > fixed.count(ch))
    if marks:
        return "half-width " + " ".join(f"'{ch}'" for ch in marks) + " in Chinese text"
    if "「" in text or "」" in text:
        return "corner quotes 「」 in Chinese text"
    return "CJK/Latin spacing"


def carry(locale: Path) -> tuple[int, int]:
    """Unfuzzy the entries whose only change was this lint's correction.

    Returns (entries carried, entries still fuzzy).
    """
    carried = left = 0
    for po in sorted(locale.rglob("*.po")):
        catalog = polib.pofile(str(po))
        changed = False
        # msgmerge makes a short entry obsolete rather than fuzzy: match those too.
        retired = {folded(e.msgid): e for e in catalog if e.obsolete and e.msgstr}
        for entry in catalog:
            twin = retired.get(folded(entry.msgid))
            if not entry.obsolete and not entry.msgstr and twin is not None:
                entry.msgstr = twin.msgstr
                catalog.remove(twin)
                carried += 1
                changed = True
                continue
            if entry.obsolete or "fuzzy" not in entry.flags:
                continue
            old = entry.previous_msgid
            if old and old != entry.msgid and folded(old) == folded(entry.msgid):
                entry.flags.remove("fuzzy")
                entry.previous_msgid = None
                entry.previous_msgctxt = None
                carried += 1
                changed = True
            else:
                left += 1
        if changed:
            save_wrapped(catalog, po)
    return carried, left


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--fix", action="store_true", help="rewrite the lines instead")
    parser.add_argument(
        "--carry",
        action="store_true",
        help="the paths are locale directories: keep the translations of the entries "
        "that only the correction changed",
    )


def run(args: argparse.Namespace) -> int:
    if args.carry:
        for locale in args.paths:
            carried, left = carry(locale)
            print(f"{locale}: {carried} translation(s) kept, {left} entr(ies) still fuzzy")
        return 0
    files = sorted(
        f
        for p in args.paths
        for f in ([p] if p.is_file() else [*p.rglob("*.rst"), *p.rglob("*.md"), *p.rglob("*.py")])
    )
    findings = [finding for f in files for finding in lint(f, args.fix)]
    for finding in findings:
        print(finding)
    if findings and not args.fix:
        print(f"{len(findings)} finding(s); run 'make zh-lint-fix' to apply them", file=sys.stderr)
        return 1
    return 0
