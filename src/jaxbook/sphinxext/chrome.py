"""The theme's interface in the page's language.

Furo passes most of its labels through Sphinx's translator, which reads the project's
``locale/<lang>/LC_MESSAGES/sphinx.po`` before its own catalog. This extension makes
messages of that catalog for the rest, before anything is rendered: the labels furo's
templates write literally and its footer credit (:class:`LiteralLabels`, a Jinja
extension), the sidebar's navigation toggles (``html-page-context``), and the search's
and sphinx-copybutton's messages (``builder-inited``).

Config values: none.
"""

from __future__ import annotations

import importlib
import json
import logging
from typing import TYPE_CHECKING, Any

import polib
from babel.messages.plurals import get_plural
from bs4 import BeautifulSoup
from jinja2.ext import Extension
from sphinx.locale import get_translation

from jaxbook import project
from jaxbook._compat import template_environment
from jaxbook.sphinxext import PARALLEL_SAFE
from jaxbook.sphinxext._locale import catalog_entries, reviewed

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

_ = get_translation("sphinx")

AUTHOR = '<a class="muted-link" href="https://pradyunsg.me">@pradyunsg</a>'
SPHINX_LINK = '<a href="https://www.sphinx-doc.org/">Sphinx</a>'
FURO_LINK = '<a href="https://github.com/pradyunsg/furo">Furo</a>'
# furo's credit, as its footer writes it: "Made with ", "Sphinx and " and "Furo" are three
# messages around a literal "@pradyunsg's".
FURO_CREDIT = (
    "{% trans %}Made with {% endtrans -%}\n"
    "            {%- if show_sphinx -%}\n"
    f"            {{% trans %}}{SPHINX_LINK} and {{% endtrans -%}}\n"
    f"            {AUTHOR}'s\n"
    "            {% endif -%}\n"
    "            {% trans %}\n"
    f"            {FURO_LINK}\n"
    "            {% endtrans %}"
)
# The credit as one message, its links placeholders that a translation puts where its
# language says them ("Hecho con %(sphinx)s y %(furo)s de %(author)s"): in furo's three
# pieces, no language could put them in its own order.
CREDIT = "Made with %(sphinx)s and %(author)s's %(furo)s"
CREDIT_WITHOUT_SPHINX = "Made with %(furo)s"  # html_show_sphinx = False
CREDIT_CALL = (
    "{%- if show_sphinx -%}\n"
    "{#- Translators: The theme's credit at the foot of every page: %(sphinx)s and %(furo)s "
    'are the links "Sphinx" and "Furo", %(author)s is its author, "@pradyunsg". -#}\n'
    f"{{{{ _({CREDIT!r})|format(sphinx={SPHINX_LINK!r}, author={AUTHOR!r}, "
    f"furo={FURO_LINK!r}) }}}}\n"
    "{%- else -%}\n"
    "{#- Translators: The theme's credit at the foot of every page, where the book does not "
    'name Sphinx: %(furo)s is the link "Furo". -#}\n'
    f"{{{{ _({CREDIT_WITHOUT_SPHINX!r})|format(furo={FURO_LINK!r}) }}}}\n"
    "{%- endif %}"
)
# sphinx-copybutton's labels, by its keys, and the messages that translate them.
COPY_BUTTON = {
    "copy": "Copy",
    "copy_to_clipboard": "Copy to clipboard",
    "copy_success": "Copied!",
    "copy_failure": "Failed to copy",
}
NAVIGATION_TOGGLE = "Toggle navigation of %(title)s"
# The script's own line that picks its language, before which its table is completed.
COPY_BUTTON_LOCALE = "let locale = 'en'"


def literal_labels() -> list[tuple[str, tuple[str, ...], str]]:
    """Each label a template writes literally or in pieces: (its text there, its messages,
    the gettext calls that replace it)."""
    labels: list[tuple[str, tuple[str, ...], str]] = [
        (f'aria-label="{label}"', (label,), f'aria-label="{{{{ _({label!r})|e }}}}"')
        for label in (
            "Toggle site navigation sidebar",
            "Toggle table of contents sidebar",
            "Toggle Light / Dark / Auto color theme",
        )
    ]
    labels += [
        (f"<title>{title}</title>", (title,), f"<title>{{{{ _({title!r})|e }}}}</title>")
        for title in (
            "Contents",
            "Menu",
            "Expand",
            "Light mode",
            "Dark mode",
            "Auto light/dark, in light mode",
            "Auto light/dark, in dark mode",
        )
    ]
    labels.append((FURO_CREDIT, (CREDIT, CREDIT_WITHOUT_SPHINX), CREDIT_CALL))
    return labels


LITERALS = literal_labels()
# The messages that no template or script names through gettext (for the template).
SCRIPT_MESSAGES = (*COPY_BUTTON.values(), NAVIGATION_TOGGLE)


class LiteralLabels(Extension):
    """Jinja's preprocessing: each literal label of a theme's template becomes a gettext
    call, and sphinx-copybutton's table of messages gets the catalog's for the language.

    Why: furo writes these labels literally (``LITERALS``) and its credit in three pieces
    around a literal "@pradyunsg's"; sphinx-copybutton keeps its labels in a table of its
    ``copybutton.js_t``; no catalog can reach either, and no block or setting replaces them
    short of copying whole templates.
    Upstream: furo's templates (``base.html``, ``page.html``, ``partials/icons.html``) and
    sphinx-copybutton's ``copybutton.js_t``.
    Written against: furo 2025.12.19 and sphinx-copybutton 0.5.2
    (``tests/sphinxext/test_chrome.py`` fails where a label is no longer in a template).
    Remove when: furo passes every label through ``_()``, its credit as one message, and
    sphinx-copybutton takes its labels from Sphinx's catalog.

    :mod:`jaxbook.sphinxext.interface` extracts the templates through it too, so the
    theme's template ``locale/pot/sphinx.pot`` holds these messages.
    """

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        # No hook short of this: furo writes them inside blocks that hold the whole page.
        for text, _messages, call in LITERALS:
            source = source.replace(text, call)
        return source.replace(
            COPY_BUTTON_LOCALE, "{{ jaxbook_copybutton_messages }}\n" + COPY_BUTTON_LOCALE
        )


