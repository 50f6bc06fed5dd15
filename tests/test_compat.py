"""Other projects' private names are read, and Sphinx's own state changed, in
``jaxbook._compat`` only, each with its way out.

A scan of the packages' syntax trees finds every read of an underscored name
that belongs to another project: ``from sphinx.ext.doctest import _condition_default``,
``gettext._translations``, ``config._raw_config`` (on an object Sphinx made),
``getattr(module, "_deprecations")``. An underscored name counts as the
package's own when some module of the packages defines it (a function, a class,
an assignment, an attribute set on ``self``); any other is another project's,
and may appear in ``jaxbook._compat`` alone. On ``self`` (or ``cls``) in a method,
an underscored name is the class's own only where the class, or an ancestor the
packages define, defines it: one that comes from another project's base class
(a Sphinx builder's ``self._static_dir``, a doctest runner's ``self._fakeout``)
is that project's.

A second scan finds every change to what Sphinx, docutils or the standard library's
doctest (whose ``compile`` the engine shadows, as Sphinx's builder does) keep for
themselves, public names or not: an attribute set on (or ``setattr`` to) the
environment, the application or the builder (``env.toc_fignumbers = ...``,
``app.builder.copysource = False``; the settings, ``app.config.x = ...``, are the
extensions' to set), a module's state changed (``locale.translators.clear()``), a
``secnumber`` set on a node, Sphinx's files in the output directory named
(``.buildinfo``), and the time a page was read (``env.all_docs.items()``), whose unit
Sphinx does not document.

A third scan finds every read or change of the attributes Sphinx's doctest directives put
on their nodes, which Sphinx does not document (``node["testnodetype"]``,
``node.get("test")``, ``"testnodetype" in node``, a node made with ``testnodetype=``), and
the name Sphinx gives a translated message's document (``":<translated>"``): the
``_compat`` functions (``doctest_kind``, ``doctest_code``, ``is_translated_message``...)
read them.

A fourth scan finds each shim of what another project writes that cannot move into
``_compat``, because it is a template's text, a translator's method or a page's script (a
Jinja extension's ``preprocess``, BeautifulSoup over HTML another project made, a
directive's ``self.name`` set to steer its base class, a translator's ``dispatch_visit``,
``self.body`` written over, a script that replaces a method of Sphinx's scripts): each says
in place what a ``_compat`` entry says, and its releases are the locked ones too.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from jaxbook import _compat
from pagerun import _compat as pagerun_compat

ROOT = Path(__file__).resolve().parents[1]
COMPAT = Path(_compat.__file__)
# pagerun, a distribution of its own (packages/pagerun) that imports nothing of the book,
# keeps its own.
PAGERUN_COMPAT = Path(pagerun_compat.__file__)
# The lab, a distribution of its own too (packages/jaxbook-lab), keeps none: it may read no
# other project's private name. Its sources are read from the checkout, as text: the book's
# tests import nothing of the lab (tests/test_book_apart.py).
LAB = ROOT / "packages" / "jaxbook-lab" / "src" / "jaxbook_lab"
PACKAGES = [ROOT / "src" / "jaxbook", LAB, PAGERUN_COMPAT.parent]
COMPATS = (COMPAT, PAGERUN_COMPAT)
FIRST_PARTY = ("jaxbook", "jaxbook_lab", "pagerun")
# Underscored names that are public by their own project's documentation.
PUBLIC = {
    "_": "sphinx.locale._, gettext's conventional name for translating a message",
    "_exit": "os._exit, documented for a child process that must not run cleanup",
}


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def own_names(trees: list[ast.Module]) -> set[str]:
    """Every underscored name the packages define themselves."""
    names: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                # An attribute the package sets on its own objects (not on another's).
                if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                    names.add(node.attr)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.alias):
                names.add((node.asname or node.name).split(".")[0])
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.split(".")[0] in FIRST_PARTY:
                    names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level > 0:
                names.update(alias.name for alias in node.names)
    names.update(path.stem for package in PACKAGES for path in package.rglob("_*.py"))
    return {name for name in names if private(name)}


def class_nodes(cls: ast.ClassDef) -> Iterator[ast.AST]:
    """The nodes of ``cls``'s body, but not those of a class defined inside it."""
    todo: list[ast.AST] = list(cls.body)
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, ast.ClassDef):
            todo.extend(ast.iter_child_nodes(node))


