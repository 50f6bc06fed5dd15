"""Write the root ``index.html`` that sends a reader to one language's site.

    jaxbook landing _build/html zh_CN [en ...]

The first language is the default. Browsers that ask for another listed
language (``navigator.languages``) are sent there instead, unless
``locale/languages.csv`` lists it as a ``draft``: a draft edition is built and
linked for its translators, and no reader is sent to it. Without JavaScript
the meta refresh goes to the default, and the page lists every language, a
draft marked as one.
"""

from __future__ import annotations

import argparse
import html
import json
import re
from pathlib import Path

from jaxbook import project

TEMPLATE = """<!DOCTYPE html>
<html lang="{default_lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<meta http-equiv="refresh" content="0; url={default}/{home}">
<link rel="canonical" href="{default}/{home}">
<script>
(function () {{
  var sites = {sites};
  var wanted = navigator.languages || [navigator.language || ""];
  for (var i = 0; i < wanted.length; i++) {{
    var tag = wanted[i].toLowerCase();
    for (var j = 0; j < sites.length; j++) {{
      if (tag.indexOf(sites[j].prefix) === 0) {{
        window.location.replace(sites[j].dir + "/{home}");
        return;
      }}
    }}
  }}
}})();
</script>
</head>
<body>
<ul>
{links}
</ul>
</body>
</html>
"""


TITLE = re.compile(r"<title>([^<]*)</title>")


def book_title(site: Path, home: str = "index.html") -> str | None:
    """The title of a built site's home page (as escaped HTML), if it has been built."""
    page = site / home
    found = TITLE.search(page.read_text(encoding="utf-8")) if page.is_file() else None
    return found[1] if found else None


def write(root: Path, languages: list[str], home: str = "index.html") -> Path:
    """``root/index.html``, which sends a reader to ``<language>/<home>`` (the guides' home
    page is their root page's, ``contributing.html``)."""
    listed = project.languages()
    names = {code: language.name for code, language in listed.items()}
    drafts = {code for code, language in listed.items() if language.draft}
    offered = [lang for lang in languages if lang not in drafts]
    # The book's title in each language offered, once each ("JAX 入门 · Getting Started with JAX").
    titles = [
        book_title(root / lang, home) or html.escape(names.get(lang, lang)) for lang in offered
    ]
    sites = [{"dir": lang, "prefix": lang.split("_")[0].lower()} for lang in offered]
    links = "\n".join(
        f'<li><a href="{lang}/{home}" hreflang="{project.bcp47(lang)}">'
        f"{html.escape(names.get(lang, lang))}</a>{' (draft)' if lang in drafts else ''}</li>"
        for lang in languages
    )
    page = TEMPLATE.format(
        title=" · ".join(dict.fromkeys(titles)),
        default=languages[0],
        default_lang=project.bcp47(languages[0]),
        sites=json.dumps(sites),
        links=links,
        home=home,
    )
    (root / "index.html").write_text(page, encoding="utf-8")
    return root / "index.html"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("html_root", type=Path)
    parser.add_argument("languages", nargs="+", help="the first is the default")


def run(args: argparse.Namespace) -> int:
    write(args.html_root, args.languages)
    return 0
