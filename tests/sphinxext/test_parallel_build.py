"""A book read and written by two processes (``sphinx-build -j 2``) is the book one process
builds: the claim of every extension's ``parallel_read_safe`` and ``parallel_write_safe``.

The project is made here, small, with the book's own ``conf.py``: every extension and
setting it loads for the book (a new extension there is loaded here too, and
:func:`test_the_project_loads_every_extension_of_the_book` fails if one is not), as a
deploy's build (a site URL: the sitemap, the canonical links). Only the paths of the
sources are the project's, and three settings that cost seconds without bearing on which
process does what: the doctests' setup (the book's runtime starts JAX), the social cards
(matplotlib loads a CJK font) and jieba's Chinese search (the search index is fed in the
main process). Its chapter's pages hold what each extension keeps on the environment while
pages are read (update notes and their table, each page's run, measured outputs and
figures, hand-made and generated index entries, glossary links, numbered sections, figures
and tables, the drift data's examples, the parallel text's catalog, self-checks,
snippets...) and what it adds as pages are written, so that the parallel readers' data
must be merged and the forked writer must write what the main process would.

Sphinx reads the pages in chunks (``sphinx.util.parallel.make_chunks``), one forked
process each, and merges what each kept (``merge_domaindata``, ``env-merge-info``); it
resolves each page in the main process and writes it in a forked one. The two builds run
in processes of their own, as ``make html`` runs them (a pytest worker may have started
JAX, which a fork would inherit), and the project's ``conf.py`` records which process read
and wrote each page, so that a build that silently fell back to one process (an extension
whose flag is false) fails here instead of passing vacuously. What they wrote is compared
parsed (the pages' trees, the search index, the notebooks, the sitemap, the places file)
and so is every domain's data in the pickled environment.

The guides are built the same way, twice, with their own ``guides/conf.py`` (the book's, as
``make guides`` builds them: it reads the project's ``conf.py`` above it), after the book:
the book's extensions but the two that make what only the book has (its editions, its
places), and the guides' own (:mod:`jaxbook.sphinxext.guides`, which links the book's
pages through its inventory with intersphinx, and the lab's report,
:mod:`jaxbook_lab.sphinxext`: the book's places, ``drift-report``, ``evidence-report``).
Their pages link the book's and each other, and the lab's two reports stand on pages of
their own, read by different readers.

A page read again in parallel is the runs domain's own case, tested with that extension
alone: what the main process kept for it when clearing it is spent once it is merged.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import pickle
import runpy
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from docutils import nodes
from sphinx.util.tags import Tags

from jaxbook.project import config_dir

ROOT = Path(__file__).resolve().parents[2]
SITE = "https://book.example.org/jax"
# The chapter's sections: with the other pages, a chunk of several pages for each reader.
PAGES = 6

CONF = """\
# The book's conf.py, for this project: every extension and setting it loads, the paths of
# the sources being this project's (the same layout: docs/, locale/, snippets/).
import json
import os
import runpy
from pathlib import Path

book = runpy.run_path({book_conf!r}, init_globals={{"tags": tags}})
globals().update({{
    name: value for name, value in book.items() if not name.startswith("__") and name != "tags"
}})
locale_dirs = [str(Path(__file__).resolve().parent / "locale")]
# The book's runtime starts JAX for each reader; these pages need only its names.
doctest_global_setup = {setup!r}
doctest_global_cleanup = ""
# A deploy's build (JAXBOOK_SITE_URL): its sitemap, canonical and alternate links, but not
# its social cards, whose CJK font takes matplotlib seconds to load in each writer.
ogp_social_cards = {{"enable": False}}
# Not jieba's Chinese search, whose dictionary takes seconds to load in each build: the
# search index is fed in the main process (Sphinx's write_doc_serialized), never a fork.
html_search_language = "en"