def defined_by(cls: ast.ClassDef) -> set[str]:
    """The names ``cls`` defines itself: its methods and class attributes, and what its
    methods set on ``self`` or ``cls``."""
    names = set()
    for node in cls.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    for node in class_nodes(cls):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls")
        ):
            names.add(node.attr)
    return names


def foreign_imports(tree: ast.Module) -> set[str]:
    """The names ``tree`` binds by importing from another project (or the standard library)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] not in FIRST_PARTY:
                    names.add(alias.asname or alias.name.split(".")[0])
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.level == 0
            and node.module.split(".")[0] not in FIRST_PARTY
        ):
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def class_defs(trees: list[ast.Module]) -> dict[str, list[ast.ClassDef]]:
    """Each class the packages define, by name (a name several modules define: each)."""
    found: dict[str, list[ast.ClassDef]] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(node)
    return found


def inherited(
    cls: ast.ClassDef, imported: set[str], classes: dict[str, list[ast.ClassDef]]
) -> tuple[set[str], bool]:
    """What ``cls`` and its ancestors among the packages' classes define, and whether an
    ancestor is another project's class (whose private names are not the packages')."""
    names, foreign = set(), False
    seen: set[int] = set()
    todo = [cls]
    while todo:
        current = todo.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        names |= defined_by(current)
        for base in current.bases:
            while isinstance(base, ast.Subscript):  # Generic[T]
                base = base.value
            parts = chain(base)
            if not parts or parts == ["object"]:
                continue
            if parts[0] in imported or parts[-1] not in classes:
                foreign = True
            else:
                todo.extend(classes[parts[-1]])
    return names, foreign


def foreign_private_reads(
    tree: ast.Module, own: set[str], classes: dict[str, list[ast.ClassDef]] | None = None
) -> list[tuple[int, str]]:
    """(line, what) for each read of another project's underscored name in ``tree``.

    ``self._name`` (or ``cls._name``) in a method is the class's own when the class, or
    one of its ancestors among the packages' classes (``classes``), defines ``_name``;
    else it is the base class's, another project's when a base is (a Sphinx builder's
    ``self._static_dir``)."""
    classes = class_defs([tree]) if classes is None else classes
    imported = foreign_imports(tree)
    # The innermost class around each node of a method.
    enclosing: dict[int, ast.ClassDef] = {}
    for cls in (node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)):
        # A nested class's body is not its outer class's (class_nodes stops there).
        for node in class_nodes(cls):
            enclosing[id(node)] = cls
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] not in FIRST_PARTY:
                found += [
                    (node.lineno, f"from {node.module} import {alias.name}")
                    for alias in node.names
                    if private(alias.name) and alias.name not in PUBLIC
                ]
        elif isinstance(node, ast.Attribute) and private(node.attr):
            base = node.value
            cls = enclosing.get(id(node))
            if isinstance(base, ast.Name) and base.id in ("self", "cls") and cls is not None:
                names, foreign = inherited(cls, imported, classes)
                if foreign and node.attr not in names and node.attr not in PUBLIC:
                    found.append((node.lineno, ast.unparse(node)))
                continue
            if node.attr not in own and node.attr not in PUBLIC:
                found.append((node.lineno, ast.unparse(node)))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr", "setattr", "delattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and private(node.args[1].value)
            and node.args[1].value not in own
        ):
            found.append((node.lineno, ast.unparse(node)))
    return found


def modules() -> dict[Path, ast.Module]:
    # A package moved would leave its place empty, and the scan with nothing to read there.
    assert all(any(package.glob("*.py")) for package in PACKAGES), PACKAGES
    return {
        path: ast.parse(path.read_text(encoding="utf-8"), str(path))
        for package in PACKAGES
        for path in sorted(package.rglob("*.py"))
    }


def test_no_module_but_compat_reads_another_projects_private_names():
    trees = modules()
    own = own_names(list(trees.values()))
    classes = class_defs(list(trees.values()))
    reads = {path: foreign_private_reads(tree, own, classes) for path, tree in trees.items()}
    assert all(reads[compat] for compat in COMPATS), "the scan finds nothing where they are"
    outside = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path, found in reads.items()
        if path not in COMPATS
        for line, what in found
    ]
    assert not outside, "move these into the package's _compat:\n" + "\n".join(outside)


BUILDER = """
from sphinx.builders.html import StandaloneHTMLBuilder
class Builder(StandaloneHTMLBuilder):
    def f(self):
