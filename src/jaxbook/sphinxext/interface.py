"""The interface's templates: the theme's (``sphinx.pot``) and the extensions' (``jaxbook.pot``).

After the gettext builder has written the pages' templates (``build-finished``), this
extension writes, with Babel's extractors, the templates of the interface's catalogs, whose
messages are English: ``sphinx.pot`` (the HTML templates' strings, Sphinx's search script and
admonition titles, chrome's script labels), ``jaxbook.pot`` (the extensions' labels and the
release notes' phrases), and one for each package catalog named with
:func:`add_package_template`. It also re-exports the label helpers that another package's
extensions use (``__all__``), so that such a package depends on this module alone.
"""

from __future__ import annotations

import ast
import io
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import sphinx
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import write_po

from jaxbook import project
from jaxbook._compat import gettext_catalogs, theme_directories
from jaxbook.i18n.catalogs import same_but_template_date
from jaxbook.i18n.pofile import WIDTH
from jaxbook.sphinxext import PARALLEL_SAFE, chrome
from jaxbook.sphinxext._locale import N_, add_catalog, join_list, listed, ngettext, sentence

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

# The surface of the book's labels for another package's extensions, all
# jaxbook.sphinxext._locale's: add_catalog registers their catalog, add_package_template has
# gettext write its template, N_ and ngettext handle counted labels, sentence turns a
# %(name)s message into nodes, join_list and listed join words or nodes as the language
# lists them. They never use the _-prefixed helpers, which import-linter keeps from the lab.
__all__ = [
    "N_",
    "add_catalog",
    "add_package_template",
    "join_list",
    "listed",
    "ngettext",
    "sentence",
    "setup",
]

PACKAGE = Path(__file__).resolve().parents[1]
SPHINX = Path(sphinx.__file__).resolve().parent
# Babel's gettext keywords (a template's {% trans %} is gettext); the package's N_() marks a
# count's singular and plural, where the usual N_() marks one message.
KEYWORDS: dict[str, Any] = {**DEFAULT_KEYWORDS, "N_": (1, 2), "gettext_noop": None}
# The release notes' phrases: the assignment PHRASES_NAME of the book's formats module.
PHRASES = PACKAGE / "formats.py"
PHRASES_NAME = "PROBE_PHRASES"
JINJA_EXTENSIONS = f"jinja2.ext.i18n,{chrome.LiteralLabels.__module__}.LiteralLabels"


# A comment for the translators, the template's "#." line (# Translators: ... in Python,
# {# Translators: ... #} in a template). Every jaxbook.pot label under four words has one
# (tests/i18n/test_templates.py).
COMMENT_TAG = "Translators:"
# What each phrase of the release notes is, for its translators.
PHRASE_COMMENT = (
    'A phrase of the update notes\' "Changed in" cells, after "Since JAX '
    '0.4.30,", "In JAX 0.4.27–0.4.30," or "On every checked release,": it begins in lower '
    "case and ends without a full stop; ``code`` is set as code, and %(shown)s or "
    "%(listed)s is what that release printed."
)


