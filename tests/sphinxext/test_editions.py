"""The PDF's LaTeX and the EPUB's package, on a small book: what xeCJK and Sphinx's defaults
would set apart from the web edition, and what a publisher's edition needs besides."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from jaxbook.preflight import unknown_language
from jaxbook.sphinxext import _artwork
from jaxbook.sphinxext.editions.latex import STYLE

ROOT = Path(__file__).parent.parent / "roots" / "test-editions"
XHTML = "{http://www.w3.org/1999/xhtml}"
EPUB = "{http://www.idpf.org/2007/ops}"
NCX = "{http://www.daisy.org/z3986/2005/ncx/}"
OPF = "{http://www.idpf.org/2007/opf}"
DC = "{http://purl.org/dc/elements/1.1/}"


def book(tmp_path: Path, language: str) -> Path:
    """A copy of the small book, with the picture its figure shows."""
    from PIL import Image

    srcdir = shutil.copytree(ROOT, tmp_path / language)
    Image.new("RGB", (40, 30), "white").save(srcdir / "plot.png")
    return srcdir


@pytest.fixture(scope="module")
def latex_builds() -> dict[str, tuple[str, Path]]:
    return {}


@pytest.fixture
def latex(make_app, tmp_path, latex_builds):
    """The LaTeX of the small book in a language, with conf.py's values overridden, and its
    build's directory. Each language and overrides is built once for the module: about thirty
    tests read the same few builds (``probe`` writes only files of its own beside them)."""

    def build(language: str, **overrides) -> tuple[str, Path]:
        key = repr((language, sorted(overrides.items())))
        if key not in latex_builds:
            # A directory per build: one test may build a language with two sets of values.
            place = tmp_path / f"build-{len(latex_builds)}"
            place.mkdir()
            srcdir = book(place, language)
            confoverrides = {"language": language, **overrides}
            app = make_app("latex", srcdir=srcdir, confoverrides=confoverrides)
            app.build()
            tex = (app.outdir / f"jaxbook-{language}.tex").read_text(encoding="utf-8")
            latex_builds[key] = (tex, app.outdir)
        return latex_builds[key]

    return build


@pytest.fixture(scope="module")
def epub_builds() -> dict[str, Any]:
    return {}


@pytest.fixture
def epub(make_app, tmp_path, epub_builds):
    """The EPUB build of the small book in a language, with conf.py's values overridden:
    each language and overrides built once for the module, as ``latex`` builds (a dozen tests
    read the same few builds; none writes in them). ``again=True``: a new build, in a
    directory of its own, of a new copy of the book."""

    def build(language: str, again: bool = False, **overrides):
        key = repr((language, sorted(overrides.items())))
        if again or key not in epub_builds:
            srcdir = book(tmp_path / f"{len(list(tmp_path.iterdir()))}", language)
            confoverrides = {"language": language, **overrides}
            app = make_app("epub", srcdir=srcdir, confoverrides=confoverrides)
            app.build()
            if again:
                return app
            epub_builds[key] = app
        return epub_builds[key]

    return build


def macro(tex: str, name: str) -> str:
    """The body of ``\\newcommand\\<name>`` as the preamble defines it (to its closing line)."""
    start = tex.index(f"\\newcommand\\{name}")
    return tex[start : tex.index("\n}\n", start)]


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_a_badge_is_boxed_apart_from_the_sentence_it_opens(latex, language):
    tex, outdir = latex(language)
    assert r"\jbbadge{选读} 适合" in tex  # sphinx-design writes "选读 适合": one run of text
    assert r"\usepackage{jaxbook}" in tex
    # The style beside the document holds the space between two Chinese words.
    assert r"\xeCJKsetup{CJKspace=true}" in (outdir / "jaxbook.sty").read_text(encoding="utf-8")


def test_an_english_edition_sets_the_middle_dot_in_its_latin_font(latex):
    assert '"2018 -> "201D, "00B7}' in latex("en")[0]


def test_a_chinese_edition_marks_a_continued_code_block_in_full_width_parentheses(latex):
    assert r"\renewcommand*\sphinxstylecodecontinued[1]{{\footnotesize（#1）}}" in latex("zh_CN")[0]


def test_on_paper_a_quizs_answers_follow_the_quiz(latex):
    """Under its question, an answer is read before the reader has answered: the answers
    follow the last question, each titled with its question's number, linked both ways."""
    tex, _outdir = latex("zh_CN")
    heading = "section{答案与解析}"
    order = [tex.index(text) for text in ("哪一项对？", "这一题之后才是答案。", heading)]
    assert order == sorted(order)
    assert tex.index("第一项。") > tex.index(heading)
    # The answer's title is its question's number, a link to the question.
    [(question, title)] = re.findall(
        r"\\begin\{sphinxadmonition\}\{\w+\}\{\{\\hyperref\[\\detokenize\{quiz:([^}]+)\}\]"
        r"\{\\sphinxcrossref\{([^}]*)\}\}\}\}",
        tex,
    )
    assert title == "第 1 题"
    assert re.search(rf"\\label\{{\\detokenize\{{quiz:{question}\}}\}}", tex)
    # Where the answer was, the question links to it, with its page; the answer holds its target.
    [answer] = re.findall(r"见本测验末尾的“\{\\hyperref\[\\detokenize\{quiz:([^}]+)\}\]", tex)
    assert rf"\jbpagereference{{\detokenize{{quiz:{answer}}}}}" in tex
    target = tex.index(rf"\label{{\detokenize{{quiz:{answer}}}}}")
    assert tex.index(heading) < target < tex.index("第一项。")


def test_in_an_epub_a_quizs_answers_follow_the_quiz_linked_to_their_questions(epub):
    app = epub("en")
    page = ElementTree.parse(app.outdir / "quiz.xhtml").getroot()
    text = "".join(page.itertext())
    # The answers' heading, after the question and before the answer; the link under the
    # question names the answer by that heading, as the reader will find it.
    heading = "Answers and explanations"
    assert text.index("这一题之后才是答案。") < text.rindex(heading) < text.index("第一项。")
    ids = {element.get("id") for element in page.iter() if element.get("id")}
    links = [a for a in page.iter(f"{XHTML}a") if (a.get("href") or "").startswith("#")]
    to_answer = [a for a in links if "".join(a.itertext()) == heading]
    to_question = [a for a in links if "".join(a.itertext()) == "第 1 题"]
    assert len(to_answer) == 1
    assert len(to_question) == 1
    assert to_answer[0].get("href")[1:] in ids
    assert to_question[0].get("href")[1:] in ids
    assert f"See “{heading}” at the end of the quiz." in text


def test_the_title_page_names_the_authors_and_the_publisher(latex):
    tex, _outdir = latex("zh_CN")
    title_page = macro(tex, "jbtitlepage")
    assert "小书" in title_page
    assert "作者　著" in title_page
    assert "小书出版组" in title_page
    assert "译" not in title_page  # the source has no translators
    assert r"\jbmaketitle" in tex


def test_a_translations_title_page_names_its_translators(latex):
    title_page = macro(latex("en")[0], "jbtitlepage")
    assert "Written by 作者" in title_page
    assert "Translated by 小书译者" in title_page