"""

# doctest's runner, imported under another name, on cls.
RUNNER = """
import doctest as d
class R(d.DocTestRunner):
    def f(cls):
        cls._fakeout
"""
# A class of the packages' whose base (BUILDER's Builder) is Sphinx's.
SUBCLASS = """
class Ours(Builder):
    def g(self):
        self._static_dir
"""
# A class inside a method: its self is its own.
INNER = """
            def g(self):
                return self._y
"""


OWN = """
class Cache:
    def __init__(self):
        self._entries = {}
def _helper(cache):
    return cache._entries, _helper
"""


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from sphinx.ext.doctest import _condition_default", ["from sphinx.ext.doctest"]),
        ("import gettext\ngettext._translations.clear()", ["gettext._translations"]),
        ("def f(config):\n    return config._raw_config", ["config._raw_config"]),
        ("def f(app):\n    app._init_i18n()", ["app._init_i18n"]),
        ("import doctest\ndoctest.DocTestParser._EXCEPTION_RE", ["doctest.DocTestParser._EX"]),
        ("def f(m):\n    return getattr(m, '_deprecations', {})", ["getattr(m, '_deprecations'"]),
        ("from sphinx.locale import _\n_('x')", []),
        ("import os\nos._exit(1)", []),
        ("from jaxbook.sphinxext._locale import _, listed", []),
        ("class A:\n    def f(self):\n        return self._x", []),
        (OWN, []),
        ("x = object().__class__", []),
        ("def f(app):\n    app.builder._seen = True", ["app.builder._seen"]),
        # A private attribute a base class of another project's defines, read on self.
        (BUILDER + "        return self._static_dir", ["self._static_dir"]),
        (BUILDER + "        return self._lines\n    def g(self):\n        self._lines = []", []),
        (BUILDER + "        return self._lines()\n    def _lines(self):\n        pass", []),
        (RUNNER, ["cls._fakeout"]),
        (BUILDER + "        pass\n" + SUBCLASS, ["self._static_dir"]),
        ("class A:\n    _x = 1\nclass B(A):\n    def f(self):\n        return self._x", []),
        (BUILDER + "        class Inner:\n" + INNER, []),
    ],
)
def test_the_scan_tells_another_projects_private_names_from_the_packages_own(source, expected):
    tree = ast.parse(source)
    found = [what for _line, what in foreign_private_reads(tree, own_names([tree]))]
    assert len(found) == len(expected)
    for what, start in zip(found, expected, strict=True):
        assert what.startswith(start)


ENTRY_PARTS = ("Why:", "Upstream:", "Written against:", "Remove when:")


def compat_entries() -> dict[str, str]:
    """Each public function or constant of ``jaxbook._compat`` and ``pagerun._compat`` ->
    its documentation."""
    entries = {}
    for compat in COMPATS:
        entries.update(compat_entries_of(compat))
    return entries


def compat_entries_of(compat: Path) -> dict[str, str]:
    source = compat.read_text(encoding="utf-8")
    lines = source.splitlines()
    entries = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            entries[node.name] = ast.get_docstring(node) or ""
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name) and not target.id.startswith("_"):
                above = []
                for line in reversed(lines[: node.lineno - 1]):
                    if not line.startswith("#:"):
                        break
                    above.insert(0, line[2:].strip())
                entries[target.id] = "\n".join(above)
    return entries


def test_each_compat_entry_says_why_where_for_what_release_and_when_it_goes():
    entries = compat_entries()
    assert len(entries) >= 8
    missing = {
        name: [part for part in ENTRY_PARTS if part not in text]
        for name, text in entries.items()
        if not all(part in text for part in ENTRY_PARTS)
    }
    assert not missing


def test_the_releases_compat_was_written_against_are_the_locked_ones():
    packages = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))["package"]
    locked = {(p["name"], p["version"]) for p in packages}
    named = {
        "Sphinx": "sphinx",
        "JAX": "jax",
        "furo": "furo",
        "sphinx-copybutton": "sphinx-copybutton",
        "sphinx-design": "sphinx-design",
    }
    claims = set()
    for text in [*compat_entries().values(), *shim_texts()]:
        written = re.search(r"Written against: (.*?)(?:\n\S+:|\Z)", text, re.DOTALL)
        assert written
        for project_name, versions in re.findall(
            r"\b(Sphinx|JAX|furo|sphinx-copybutton|sphinx-design) ((?:[\d.]+\d(?:,? and |, )?)+)",
            written.group(1),
        ):
            for number in re.findall(r"\d+(?:\.\d+)+", versions):
                claims.add((named[project_name], number))
    assert claims
    assert claims <= locked, sorted(claims - locked)


# Whose attributes are Sphinx's: a chain that starts at one of ROOTS, or passes through one
# of OWNED (``self.env.x``, ``app.builder.x``), but not through ``config``.
ROOTS = {"env", "app"}
OWNED = {"env", "app", "builder"}
# The projects whose modules' state no module but _compat changes.
STATEFUL = ("sphinx", "docutils", "doctest")
MUTATORS = {"append", "add", "clear", "discard", "extend", "insert", "pop", "popitem"}
MUTATORS |= {"remove", "setdefault", "update"}
# Node attributes Sphinx sets for its writers.
NODE_KEYS = {"secnumber"}
# The files Sphinx keeps for itself in an output directory.
SPHINX_FILES = {".buildinfo", ".buildinfo.bak"}


def chain(node: ast.expr) -> list[str] | None:
    """``a.b.c`` -> ["a", "b", "c"]; None where it does not start at a name."""
    names = []
    while isinstance(node, ast.Attribute):
        names.insert(0, node.attr)
        node = node.value
    return [node.id, *names] if isinstance(node, ast.Name) else None


def sphinx_owned(names: list[str] | None) -> bool:
    if not names or "config" in names:
        return False
    return names[0] in ROOTS or any(name in OWNED for name in names[1:])


def read_all_docs(node: ast.expr) -> bool:
    """Whether ``node`` is ``<...>.all_docs``, Sphinx's dict of when each page was read."""
    return (chain(node) or [""])[-1] == "all_docs"