def setup(app):
    # Which process read and wrote each page: a build that did not fork fails the test.
    log = Path(os.environ["JAXBOOK_PROCESS_LOG"])

    def note(kind, name):
        with log.open("a", encoding="utf-8") as f:
            f.write(json.dumps([kind, name, os.getpid()]) + "\\n")

    app.connect("doctree-read", lambda app, doctree: note("read", app.env.docname))
    app.connect("html-page-context", lambda app, page, *args: note("write", page))

    def loaded(app, exception):
        note("main", sorted(app.extensions))

    app.connect("build-finished", loaded)
    return {{"parallel_read_safe": True, "parallel_write_safe": True}}
"""

# What the book's runtime gives the pages' code (jaxbook.doctest.runtime), without JAX.
SETUP = """\
BACKEND = "cpu"
ON_CPU, ON_GPU, ON_TPU = True, False, False
unrecorded_here = lambda backends: BACKEND not in backends
"""

GLOSSARY = """\
zh_CN,en,pattern_en,exclusive,note,definition_zh_CN,definition_en
密钥,key,\\bkeys?\\b,,,随机数的状态。,The state of the generator.
预热,warm-up,\\bwarm-?ups?\\b,,,第一次调用（含编译）。,The first call (with compilation).
"""

# A section of the chapter: its notes, its run (printed, per backend), its index
# entries, glossary terms, a numbered table and a reference to the next section by number.
PAGE = """\
.. _page-{n}:

第 {n} 节
=========

第 {n} 节说到密钥，第一次调用要预热；下一节是 :book:sec:`page-{next}`。

.. index::
   single: 第 {n} 节的话题; 第 {n} 节

.. update-note:: 第 {n} 节的第 {n} 条说明
   :id: note-{n}
   :verified-by: check-{n}

   第 {n} 条说明的正文。

.. update-note::{shared}
   :id: note-shared

   每一节都提到的说明。

.. _check-{n}:

.. testcode::

   count = {n}
   print("第", count, "节")

.. testoutput::

   第 {n} 节

.. testcode::

   print(BACKEND)

.. testoutput::
   :skipif: not ON_CPU

   cpu

.. testoutput::
   :skipif: not ON_TPU

   tpu

.. list-table:: 第 {n} 节的表
   :name: table-{n}

   * - 行
     - {n}

第 {n} 节的小节
---------------

:numref:`table-{n}` 和 :math:`x^{n}`。

{extra}
"""

# A measured output and value, on the first page alone: the reader that runs it imports JAX
# to say where it measured (pagerun.sphinxext.run.where), a second of each build.
MEASURED = """\
本节的代码数到了 :measured:`count` 次。

.. testcode::

   print(f"用了 {count * 1.5:.1f} 毫秒")

.. measured-output::

   用了 ... 毫秒
"""

# What one section each has, in readers of their own (the first and the last page).
EXTRA = {
    1: MEASURED
    + """
.. testplot::
   :alt: 一条直线
   :caption: 第 1 节的图

   import matplotlib

   matplotlib.use("agg")
   from matplotlib import pyplot as plt

   plt.figure(figsize=(1, 1), dpi=20)
   plt.plot([0, 1], [0, 1])
   plt.axis("off")  # no text: a CJK font takes seconds to load

.. pair:: 调用与属性

   .. outdated::

      旧写法：

      .. testcode::

         print("旧")

      .. testoutput::

         旧

   .. recommended::

      新写法：

      .. testcode::

         print("新")

      .. testoutput::

         新

.. update-note:: 旧版本的行为
   :id: evidence
   :evidence: method-call

   自 JAX :changed-in:`method-call` 起不同。

.. snippet:: hello.py

.. testoutput::

   你好

JAX :fact:`jax`，:course:`课程 <chapter-1>`，:edition:`英文版 <en>`，:zh:`密钥`。
""",
    PAGES: """\
本节的笔记本见 :notebook:`p01`。

.. testcode::

   def answer():
       return 42

.. selfcheck:: _check.py
""",
}

CHECK = """\
try:
    answer
except NameError:
    print("先定义 answer()。")
else:
    assert answer() == 42, "answer() 应返回 42"
"""

# A MyST Markdown section (as the chapter's first page is in the book).
MYST = """\
# MyST 的一节