def test_a_credit_line_names_the_maker_as_the_languages_sentence_does(latex, epub):
    """English writes "Written by the Bilingual JAX Book Project": the language's book.po
    gives how a sentence names the makers (jaxbook_name_in_text), and the name stands alone
    where no sentence holds it: the imprint and the EPUB's metadata (the copyright line's is
    the real book's test, tests/site/test_editions.py)."""
    in_text = {"jaxbook_name_in_text": "the %(name)s"}
    tex = latex("en", **in_text)[0]
    title_page, copyright_page = macro(tex, "jbtitlepage"), macro(tex, "jbcopyrightpage")
    assert "Written by the 作者" in title_page
    assert "Translated by the 小书译者" in title_page
    assert "Published by the 小书出版组" in copyright_page
    assert "the 小书出版组" not in title_page  # the imprint: the name alone
    package = (epub("en", **in_text).outdir / "content.opf").read_text(encoding="utf-8")
    assert '<dc:creator id="creator">作者</dc:creator>' in package
    assert "<dc:publisher>小书出版组</dc:publisher>" in package


def test_the_copyright_page_has_the_edition_the_credit_and_the_licences(latex):
    copyright_page = macro(latex("zh_CN")[0], "jbcopyrightpage")
    assert "适用于 JAX 1.0" in copyright_page  # the series of the release the book runs on
    # The edition statement, as a publisher prints it: the edition and its month.
    assert "第 1 版，2026 年 12 月" in copyright_page
    assert "整理自课程《课程》。" in copyright_page
    assert r"《课程》：\url{https://example.org/course}" in copyright_page
    assert r"CC BY 4.0：\url{https://creativecommons.org/licenses/by/4.0/}" in copyright_page
    assert r"MIT 许可证：\url{https://opensource.org/license/mit}" in copyright_page
    assert "出版：小书出版组" in copyright_page


@pytest.mark.parametrize(
    ("language", "edition", "statement"),
    [
        ("en", 1, "First edition, December 2026"),
        ("en", 2, "Second edition, December 2026"),
        ("en", 7, "Edition 7, December 2026"),
        ("zh_CN", 2, "第 2 版，2026 年 12 月"),
    ],
)
def test_the_edition_statement_names_the_edition_and_its_month(latex, language, edition, statement):
    tex, _outdir = latex(language, jaxbook_edition=edition)
    copyright_page = macro(tex, "jbcopyrightpage")
    assert statement in copyright_page
    assert "JAX 1.0" in copyright_page


def test_an_edition_date_is_a_month(make_app, tmp_path):
    from sphinx.errors import ConfigError

    with pytest.raises(ConfigError, match="jaxbook_edition_date must be a month"):
        make_app(
            "latex",
            srcdir=book(tmp_path, "zh_CN"),
            confoverrides={"jaxbook_edition_date": "December 2026"},
        )


def test_the_publisher_is_named(make_app, tmp_path):
    from sphinx.errors import ConfigError

    with pytest.raises(ConfigError, match="jaxbook_publisher must name who publishes"):
        make_app(
            "latex",
            srcdir=book(tmp_path, "zh_CN"),
            confoverrides={"jaxbook_publisher": ""},
        )


def test_authors_who_publish_their_book_are_named_once_on_its_title_page(latex):
    """A project that writes and publishes its book (no person named, the project credited)
    has no imprint under its name: the title page names it once, the copyright page says
    it published the book."""
    tex = latex("zh_CN", jaxbook_publisher="作者")[0]
    assert macro(tex, "jbtitlepage").count("作者") == 1
    assert "出版：作者" in macro(tex, "jbcopyrightpage")
    assert "小书出版组" in macro(latex("zh_CN")[0], "jbtitlepage")  # another publisher's imprint


@pytest.mark.parametrize(
    ("language", "line"),
    [("zh_CN", "第 1 章 小书（适用于 JAX 1.0）"), ("en", "第 1 章 小书 · For JAX 1.0")],
)
def test_the_subtitle_says_what_the_edition_holds_then_its_series(latex, epub, language, line):
    """ "第 1 章 JAX 简介（适用于 JAX 0.12）": the edition's scope (jaxbook_scope, translated
    in book.po; the test book has no catalog of it) before the JAX series, on the title page,
    the copyright pages and the EPUB's cover."""
    tex = latex(language, jaxbook_scope="第 1 章 小书")[0]
    assert line in macro(tex, "jbtitlepage")
    assert line in macro(tex, "jbcopyrightpage")
    app = epub(language, jaxbook_scope="第 1 章 小书")
    assert line in (app.outdir / "copyright.xhtml").read_text(encoding="utf-8")
    # A reader's library shows it beside the title: the package's second title, a subtitle.
    package = (app.outdir / "content.opf").read_text(encoding="utf-8")
    assert f'<dc:title id="subtitle">{line}</dc:title>' in package
    assert '<meta refines="#subtitle" property="title-type">subtitle</meta>' in package


def test_the_preface_is_listed_in_the_contents_with_roman_folios(latex):
    tex, outdir = latex("zh_CN")
    assert r"\jbfrontmatter" in tex
    style = (outdir / "jaxbook.sty").read_text(encoding="utf-8")
    front = style[style.index(r"\newcommand\jbfrontmatter") :]
    assert r"\addcontentsline{toc}{chapter}{\jbprefacename}" in front
    assert r"\pagenumbering{roman}" in style
    assert r"\def\jb@mainmatter{\pagenumbering{arabic}" in style
    assert r"\newcommand\jbprefacename{前言}" in tex


def test_a_blank_page_has_no_running_head():
    style = STYLE.read_text(encoding="utf-8")
    assert r"\hbox{}\thispagestyle{empty}\newpage" in style


@pytest.mark.parametrize(
    ("language", "page"),
    [
        (
            "zh_CN",
            "（第\\nobreak\\CJKecglue\\nobreak{}\\pageref*{#1}\\nobreak\\CJKecglue\\nobreak{}页）",
        ),
        ("en", "\\ (page~\\pageref*{#1})"),
    ],
)
def test_a_cross_reference_is_followed_by_its_page(latex, language, page):
    tex, _outdir = latex(language)
    assert page in tex
    # One in brackets already adds its page without brackets of its own.
    assert r"\newcommand\jbinnerpagereference" in tex
    assert r"{小节}}}}}\jbpagereference{\detokenize{chapter:small-section}}" in tex
    # One whose text ends with a closing quote has its page inside the link, where xeCJK
    # sets the quote and the bracket as a pair: the link's end between them kept both full.
    # The full stop after it stays on its line ("（第 37 页）" / "。" at the next's start).
    inside = r"{“小节”}}\jbpagereference{\detokenize{chapter:small-section}}}}}\nobreak{}。"
    assert (inside in tex) == (language == "zh_CN")


def test_a_lead_in_goes_over_with_its_long_table(latex):
    """ "以 JAX 官方安装说明为准：" ended a page, its table on the next: the room for the
    lead-in, the header and the first row is asked for before the lead-in, and no page breaks
    between them."""
    tex, _outdir = latex("zh_CN")
    lead_in = tex.index("一张长表，可以跨页：")
    table = tex.index(r"\begin{longtable}", lead_in)
    assert r"\jbkeepwithnext" in tex[lead_in:table]
    assert r"\needspace" not in tex[lead_in:table]  # asked before the lead-in (its heading)