def extract_phrases(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """A Babel extraction method: every string of ``PROBE_PHRASES``' values."""
    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        else:
            continue
        named = any(isinstance(t, ast.Name) and t.id == PHRASES_NAME for t in targets)
        if named and isinstance(node.value, ast.Dict):
            for phrases in node.value.values:
                for value in getattr(phrases, "values", []):
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        yield value.lineno, None, value.value, [PHRASE_COMMENT]


def add_extracted(catalog: Catalog, method: Any, path: Path, shown: str, **options: Any) -> None:
    """Add the messages ``method`` extracts from ``path``. Babel flags one with ``%(name)s``
    or ``{name}`` ``python-format`` or ``python-brace-format``, so that ``msgfmt --check``
    holds a translation's placeholders."""
    for line, message, comments, context in extract_from_file(
        method, str(path), keywords=KEYWORDS, comment_tags=(COMMENT_TAG,), options=options
    ):
        # A comment over several source lines is one comment, which the template wraps; the
        # tag that marks it is the source's (Jinja's extractor drops it, Python's keeps it).
        joined = [" ".join(comments).removeprefix(COMMENT_TAG).strip()] if comments else []
        catalog.add(message, None, [(shown, line)], auto_comments=joined, context=context)


def relative(path: Path, outdir: Path, packages: tuple[Path, ...] = ()) -> str:
    """A source as a template names it: a file of the package, of Sphinx or of one of
    ``packages`` from its package (``jaxbook/sphinxext/notes.py``, ``jaxbook/formats.py``),
    the book's from the book, as the pages' are."""
    for package in (PACKAGE, SPHINX, *packages):
        if path.is_relative_to(package):
            return f"{package.name}/{path.relative_to(package).as_posix()}"
    root = project.find_root(outdir)
    if root is not None and path.is_relative_to(root):
        return Path("..", "..", path.relative_to(root)).as_posix()
    return path.as_posix()


def extensions_catalog(outdir: Path) -> Catalog:
    """``jaxbook.pot``: each ``_()``, ``ngettext()``, ``N_()`` and ``gettext_noop()`` (a label
    kept in data) of the extensions, and the release notes' phrases (``PROBE_PHRASES``, which
    the lab writes into the evidence file)."""
    catalog = Catalog(
        project="jaxbook",
        header_comment="# The labels of the book's extensions: the template of each language's "
        "jaxbook.po.\n# Written by make gettext (jaxbook.sphinxext.interface).",
        msgid_bugs_address="",
        fuzzy=False,
    )
    # rglob: an extension may be a package of modules (editions).
    for module in sorted((PACKAGE / "sphinxext").rglob("*.py")):
        if module.name != "chrome.py":  # the theme's domain, below
            add_extracted(catalog, "python", module, relative(module, outdir))
    add_extracted(catalog, extract_phrases, PHRASES, relative(PHRASES, outdir))
    return catalog


@dataclass(frozen=True)
class PackageTemplate:
    """A catalog of another package's extensions: its domain, its modules, and the package
    they are named from in the template."""

    domain: str
    modules: tuple[Path, ...]
    package: Path
    header: str


# The package catalogs each application's extensions added (add_package_template).
_package_templates: weakref.WeakKeyDictionary[Sphinx, dict[str, PackageTemplate]] = (
    weakref.WeakKeyDictionary()
)


def add_package_template(
    app: Sphinx, domain: str, modules: list[Path], package: Path, header: str
) -> None:
    """Have the gettext build write ``<domain>.pot``, the labels (``_()``, ``ngettext()``,
    ``N_()``, ``gettext_noop()``) of ``modules``, named from ``package``: the template of a
    package whose extensions have a catalog of their own. Called by that package's
    extension as it is set up; again with the same domain, it replaces the first. Only those
    files are read: nothing is imported."""
    app.setup_extension(__name__)
    found = tuple(sorted(Path(module).resolve() for module in modules))
    template = PackageTemplate(domain, found, Path(package).resolve(), header)
    _package_templates.setdefault(app, {})[domain] = template


def extract_package_template(template: PackageTemplate, outdir: Path) -> Catalog:
    """The template (``.pot``) of a package's labels: the messages extracted from the
    modules ``template`` names, each named from the package's directory."""
    catalog = Catalog(
        project=template.domain,
        header_comment=f"{template.header}\n# Written by make gettext "
        "(jaxbook.sphinxext.interface).",
        msgid_bugs_address="",
        fuzzy=False,
    )
    for module in template.modules:
        add_extracted(catalog, "python", module, relative(module, outdir, (template.package,)))
    return catalog


def theme_catalog(app: Sphinx, outdir: Path) -> Catalog:
    """``sphinx.pot``, the theme's domain. A language's ``sphinx.po`` needs only what Sphinx's
    own catalog lacks; ``make check-po`` says which."""
    catalog = Catalog(
        project=app.config.html_theme,
        header_comment="# The theme's messages: the template of each language's sphinx.po.\n"
        "# Written by make gettext (jaxbook.sphinxext.interface).",
        msgid_bugs_address="",
        fuzzy=False,
    )
    theme_dirs = [d for d in theme_directories(app) if not d.is_relative_to(SPHINX)]
    # As Sphinx finds them: relative to conf.py's directory (the book's docs/_templates).
    template_dirs = [Path(app.confdir, d) for d in app.config.templates_path]
    for directory in [*theme_dirs, *template_dirs]:
        for template in sorted(directory.rglob("*.html")):
            # A theme's file is named from its theme (furo/page.html), not from this machine.
            shown = (
                f"{directory.name}/{template.relative_to(directory).as_posix()}"
                if directory in theme_dirs
                else relative(template.resolve(), outdir)
            )
            # Through chrome's preprocessing: the labels furo writes literally are messages.
            add_extracted(catalog, "jinja2", template, shown, extensions=JINJA_EXTENSIONS)
    search = SPHINX / "themes" / "basic" / "static" / "searchtools.js"
    add_extracted(catalog, "javascript", search, relative(search, outdir))
    # Sphinx's admonition titles, which a book may word otherwise than Sphinx's catalog.
    labels = SPHINX / "locale" / "__init__.py"
    add_extracted(catalog, "python", labels, relative(labels, outdir))
    chrome_module = Path(chrome.__file__)
    shown = relative(chrome_module, outdir)
    source = chrome_module.read_text(encoding="utf-8")
    for msgid in chrome.SCRIPT_MESSAGES:
        # Where chrome names it: the copy button's table, or the navigation toggle's label.
        at = source.find(f'"{msgid}"')
        catalog.add(msgid, None, [(shown, source.count("\n", 0, max(at, 0)) + 1)])
    return catalog


def write_template(catalog: Catalog, path: Path) -> None:
    """Write ``catalog`` to ``path`` when more than the template's date changed."""
    out = io.BytesIO()
    # Each message names the file it comes from, not its line: code moved within a module
    # changes no template, and no catalog merged from one.
    write_po(
        out, catalog, width=WIDTH, sort_by_file=True, include_previous=False, include_lineno=False
    )
    text = out.getvalue().decode("utf-8")
    if path.is_file() and same_but_template_date(path.read_text(encoding="utf-8"), text):
        return
    path.write_text(text, encoding="utf-8")


def write_templates(app: Sphinx, exception: Exception | None) -> None:
    """Write the interface's templates beside the pages' (``make gettext`` copies them all
    into ``locale/pot/``), and remove a page's template whose page is gone."""
    if exception is not None or app.builder.name != "gettext":
        return
    outdir = Path(app.outdir)
    write_template(theme_catalog(app, outdir), outdir / f"{project.THEME_DOMAIN}.pot")
    write_template(extensions_catalog(outdir), outdir / f"{project.EXTENSION_DOMAIN}.pot")
    packages = _package_templates.get(app, {})
    for domain, package in packages.items():
        write_template(extract_package_template(package, outdir), outdir / f"{domain}.pot")
    # The pages this build has are the templates it wrote: any other is a page's that is gone.
    made = {f"{domain}.pot" for domain in gettext_catalogs(app.builder)}
    made |= {f"{domain}.pot" for domain in [*project.INTERFACE_DOMAINS, *packages]}
    for template in outdir.rglob("*.pot"):
        if template.relative_to(outdir).as_posix() not in made:
            template.unlink()


def setup(app: Sphinx) -> ExtensionMetadata:
    # After the gettext builder's own sphinx.pot (the project's templates only), in its place.
    app.connect("build-finished", write_templates, priority=900)
    return {"version": "1.0", **PARALLEL_SAFE}