这一节用 MyST Markdown 写成，也说到密钥。

```{index} single: MyST 的话题
```

:::{update-note}
:id: note-shared

每一节都提到的说明。
:::

```{testcode}
print("MyST")
```

```{testoutput}
MyST
```
"""

OTHER_RELEASES = """\
其他版本
========

本章的代码在 JAX :drift:`checked` 上运行过，JAX :drift:`lowest runs` 起都能运行。

.. drift-unseen::
"""

# The English catalog of a page: what the parallel text shows beside the Chinese.
CATALOG = """\
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "第 {n} 节"
msgstr "Section {n}"

msgid "第 {n} 节的小节"
msgstr "A subsection of section {n}"
"""


# A guide's page (``make guides``' source, guides/): links to the book's pages (through its
# inventory) and to the other guides' pages, an index entry, a fact and a glossary term.
GUIDE = """\
.. _guide-{n}:

指南第 {n} 节
=============

本书的 :doc:`ch01/p{n:02d}` 说到 :zh:`密钥`，见 :ref:`guide-{next}` 和 :doc:`ch01/update-notes`。
书中的输出来自 JAX :fact:`jax`。

.. index::
   single: 指南第 {n} 节的话题

{extra}
"""

# The lab's two reports, on pages of their own (the first and the last: different readers).
GUIDE_EXTRA = {
    1: """\
第 1 章的运行见 :doc:`ch01/other-releases`。

.. drift-report:: ch01/release-drift.json
""",
    PAGES: """\
“\\ :doc:`ch01/update-notes`\\ ”一表中说明的依据：