def test_links_are_black_and_figures_stay_where_the_text_has_them(latex):
    tex, _outdir = latex("zh_CN")
    # And a code block of twelve lines or fewer (here one) starts at a page's foot only if it
    # fits there whole, with its frame; jaxbook.sty is told how many lines it has.
    block = tex.index(r"\begin{sphinxVerbatim}")
    assert r"\jbcodelines{1}" in tex[block - 300 : block]
    assert r"\needspace{3\baselineskip}" in tex[block - 300 : block]
    assert "InnerLinkColor={rgb}{0,0,0}, OuterLinkColor={rgb}{0,0,0}" in tex
    assert r"\begin{figure}[H]" in tex
    assert r"\begin{figure}[htbp]" not in tex


def test_figures_tables_and_listings_are_numbered_per_chapter(latex):
    tex, outdir = latex("zh_CN")
    style = (outdir / "jaxbook.sty").read_text(encoding="utf-8")
    for counter in ("figure", "table", "literalblock"):
        assert rf"\def\the{counter}{{\arabic{{chapter}}-\arabic{{{counter}}}}}" in style
        assert rf"\@addtoreset{{{counter}}}{{chapter}}" in style
    # The chapter's counter steps with the chapter, which numbers its figures (and its title is
    # set with LaTeX's own number, its sections' numbers then switched on page by page).
    assert r"\def\@chapter[#1]#2{\jb@mainmatter\stepcounter{chapter}" in style
    assert r"\newcommand\jbcaptionsep{\quad}" in tex  # 图 1-1　caption


def test_a_table_cell_starts_with_its_text_not_an_index_entry_or_a_target(latex):
    """On a line of its own, the entry pushed the cell's text below its row's."""
    tex, _outdir = latex("zh_CN")
    cells = re.findall(
        r"\\begin\{varwidth\}\[t\]\{[^\n]*\}\n(.*?)\\sphinxbeforeendvarwidth", tex, re.S
    )
    key_cell = next(cell for cell in cells if "jax.random.key(0)" in cell)
    assert key_cell.startswith(r"\sphinxAtStartPar")
    assert r"\index{jax.random.key" in key_cell
    target_cell = next(cell for cell in cells if "创建密钥" in cell)
    assert target_cell.startswith(r"\sphinxAtStartPar")
    assert r"\label{\detokenize{chapter:key-row}}" in target_cell


def test_inline_code_breaks_before_a_dot_or_an_underscore(latex):
    _tex, outdir = latex("zh_CN")
    style = (outdir / "jaxbook.sty").read_text(encoding="utf-8")
    assert r"\renewcommand*\sphinxbreaksbeforeactivelist{\jb@namedot}" in style
    # Not after "(" or "[", "," or "/", nor at a hyphen: Sphinx's defaults are gone.
    assert r"\renewcommand*\sphinxbreaksafteractivelist{}" in style
    assert r"\renewcommand*\sphinxhyphenininlineliteral[1]{\mbox{-}}" in style
    # Before a dot only where a name goes on after it, never in a number ("2" / ".0").
    assert r"\def\jb@dot{\ifcat\noexpand\jb@next a\jb@dotbreak" in style
    assert r"\def\_{\discretionary{}{\textunderscore}{\textunderscore}}" in style
    assert r"\textunderscore\allowbreak" not in style  # a break after the underscore


def test_a_dotted_name_in_a_links_text_breaks_before_its_dots(make_app, tmp_path):
    srcdir = book(tmp_path, "zh_CN")
    page = srcdir / "chapter.rst"
    page.write_text(
        page.read_text(encoding="utf-8").replace(
            "小节\n====", "jax.random.key 小节\n================"
        ),
        encoding="utf-8",
    )
    app = make_app("latex", srcdir=srcdir)
    app.build()
    tex = (app.outdir / "jaxbook-zh_CN.tex").read_text(encoding="utf-8")
    assert r"{jax\jbbreak{}.random\jbbreak{}.key 小节}}}}}\jbpagereference" in tex
    assert r"\section{jax.random.key 小节}" in tex  # a title itself is set whole


def test_what_is_an_emoji_in_text_asks_no_font(monkeypatch):
    """Section references and the parallel text leave emoji out of a title on the website,
    whose build needs no emoji font: the answer comes from Unicode's data alone."""

    def no_font() -> frozenset[int]:
        raise AssertionError("the emoji font was asked")

    monkeypatch.setattr(_artwork, "_emoji_characters", no_font)
    assert _artwork.without_emoji("🔍 补充：查看 jaxpr") == "补充：查看 jaxpr"
    assert _artwork.without_emoji("⚠️ Warning → ✅ done") == "Warning → done"
    assert _artwork.without_emoji("1.5 使用 JAX 数组") == "1.5 使用 JAX 数组"


def emoji_font_missing() -> str:
    try:
        _artwork.emoji_font()
    except Exception as exc:  # whatever fontconfig lacks, the reason names it
        return str(exc)
    return ""


@pytest.mark.skipif(bool(emoji_font_missing()), reason=emoji_font_missing() or "-")
def test_every_emoji_is_drawn_and_every_sign_has_a_font(latex):
    _tex, outdir = latex("zh_CN")
    glyphs = (outdir / "jaxbook-glyphs.sty").read_text(encoding="utf-8")
    assert r"\newunicodechar{🧪}{\jbemoji{emoji-1f9ea.png}}" in glyphs
    assert (outdir / "emoji-1f9ea.png").stat().st_size > 0
    assert "⚗" not in glyphs  # no stand-in from an older symbol


@pytest.mark.parametrize(
    ("language", "trim"),
    [("zh_CN", "paperwidth=185mm,paperheight=260mm"), ("en", "paperwidth=7in,paperheight=9.25in")],
)
def test_each_edition_has_its_trim_size_and_latin_face(latex, language, trim):
    tex, _outdir = latex(language)
    assert trim in tex
    assert r"\setmainfont{Noto Serif}" in tex
    # Sphinx's own faces (DejaVu) set no text: the formulas' signs alone are DejaVu Math's.
    assert re.findall(r"\\set\w*font\{DejaVu[^}]*\}", tex) == [
        r"\setmathfont{DejaVu Math TeX Gyre}"
    ]


def probe(tex: str, outdir: Path, body: str) -> str:
    """The log of xelatex on the edition's preamble with ``body`` as its document, in the
    build's directory (its style files beside it)."""
    preamble = tex[: tex.index(r"\begin{document}")]
    (outdir / "probe.tex").write_text(
        preamble + "\\begin{document}\n" + body + "\n\\end{document}\n", encoding="utf-8"
    )
    subprocess.run(
        ["xelatex", "-interaction=nonstopmode", "-halt-on-error", "probe.tex"],
        cwd=outdir,
        capture_output=True,
        timeout=300,
    )
    return (outdir / "probe.log").read_text(encoding="utf-8", errors="replace")