def imported_modules(tree: ast.Module) -> set[str]:
    """The names ``tree`` binds to a module (or a name of one) of STATEFUL's projects."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in STATEFUL:
                    names.add(alias.asname or alias.name.split(".")[0])
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.level == 0
            and node.module.split(".")[0] in STATEFUL
        ):
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def sphinx_state_writes(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, what) for each change of Sphinx's (or docutils') own state in ``tree``."""
    modules_ = imported_modules(tree)

    def module_state(target: ast.expr) -> bool:
        names = chain(target)
        return bool(names) and len(names) >= 2 and names[0] in modules_

    # A part of an f-string names a file of the book's own (``f"{name}.buildinfo"``).
    in_fstrings = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in node.values
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in SPHINX_FILES:
            if id(node) not in in_fstrings:
                found.append((node.lineno, repr(node.value)))
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
            if sphinx_owned(chain(node.value)) or module_state(node):
                found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
            key = node.slice
            if module_state(node.value) or (
                isinstance(key, ast.Constant) and key.value in NODE_KEYS
            ):
                found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method, owner = node.func.attr, node.func.value
            # A module's state changed in place, or the times all_docs holds read.
            changes = method in MUTATORS and module_state(owner)
            read_times = method in ("items", "values", "get") and read_all_docs(owner)
            if changes or read_times:
                found.append((node.lineno, ast.unparse(node)))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("setattr", "delattr")
            and node.args
        ):
            names = chain(node.args[0])
            if sphinx_owned(names) or (names and names[0] in modules_):
                found.append((node.lineno, ast.unparse(node)))
        if isinstance(node, ast.Subscript) and read_all_docs(node.value):
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_no_module_but_compat_changes_sphinxs_own_state():
    writes = {path: sphinx_state_writes(tree) for path, tree in modules().items()}
    assert writes[COMPAT], "the scan finds nothing even where Sphinx's state is changed"
    outside = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path, found in writes.items()
        if path not in COMPATS
        for line, what in found
    ]
    assert not outside, "move these into the package's _compat:\n" + "\n".join(outside)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def f(env):\n    env.toc_fignumbers = {}", ["env.toc_fignumbers"]),
        ("def f(env):\n    setattr(env, 'jaxbook_numbers', {})", ["setattr(env,"]),
        ("def f(app):\n    app.builder.copysource = False", ["app.builder.copysource"]),
        ("def f(app):\n    app.builder.highlighter.formatter = 1", ["app.builder.highl"]),
        ("def f(self):\n    self.env.temp = 1", ["self.env.temp"]),
        ("from sphinx import locale\nlocale.translators.clear()", ["locale.translators.clear"]),
        ("from sphinx import locale\ndel locale.translators['a', 'b']", ["locale.translators["]),
        ("import sphinx.locale\nsphinx.locale.translators = {}", ["sphinx.locale.translators"]),
        ("import doctest\ndoctest.compile = compile", ["doctest.compile"]),
        ("import doctest\ndel doctest.compile", ["doctest.compile"]),
        ("def f(title):\n    title['secnumber'] = [1]", ["title['secnumber']"]),
        ("def f(env):\n    return env.all_docs.items()", ["env.all_docs.items()"]),
        ("def f(env, d):\n    return env.all_docs[d]", ["env.all_docs[d]"]),
        ("def f(out):\n    (out / '.buildinfo').unlink()", ["'.buildinfo'"]),
        ("def f(builder):\n    return f'{builder}.buildinfo'", []),
        # What is the extensions' own to change, or to read.
        ("def f(app):\n    app.config.html_context = {}", []),
        ("def f(env, d):\n    env.metadata[d]['x'] = 1", []),
        ("def f(env):\n    return set(env.all_docs)", []),
        ("def f(builder):\n    builder.at = 3", []),
        ("class A:\n    def f(self, env):\n        self.env = env", []),
        ("import os\nos.environ.update({})", []),
        ("from sphinx import locale\nlocale.init([], 'en')", []),
    ],
)
def test_the_scan_finds_changes_of_sphinxs_own_state(source, expected):
    found = [what for _line, what in sphinx_state_writes(ast.parse(source))]
    assert len(found) == len(expected), found
    for what, start in zip(found, expected, strict=True):
        assert what.startswith(start)


