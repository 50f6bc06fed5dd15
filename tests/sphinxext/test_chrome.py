"""The Chinese interface catalog compiles, and holds only strings the theme uses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import furo
import jinja2
import polib
import sphinx_copybutton

from jaxbook.project import find_root
from jaxbook.sphinxext import chrome

ROOT = find_root(Path(__file__).parent)
CATALOG = ROOT / "locale" / "zh_CN" / "LC_MESSAGES" / "sphinx.po"


def test_catalog_compiles_without_warnings(tmp_path):
    result = subprocess.run(
        ["msgfmt", "--check", "-o", str(tmp_path / "sphinx.mo"), str(CATALOG)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_every_entry_is_a_message_of_the_themes_template():
    """The catalog translates the theme's template (make gettext writes it from furo's and
    the project's templates, Sphinx's search script and admonition titles, and the labels
    chrome translates), and nothing else."""
    template = {e.msgid for e in polib.pofile(str(ROOT / "locale" / "pot" / "sphinx.pot"))}
    literal_msgids = {msgid for _text, msgids, _call in chrome.LITERALS for msgid in msgids}
    assert literal_msgids | set(chrome.SCRIPT_MESSAGES) <= template
    entries = [e for e in polib.pofile(str(CATALOG)) if not e.obsolete]
    assert len(entries) >= 20
    assert {entry.msgid for entry in entries} == template


FURO = Path(furo.__file__).parent / "theme" / "furo"
COPY_BUTTON = Path(sphinx_copybutton.__file__).parent / "_static" / "copybutton.js_t"


def test_each_literal_label_is_in_the_themes_templates():
    """A furo or sphinx-copybutton release that writes them otherwise fails here, not silently."""
    templates = "\n".join(t.read_text(encoding="utf-8") for t in FURO.rglob("*.html"))
    for text, _msgids, _call in chrome.LITERALS:
        assert text in templates, text
    assert chrome.COPY_BUTTON_LOCALE in COPY_BUTTON.read_text(encoding="utf-8")


def environment(table: dict[str, str]) -> jinja2.Environment:
    """Jinja as Sphinx sets it up for a page, with ``table`` as the language's catalog."""
    env = jinja2.Environment(extensions=["jinja2.ext.i18n", chrome.LiteralLabels])
    env.install_gettext_callables(  # type: ignore[attr-defined]
        lambda message: table.get(message, message),
        lambda singular, plural, n: singular if n == 1 else plural,
    )
    return env


def test_literal_labels_become_their_translation_and_stay_escaped():
    table = {"Menu": "菜单", "Toggle site navigation sidebar": 'A "quoted" label'}
    source = '<svg><title>Menu</title></svg><input aria-label="Toggle site navigation sidebar">'
    assert environment(table).from_string(source).render() == (
        '<svg><title>菜单</title></svg><input aria-label="A &#34;quoted&#34; label">'
    )
    # Without a translation, the theme's English, as furo writes it.
    assert environment({}).from_string(source).render() == source


def test_the_copy_buttons_table_gets_the_catalogs_labels_before_it_picks_one():
    script = COPY_BUTTON.read_text(encoding="utf-8")
    statement = 'messages["zh-CN"] = {"copy_success": "复制成功！"};'
    rendered = environment({}).from_string(script).render(jaxbook_copybutton_messages=statement)
    assert rendered.index(statement) < rendered.index(chrome.COPY_BUTTON_LOCALE)


def test_navigation_toggles_are_named_in_the_pages_language(monkeypatch):
    table = {chrome.NAVIGATION_TOGGLE: "展开或折叠“%(title)s”的导航"}
    monkeypatch.setattr(chrome, "_", lambda msgid: table.get(msgid, msgid))
    context = {
        "furo_navigation_tree": (
            '<ul><li class="has-children"><a href="x.html">1.1 A &amp; B</a>'
            '<input class="toctree-checkbox" aria-label="Toggle navigation of 1.1 A &amp; B">'
            "<ul><li><a>C</a></li></ul></li></ul>"
        )
    }
    chrome.translate_navigation(None, "x", "page.html", context, None)  # type: ignore[arg-type]
    assert 'aria-label="展开或折叠“1.1 A &amp; B”的导航"' in context["furo_navigation_tree"]


QUIET_CONF = """\
import logging

extensions = ["jaxbook.sphinxext.chrome"]
html_theme = "furo"


def log_as_jax_does(app, exception):
    logging.getLogger("jax._src.xla_bridge").info("Unable to initialize backend 'tpu'")


def setup(app):
    app.connect("build-finished", log_as_jax_does)
"""


def test_the_themes_style_plugins_leave_info_lines_out_of_the_build(tmp_path):
    """furo's Pygments styles configure the root logger at INFO when Pygments looks for a
    style: without chrome, the log line of a page's code (JAX's) reaches the output."""
    (tmp_path / "conf.py").write_text(QUIET_CONF, encoding="utf-8")
    (tmp_path / "index.rst").write_text("Page\n====\n\n.. code-block:: python\n\n   x = 1\n")
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(tmp_path), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "Unable to initialize backend" not in result.stdout + result.stderr


CREDIT_ES = "Hecho con %(sphinx)s y %(furo)s de %(author)s"


def test_the_themes_credit_is_one_message_that_a_language_orders_its_own_way():
    """furo writes "Made with ", "Sphinx and ", "@pradyunsg's" and "Furo" in pieces, in
    English order; the footer has one message, its links placeholders."""
    template = "<footer>" + chrome.FURO_CREDIT + "</footer>"
    table = {chrome.CREDIT: CREDIT_ES, chrome.CREDIT_WITHOUT_SPHINX: "Hecho con %(furo)s"}
    spanish = environment(table).from_string(template)
    assert spanish.render(show_sphinx=True) == (
        f"<footer>Hecho con {chrome.SPHINX_LINK} y {chrome.FURO_LINK} de {chrome.AUTHOR}</footer>"
    )
    assert spanish.render(show_sphinx=False) == f"<footer>Hecho con {chrome.FURO_LINK}</footer>"
    english = environment({}).from_string(template).render(show_sphinx=True)
    assert english == (
        f"<footer>Made with {chrome.SPHINX_LINK} and {chrome.AUTHOR}'s {chrome.FURO_LINK}</footer>"
    )


def test_the_themes_template_holds_the_credit_as_one_message_with_what_it_is():
    theme = {e.msgid: e for e in polib.pofile(str(ROOT / "locale" / "pot" / "sphinx.pot"))}
    for message in (chrome.CREDIT, chrome.CREDIT_WITHOUT_SPHINX):
        assert theme[message].comment.startswith("The theme's credit at the foot of every page")
    assert {"Made with ", "%(author)s's"} & set(theme) == set()
