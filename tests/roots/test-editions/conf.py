# The editions' LaTeX and EPUB set up for a small book, in the language a test asks for.
extensions = ["jaxbook.sphinxext.editions"]
language = "zh_CN"
project = "小书"
author = "作者"
jaxbook_publisher = "小书出版组"
jaxbook_translators = {"en": "小书译者"}
jaxbook_credit = '整理自课程<a href="https://example.org/course">《课程》</a>。'
release = version = "1.0"
jaxbook_edition_date = "2026-12"
# The book's settings of Sphinx that do not depend on the language (its conf.py's).
numfig = True
numfig_secnum_depth = 0
html_secnumber_suffix = " "
latex_engine = "xelatex"
latex_docclass = {}
latex_show_urls = "footnote"
latex_domain_indices = False
latex_use_xindy = False
epub_show_urls = "no"
epub_tocscope = "includehidden"
epub_uid = "bookid"
epub_cover = ("_static/jaxbook-cover.png", "jaxbook-epub-cover.html")
