"""Scripts that need a fresh interpreter, shown on the page and run by doctest.

Some demos only work at interpreter start-up (``jax_enable_x64`` before the
first array, ``jax_num_cpu_devices`` before the backend starts), so they live
as scripts in ``snippets/`` and run in a child process::

    .. snippet:: x64_startup.py

    .. testcode::

       r = subprocess.run([sys.executable, "x64_startup.py"],
                          capture_output=True, text=True, timeout=60)
       print(r.stdout)

``snippet`` is ``literalinclude`` for a file of the snippets directory: it
shows the file as a (translatable) literal block. After the page
is read, and translated, a hidden ``testsetup`` writes the text the reader
sees into a fresh temporary directory and makes it the working directory for
the page's doctests; a hidden ``testcleanup`` restores the old one. So the
script that runs is, character for character, the one on the page, in each
language. The ``timeout`` of ``subprocess.run`` stops a hanging script with a
``TimeoutExpired`` error that names it.

Config values:

``jaxbook_snippets_dir``
   Directory of the scripts, relative to the source directory
   (default ``"snippets"``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.directives.code import LiteralInclude
from sphinx.util import logging, rst

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)


class SnippetDirective(LiteralInclude):
    """``literalinclude`` of a script in the snippets directory, marked for staging.

    Takes ``literalinclude``'s options; the language defaults to Python and
    the caption to the file name.
    """

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        if Path(name).name != name or not name.endswith(".py"):
            raise self.error(f"snippet {name!r}: give a bare file name such as demo.py")
        directory = Path(self.config.jaxbook_snippets_dir).as_posix().strip("/")
        self.arguments[0] = f"/{directory}/{name}"
        self.options.setdefault("language", "python")
        # The caption is parsed as reStructuredText; a file name is plain text.
        self.options.setdefault("caption", rst.escape(name))
        result = super().run()
        blocks = [n for node in result for n in node.findall(nodes.literal_block)]
        if not blocks:
            return result  # literalinclude's own warning says what went wrong
        blocks[0]["jaxbook_snippet"] = name
        return result


def _setup_code(scripts: dict[str, str]) -> str:
    lines = [
        "import os as _snippet_os, pathlib as _snippet_pathlib, tempfile as _snippet_tempfile",
        "_snippet_old_cwd = _snippet_os.getcwd()",
        "_snippet_dir = _snippet_pathlib.Path(_snippet_tempfile.mkdtemp(prefix='snippets-'))",
    ]
    for name, text in scripts.items():
        lines.append(f"(_snippet_dir / {name!r}).write_text({text!r}, encoding='utf-8')")
    lines.append("_snippet_os.chdir(_snippet_dir)")
    return "\n".join(lines)


_CLEANUP_CODE = "\n".join(
    [
        "import shutil as _snippet_shutil",
        "_snippet_os.chdir(_snippet_old_cwd)",
        "_snippet_shutil.rmtree(_snippet_dir, ignore_errors=True)",
    ]
)


def stage_snippets(app: Sphinx, doctree: nodes.document) -> None:
    """Add hidden setup/cleanup that stage the scripts as the page shows them."""
    scripts: dict[str, str] = {}
    for block in doctree.findall(nodes.literal_block):
        name = block.get("jaxbook_snippet")
        if name is None:
            continue
        shown = block.astext()
        if name in scripts and scripts[name] != shown:
            logger.warning(
                "snippet %r is shown twice with different text",
                name,
                location=block,
                type="jaxbook",
                subtype="snippets",
            )
        scripts[name] = shown
    if not scripts:
        return
    for nodetype, code in (("testsetup", _setup_code(scripts)), ("testcleanup", _CLEANUP_CODE)):
        node = nodes.comment(code, code, testnodetype=nodetype, groups=["default"])
        node.source, node.line = doctree["source"], 1
        node["translatable"] = False
        doctree += node


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_config_value("jaxbook_snippets_dir", "snippets", "env", types=frozenset({str}))
    app.add_directive("snippet", SnippetDirective)
    app.connect("doctree-read", stage_snippets)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