# What the probes ask xelatex, by the language whose preamble they need: each language's are
# asked in one run (``probed``), since a run spends some 2 s of CPU loading the preamble and
# its fonts, and each body writes what it finds under a name of its own.
HYPHENS = r"\showhyphens{salida}"
NAMES = r"\contentsname|\figurename|\tablename|\chaptername|\seename|\alsoname|\indexname"
# A picture as wide as the line, then its caption after a line break in the source (the space
# it leaves), and the same with a paragraph's end instead: their heights.
PICTURE = "\\makeatletter\\def\\@captype{figure}\\makeatother\\noindent\\rule{\\linewidth}{20pt}"
HEIGHTS = (
    rf"\setbox0\vbox{{{PICTURE}"
    "\n"
    r"\caption{x}}"
    rf"\setbox1\vbox{{{PICTURE}\par\caption{{x}}}}"
    r"\typeout{HEIGHTS: \the\ht0+\the\dp0|\the\ht1+\the\dp1:END}"
)
# A box too long for a page, after the page's first line.
LONG_BOX = "\n".join(
    [
        r"\noindent Before the box.",
        r"\begin{sphinxadmonition}{note}{Note:}",
        *[rf"\sphinxAtStartPar Paragraph {n} of a long box.\par" for n in range(1, 61)],
        r"\end{sphinxadmonition}",
    ]
)
# A badge's height and depth, and a line's (its strut's), in points.
BADGE = (
    r"\setbox0\hbox{\jbbadge{Required reading}}"
    r"\typeout{BADGE: \the\ht0|\the\dp0|\the\ht\strutbox|\the\dp\strutbox:END}"
)
# An index entry between paragraphs at the very foot of a page, its text overleaf.
INDEX_AT_FOOT = (
    r"\clearpage\typeout{INDEXPAGE: \thepage:END}\null"
    r"\vskip\dimexpr\textheight-\topskip-0.5\baselineskip\relax"
    r"\index{probe entry}\par\noindent Indexed text.\par"
)
PROBES = {
    "es": [HYPHENS, rf"\typeout{{NAMES: {NAMES}:END}}"],
    "en": [HYPHENS, LONG_BOX, BADGE, INDEX_AT_FOOT],
    "zh_CN": [HYPHENS, HEIGHTS],
}


@pytest.fixture(scope="module")
def probe_logs() -> dict[str, str]:
    return {}


@pytest.fixture
def probed(latex, probe_logs):
    """``probed(language)``: the log of xelatex on the language's preamble with all of its
    ``PROBES`` as the document, run once for the module."""

    def run(language: str) -> str:
        if language not in probe_logs:
            tex, outdir = latex(language)
            probe_logs[language] = probe(tex, outdir, "\n".join(PROBES[language]))
        return probe_logs[language]

    return run


def typed_out(log: str, name: str) -> str:
    """What ``\\typeout{<name>: ...}`` wrote, its lines joined as TeX broke them."""
    rest = log[log.index(f"{name}: ") + len(name) + 2 :].replace("\n", "")
    return rest[: rest.index(":END")].rstrip(" ")


@pytest.mark.parametrize(
    ("language", "main", "hyphenated"),
    [
        ("es", r"\setmainlanguage{spanish}", "sa-li-da"),
        ("en", r"\setmainlanguage[variant=american]{english}", "sal-ida"),
        # No patterns break Chinese; its Latin words take US English's.
        ("zh_CN", r"\setmainlanguage[variant=american]{english}", "sal-ida"),
    ],
)
def test_each_edition_hyphenates_in_its_own_language(latex, probed, language, main, hyphenated):
    """The Spanish edition breaks "salida" as Spanish does, not as English's "sal-ida"."""
    tex, _outdir = latex(language)
    assert main in tex
    log = probed(language)
    assert re.search(rf"^\\TU/\S+ {hyphenated}$", log, re.MULTILINE), log[-3000:]


def test_an_index_entry_takes_the_page_its_text_starts_on(latex, probed):
    """An entry above the text it indexes took the page before when the page broke between
    them: "operator fusion, 11" for text on page 12 (the English editor counted ten)."""
    _tex, outdir = latex("en")
    page = int(typed_out(probed("en"), "INDEXPAGE"))
    index = (outdir / "probe.idx").read_text(encoding="utf-8")
    assert re.findall(r"\\indexentry\{probe entry(?:\|hyperpage)?\}\{(\d+)\}", index) == [
        str(page + 1)
    ]


def test_the_editions_names_stay_when_its_language_sets_its_own(latex, probed):
    """polyglossia's Spanish would call a figure "Figura", a table "Cuadro" and a chapter
    "Capítulo", and the index "ver": the names the build gives stay. What it does not give
    (this small book's contents have no title of their own, the index's) are Spanish."""
    tex, outdir = latex("es")
    log = probed("es")
    messages = (outdir / "sphinxmessages.sty").read_text(encoding="utf-8")
    given = [
        re.search(rf"\\renewcommand\{{\\{name}\}}\{{(.*)\}}\}}", messages)[1]
        for name in ("figurename", "tablename")
    ] + [
        re.search(rf"\\renewcommand\\{name}\{{(.*)\}}", tex)[1] for name in ("seename", "alsoname")
    ]
    contents, figure, table, chapter, see, also, index = typed_out(log, "NAMES").split("|")
    assert [figure, table, see, also] == given
    assert chapter == ""
    assert (contents, index) == ("Índice general", "Índice alfabético")


def test_a_picture_as_wide_as_the_line_takes_no_empty_line_before_its_caption(probed):
    """polyglossia writes before each caption: the space after the picture must not stay
    behind those writes and push itself onto a line of its own."""
    with_space, without = typed_out(probed("zh_CN"), "HEIGHTS").split("|")
    assert with_space == without


def test_a_box_that_goes_on_overleaf_says_so_on_both_pages(latex, probed):
    """As a code block does: the editors read a box whose title and first lines stood at a
    page's foot as ended there."""
    _tex, outdir = latex("en")
    probed("en")
    text = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", "-layout", str(outdir / "probe.pdf"), "-"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    pages = [
        [line.strip() for line in page.splitlines() if line.strip()] for page in text.split("\f")
    ]
    box = [page for page in pages if any("of a long box" in line for line in page)]
    assert len(box) >= 2
    assert [page[-2] for page in box[:-1]] == ["(continues on next page)"] * (len(box) - 1)
    assert [page[0] for page in box[1:]] == ["(continued from previous page)"] * (len(box) - 1)


def test_a_badge_stays_within_its_lines_height(probed):
    """The badge ("Required reading") had \\fbox's padding all round: the line under it was
    pushed down and touched its frame."""
    height, depth, line_height, line_depth = (
        float(size.removesuffix("pt")) for size in typed_out(probed("en"), "BADGE").split("|")
    )
    assert height <= line_height
    assert depth <= line_depth


def test_a_language_tex_is_not_known_for_is_named(make_app, tmp_path):
    """Swedish is not in jaxbook.preflight.HYPHENATION: its PDF build says what to add, where
    (make pdf's preflight says it first), and sets no language it would get wrong."""
    app = make_app("latex", srcdir=book(tmp_path, "sv"), confoverrides={"language": "sv"})
    app.build()
    assert unknown_language("sv") in app.warning.getvalue()
    assert "add sv to HYPHENATION in src/jaxbook/preflight.py" in unknown_language("sv")
    assert "polyglossia" not in (app.outdir / "jaxbook-sv.tex").read_text(encoding="utf-8")


