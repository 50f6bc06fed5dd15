"""Sphinx configuration for every language of the book.

- The source is Chinese (``zh_CN``). Every other edition is the same source built with
  ``-D language=<code>`` and the catalogs in ``locale/``; ``locale/languages.csv`` lists
  the languages (``jaxbook.project``).
- The texts below are the source's. A translation's come from its catalogs
  (``jaxbook.sphinxext.book_texts``).
- Every setting of Sphinx and of the extensions is written here, except those the tests'
  small books share too, which are imported by name from ``jaxbook.sphinx_settings``.
- An extension computes a setting only where it depends on what a build is given after
  this file runs: its language, the texts translated for it, its output and doctree
  directories. Each gives way to a value set here; ``jaxbook.sphinxext._settings`` lists
  them.
- The guides (``guides/``) have a ``conf.py`` of their own, which reads this one, so what
  is set here holds for them too.
"""

from __future__ import annotations

import doctest
import os
from pathlib import Path

from jaxbook.formats import recorded_on
from jaxbook.project import GLOSSARY, SOURCE_LANGUAGE, SOURCE_SUFFIX, languages, pinned_release

# The settings of Sphinx that hold in every language, which the test books under tests/roots
# share: each is set here by this import, and said why beside its value there.
from jaxbook.sphinx_settings import (  # noqa: F401  # settings, which Sphinx reads
    epub_cover,
    epub_show_urls,
    epub_tocdup,
    epub_tocscope,
    epub_uid,
    html_secnumber_suffix,
    latex_docclass,
    latex_domain_indices,
    latex_engine,
    latex_show_urls,
    latex_use_xindy,
    numfig,
    numfig_secnum_depth,
)

# -- Project information -----------------------------------------------------

# The root page's title; a translation's is that title's, from the root page's catalog.
project = "JAX 入门"
# Who wrote the book and who publishes it, in the source language; a translation names them
# through its book.po (jaxbook.sphinxext.book_texts), and its translators are listed beside
# its language in locale/languages.csv. The title page, the copyright page and the EPUB's
# metadata take them from here. No person is named: the project's authors wrote the book,
# its translators translated it, and the project publishes it (a creator who is not also
# the publisher, as a publisher's metadata has them).
author = "《JAX 入门》双语版作者"
jaxbook_publisher = "《JAX 入门》双语版项目"
# How a sentence (a credit line: "Published by the Bilingual JAX Book Project") names the authors,
# the translators and the publisher; %(name)s is the name. A translation adds the article its
# language puts before such a name, which the name alone (the imprint, the EPUB's metadata, the
# copyright line) goes without.
jaxbook_name_in_text = "%(name)s"
# What this edition of the book holds, in the line under its title ("第 1 章 JAX 简介（适用于
# JAX 0.12）") on the title page, the cover and the website's sidebar.
jaxbook_scope = "第 1 章 JAX 简介"
# What the book is, in a sentence (the EPUB's description, the PDF's subject), and the words
# a library finds it by (the PDF's keywords).
jaxbook_description = "一本学习 JAX 的入门书，依据 ApX Machine Learning 的课程《JAX 入门》整理"
jaxbook_keywords = "JAX，NumPy，Python，自动微分，即时编译，向量化，XLA"
# The copyright line claims only what the project owns; the course is credited beside it.
copyright = f"2026 {author}"
# The edition: its number and the month it came out. The copyright pages of the PDF and the
# EPUB and every page of the website state it ("First edition, December 2026", "第 1 版，2026
# 年 12 月"); the EPUB's version is its number, and its identifier is the edition's
# (jaxbook.sphinxext.editions). A corrected build of an edition keeps both.
jaxbook_edition = 1
# ... and the JAX release it runs on: the title page and the copyright page say it in a
# sentence, the EPUB's version is the number.
release = version = pinned_release(Path(__file__).resolve().parent)
jaxbook_edition_date = "2026-12"
# The course the book is drawn from, in each language it is published in
# (the :course: role of jaxbook.sphinxext.facts links to a page of it).
jaxbook_course_url = {
    "zh_CN": "https://apxml.com/zh/courses/getting-started-with-jax",
    "en": "https://apxml.com/courses/getting-started-with-jax",
}
# Every page's footer; a message of locale/<language>/LC_MESSAGES/book.po.
jaxbook_credit = (
    '本书整理自 ApX Machine Learning 的课程<a href="%(course)s">'
    "《JAX 入门》</a>，课程的内容和示例归其所有。"
    "本书原创的文字及其译文以 CC BY 4.0 许可提供；构建和检查本书的工具代码以 MIT 许可证提供。"
)


