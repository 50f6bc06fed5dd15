# A book of three small pages (reST and MyST) and their English catalogs, with the
# book's gettext settings: what the catalog tools (update-po, sphinx-intl, the loss
# check) are tested on, without the book's extensions.
from pathlib import Path

extensions = ["myst_parser", "sphinx.ext.doctest"]
myst_enable_extensions = ["colon_fence"]
root_doc = "index"
language = "zh_CN"
locale_dirs = [str(Path(__file__).resolve().parent / "locale")]
gettext_compact = False
gettext_additional_targets = ["literal-block"]
project = "入门小书"
