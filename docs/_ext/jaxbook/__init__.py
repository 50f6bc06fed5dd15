"""The course's own Sphinx extensions, one module per feature.

- :mod:`jaxbook.pairs`: the ❌ outdated / ✅ recommended pair directives.
- :mod:`jaxbook.notebooks`: each page as a runnable notebook in its language.
- :mod:`jaxbook.notes`: ⚠️ update notes and the generated update-notes table.
- :mod:`jaxbook.snippets`: show a ``snippets/`` script and stage it for its doctest.
- :mod:`jaxbook.terms`: the `:zh:` role for deliberate Chinese term mentions.
- :mod:`jaxbook.testplot`: a doctested code cell whose figure is drawn at build time.
- :mod:`jaxbook.a11y`: keyboard-reachable code blocks and labelled headings.
- :mod:`jaxbook.backend_tabs`: CPU and GPU expected outputs shown as tabs.
- :mod:`jaxbook.cjk`: no stray spaces where Chinese prose breaks a line.
- :mod:`jaxbook.guards`: build-time checks that keep every code cell honest.
- :mod:`jaxbook.languages`: language switcher, hreflang and canonical links.
- :mod:`jaxbook.mathml`: math rendered to MathML at build time.
- :mod:`jaxbook.search_terms`: the glossary as a jieba dictionary for Chinese search.
- :mod:`jaxbook.doctest_lines`: failing `testcode` blocks reported at their own line.
- :mod:`jaxbook.translation_status`: a notice on pages not fully translated.
- :mod:`jaxbook.doctest_runtime`: helpers the doctest global setup imports.
"""