.. evidence-report:: ch01/update-notes
""",
}


def drift_data(pages: list[tuple[str, str, str]]) -> dict:
    """The chapter's drift data: each page's first example ran on two releases, one older."""
    from jaxbook.formats import code_digest

    def examples(outcome: str) -> list[dict]:
        return [
            {
                "page": page,
                "file": f"{page}.rst",
                "line": 1,
                "code": code_digest(code, output),
                "runs": [{"language": "zh_CN", "outcome": outcome}],
            }
            for page, code, output in pages
        ]

    release = {"environment": "Python 3.13", "device": "cpu"}
    return {
        "format": 4,
        "generated by": "jaxbook-lab drift --save",
        "releases": {
            "0.4.38": {**release, "date": "2026-12-03", "examples": examples("same")},
            "0.12.0.1": {**release, "date": "2026-12-04", "examples": examples("same")},
        },
    }


def make_book(root: Path) -> Path:
    """The project: the book's layout, a chapter of ``PAGES`` sections and its back matter,
    and its guides (``guides/``, ``PAGES`` pages and their root)."""
    docs = root / "docs"
    chapter = docs / "ch01"
    chapter.mkdir(parents=True)
    (root / "conf.py").write_text(
        CONF.format(book_conf=str(ROOT / "conf.py"), setup=SETUP), encoding="utf-8"
    )
    for static in ("_static", "_templates"):
        shutil.copytree(ROOT / "docs" / static, docs / static)
    # The release and the Python the pages' facts name (jaxbook.sphinxext.facts).
    for name in ("pyproject.toml", ".python-version"):
        shutil.copy(ROOT / name, root / name)
    (root / "locale").mkdir()
    (root / "locale" / "glossary.csv").write_text(GLOSSARY, encoding="utf-8")
    (root / "snippets").mkdir()
    (root / "snippets" / "hello.py").write_text('print("你好")\n', encoding="utf-8")
    shutil.copy(
        ROOT / "tests" / "roots" / "test-evidence-column" / "evidence.json",
        docs / "release-evidence.json",
    )
    pages = [f"ch01/p{n:02d}" for n in range(1, PAGES + 1)]
    for n, page in enumerate(pages, start=1):
        # The shared note's point is given once, on the first page.
        shared = " 每一节都提到的说明" if n == 1 else ""
        text = PAGE.format(n=n, next=n % PAGES + 1, shared=shared, extra=EXTRA.get(n, ""))
        (docs / f"{page}.rst").write_text(text, encoding="utf-8")
        po = root / "locale" / "en" / "LC_MESSAGES" / f"{page}.po"
        po.parent.mkdir(parents=True, exist_ok=True)
        po.write_text(CATALOG.format(n=n), encoding="utf-8")
    (chapter / "_check.py").write_text(CHECK, encoding="utf-8")
    ran = [
        (page, f'count = {n}\nprint("第", count, "节")', f"第 {n} 节")
        for n, page in enumerate(pages, start=1)
    ]
    (chapter / "release-drift.json").write_text(json.dumps(drift_data(ran)), encoding="utf-8")
    (chapter / "myst.md").write_text(MYST, encoding="utf-8")
    (chapter / "other-releases.rst").write_text(OTHER_RELEASES, encoding="utf-8")
    (chapter / "update-notes.rst").write_text(
        "更新说明\n========\n\n.. update-notes-table::\n", encoding="utf-8"
    )
    sections = "\n".join(f"   {page.removeprefix('ch01/')}" for page in pages)
    (chapter / "index.rst").write_text(
        "第 1 章\n=======\n\n.. toctree::\n   :numbered: 1\n\n"
        f"{sections}\n   myst\n\n.. toctree::\n\n   other-releases\n   update-notes\n",
        encoding="utf-8",
    )
    (docs / "glossary.rst").write_text("术语表\n======\n\n.. book-glossary::\n", "utf-8")
    (docs / "index.rst").write_text(
        "书\n==\n\n.. toctree::\n\n   ch01/index\n   glossary\n", encoding="utf-8"
    )
    guides = root / "guides"
    guides.mkdir()
    for n in range(1, PAGES + 1):
        text = GUIDE.format(n=n, next=n % PAGES + 1, extra=GUIDE_EXTRA.get(n, ""))
        (guides / f"g{n:02d}.rst").write_text(text, encoding="utf-8")
    toctree = "\n".join(f"   g{n:02d}" for n in range(1, PAGES + 1))
    # The book's guides/conf.py: the project's conf.py above, and what the guides add.
    shutil.copy(ROOT / "guides" / "conf.py", guides / "conf.py")
    # The guides' root page (the guides' conf.py's root_doc).
    (guides / "contributing.rst").write_text(
        f"指南\n====\n\n本书见 :doc:`index`。\n\n.. toctree::\n\n{toctree}\n", encoding="utf-8"
    )
    # A checkout, as the book's build is: the pages' dates are their commit's.
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    git += ["-C", str(root)]
    dated = {
        **os.environ,
        "GIT_AUTHOR_DATE": "2026-12-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2026-12-01T00:00:00Z",
    }
    for command in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "pages"]):
        subprocess.run([*git, *command], check=True, env=dated, capture_output=True)
    return root


def build(root: Path, out: Path, *options: str, sources: str = "docs", **env: str) -> list[list]:
    """Build the project's HTML (the book's, or ``sources="guides"``) into ``out/html``
    (doctrees in ``out/doctrees``) in a process of its own, each warning an error, with
    ``env`` added to the environment; the processes that read and wrote its pages."""
    log = out / "processes.jsonl"
    out.mkdir()
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "--keep-going"]
    result = subprocess.run(
        [
            *command,
            *options,
            "-c",
            str(config_dir(root, sources)),
            "-d",
            str(out / "doctrees"),
            str(root / sources),
            str(out / "html"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={
            **os.environ,
            "JAXBOOK_PROCESS_LOG": str(log),
            "JAXBOOK_SITE_URL": SITE,
            **env,
        },
    )
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


PROJECTS = ("book", "guides")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, dict[str, tuple[Path, list[list]]]]:
    """Each project's serial and parallel builds: the book's, then the guides' (as ``make
    guides`` builds them, a deploy's: ``jaxbook.site.build``), which link the book's serial
    build, its site and the places it kept."""
    root = make_book(tmp_path_factory.mktemp("book"))
    out = tmp_path_factory.mktemp("out")
    book = {
        "serial": (out / "serial", build(root, out / "serial")),
        "parallel": (out / "parallel", build(root, out / "parallel", "-j", "2")),
    }
    guides_options = [
        *("-D", f"jaxbook_book_html={out / 'serial' / 'html'}"),
        *("-D", f"jaxbook_book_places={out / 'serial' / 'doctrees' / 'book-places.json'}"),
    ]
    deploy = {"JAXBOOK_SITE_URL": f"{SITE}/guides", "JAXBOOK_BOOK_URL": SITE}
    guides = {
        mode: (
            out / f"guides-{mode}",
            build(root, out / f"guides-{mode}", *guides_options, *jobs, sources="guides", **deploy),
        )
        for mode, jobs in (("serial", []), ("parallel", ["-j", "2"]))
    }
    return {"book": book, "guides": guides}


def conf_extensions(sources: str = "docs") -> list[str]:
    """The extensions the book's conf.py loads for ``sources``: the book's, or ``"guides"``
    (the guides' conf.py)."""
    conf = config_dir(ROOT, sources) / "conf.py"
    return runpy.run_path(str(conf), init_globals={"tags": Tags()})["extensions"]


GUIDES_EXTENSIONS = {
    "sphinx.ext.intersphinx",
    "jaxbook.sphinxext.guides",
    "jaxbook_lab.sphinxext.book",
    "jaxbook_lab.sphinxext.drift_report",
    "jaxbook_lab.sphinxext.evidence_report",
}


def test_the_guides_add_the_extensions_tested_with_them():
    """The guides' builds here load what their conf.py adds to the book's: the ones tested
    with them."""
    assert set(conf_extensions("guides")) - set(conf_extensions()) == GUIDES_EXTENSIONS


@pytest.mark.parametrize("project", PROJECTS)
def test_the_project_loads_every_extension_of_the_book(built, project):
    """Whatever the project's conf.py lists, both builds loaded, and the parallel
    one forked its readers and its writer: no extension made Sphinx fall back to one process."""
    extensions = conf_extensions("guides" if project == "guides" else "docs")
    for name, (_out, processes) in built[project].items():
        (loaded,) = [entry for kind, entry, _pid in processes if kind == "main"]
        assert set(extensions) <= set(loaded), name
    _out, processes = built[project]["parallel"]
    main = next(pid for kind, _entry, pid in processes if kind == "main")
    readers = {pid for kind, _docname, pid in processes if kind == "read"}
    writers = {pid for kind, _page, pid in processes if kind == "write"}
    assert main not in readers, processes
    assert len(readers) >= 2, processes
    assert writers - {main}, processes
    _out, processes = built[project]["serial"]
    assert {pid for _kind, _entry, pid in processes} == {processes[0][2]}


def tree(path: Path) -> str:
    """A page as its parser reads it, written out again: the same elements, attributes and
    text, whatever the serialiser's whitespace."""
    from bs4 import BeautifulSoup

    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser").prettify()


def search_index(path: Path) -> object:
    text = path.read_text(encoding="utf-8")
    return json.loads(text[text.index("(") + 1 : text.rindex(")")])


def sitemap(path: Path) -> dict[str, list[tuple[str, str]]]:
    """Each address of the sitemap and its other languages': in the order the writers gave
    them, which is no order a reader reads."""
    from xml.etree import ElementTree

    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    return {
        url.findtext("s:loc", namespaces=ns): sorted(
            (link.get("hreflang"), link.get("href")) for link in url.findall("x:link", ns)
        )
        for url in ElementTree.parse(path).getroot().findall("s:url", ns)
    }


def written(out: Path) -> dict[str, object]:
    """Every file a build wrote, each as its reader reads it: a page's tree, the search index's,
    a notebook's and the book's places file's data, the sitemap's addresses, an archive's files (not
    the times it holds); any other file's bytes."""
    files: dict[str, object] = {}
    for path in sorted((out / "html").rglob("*")):
        name = path.relative_to(out).as_posix()
        if name.endswith(".buildinfo") or not path.is_file():
            continue
        if path.suffix == ".html":
            files[name] = tree(path)
        elif path.name == "searchindex.js":
            files[name] = search_index(path)
        elif path.suffix in {".ipynb", ".json"}:
            files[name] = json.loads(path.read_text(encoding="utf-8"))
        elif path.name == "sitemap.xml":
            files[name] = sitemap(path)
        elif path.suffix == ".zip":
            with zipfile.ZipFile(path) as archive:
                files[name] = {member: archive.read(member) for member in archive.namelist()}
        else:
            files[name] = path.read_bytes()
    places = out / "doctrees" / "book-places.json"
    if places.is_file():  # the book's build's (the guides keep none)
        files[places.name] = json.loads(places.read_text(encoding="utf-8"))
    return files


@pytest.mark.parametrize("project", PROJECTS)
def test_two_processes_write_every_file_as_one_does(built, project):
    serial, parallel = (written(out) for out, _processes in built[project].values())
    assert serial.keys() == parallel.keys()
    different = [name for name in serial if serial[name] != parallel[name]]
    assert not different, different


def plain(value: object, out: Path) -> object:
    """A domain's data as values that compare: a node as its pseudo-XML, a record as its
    fields, a path in the build's directory from there (each build has its own)."""
    from docutils import nodes

    if isinstance(value, nodes.Node):
        return value.pformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return type(value).__name__, tuple(sorted(plain(vars(value), out).items()))
    if isinstance(value, dict):
        return {plain(key, out): plain(item, out) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item, out) for item in value]
    if isinstance(value, tuple):
        return tuple(plain(item, out) for item in value)
    if isinstance(value, (set, frozenset)):
        return sorted(plain(item, out) for item in value)  # a set's order is the process's
    if isinstance(value, str):
        return value.replace(str(out), "<build>")
    if value is None or isinstance(value, (bool, int, float)):
        return value
    # Another domain's object (the C and C++ domains' root symbol): what it shows of itself.
    return type(value).__name__, repr(value)