# Sphinx's names without an underscore that its documentation does not offer extensions:
# the ones the packages need, each used through a _compat entry.
UNDOCUMENTED_IMPORTS = {"sphinx_domains", "LoggingReporter", "HTMLThemeFactory"}
# app.registry, env.images; an HTML builder's templates and search index; the gettext builder's
# catalogs.
UNDOCUMENTED_ATTRIBUTES = {"registry", "images", "templates", "search", "searchindex_filename"}
UNDOCUMENTED_ATTRIBUTES |= {"indexer_format", "indexer_dumps_unicode", "catalogs"}


def sphinx_object(names: list[str] | None) -> bool:
    """Whether ``names`` (``chain``'s) is Sphinx's application, environment or builder,
    or an attribute of one that is not the settings."""
    return bool(names) and (names[-1] in OWNED or sphinx_owned(names))


def undocumented_uses(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, what) for each use in ``tree`` of a name of Sphinx's that is public by its
    spelling and internal by its documentation (``UNDOCUMENTED_*``)."""
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.split(".")[0] == "sphinx"
        ):
            found += [(node.lineno, a.name) for a in node.names if a.name in UNDOCUMENTED_IMPORTS]
        elif (
            isinstance(node, ast.Attribute)
            and node.attr in UNDOCUMENTED_ATTRIBUTES
            and sphinx_object(chain(node.value))
        ) or (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in UNDOCUMENTED_ATTRIBUTES
            and sphinx_object(chain(node.args[0]))
        ):
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_no_module_but_compat_uses_sphinxs_undocumented_names():
    uses = {path: undocumented_uses(tree) for path, tree in modules().items()}
    assert uses[COMPAT], "the scan finds nothing where they are used"
    assert uses[PAGERUN_COMPAT], "the scan finds nothing where they are used"
    outside = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path, found in uses.items()
        if path not in COMPATS
        for line, what in found
    ]
    assert not outside, "use these through the package's _compat:\n" + "\n".join(outside)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from sphinx.util.docutils import sphinx_domains", ["sphinx_domains"]),
        ("from sphinx.util.docutils import LoggingReporter as R", ["LoggingReporter"]),
        ("from sphinx.theming import HTMLThemeFactory", ["HTMLThemeFactory"]),
        ("def f(app):\n    return app.registry.create_source_parser", ["app.registry"]),
        ("def f(env):\n    env.images.add_file('a', 'b')", ["env.images"]),
        ("def f(self):\n    return self.env.images", ["self.env.images"]),
        ("def f(builder):\n    return builder.indexer_format", ["builder.indexer_format"]),
        ("def f(app):\n    return app.builder.catalogs['book']", ["app.builder.catalogs"]),
        ("def f(app):\n    return getattr(app.builder, 'templates')", ["getattr(app.builder, 't"]),
        # The documented, and the packages' own.
        ("from sphinx.util.docutils import SphinxDirective", []),
        ("def f(app):\n    return app.config.images", []),
        ("def f(figure):\n    return figure.images", []),
        ("def f(page):\n    return getattr(page, 'templates', None)", []),
    ],
)
def test_the_scan_finds_sphinxs_undocumented_names(source, expected):
    found = [what for _line, what in undocumented_uses(ast.parse(source))]
    assert len(found) == len(expected), found
    assert all(what.startswith(start) for what, start in zip(found, expected, strict=True)), found


# The attributes of Sphinx's doctest nodes that no other node or dict of the packages has:
# ``groups``, ``options`` and ``skipif`` are also the keys of the engine's blocks
# (``pagerun.engine.Block``), which a scan of the syntax cannot tell from a node's.
DOCTEST_KEYS = {"testnodetype", "test"}
# The end of the name Sphinx gives a translated message's document.
TRANSLATED = ":<translated>"
GETTERS = {"get", "setdefault", "pop"}


def doctest_attribute_uses(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, what) for each read or change of a doctest node's attribute in ``tree``, and
    each string (not a docstring) that names a translated message's document."""
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }

    def key(node: ast.expr) -> bool:
        return isinstance(node, ast.Constant) and node.value in DOCTEST_KEYS

    def reads(node: ast.AST) -> bool:
        if isinstance(node, ast.Subscript):
            return key(node.slice)
        if isinstance(node, ast.Compare):  # "test" in node
            return key(node.left) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)
        if isinstance(node, ast.Call):  # node.get("test"), a node made with testnodetype=
            method = isinstance(node.func, ast.Attribute) and node.func.attr in GETTERS
            made = any(keyword.arg in DOCTEST_KEYS for keyword in node.keywords)
            return made or (method and bool(node.args) and key(node.args[0]))
        return False

    found = []
    for node in ast.walk(tree):
        if reads(node):
            found.append((node.lineno, node.col_offset, ast.unparse(node)))
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and TRANSLATED in node.value
            and id(node) not in docstrings
        ):
            found.append((node.lineno, node.col_offset, repr(node.value)))
    return [(line, what) for line, _column, what in sorted(found)]


