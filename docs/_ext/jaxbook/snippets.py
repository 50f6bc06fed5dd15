"""Scripts that need a fresh interpreter, shown on the page and run by doctest.

Some demos only work at interpreter start-up (``jax_enable_x64`` before the
first array, ``jax_num_cpu_devices`` before the backend starts), so they live
as scripts in ``snippets/`` and run in a child process::

    .. snippet:: x64_startup.py

    .. testcode::

       r = subprocess.run([sys.executable, "x64_startup.py"],
                          capture_output=True, text=True, timeout=60)
       print(r.stdout)

``snippet`` shows the file as a (translatable) literal block. After the page
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
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)


class SnippetDirective(SphinxDirective):
    required_arguments = 1
    option_spec: ClassVar[dict[str, Any]] = {}

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        if Path(name).name != name or not name.endswith(".py"):
            raise self.error(f"snippet {name!r}: give a bare file name such as demo.py")
        path = Path(self.env.srcdir, self.config.jaxbook_snippets_dir, name)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise self.error(f"snippet {name!r}: cannot read {path.name}: {exc}") from exc
        self.env.note_dependency(str(path))
        block = nodes.literal_block(text, text, language="python", jaxbook_snippet=name)
        self.set_source_info(block)
        # A file name is not reStructuredText: build the caption as plain text.
        caption = nodes.caption(name, name, translatable=False)
        self.set_source_info(caption)
        wrapper = nodes.container(
            "", caption, block, classes=["literal-block-wrapper"], literal_block=True
        )
        self.set_source_info(wrapper)
        return [wrapper]


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