# -- General configuration ---------------------------------------------------

extensions = [
    "sphinx.ext.doctest",
    "sphinx_copybutton",
    "sphinx_design",
    # MyST Markdown pages (jaxbook.sphinxext.myst_i18n fixes how their messages translate).
    "myst_parser",
    # Link previews and the 404 page: set below, and in each language by
    # jaxbook.sphinxext.discovery.
    "sphinxext.opengraph",
    "notfound.extension",
    "jaxbook.sphinxext.api_names",
    "jaxbook.sphinxext.backend_tabs",
    "jaxbook.sphinxext.book_index",
    "jaxbook.sphinxext.book_texts",
    "jaxbook.sphinxext.chrome",
    "jaxbook.sphinxext.cjk",
    "jaxbook.sphinxext.discovery",
    "jaxbook.sphinxext.drift_report",
    "jaxbook.sphinxext.editions",
    "jaxbook.sphinxext.evidence_column",
    "jaxbook.sphinxext.facts",
    "jaxbook.sphinxext.fonts",
    "jaxbook.sphinxext.glossary",
    "jaxbook.sphinxext.guards",
    "jaxbook.sphinxext.html_translator",
    "jaxbook.sphinxext.interface",
    "jaxbook.sphinxext.languages",
    "jaxbook.sphinxext.latex_translator",
    "jaxbook.sphinxext.mathml",
    "pagerun.sphinxext.measured",
    "jaxbook.sphinxext.myst_i18n",
    "jaxbook.sphinxext.search_index",
    "jaxbook.sphinxext.search_terms",
    "jaxbook.sphinxext.selfcheck",
    "jaxbook.sphinxext.pairs",
    "jaxbook.sphinxext.pinyin_index",
    # The places of the book's examples and notes, for the lab's report in the guides.
    "jaxbook.sphinxext.places",
    "jaxbook.sphinxext.notebooks",
    "jaxbook.sphinxext.notes",
    "jaxbook.sphinxext.numbering",
    "pagerun.sphinxext.run",
    "jaxbook.sphinxext.parallel_text",
    "jaxbook.sphinxext.snippets",
    "jaxbook.sphinxext.terms",
    "pagerun.sphinxext.testplot",
    "jaxbook.sphinxext.translation_status",
    # A sitemap holds absolute URLs: only a deploy build (JAXBOOK_SITE_URL set) writes one.
    # Loaded for every build all the same, so that a deploy's build reads (and runs)
    # nothing the site's build read: a changed list of extensions reads every page again.
    "sphinx_sitemap",
    # Each page dated by its last commit ("last updated"), in a checkout and an archive alike.
    "sphinx_last_updated_by_git",
]
# Without a site URL it writes none, and would say "html_baseurl is required" (the same
# setting in every build, since a changed one reads every page again too).
suppress_warnings = ["sitemap.configuration"]
if not (Path(__file__).resolve().parent / ".git").exists():
    # A source archive has no history: its pages carry no date, which the dates' extension
    # would warn of, page directory by page directory.
    suppress_warnings.append("git.subprocess_error")
root_doc = "index"
# A page is reStructuredText or MyST Markdown; jaxbook.sphinxext.myst_i18n loads
# myst_parser and keeps a MyST page's translated code blocks code.
source_suffix = SOURCE_SUFFIX
exclude_patterns = ["_build", "**/_*.rst", "**/_*.md"]
templates_path = ["docs/_templates"]
nitpicky = True
# Figures, tables and code listings are numbered (numfig, numfig_secnum_depth) as the
# settings imported above from jaxbook.sphinx_settings say.

# -- Internationalisation ----------------------------------------------------

