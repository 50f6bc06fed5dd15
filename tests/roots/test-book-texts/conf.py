# A book whose title, authors, publisher, translators and credit are translated in its catalogs, as the book's are.
from pathlib import Path

extensions = ["jaxbook.sphinxext.book_texts"]
language = "zh_CN"
locale_dirs = [str(Path(__file__).resolve().parent / "locale")]
gettext_compact = False
templates_path = ["_templates"]
project = "小书"
author = "小书的作者"
jaxbook_publisher = "小书项目"
jaxbook_translators = {"en": "The small book's translators"}  # in the translation's language
copyright = f"2026 {author}"
jaxbook_course_url = {"zh_CN": "https://example.org/zh/course", "en": "https://example.org/course"}
jaxbook_credit = '整理自课程<a href="%(course)s/one">《课程》</a>。'
jaxbook_description = "一本依据课程整理的小书"
jaxbook_keywords = "小书，课程"
