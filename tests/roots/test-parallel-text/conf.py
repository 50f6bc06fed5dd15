# cjk: the book joins Chinese lines without a space, in the messages too.
extensions = ["jaxbook.sphinxext.cjk", "jaxbook.sphinxext.terms", "jaxbook.sphinxext.parallel_text"]
language = "zh_CN"
locale_dirs = ["locale/"]
gettext_compact = False
# The Chinese pages show the English beside each passage.
jaxbook_parallel_languages = ("zh_CN", "en")