@pytest.mark.parametrize(("language", "index"), [("zh_CN", "索引"), ("en", "Index")])
def test_an_epub_lists_its_index_and_opens_its_contents(epub, language, index):
    app = epub(language)
    nav = ElementTree.parse(app.outdir / "nav.xhtml").getroot()
    toc = next(n for n in nav.iter(f"{XHTML}nav") if n.get(f"{EPUB}type") == "toc")
    last = toc.findall(f"{XHTML}ol/{XHTML}li")[-1].find(f"{XHTML}a")
    assert (last.get("href"), last.text) == ("genindex.xhtml", index)
    ncx = ElementTree.parse(app.outdir / "toc.ncx").getroot()
    points = ncx.findall(f"{NCX}navMap/{NCX}navPoint")
    assert points[-1].find(f"{NCX}content").get("src") == "genindex.xhtml"
    # Sphinx repeats a chapter's playOrder for its first entry; the index's comes last.
    orders = [int(p.get("playOrder")) for p in ncx.iter(f"{NCX}navPoint")]
    assert orders[-1] == max(orders)
    assert orders.count(orders[-1]) == 1
    package = ElementTree.parse(app.outdir / "content.opf").getroot()
    [guide] = [r for r in package.iter(f"{OPF}reference") if r.get("type") == "toc"]
    assert guide.get("href") == "nav.xhtml"
    rights = package.find(f".//{DC}rights").text
    # The copyright line, then the credit's text (the book's, which names what it owns).
    copyright_line = {"zh_CN": "© 2026 作者。", "en": "© 2026 作者. "}[language]
    assert rights == copyright_line + "整理自课程《课程》。"


def test_an_epubs_metadata_names_its_authors_translators_and_publisher(epub):
    package = ElementTree.parse(epub("en").outdir / "content.opf").getroot()
    metadata = package.find(f"{OPF}metadata")
    [creator] = metadata.findall(f"{DC}creator")
    [contributor] = metadata.findall(f"{DC}contributor")
    [publisher] = metadata.findall(f"{DC}publisher")
    assert creator.text == "作者"
    assert contributor.text == "小书译者"
    assert publisher.text == "小书出版组"
    roles = {
        m.get("refines"): m.text
        for m in metadata.findall(f"{OPF}meta")
        if m.get("property") == "role"
    }
    assert roles == {f"#{creator.get('id')}": "aut", f"#{contributor.get('id')}": "trl"}
    assert metadata.find(f"{DC}language").text == "en"
    properties = {}
    for meta in metadata.findall(f"{OPF}meta"):
        properties.setdefault(meta.get("property"), []).append(meta.text)
    assert "textual" in properties["schema:accessMode"]
    assert "tableOfContents" in properties["schema:accessibilityFeature"]
    assert properties["schema:accessibilitySummary"][0]
    # The book's version is its edition's, not the release it runs on (1.0).
    assert properties["ibooks:version"] == ["1"]


def identifiers(app) -> tuple[str, str]:
    """The package's identifier, and the NCX's dtb:uid."""
    package = ElementTree.parse(app.outdir / "content.opf").getroot()
    [identifier] = package.findall(f"{OPF}metadata/{DC}identifier")
    assert package.get("unique-identifier") == identifier.get("id")
    ncx = ElementTree.parse(app.outdir / "toc.ncx").getroot()
    [uid] = [m.get("content") for m in ncx.iter(f"{NCX}meta") if m.get("name") == "dtb:uid"]
    return identifier.text, uid


def test_an_epubs_identifier_is_a_uuid_that_a_rebuild_keeps(epub):
    first, uid = identifiers(epub("en"))
    assert re.fullmatch(
        r"urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", first
    )
    assert uid == first  # as EPUBCheck holds them
    assert identifiers(epub("en", again=True))[0] == first  # built again: the same book
    # Another language, another edition, another address: another book.
    assert identifiers(epub("zh_CN"))[0] != first
    assert identifiers(epub("en", jaxbook_edition=2))[0] != first
    assert identifiers(epub("en", jaxbook_book_url="https://example.org/book"))[0] != first


def test_an_epubs_copyright_page_states_the_edition(epub):
    page = (epub("en").outdir / "copyright.xhtml").read_text(encoding="utf-8")
    assert "First edition, December 2026" in page
    assert "For JAX 1.0" in page


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_title_page_names_the_series_of_the_release_the_book_runs_on(latex, language):
    """An edition line, as a publisher words it: "For JAX 0.12", not the release's fourth
    number; the series is the release's, never typed in."""
    tex = latex(language, release="0.12.0.1")[0]
    title_page = macro(tex, "jbtitlepage")
    line = {"zh_CN": "适用于 JAX 0.12", "en": "For JAX 0.12"}[language]
    assert line in title_page
    assert line in macro(tex, "jbcopyrightpage")
    assert "0.12.0" not in title_page
    assert "For JAX 3.4" in macro(latex("en", release="3.4.5")[0], "jbtitlepage")


def test_the_source_epub_names_no_translator(epub):
    package = ElementTree.parse(epub("zh_CN").outdir / "content.opf").getroot()
    assert package.find(f"{OPF}metadata/{DC}contributor") is None


def test_an_epub_has_a_cover_landmarks_and_the_readers_pages_only(epub):
    app = epub("zh_CN")
    package = ElementTree.parse(app.outdir / "content.opf").getroot()
    items = {i.get("href"): i for i in package.iter(f"{OPF}item")}
    [cover] = [href for href, item in items.items() if item.get("properties") == "cover-image"]
    assert (app.outdir / cover).stat().st_size > 0
    spine = [ref.get("idref") for ref in package.iter(f"{OPF}itemref")]
    assert spine[0] == items["epub-cover.xhtml"].get("id")
    assert "guide.xhtml" not in items  # an orphan page: not the reader's book
    nav = ElementTree.parse(app.outdir / "nav.xhtml").getroot()
    [landmarks] = [n for n in nav.iter(f"{XHTML}nav") if n.get(f"{EPUB}type") == "landmarks"]
    kinds = [a.get(f"{EPUB}type") for a in landmarks.iter(f"{XHTML}a")]
    assert kinds == ["cover", "toc", "bodymatter", "index"]
    # The body starts with the first chapter, not the preface.
    marks = {a.get(f"{EPUB}type"): a.get("href") for a in landmarks.iter(f"{XHTML}a")}
    assert marks["bodymatter"] == "chapter.xhtml"
    cover_page = (app.outdir / "epub-cover.xhtml").read_text(encoding="utf-8")
    assert 'alt="小书"' in cover_page


