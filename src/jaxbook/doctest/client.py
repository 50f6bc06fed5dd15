"""Hand a ``jaxbook doctest`` run to a running doctest server, if there is one.

This half imports nothing heavy, so that asking the server costs a Python
start and a socket. The server (``jaxbook.doctest.server``) listens on a Unix
socket whose name is derived from the build directory, so a server serves one
checkout's build directory. Without a server, or when the server does not take
the run (it says why), ``jaxbook doctest`` runs the pages itself. The request
is a ``jaxbook.doctest.request.RunRequest``, sent as one line of its JSON.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import sys
import tempfile
from pathlib import Path

from jaxbook.doctest.request import RunRequest


def socket_path(builddir: Path) -> Path:
    # A Unix socket's path has a short length limit; a build directory's does not.
    digest = hashlib.sha256(str(builddir.resolve()).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"jaxbook-doctest-{os.getuid()}-{digest}.sock"


def ask(request: RunRequest) -> int | None:
    """The exit status of the run the server made, or None to run here."""
    path = socket_path(request.builddir)
    if not path.exists():
        return None
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(str(path))
    except OSError:
        print(f"doctest: no doctest server answers at {path}; running here", file=sys.stderr)
        return None
    try:
        return _exchange(connection, request)
    except (OSError, ValueError):
        # The server died mid-answer: a reset connection, or half a line.
        print(
            "doctest: the doctest server stopped before it answered; running here",
            file=sys.stderr,
        )
        return None


def _exchange(connection: socket.socket, request: RunRequest) -> int | None:
    with connection, connection.makefile("rw", encoding="utf-8") as stream:
        stream.write(json.dumps(request.to_json()) + "\n")
        stream.flush()
        for number, line in enumerate(stream):
            reply = json.loads(line)
            if number == 0 and "refused" not in reply:
                print("doctest: run by the doctest server", flush=True)
            if "refused" in reply:
                print(
                    f"doctest: the doctest server did not take this run: {reply['refused']}; "
                    "running here",
                    file=sys.stderr,
                )
                return None
            if "output" in reply:
                print(reply["output"], end="", flush=True)
            if "exit" in reply:
                return int(reply["exit"])
    print("doctest: the doctest server stopped before it answered; running here", file=sys.stderr)
    return None