def test_no_module_but_compat_reads_the_attributes_of_doctest_nodes():
    uses = {path: doctest_attribute_uses(tree) for path, tree in modules().items()}
    assert all(uses[compat] for compat in COMPATS), "the scan finds nothing where they are"
    outside = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path, found in uses.items()
        if path not in COMPATS
        for line, what in found
    ]
    assert not outside, "read these through the package's _compat:\n" + "\n".join(outside)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def f(node):\n    return node['testnodetype']", ["node['testnodetype']"]),
        ("def f(node):\n    return node.get('testnodetype', 'doctest')", ["node.get('testn"]),
        ("def f(node):\n    return 'testnodetype' not in node", ["'testnodetype' not in"]),
        ("def f(node):\n    node['test'] = 'x'", ["node['test']"]),
        ("def f(node):\n    return node['test'] if 'test' in node else 1", ["node['t", "'t"]),
        ("def f(c):\n    return nodes.comment(c, c, testnodetype='testcode')", ["nodes.comment"]),
        ("def f(source):\n    return source.endswith(':<translated>')", ["':<translated>'"]),
        # What is not a doctest node's: the engine's blocks, other keys, a docstring.
        ("def f(block):\n    return block['groups'], block['code']", []),
        ("def f(node):\n    return node.get('tests'), node['language']", []),
        ('def f():\n    """Named "<page>:<line>:<translated>"."""', []),
        ("def f(needs):\n    return needs(['test'])", []),
    ],
)
def test_the_scan_finds_the_attributes_of_doctest_nodes(source, expected):
    found = [what for _line, what in doctest_attribute_uses(ast.parse(source))]
    assert len(found) == len(expected), found
    for what, start in zip(found, expected, strict=True):
        assert what.startswith(start)