def domain_data(out: Path) -> dict[str, object]:
    with (out / "doctrees" / "environment.pickle").open("rb") as f:
        env = pickle.load(f)
    return {name: plain(data, out) for name, data in env.domaindata.items()}


@pytest.mark.parametrize("project", PROJECTS)
def test_every_domain_keeps_what_one_process_keeps(built, project):
    serial, parallel = (domain_data(out) for out, _processes in built[project].values())
    assert serial.keys() == parallel.keys()
    different = [name for name in serial if serial[name] != parallel[name]]
    assert not different, different


class _Documents(pickle.Pickler):
    """A pickler that counts the documents what it pickles holds."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO(), pickle.HIGHEST_PROTOCOL)
        self.found = 0

    def persistent_id(self, obj: object) -> None:
        if isinstance(obj, nodes.document):
            self.found += 1
        return None


@pytest.mark.parametrize("project", PROJECTS)
def test_no_domain_keeps_a_whole_page(built, project):
    """What a domain keeps of a page is pickled with the environment, which every build
    loads first: a node kept as it was in its tree (a ``deepcopy`` keeps the node's
    document) takes its whole page with it."""
    out, _processes = built[project]["serial"]
    with (out / "doctrees" / "environment.pickle").open("rb") as f:
        env = pickle.load(f)
    holding = {}
    for name, data in env.domaindata.items():
        pickler = _Documents()
        pickler.dump(data)
        if pickler.found:
            holding[name] = pickler.found
    assert not holding, holding


def test_runs_kept_for_pages_read_again_in_parallel_are_spent(tmp_path):
    """A page read again gets its run kept in the main process (the runs domain's clear_doc),
    which the reader that reads it takes back or replaces: none is left in the environment
    after the readers' data is merged. The runs' extension alone: the rest play no part."""
    from pagerun.pages import kept_records, records

    source = tmp_path / "book"
    source.mkdir()
    (source / "conf.py").write_text(
        'extensions = ["sphinx.ext.doctest", "pagerun.sphinxext.run"]\n', encoding="utf-8"
    )
    pages = [f"page{n}" for n in range(1, PAGES + 1)]
    for n, page in enumerate(pages, start=1):
        (source / f"{page}.rst").write_text(
            f"Page {n}\n======\n\n.. testcode::\n\n   print({n})\n\n.. testoutput::\n\n   {n}\n",
            encoding="utf-8",
        )
    toctree = "\n".join(f"   {page}" for page in pages)
    (source / "index.rst").write_text(f"Book\n====\n\n.. toctree::\n\n{toctree}\n", "utf-8")
    doctrees = tmp_path / "doctrees"

    def build() -> None:
        command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "-j", "2"]
        result = subprocess.run(
            [*command, "-d", str(doctrees), str(source), str(tmp_path / "html")],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert result.returncode == 0, result.stderr

    build()
    for page in pages:
        path = source / f"{page}.rst"
        path.write_text(path.read_text(encoding="utf-8") + "\nProse added.\n", encoding="utf-8")
    build()
    with (doctrees / "environment.pickle").open("rb") as f:
        env = pickle.load(f)
    assert kept_records(env) == {}
    assert sorted(records(env)) == pages  # each taken back


def test_what_the_readers_kept_is_on_the_pages(built):
    """Not a vacuous comparison: the parallel build's pages show what both readers kept."""
    from bs4 import BeautifulSoup

    out, processes = built["book"]["parallel"]
    readers: dict[int, set[str]] = {}
    for kind, docname, pid in processes:
        if kind == "read":
            readers.setdefault(pid, set()).add(docname)
    first, last = "ch01/p01", f"ch01/p{PAGES:02d}"
    assert not any({first, last} <= pages for pages in readers.values()), readers

    def text(page: str) -> str:
        html = (out / "html" / page).read_text(encoding="utf-8")
        return BeautifulSoup(html, "html.parser").get_text(" ", strip=True)

    sections = range(1, PAGES + 1)
    notes = text("ch01/update-notes.html")
    assert all(f"第 {n} 节的第 {n} 条说明" in notes for n in sections), notes
    index = text("genindex.html")
    assert all(f"第 {n} 节的话题" in index for n in sections), index
    assert "MyST 的话题" in index
    # The drift data's examples of every page, unseen since it was made: in one list.
    unseen = text("ch01/other-releases.html")
    assert all(f"1.{n} 第 {n} 节" in unseen for n in sections), unseen
    page = text("ch01/p01.html")
    assert "Section 1" in page  # the parallel text, from the English catalog
    assert "用了 1.5 毫秒" in page  # the measured output, from the run
    assert "1.2 节“第 2 节”" in page  # a section's number through the chapter
    assert (out / "html" / "_images" / "figure-ch01-p01-1.png").is_file()


def test_what_the_guides_readers_kept_is_on_their_pages(built):
    """Not a vacuous comparison: the guides' parallel build read the lab's two reports in
    different readers, and its pages show them and link the book's site."""
    from bs4 import BeautifulSoup

    out, processes = built["guides"]["parallel"]
    readers: dict[int, set[str]] = {}
    for kind, docname, pid in processes:
        if kind == "read":
            readers.setdefault(pid, set()).add(docname)
    drift, evidence = "g01", f"g{PAGES:02d}"
    assert not any({drift, evidence} <= pages for pages in readers.values()), readers

    def page(name: str) -> BeautifulSoup:
        return BeautifulSoup((out / "html" / name).read_text(encoding="utf-8"), "html.parser")

    # The drift report: every page's example, from the places the book's build kept.
    report = page("g01.html").get_text(" ", strip=True)
    assert all(f"第 {n} 节" in report for n in range(1, PAGES + 1)), report
    # The evidence report: the note that names probes, in sentences.
    report = page(f"{evidence}.html").get_text(" ", strip=True)
    assert "x.device()" in report, report
    # Each page links its section of the book on the book's site (a deploy's: its URL).
    links = {a["href"] for a in page("g02.html").find_all("a", href=True)}
    assert f"{SITE}/zh_CN/ch01/p02.html" in links, links
    assert "g03.html#guide-3" in links, links