@pytest.mark.parametrize(("language", "preface"), [("zh_CN", "前言"), ("en", "Preface")])
def test_an_epub_names_the_root_page_the_preface_as_the_pdf_does(epub, latex, language, preface):
    app = epub(language)
    nav = ElementTree.parse(app.outdir / "nav.xhtml").getroot()
    [toc] = [n for n in nav.iter(f"{XHTML}nav") if n.get(f"{EPUB}type") == "toc"]
    entries = {a.get("href"): "".join(a.itertext()) for a in toc.iter(f"{XHTML}a")}
    assert entries["index.xhtml"] == preface
    ncx = ElementTree.parse(app.outdir / "toc.ncx").getroot()
    labels = {
        point.find(f"{NCX}content").get("src"): point.find(f"{NCX}navLabel/{NCX}text").text
        for point in ncx.iter(f"{NCX}navPoint")
    }
    assert labels["index.xhtml"] == preface
    page = ElementTree.parse(app.outdir / "index.xhtml").getroot()
    assert "".join(next(page.iter(f"{XHTML}h1")).itertext()).strip() == preface
    assert page.find(f"{XHTML}head/{XHTML}title").text == preface
    # The PDF's heading and contents say the same.
    assert rf"\newcommand\jbprefacename{{{preface}}}" in latex(language)[0]


def test_a_headings_emoji_is_not_in_the_pdfs_bookmarks(latex):
    tex, _outdir = latex("zh_CN")
    # On the page and in the contents its picture; in the bookmark nothing, nor the space.
    assert r"\section{\texorpdfstring{🔍 }{}补充：一节}" in tex


def test_a_continued_table_is_marked_as_a_continued_code_block_is(latex):
    tex, outdir = latex("en")
    style = (outdir / "jaxbook.sty").read_text(encoding="utf-8")
    definition = r"\sphinxtablecontinued#1{{\normalcolor\sphinxstylecodecontinued{#1}}}"
    assert rf"\protected\def{definition}" in style
    # At the table's right edge, top and foot alike, with no number (templates/).
    heads = re.findall(
        r"\\multicolumn\{\d+\}\{(\w)\}\{\\sphinxnorowcolor\s*\\makebox\[0pt\](\[r\])?"
        r"\{\\sphinxtablecontinued\{([^}]*)\}",
        tex,
    )
    assert sorted(text for _align, _r, text in heads) == [
        "continued from previous page",
        "continues on next page",
    ]
    assert all(align == "r" and right == "[r]" for align, right, _text in heads)


def test_an_epub_declares_each_pages_language(epub):
    app = epub("zh_CN")
    pages = sorted(app.outdir.rglob("*.xhtml"))
    assert pages
    for page in pages:
        assert 'lang="zh-CN" xml:lang="zh-CN"' in page.read_text(encoding="utf-8"), page


def test_an_epubs_code_wraps_and_its_output_reads_apart():
    from jaxbook.sphinxext.editions.epub import EPUB_STYLE

    css = EPUB_STYLE.read_text(encoding="utf-8")
    assert "white-space: pre-wrap" in css
    assert "div.highlight-none > div.highlight" in css


def placed(language: str, *children) -> list[str]:
    """The paragraph ``children`` with each page reference placed, as (kind, text) pairs:
    "page" for the reference to the page ("page ”" where it carries the closing quote)."""
    from docutils import nodes

    from jaxbook.sphinxext.editions.layout import add_page_references, page_reference

    paragraph = nodes.paragraph("", "", *children)
    document = nodes.document(None, None)
    document += paragraph
    add_page_references(document, language)
    return [
        ("page " + child.get("quote", "")).strip()
        if isinstance(child, page_reference)
        else str(child)
        if isinstance(child, nodes.Text)
        else child.astext()
        for child in paragraph.children
        if str(child) or isinstance(child, page_reference)
    ]


def link(title: str):
    from docutils import nodes

    return nodes.reference("", title, refid="reading")


@pytest.mark.parametrize(
    ("language", "before", "after", "expected"),
    [
        # “\ :doc:`阅读说明 <index>`\ ”: the page goes after ”, past the escaped space's NUL.
        ("zh_CN", "见“", "\x00 ”。", ["见“", "阅读说明", "\x00 ”", "page", "。"]),
        # A full stop inside the quotes goes after the page: “阅读说明”（第 5 页）。
        ("zh_CN", "见“", "。”下一句", ["见“", "阅读说明", "”", "page", "。下一句"]),
        # US English: under “How to read this book” (page v). Not “… book (page v).”
        ("en", "under “", ".” Learning", ["under “", "阅读说明", "”", "page", ". Learning"]),
        ("en", "see “", ",” and", ["see “", "阅读说明", "”", "page", ", and"]),
        # In brackets the page's comma goes inside the quotes in English: (see “Random
        # numbers,” page 50), and after them in Chinese: （见“随机数”，第 50 页）.
        ("en", "(see “", "” below)", ["(see “", "阅读说明", "page ”", " below)"]),
        ("zh_CN", "（见“", "”）", ["（见“", "阅读说明", "”", "page", "）"]),
        # No quote: the page follows the link.
        ("en", "see ", ". Next", ["see ", "阅读说明", "page", ". Next"]),
    ],
)
def test_a_page_reference_follows_the_quote_that_closes_a_quoted_title(
    language, before, after, expected
):
    from docutils import nodes

    assert placed(language, nodes.Text(before), link("阅读说明"), nodes.Text(after)) == expected


@pytest.mark.parametrize(
    ("language", "macro"),
    [
        (
            "zh_CN",
            "\\newcommand\\jbquotedinnerpagereference[2]{\\ifdim\\linewidth<6em#2\\else"
            "，#2第\\nobreak\\CJKecglue\\nobreak{}\\pageref*{#1}\\nobreak\\CJKecglue\\nobreak{}页\\fi}",
        ),
        (
            "en",
            "\\newcommand\\jbquotedinnerpagereference[2]{\\ifdim\\linewidth<6em#2\\else"
            ",#2\\ page~\\pageref*{#1}\\fi}",
        ),
    ],
)
def test_a_quoted_titles_page_in_brackets_sets_its_comma_inside_the_quote(latex, language, macro):
    tex, _outdir = latex(language)
    assert macro in tex


def test_a_heading_goes_over_with_the_code_under_it(latex):
    """The room a code block needs at a page's foot is asked for before the heading right
    above it: asked for after it, a page break left the heading at the foot of its page."""
    tex, _outdir = latex("zh_CN")
    heading = tex.index(r"\section{代码小节}")
    # The one-line block's line and frame (3) and the heading's 3.
    assert tex[:heading].rstrip().endswith(r"\needspace{6\baselineskip}")
    block = tex.index(r"\begin{sphinxVerbatim}", heading)
    assert r"\needspace" not in tex[heading:block]
    # A box starts at a page's foot only if its title and first lines fit there.
    box = tex.index(r"\begin{sphinxadmonition}{note}", block)
    assert tex[:box].rstrip().endswith(r"\needspace{5\baselineskip}")


def test_an_output_goes_over_with_the_code_that_prints_it(latex):
    """The en editor found an answer's "False" alone at the top of a page, the code that
    printed it at the foot of the page before: no page breaks between a code block and its
    output, and the room asked for before the code is the two blocks' (each its line and
    frame)."""
    tex, _outdir = latex("zh_CN")
    start = tex.index("框里的一段代码和它打印的内容。")
    box = tex[start : tex.index(r"\end{sphinxadmonition}", start)]
    marks = [
        r"\jbcodelines{1}",
        r"\needspace{6\baselineskip}",
        r"\jbcodewithoutput",
        r"\begin{sphinxVerbatim}",  # the code
        r"\end{sphinxVerbatim}",
        r"\jbkeepwithcode",
        r"\jboutputlines{1}",
        r"\begin{sphinxVerbatim}",  # its output
    ]
    place = 0
    for mark in marks:
        place = box.index(mark, place) + len(mark)
    assert "False" in box[place:]
    assert r"\needspace" not in box[box.index(r"\end{sphinxVerbatim}") :]