# -- shims of another project's output, outside _compat -------------------------------------

# Sphinx's global objects of its scripts, whose methods a page's script could replace.
SPHINX_SCRIPT_GLOBALS = re.compile(r"\b(?:Search|Documentation|SphinxHighlight)\.\w+\s*=(?!=)")


def shims(tree: ast.Module) -> Iterator[tuple[ast.AST, list[ast.AST], str]]:
    """Each place that changes what another project writes, where it cannot be told to (a
    Jinja extension's ``preprocess`` of a theme's templates, HTML another project made
    re-parsed with BeautifulSoup, a directive's ``self.name`` set to steer its base class,
    a translator's ``dispatch_visit`` or ``dispatch_departure``, a slice of ``self.body``
    written over, a script that replaces a method of Sphinx's scripts' globals): the node,
    the classes and functions around it (innermost last), and what it is."""

    def walk(node: ast.AST, around: list[ast.AST]) -> Iterator[tuple[ast.AST, list[ast.AST], str]]:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name in ("dispatch_visit", "dispatch_departure") and around:
                yield node, around, f"{node.name} of a translator"
            if node.name == "preprocess" and around and isinstance(around[-1], ast.ClassDef):
                bases = [ast.unparse(base) for base in around[-1].bases]
                if any(base.split(".")[-1] == "Extension" for base in bases):
                    yield node, around, "a Jinja extension's preprocess of templates"
        elif isinstance(node, ast.Call) and ast.unparse(node.func).endswith("BeautifulSoup"):
            yield node, around, "HTML re-parsed with BeautifulSoup"
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                text = ast.unparse(target)
                if text == "self.name" and isinstance(node.value, ast.Constant):
                    yield node, around, f"{text} = {node.value.value!r}"
                elif isinstance(target, ast.Subscript) and text.startswith("self.body["):
                    yield node, around, f"{text} written over"
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and (match := SPHINX_SCRIPT_GLOBALS.search(node.value))
        ):
            yield node, around, f"a script that replaces {match.group(0).rstrip(' =')}"
        scope = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        for child in ast.iter_child_nodes(node):
            yield from walk(child, [*around, node] if scope else around)

    yield from walk(tree, [])


