# Figures, tables and listings in two chapters, numbered per chapter in every edition, and
# references to them by number.
extensions = ["jaxbook.sphinxext.editions"]
language = "zh_CN"
project = "小书"
author = "作者"
jaxbook_publisher = "小书出版组"
release = version = "1.0"
jaxbook_edition_date = "2026-12"