def test_an_output_follows_its_code_past_the_break_the_codes_list_leaves(latex):
    """xelatex sets the small book's box, with a code block and its output, at a page's foot
    with less and less room left: wherever the box breaks, never between the code and its
    output (in a box \\needspace cannot see the page: what keeps them is the break). A code
    block is a list, which leaves a breakpoint where it ends (``\\@endparpenalty``, -51):
    ``\\nobreak`` after it left that one, and the box broke there. Each block writes the
    page it is set on."""
    tex, outdir = latex("zh_CN")
    text = tex.index("框里的一段代码和它打印的内容。")
    start = tex.rindex(r"\begin{sphinxadmonition}", 0, text)
    end = tex.index(r"\end{sphinxadmonition}", text) + len(r"\end{sphinxadmonition}")
    box = tex[start:end]
    code_end = "\n" + r"\end{sphinxVerbatim}"
    trials = []
    for room in range(40, 200, 8):  # points left under the filler
        # No space in what they write: a space in a code block is fancyvrb's active one.
        trial = box.replace(code_end, rf"\write-1{{CODE{room}:\arabic{{page}}}}" + code_end, 1)
        trial = trial.replace("False", rf"False\write-1{{OUTPUT{room}:\arabic{{page}}}}", 1)
        filler = rf"\clearpage\noindent\rule{{1pt}}{{\dimexpr\textheight-{room}pt\relax}}\par"
        trials.append(filler + "\n" + trial)
    log = probe(tex, outdir, "\n".join(trials))
    pages = dict(re.findall(r"^((?:CODE|OUTPUT)\d+):(\d+)$", log, re.MULTILINE))
    assert len(pages) == 2 * len(trials), log[-2000:]
    apart = [room for room in range(40, 200, 8) if pages[f"CODE{room}"] != pages[f"OUTPUT{room}"]]
    assert apart == []


def test_needspace_breaks_only_where_the_room_is_lacking():
    """needspace.sty's own left a breakpoint of penalty -100 that \\raggedbottom made the best
    break of any page that filled up after it: half-empty pages and stranded headings."""
    style = STYLE.read_text(encoding="utf-8")
    needspace = style[style.index(r"\renewcommand\needspace") :]
    needspace = needspace[: needspace.index("\n\n")]
    assert "-100" not in needspace
    assert r"\penalty\z@" in needspace  # an ordinary breakpoint: the full page goes first
    assert r"\if@nobreak\else" in needspace  # never right after a heading
    assert r"\ifinner\else" in needspace  # nor inside a box
    assert r"\ifdim\dimen@>\dimen@ii\break\fi" in needspace


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_long_code_lines_break_at_spaces_and_commas_with_a_discreet_mark(latex, language):
    tex, outdir = latex(language)
    assert r"verbatimvisiblespace={}, verbatimcontinued=\jbverbatimcontinued" in tex
    style = (outdir / "jaxbook.sty").read_text(encoding="utf-8")
    breaks = style[style.index(r"\newcommand*\jb@verbatimbreaks") :]
    breaks = breaks[: breaks.index("\n\\let")]
    # No break at a dot, an underscore, a hyphen, a slash or a bracket: only after a comma.
    assert r"\let\sphinxbreaksbeforelist\@empty" in breaks
    assert r"\let\sphinxbreaksafterlist\@empty" in breaks
    assert r"\let\sphinxbreaksbeforeactivelist\@empty" in breaks
    assert r"\def\sphinxbreaksafteractivelist{\do\,}" in breaks
    assert r"\def\sphinxverbatim@hackfancyvrb{\jb@verbatimbreaks\jb@hackfancyvrb}" in style
    continued = style[style.index(r"\newcommand\jbverbatimcontinued") :]
    assert r"\textcolor{black!45}" in continued[: continued.index("\n\n")]


@pytest.mark.parametrize(("language", "lang"), [("zh_CN", "zh-CN"), ("en", "en-US")])
def test_the_pdfs_metadata_is_in_its_language(latex, language, lang):
    """The book's own description and keywords (``jaxbook.sphinxext.book_texts`` translates
    them; this book has no catalog), and the edition's language."""
    tex, _outdir = latex(language)
    start = tex.index(r"\hypersetup{pdftitle=")
    metadata = tex[start : tex.index("\n", start)]
    assert "pdftitle={小书}" in metadata
    assert "pdfauthor={作者}" in metadata
    assert f"pdflang={{{lang}}}" in metadata
    assert "pdfdisplaydoctitle=true" in metadata
    subject_set = re.search(r"pdfsubject=\{([^}]*)\}", metadata)[1]
    keywords_set = re.search(r"pdfkeywords=\{([^}]*)\}", metadata)[1]
    assert subject_set == "一本用来检查版本的小书"
    assert keywords_set == "小书，版本，检查"


# What a book's conf.py may set that the editions would otherwise set (one of each kind:
# a whole value, a key of a dictionary, a value the EPUB and the PDF each have).
OWN_SETTINGS = {
    "latex_show_urls": "no",
    "latex_engine": "lualatex",
    "latex_elements": {"pointsize": "12pt", "papersize": "a4paper"},
    "numfig_format": {"figure": "Fig. %s"},
    "epub_show_urls": "footnote",
    "epub_title": "Own title",
}


def test_the_books_own_settings_win_over_the_editions(make_app, tmp_path):
    srcdir = book(tmp_path, "zh_CN")
    with (srcdir / "conf.py").open("a", encoding="utf-8") as conf:
        conf.writelines(f"{name} = {value!r}\n" for name, value in OWN_SETTINGS.items())
    app = make_app("latex", srcdir=srcdir)
    config = app.config
    # Kept, and said to be one the editions' preamble is not written for.
    assert "latex_engine is 'lualatex'" in app.warning.getvalue()
    for name, value in OWN_SETTINGS.items():
        if isinstance(value, dict):
            assert {key: config[name][key] for key in value} == value, name
        else:
            assert config[name] == value, name
    # What the book left alone is the editions', beside its own keys.
    assert config.latex_elements["maketitle"] == r"\jbmaketitle"
    assert config.numfig_format["code-block"] == "代码清单 %s"


def _quoted_link_with_a_note(after: str):
    from docutils import nodes
    from docutils.utils import new_document

    document = new_document("test")
    paragraph = nodes.paragraph()
    reference = nodes.reference("", "The Sharp Bits", refuri="https://docs.jax.dev/")
    note = nodes.footnote_reference("", "7", refid="fn7")
    paragraph += [nodes.Text("JAX’s “"), reference, note, nodes.Text(after)]
    document += paragraph
    return document, paragraph


