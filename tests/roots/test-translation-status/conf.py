# Two pages and their English catalogs: one fully translated, one with an empty, a
# fuzzy and a missing entry (its source changed after the catalog was merged).
extensions = ["jaxbook.sphinxext.translation_status"]
language = "zh_CN"
locale_dirs = ["locale/"]
gettext_compact = False