language = SOURCE_LANGUAGE
# Absolute, because Sphinx resolves a relative entry from the source directory
# (docs/) and sphinx-intl from this file's directory: one path for both.
locale_dirs = [str(Path(__file__).resolve().parent / "locale")]
gettext_compact = False
# "index": the pages' own index entries (``.. index::``, concepts and "see" entries) are
# messages, so that each language's index names them in its words; the entries the
# extensions make (a glossary term's, an API's first mention) are made in the page's
# language and are not.
gettext_additional_targets = ["literal-block", "index"]
# Chinese text takes full-width quotes as written; smart quotes would garble it.
smartquotes_excludes = {
    "languages": ["zh_CN", "ja", "ko"],
    "builders": ["man", "text"],
}

# -- MyST Markdown -----------------------------------------------------------
# https://myst-parser.readthedocs.io/en/latest/configuration.html

# ":::" fences hold the directives whose body is prose with code fences inside
# (a pair's halves, an update note, a quiz answer).
myst_enable_extensions = ["colon_fence"]

# -- Doctest -----------------------------------------------------------------
# https://www.sphinx-doc.org/en/master/usage/extensions/doctest.html

# IGNORE_EXCEPTION_DETAIL is left out on purpose: the pages print JAX's
# exact error messages, and the doctests check them. NORMALIZE_WHITESPACE
# forgives the trailing space and newline that print() leaves.
doctest_default_flags = (
    doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1 | doctest.NORMALIZE_WHITESPACE
)
doctest_global_setup = """
from jaxbook.doctest.runtime import *
keep_settings()
watch_warnings()
check_key_reuse()
"""
doctest_global_cleanup = """
stop_checking_key_reuse()
close_figures()
unwatch_warnings()
settings_left_as_found()
"""
doctest_test_doctest_blocks = "default"

# -- pagerun: each page's code run once, while it is read (dev/how-it-works.md) -----

# Where a page that shows a measurement ran: JAX's backend, device and release.
pagerun_where = "jaxbook.doctest.runtime:where"
# ... and the label that says so over each measured output, in the page's language.
pagerun_measured_label = "jaxbook.sphinxext.backend_tabs:measured_label"
# A testplot's figure goes after the tabs of its cell's outputs per backend.
pagerun_printed_nodes = ["jaxbook.sphinxext.backend_tabs:backend_tabs"]
# The PDF prints a figure at its text width: 300 pixels to the inch at that size (a web page
# shows the same image scaled to its column).
pagerun_figure_dpi = 300
# What changes what the pages print, besides Python and the installed packages: the runtime
# the global setup imports, and the variables of JAX, XLA, the CUDA and TPU stacks, and the
# book's own switch (the book's other variables, such as the deploy's URLs, change nothing).
pagerun_input_modules = ["jaxbook.doctest.runtime"]
pagerun_environment = ["JAX_", "XLA_", "CUDA", "NVIDIA", "TPU", "JAXBOOK_RUN_UNRECORDED"]
# Where compiled programs are kept changes how fast the pages run, not what they print; JAX
# sets the other when it is imported, if it is unset (a cloud query).
pagerun_environment_ignored = ["JAX_COMPILATION_CACHE_DIR", "TPU_SKIP_MDS_QUERY"]

# -- jaxbook ----------------------------------------------------------------

jaxbook_snippets_dir = "../snippets"
# Relative to the source directory, docs/.
jaxbook_glossary = f"../{GLOSSARY.as_posix()}"
# Written by `make evidence`: where each noted behaviour changed, by JAX release.
jaxbook_release_evidence = "release-evidence.json"
# Where each accelerator's tabs were recorded (`jaxbook-lab bundle run --record` on that
# machine, then `jaxbook-lab record`): the GPU's by hand from that run's report; the TPU's from
# its committed record, which the lab's packages/jaxbook-lab/tests/test_recorded_outputs.py
# holds the pages to.
jaxbook_recorded_on = {
    "gpu": {
        "device": "NVIDIA H200",
        "platform": "CUDA 13",
        "python": "3.12",
        "jax": "0.12.0.1",
        "date": "2026-11-29",
    },
    "tpu": recorded_on(Path(__file__).resolve().parent / "records" / "tpu" / "zh_CN.json"),
}
BOOK_LANGUAGES = languages(Path(__file__).resolve().parent)
jaxbook_languages = {code: language.name for code, language in BOOK_LANGUAGES.items()}
# A draft edition says so on every page; the landing page sends no reader to it.
jaxbook_draft_languages = [code for code, language in BOOK_LANGUAGES.items() if language.draft]
jaxbook_translators = {
    code: language.translators for code, language in BOOK_LANGUAGES.items() if language.translators
}
# The Chinese pages show the first finished translation beside each passage; a translated
# page shows the Chinese it was translated from.
jaxbook_parallel_languages = (
    SOURCE_LANGUAGE,
    next((code for code, language in BOOK_LANGUAGES.items() if language.status == "done"), ""),
)