@pytest.mark.parametrize(
    ("after", "expected"),
    [
        ("” page (its list).", "JAX’s “The Sharp Bits”7 page (its list)."),
        ("”.", "JAX’s “The Sharp Bits”.7"),
        (",” and more", "JAX’s “The Sharp Bits,”7 and more"),
        (" and more", "JAX’s “The Sharp Bits7 and more"),
    ],
)
def test_a_notes_mark_follows_the_closing_quote_and_the_punctuation(after, expected):
    """Chicago 14.26: “The Sharp Bits”⁷, where the mark sat inside the quotes, a space before
    the closing one ("“The Sharp Bits7 ”"), or before the comma that US style sets inside
    them (the en editor's “Manual parallelism with shard_map,¹³”)."""
    from jaxbook.sphinxext.editions.layout import marks_after_quotes

    document, paragraph = _quoted_link_with_a_note(after)
    marks_after_quotes(document, "en")
    assert paragraph.astext() == expected


def test_a_chinese_notes_mark_stays_where_the_text_has_it():
    from jaxbook.sphinxext.editions.layout import marks_after_quotes

    document, paragraph = _quoted_link_with_a_note("”页面")
    marks_after_quotes(document, "zh_CN")
    assert paragraph.astext() == "JAX’s “The Sharp Bits7”页面"


@pytest.mark.parametrize(
    ("language", "before", "after", "expected"),
    [
        # "\x00 ": docutils' trace of an escaped space (``\ ）``), which writes nothing.
        ("zh_CN", "已知缺陷（", "\x00 ）。下面", "已知缺陷（jax-ml/jax#37830）11。下面"),
        ("zh_CN", "已知缺陷（", "\x00 。下面", "已知缺陷（jax-ml/jax#3783011。下面"),
        ("en", "known bug (", "). Next", "known bug (jax-ml/jax#37830).11 Next"),
        ("en", "see ", " next", "see jax-ml/jax#3783011 next"),
    ],
)
def test_a_notes_mark_after_a_digit_follows_the_closing_bracket(language, before, after, expected):
    """The zh editor read “（jax-ml/jax#37830¹¹）” as issue 3783011, and the en editor
    “(jax-ml/jax#37830¹¹)”: after a digit the mark follows the closing quotes and brackets,
    in Chinese not the full stop (a 点号), in English the punctuation after them too."""
    from docutils import nodes
    from docutils.utils import new_document

    from jaxbook.sphinxext.editions.layout import marks_after_quotes

    document = new_document("test")
    paragraph = nodes.paragraph()
    issue = "https://github.com/jax-ml/jax/issues/37830"
    reference = nodes.reference("", "jax-ml/jax#37830", refuri=issue)
    # As Sphinx's LaTeX transforms leave it: the link's address as a footnote after the link.
    note = nodes.footnote("", nodes.label("", "11"), nodes.paragraph("", issue), auto=1)
    paragraph += [nodes.Text(before), reference, note, nodes.Text(after)]
    document += paragraph
    marks_after_quotes(document, language)
    # Where the mark is: the footnote's number alone.
    note.remove(note[1])
    assert paragraph.astext() == expected


def test_a_chinese_notes_mark_follows_the_bracket_after_an_issues_number(latex):
    tex, _ = latex("zh_CN")
    assert "jax\\#37830}）%\n\\begin{footnote}" in tex


def test_the_english_edition_sets_one_space_after_a_sentence_and_may_end_a_line_short(latex):
    tex, outdir = latex("en")
    # polyglossia's English set TeX's wider space after a full stop or a colon.
    assert r"\PolyglossiaSetup{english}{frenchspacing=true}" in tex
    assert r"\setlength\emergencystretch{1.5em}" in tex
    # A line may end short, ragged, before inline code that follows a space.
    assert r"\jbraggedbreak{}\sphinxcode" in tex
    style = (outdir / "jaxbook.sty").read_text(encoding="utf-8")
    assert r"\hskip\z@\@plus\jbraggedstretch\penalty200" in style
    assert r"\providecommand\jbraggedstretch{3em}" in style  # English: at most 3 em short
    chinese, _outdir = latex("zh_CN")
    assert r"\def\jbraggedstretch{1fil}" in chinese  # Chinese: short rather than spread
    zh_tex, _outdir = latex("zh_CN")
    assert "frenchspacing" not in zh_tex


def test_the_index_headings_and_header_cells_are_never_hyphenated(latex):
    _tex, outdir = latex("en")
    style = (outdir / "jaxbook.sty").read_text(encoding="utf-8")
    assert r"\AtBeginEnvironment{theindex}{\raggedright\language\jb@nohyphenation" in style
    assert r"\protected\def\sphinxstyletheadfamily{\sffamily\language\jb@nohyphenation" in style
    assert r"\g@addto@macro\py@HeaderFamily{\language\jb@nohyphenation" in style


def test_the_epub_leaves_out_the_last_builds_buildinfo(make_app, tmp_path):
    """After an edit of conf.py, Sphinx 9 keeps the last build's ``.buildinfo`` as
    ``.buildinfo.bak`` in the output; the EPUB builder warned of a file of unknown type."""
    srcdir = book(tmp_path, "en")
    app = make_app("epub", srcdir=srcdir, confoverrides={"language": "en"})
    app.build()
    app = make_app("epub", srcdir=srcdir, confoverrides={"language": "en", "copyright": "2027"})
    app.build()
    assert (app.outdir / ".buildinfo.bak").exists()
    assert ".buildinfo.bak" not in app.warning.getvalue()


def test_the_glyphs_file_serves_every_document_of_the_build(make_app, tmp_path):
    """Every document of ``latex_documents`` loads the one ``jaxbook-glyphs.sty``: it sets the
    signs of all of them, not only those of the document written last."""
    srcdir = book(tmp_path, "zh_CN")
    index = srcdir / "index.rst"
    index.write_text(index.read_text(encoding="utf-8") + "\n推出 ⇒ 结论。\n", encoding="utf-8")
    (srcdir / "extra.rst").write_text(":orphan:\n\n附录\n====\n\n等价 ⇔ 等价。\n", "utf-8")
    documents = [
        ("index", "jaxbook-zh_CN.tex", "书", "作者", "manual"),
        ("extra", "extra.tex", "附录", "作者", "howto"),
    ]
    app = make_app(
        "latex", srcdir=srcdir, confoverrides={"language": "zh_CN", "latex_documents": documents}
    )
    app.build()
    glyphs = (app.outdir / "jaxbook-glyphs.sty").read_text(encoding="utf-8")
    assert r'\newunicodechar{⇒}{\jbglyph{"21D2}}' in glyphs
    assert r'\newunicodechar{⇔}{\jbglyph{"21D4}}' in glyphs


def test_a_line_under_the_title_breaks_at_its_parts_separator():
    """The English cover broke its line under the title as "… to JAX · For" / "JAX 0.12": a
    line that does not fit breaks where its parts meet, the break taking the "·"'s place."""
    from PIL import ImageFont

    from jaxbook.sphinxext import _artwork

    path, index = _artwork.font_face("Noto Sans", "Regular")
    font = ImageFont.truetype(str(path), 72, index=index)
    text = "Chapter 1: Introduction to JAX · For JAX 0.12"
    width = int(font.getlength("Chapter 1: Introduction to JAX · For"))
    assert _artwork.wrapped(text, font, width) == ["Chapter 1: Introduction to JAX", "For JAX 0.12"]
    # A line that fits stays whole, its separator kept.
    assert _artwork.wrapped(text, font, int(font.getlength(text)) + 1) == [text]