def project_catalog(app: Sphinx) -> list[polib.POEntry]:
    """The reviewed entries of the project's own ``sphinx.po`` for this language."""
    entries = catalog_entries(app.srcdir, app.config, project.THEME_DOMAIN)
    return [e for e in entries.values() if reviewed(e)]


def search_messages(app: Sphinx, entries: list[polib.POEntry]) -> str | None:
    """The inline script that adds the catalog's messages of Sphinx's scripts to its own.

    Sphinx copies ``translations.js`` from its own catalog; this script, run after it, adds
    the project catalog's with ``Documentation.addTranslations``, so the search speaks as
    the book does (你, not 您)."""
    messages: dict[str, Any] = {}
    for entry in entries:
        if not any(file.endswith(".js") for file, _line in entry.occurrences):
            continue
        if entry.msgid_plural:
            messages[entry.msgid] = [entry.msgstr_plural[n] for n in sorted(entry.msgstr_plural)]
        else:
            messages[entry.msgid] = entry.msgstr
    if not messages:
        return None
    catalog = {
        "messages": messages,
        "plural_expr": get_plural(app.config.language).plural_expr,
        "locale": app.config.language,
    }
    return f"Documentation.addTranslations({json.dumps(catalog, ensure_ascii=False)});"


def copy_button_messages(app: Sphinx, entries: list[polib.POEntry]) -> str:
    """The statement that completes sphinx-copybutton's table for the page's language.

    Its labels live in its ``copybutton.js_t``, which Sphinx renders with the template
    environment :class:`LiteralLabels` extends: the statement goes in before the script
    picks its labels."""
    translated = {e.msgid: e.msgstr for e in entries if e.msgstr}
    labels = {key: translated[msgid] for key, msgid in COPY_BUTTON.items() if msgid in translated}
    if not labels:
        return ""
    lang = json.dumps(project.bcp47(app.config.language))
    return (
        f"messages[{lang}] = Object.assign({{}}, messages.en, messages[{lang}] || {{}}, "
        f"{json.dumps(labels, ensure_ascii=False)});"
    )


def set_up_builder(app: Sphinx) -> None:
    environment = template_environment(app.builder)
    if environment is not None:
        environment.add_extension(LiteralLabels)
    if app.builder.format != "html":
        return
    entries = project_catalog(app)
    script = search_messages(app, entries)
    if script:
        # After Sphinx's translations.js (priority 500), which it copies from its own catalog.
        app.add_js_file(None, body=script, priority=510)
    # Not a page's context (html-page-context): the one template that reads this value is
    # sphinx-copybutton's copybutton.js_t, a static file, which the builder renders as it
    # copies its assets, before it writes any page, with its global context alone, made
    # from html_context after this event.
    app.config.html_context = {
        **app.config.html_context,
        "jaxbook_copybutton_messages": copy_button_messages(app, entries),
    }


def translate_navigation(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Name each navigation toggle in the page's language, on the tree furo made.

    Why: furo's Python writes each toggle's label, "Toggle navigation of <title>", in
    English into the HTML of the sidebar's tree, which reaches the template as a string.
    Upstream: furo's ``navigation.get_navigation_tree``.
    Written against: furo 2025.12.19.
    Remove when: furo translates the label (through Sphinx's catalog), or leaves it to a
    template.
    """
    tree = context.get("furo_navigation_tree")
    if not tree or str(_(NAVIGATION_TOGGLE)) == NAVIGATION_TOGGLE:
        return
    # No hook but this context value: furo's Python writes the label in English.
    soup = BeautifulSoup(tree, "html.parser")
    for checkbox in soup.select("input.toctree-checkbox"):
        link = checkbox.parent.find("a") if checkbox.parent else None
        if link is not None:
            checkbox["aria-label"] = str(_(NAVIGATION_TOGGLE)) % {"title": link.text}
    context["furo_navigation_tree"] = str(soup)


# The Pygments styles that furo's dependency accessible-pygments adds; importing the package
# calls logging.basicConfig(level=logging.INFO).
STYLE_PLUGINS = "a11y_pygments"


def quiet_style_plugins() -> None:
    """Import the style plugins that configure the root logger, and keep it as it was.

    Without this, furo's Pygments styles set the root logger to INFO when Pygments first
    looks for a style, and every library's INFO lines (JAX's "Unable to initialize backend
    'tpu'") fill the build's output."""
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    try:
        importlib.import_module(STYLE_PLUGINS)
    except ImportError:
        return  # a theme without them
    finally:
        root.setLevel(level)
        root.handlers[:] = handlers


def setup(app: Sphinx) -> ExtensionMetadata:
    quiet_style_plugins()
    app.connect("builder-inited", set_up_builder)
    # After furo's own handler (priority 500), which makes the navigation tree.
    app.connect("html-page-context", translate_navigation, priority=600)
    return {"version": "1.0", **PARALLEL_SAFE}
