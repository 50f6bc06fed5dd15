"""jaxbook-lab: the lab's command, behind the Makefile's lab targets.

As ``jaxbook`` does (:mod:`jaxbook.cli`), it imports only the module of the
subcommand being run, so ``python -m jaxbook_lab bundle run`` needs Python
and JAX alone.
"""

from __future__ import annotations

import sys

from jaxbook.cli import main as command_main

# name: (module with add_arguments(parser) and run(args), one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "bundle": ("jaxbook_lab.bundle", "export the doctests, or run them with Python and JAX"),
    "record": ("jaxbook_lab.record", "write another backend's recorded outputs onto the pages"),
    "drift": ("jaxbook_lab.releases.drift", "run the book on another JAX release; report changes"),
    "evidence": ("jaxbook_lab.releases.evidence", "find where each noted behavior changed"),
    "lighthouse": ("jaxbook_lab.lighthouse", "audit every page of a deploy build with Lighthouse"),
    "bench": ("jaxbook_lab.bench.suite", "measure doctest, builds, pages and setup"),
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    return command_main(argv, COMMANDS, "jaxbook-lab", __doc__.splitlines()[0])