def register_text(node: ast.AST, around: list[ast.AST], lines: list[str]) -> str | None:
    """What the shim says as a ``_compat`` entry does (why, where, for what release and
    when it goes): the docstring of a class or function around it, or, for a module's
    constant, the ``#:`` lines above it; None where nothing says it."""
    texts = [ast.get_docstring(scope) or "" for scope in around]  # type: ignore[arg-type]
    if not around:
        above: list[str] = []
        for line in reversed(lines[: node.lineno - 1]):  # type: ignore[attr-defined]
            if not line.startswith("#:"):
                break
            above.insert(0, line[2:].strip())
        texts.append("\n".join(above))
    return next((text for text in texts if all(part in text for part in ENTRY_PARTS)), None)


def registered(node: ast.AST, around: list[ast.AST], lines: list[str]) -> bool:
    return register_text(node, around, lines) is not None


def shim_texts() -> list[str]:
    """The register text of every shim outside ``_compat``."""
    texts = []
    for path, tree in modules().items():
        if path in COMPATS:
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for node, around, _what in shims(tree):
            if (text := register_text(node, around, lines)) is not None:
                texts.append(text)
    return texts


def test_every_shim_of_another_projects_output_is_registered_as_compat_entries_are():
    """What cannot move into ``_compat`` (it is a template's text, a translator's method, a
    script) says there what a ``_compat`` entry says: why, upstream, the releases it was
    written against, and when it goes."""
    found, unregistered = 0, []
    for path, tree in modules().items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for node, around, what in shims(tree):
            found += 1
            if path not in COMPATS and not registered(node, around, lines):
                unregistered.append(f"{path.relative_to(ROOT)}:{node.lineno}: {what}")  # type: ignore[attr-defined]
    assert found >= 4, "the scan finds nothing where they are"
    assert not unregistered, (
        "say Why:, Upstream:, Written against: and Remove when: in the docstring around "
        "each (or move it into _compat):\n" + "\n".join(unregistered)
    )


ENTRY = (
    '"""Shim.\n\n    Why: w.\n    Upstream: u.\n    Written against: Sphinx 9.2.0.\n'
    '    Remove when: r.\n    """'
)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("class L(Extension):\n    def preprocess(self, s, n, f=None):\n        return s", 1),
        (
            "import jinja2.ext\nclass L(jinja2.ext.Extension):\n"
            "    def preprocess(self, s):\n        pass",
            1,
        ),
        ("class L:\n    def preprocess(self, s):\n        return s", 0),
        ("def f(tree):\n    return BeautifulSoup(tree, 'html.parser')", 1),
        ("class D(TestoutputDirective):\n    def run(self):\n        self.name = 'testoutput'", 1),
        ("class T(LaTeXTranslator):\n    def dispatch_visit(self, node):\n        pass", 1),
        ("class T:\n    def visit_Text(self, node):\n        self.body[3:] = []", 1),
        ("class T:\n    def visit_Text(self, node):\n        self.body.append('x')", 0),
        ("S = 'Search.htmlToText = function (html) { return html; };'", 1),
        ("S = 'if (Search.htmlToText === undefined) return;'", 0),
        (f"class L(Extension):\n    {ENTRY}\n    def preprocess(self, s):\n        return s", 0),
        (f"def f(tree):\n    {ENTRY}\n    return BeautifulSoup(tree)", 0),
        (
            "#: Shim.\n#: Why: w.\n#: Upstream: u.\n#: Written against: Sphinx 9.2.0.\n"
            "#: Remove when: r.\nS = 'Search.htmlToText = f;'",
            0,
        ),
    ],
)
def test_the_scan_finds_shims_and_takes_a_registered_one(source, expected):
    """Each kind of shim is found (``expected``: 1), a like-looking line is not, and one that
    says the register's four parts is taken."""
    tree = ast.parse(source)
    lines = source.splitlines()
    assert sum(not registered(n, around, lines) for n, around, _w in shims(tree)) == expected
