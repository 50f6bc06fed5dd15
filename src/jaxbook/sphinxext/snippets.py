"""The ``snippet`` directive: a script that needs a fresh interpreter, shown and run by doctest.

Some demos work only at interpreter start-up (``jax_enable_x64`` before the first array,
``jax_num_cpu_devices`` before the backend starts), so they live as scripts in ``snippets/``;
a page shows one and, below it, what it prints::

    .. snippet:: x64_startup.py

    .. testoutput::

       开启 x64 后，默认浮点：float64

The directive shows the script and adds a hidden ``testcode`` that runs it; on
``doctree-read`` each page with snippets gets a hidden ``testsetup`` and ``testcleanup``
that stage the scripts.

Config values:

``jaxbook_snippets_dir``
   The scripts' directory, relative to the source directory (default ``"snippets"``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.directives.code import LiteralInclude
from sphinx.util import logging, rst

from jaxbook._compat import doctest_node
from jaxbook.sphinxext import PARALLEL_SAFE

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata, OptionSpec

logger = logging.getLogger(__name__)


# What runs a snippet, hidden. A script that fails ends with the line a terminal ends with
# (the exception, "NameError: name 'np' is not defined"); its whole error output goes to
# the run's own stderr, for the author, which the engine (pagerun.engine) shows only if the
# cell fails: a script that fails as its page says leaves nothing in the build's log.
# JAX_PLATFORMS=cpu: the page's own process may hold the accelerator, and a TPU lets only
# one process open it; a script about devices asks for CPU devices itself.
RUN_CODE = """\
import os as _snippet_os, subprocess as _snippet_subprocess, sys as _snippet_sys
_snippet_run = _snippet_subprocess.run(
    [_snippet_sys.executable, {name!r}], capture_output=True, text=True, timeout={timeout},
    env={{**_snippet_os.environ, "JAX_PLATFORMS": "cpu"}},
)
print(_snippet_run.stdout, end="")
if _snippet_run.returncode:
    _snippet_sys.stderr.write(_snippet_run.stderr)
    _snippet_lines = _snippet_run.stderr.strip().splitlines()
    print(_snippet_lines[-1] if _snippet_lines else f"exit status {{_snippet_run.returncode}}")
"""


class SnippetDirective(LiteralInclude):
    """``literalinclude`` of a script in the snippets directory, marked for staging.

    Takes ``literalinclude``'s options, and ``:timeout:`` (seconds); the
    language defaults to Python and the caption to the file name.

    A hidden ``testcode`` after the (translatable) literal block runs the script in a new
    Python process on the CPU and prints what it printed, so the ``testoutput`` after it is
    compared as any cell's. Past ``:timeout:`` (default 120) the cell fails with a
    ``TimeoutExpired`` that names the script.
    """

    option_spec: ClassVar[OptionSpec] = {
        **LiteralInclude.option_spec,
        "timeout": directives.positive_int,
    }

    def run(self) -> list[nodes.Node]:
        timeout = self.options.pop("timeout", 120)
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
        code = RUN_CODE.format(name=name, timeout=timeout)
        runs = doctest_node("testcode", code, hidden=True)
        runs.source, runs.line = self.get_source_info()
        runs["translatable"] = False
        return [*result, runs]


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
    """Add hidden setup/cleanup that stage the scripts as the page shows them.

    The setup writes the text the reader sees (translated, in a translation) into a fresh
    temporary directory and makes it the working directory for the page's doctests; the
    cleanup restores the old one. So the script that runs is, character for character, the
    one on the page, in each language.
    """
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
        node = doctest_node(nodetype, code, hidden=True)
        node.source, node.line = doctree["source"], 1
        node["translatable"] = False
        doctree += node


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_config_value("jaxbook_snippets_dir", "snippets", "env", types=frozenset({str}))
    app.add_directive("snippet", SnippetDirective)
    app.connect("doctree-read", stage_snippets)
    return {"version": "1.0", **PARALLEL_SAFE}
