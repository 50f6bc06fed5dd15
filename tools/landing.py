"""Write the root ``index.html`` that sends a reader to one language's site.

    python tools/landing.py _build/html zh_CN [en ...]

The first language is the default. Browsers that ask for another listed
language (``navigator.languages``) are sent there instead; without JavaScript
the meta refresh goes to the default, and the page lists every language.
"""

from __future__ import annotations

import html
import json
import sys
from pathlib import Path

NAMES = {"zh_CN": "简体中文", "en": "English"}

TEMPLATE = """<!DOCTYPE html>
<html lang="{default_lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>JAX 入门 · Getting started with JAX</title>
<meta http-equiv="refresh" content="0; url={default}/index.html">
<link rel="canonical" href="{default}/index.html">
<script>
(function () {{
  var sites = {sites};
  var wanted = navigator.languages || [navigator.language || ""];
  for (var i = 0; i < wanted.length; i++) {{
    var tag = wanted[i].toLowerCase();
    for (var j = 0; j < sites.length; j++) {{
      if (tag.indexOf(sites[j].prefix) === 0) {{
        window.location.replace(sites[j].dir + "/index.html");
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


def main() -> int:
    root = Path(sys.argv[1])
    languages = sys.argv[2:]
    if not languages:
        sys.exit("usage: landing.py HTML_ROOT LANGUAGE [LANGUAGE ...]")
    sites = [{"dir": lang, "prefix": lang.split("_")[0].lower()} for lang in languages]
    links = "\n".join(
        f'<li><a href="{lang}/index.html" hreflang="{lang.replace("_", "-")}">'
        f"{html.escape(NAMES.get(lang, lang))}</a></li>"
        for lang in languages
    )
    page = TEMPLATE.format(
        default=languages[0],
        default_lang=languages[0].replace("_", "-"),
        sites=json.dumps(sites),
        links=links,
    )
    (root / "index.html").write_text(page, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