# -- sphinx-copybutton -------------------------------------------------------
# https://sphinx-copybutton.readthedocs.io/en/latest/use.html

# Code cells only: expected outputs (testoutput, rendered as "none") get no button.
copybutton_selector = ", ".join(
    f"div.highlight-{language} div.highlight pre" for language in ("python", "pycon", "bash", "rst")
)
copybutton_exclude = ".linenos, .gp, .go"
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True

# -- HTML output -------------------------------------------------------------
# https://pradyunsg.github.io/furo/customisation/

html_theme = "furo"
html_sidebars = {
    "**": [
        "sidebar/brand.html",
        "jaxbook-subtitle.html",
        "sidebar/search.html",
        "jaxbook-language.html",
        "jaxbook-editions.html",
        "sidebar/scroll-start.html",
        "sidebar/navigation.html",
        "jaxbook-index.html",
        "sidebar/scroll-end.html",
    ],
}
html_favicon = "docs/_static/favicon.svg"
html_math_renderer = "mathml"
# Chinese search segments with jieba; jaxbook.sphinxext.search_terms adds the glossary's
# terms to its dictionary so that 向量化 is not cut into 向 / 量化.
html_search_options = {}

html_title = project
html_static_path = ["docs/_static"]
html_css_files = ["jaxbook.css"]
# html_last_updated_fmt is left to jaxbook.sphinxext.discovery: a day as the build's
# language writes it ("2026 年 12 月 6 日", "December 6, 2026").
html_copy_source = False
# html_secnumber_suffix: jaxbook.sphinx_settings's, imported above.

# -- Link previews, sitemap, last-updated dates ------------------------------
# jaxbook.sphinxext.discovery sets what depends on the build's language: notfound_urls_prefix
# and notfound_context (the 404 page), ogp_site_name (the translated title), ogp_site_url and
# ogp_social_cards, html_last_updated_fmt.

# The description meta tag too, from the page's opening paragraph.
ogp_enable_meta_description = True
# sphinx_last_updated_by_git: a page's date as a meta tag too.
git_last_updated_metatags = True
# A deploy build's address (jaxbook.sphinxext.languages reads the same variable): the
# sitemap lists each page with its other languages' under <site>/<language>/.
SITE = os.environ.get("JAXBOOK_SITE_URL", "").rstrip("/")
if SITE:
    # Not html_baseurl: Sphinx would write a second canonical link, without the language;
    # jaxbook.sphinxext.languages writes the right one.
    site_url = f"{SITE}/"
    sitemap_url_scheme = "{lang}{link}"
    sitemap_locales = list(jaxbook_languages)
    sitemap_excludes = ["search.html", "genindex.html", "404.html"]

# -- LaTeX (PDF) and EPUB ----------------------------------------------------
# jaxbook.sphinxext.editions sets what depends on the build's language and its translated
# texts (latex_documents, latex_elements' keys this file does not set, the epub_* names,
# copyright, language, identifier, description, pre_files, guide, css_files) and adds its
# style files to latex_additional_files and its web-only files to epub_exclude_files.
# The rest, the same in every language (latex_engine xelatex, latex_docclass,
# latex_show_urls, latex_domain_indices, latex_use_xindy, epub_show_urls, epub_tocscope,
# epub_uid, epub_cover), is jaxbook.sphinx_settings's, imported above.
