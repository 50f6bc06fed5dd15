"""The course's own Sphinx extensions, one module per feature.

- :mod:`jaxbook.sphinxext.pairs`: the ❌ outdated / ✅ recommended pair directives.
- :mod:`jaxbook.sphinxext.notebooks`: each page as a runnable notebook in its language.
- :mod:`jaxbook.sphinxext.notes`: ⚠️ update notes and the generated update-notes table.
- :mod:`jaxbook.sphinxext.snippets`: show a ``snippets/`` script and stage it for its doctest.
- :mod:`jaxbook.sphinxext.terms`: the `:zh:` role for deliberate Chinese term mentions.
- :mod:`jaxbook.sphinxext.testplot`: a doctested code cell whose figure is drawn at build time.
- :mod:`jaxbook.a11y`: keyboard-reachable code blocks and labelled headings.
- :mod:`jaxbook.sphinxext.backend_tabs`: CPU and GPU expected outputs shown as tabs.
- :mod:`jaxbook.sphinxext.cjk`: no stray spaces where Chinese prose breaks a line.
- :mod:`jaxbook.sphinxext.guards`: build-time checks that keep every code cell honest.
- :mod:`jaxbook.sphinxext.languages`: language switcher, hreflang and canonical links.
- :mod:`jaxbook.sphinxext.mathml`: math rendered to MathML at build time.
- :mod:`jaxbook.sphinxext.search_terms`: the glossary as a jieba dictionary for Chinese search.
- :mod:`jaxbook.sphinxext.doctest_lines`: failing `testcode` blocks reported at their own line.
- :mod:`jaxbook.sphinxext.translation_status`: a notice on pages not fully translated.
- :mod:`jaxbook.sphinxext.fonts`: the fonts matplotlib draws with, found through fontconfig.
"""
