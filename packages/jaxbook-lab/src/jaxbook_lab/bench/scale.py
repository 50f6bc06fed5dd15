"""The cost of the machinery against the size of the book, and the translator's preview.

Used by ``jaxbook-lab bench``. For each size in ``--chapters`` (default 1, 4, 16)
it writes a synthetic course (``jaxbook_lab.bench.course``) under a temporary
directory and measures, on that course:

- clean doctest of both languages (no doctrees, an empty JAX compilation
  cache), the languages side by side as ``make doctest`` runs them, and one
  language after the other: time per chapter, growth against one chapter,
  and what the side-by-side processes gain (target <= 0.6 of one after the
  other);
- ``make doctest`` after editing one page (a comment appended to the last
  chapter's quiz), which reads and runs that page alone, as an author meets
  it: a first ``make doctest``, the edit, a second ``make doctest``, answered
  by the processes the first left alive (:mod:`jaxbook.doctest.warm`), against
  that page's own floor (``jaxbook_lab.bench.floor``; target <= 1.5); once
  more cold (``WARM=0``, a new process per language), and (once, cold) with
  ``--force``, which reads and runs every page: what Sphinx's incremental
  reading gains;
- the live preview's verdict on that edit: ``jaxbook livehtml`` serving the
  source language, the page saved, the seconds until it prints the page's
  verdict, over the page's floor (target <= 1.3);
- clean HTML of both languages the way ``make html`` builds it (warnings are
  errors), and in one long-lived process (``jaxbook_lab.bench.incremental``) the
  English rebuild after editing one page and after editing one msgstr, each
  over the clean build of that process.

``preview_seconds`` measures the translator's preview end to end: ``jaxbook
livehtml --language en`` serving, Chromium showing a page, a ``.po`` saved,
and the time until Chromium shows the page with the new text.
"""

from __future__ import annotations

import json
import os
import queue
import re
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import polib

from jaxbook.doctest import warm as warm_processes
from jaxbook.doctest.environment import doctest_environment
from jaxbook.project import languages
from jaxbook.site.build import html_command
from jaxbook.site.editions import sphinx_command
from jaxbook_lab.bench import course

PY = sys.executable
LANGS = list(languages())
PAGE = "quiz"
# make doctest after a one-page edit, over the floor of that page.
EDIT_TARGET = 1.5


def marker(catalog: Path) -> str:
    """The opening words of the page's first translated paragraph, to edit its msgstr by."""
    for entry in polib.pofile(str(catalog)):
        if len(entry.msgstr) > 60 and "\n" not in entry.msgstr and ". " in entry.msgstr:
            return " ".join(entry.msgstr.split()[:4])
    sys.exit(f"{catalog}: no translated paragraph to edit")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def doctest_run(
    root: Path,
    builddir: Path,
    *extra: str,
    lang: list[str] | None = None,
    cache: Path | str | None = None,
    warm: bool = False,
) -> tuple[float, str]:
    """``make doctest`` of ``root`` into ``builddir``: its seconds and its output. JAX's
    persistent compilation cache is ``cache`` (by default one in ``builddir``; "" is none).
    ``warm``: answered by the processes an earlier warm run left alive (an error if it was
    not), leaving them alive; otherwise as ``make doctest WARM=0``."""
    environment = doctest_environment(os.environ, root)
    environment["JAX_COMPILATION_CACHE_DIR"] = str(
        builddir / "jax-cache" if cache is None else cache
    )
    environment[warm_processes.KNOB] = "1" if warm else "0"
    environment.pop("CI", None)
    start = time.perf_counter()
    process = subprocess.run(
        [PY, "-m", "jaxbook", "doctest", "--builddir", str(builddir), *extra, *(lang or LANGS)],
        env=environment,
        cwd=root,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    if process.returncode != 0:
        sys.exit(f"doctest of {root} failed:\n{process.stdout[-3000:]}")
    if warm and "warm" in process.stderr:  # it fell back cold, or started anew
        sys.exit(f"the warm doctest of {root} ran cold:\n{process.stderr[-3000:]}")
    return seconds, process.stdout


def stop_warm(root: Path, builddir: Path) -> None:
    """``make doctest-stop``: no process left alive in a course about to be removed."""
    subprocess.run(
        [PY, "-m", "jaxbook", "doctest", "--stop", "--builddir", str(builddir)],
        cwd=root,
        check=True,
        capture_output=True,
    )


def passed(output: str) -> int:
    match = re.search(r"^(\d+) passed, 0 failed$", output, re.MULTILINE)
    assert match, output[-2000:]
    return int(match[1])


def pages_run(output: str) -> int:
    """How many pages a ``make doctest`` read, and so ran, in all its languages."""
    match = re.match(r"doctest: (\d+) pages? run", output)
    assert match, output[-2000:]
    return int(match[1])


def floor_seconds(root: Path, docname: str) -> float:
    environment = {**doctest_environment(os.environ, root), "JAX_COMPILATION_CACHE_DIR": ""}
    out = subprocess.run(
        [PY, "-m", "jaxbook_lab.bench.floor", docname],
        check=True,
        capture_output=True,
        text=True,
        env=environment,
        cwd=root,
    ).stdout
    return float(out.strip().splitlines()[-1])


def html_both(root: Path, out: Path) -> float:
    start = time.perf_counter()
    processes = [
        subprocess.Popen(
            html_command(
                root,
                lang,
                out / lang,
                out / "doctrees" / lang,
                "-q",
                "--fail-on-warning",
                "--keep-going",
            ),
            env=doctest_environment(os.environ, root, lang),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for lang in LANGS
    ]
    failures = [p.communicate()[1] for p in processes if p.wait()]
    if failures:
        sys.exit("the synthetic course did not build warning-free:\n" + "\n".join(failures)[-3000:])
    return time.perf_counter() - start


def refresh(root: Path, language: str, pages: list[str]) -> None:
    process = subprocess.run(
        [PY, "-m", "jaxbook", "refresh", "--builddir", "_refresh", "--language", language, *pages],
        env=doctest_environment(os.environ, root),
        cwd=root,
        capture_output=True,
        text=True,
    )
    if process.returncode != 0:
        sys.exit(f"refresh of the authored chapter failed:\n{process.stdout[-3000:]}")


def single_documents(root: Path, out: Path, site: Path) -> float:
    """The LaTeX and EPUB builds of the source language, where the whole book is one
    document (warnings are errors), from the doctrees of ``site``'s build as ``make pdf
    epub`` after ``make html``: the seconds they take together."""
    start = time.perf_counter()
    for builder in ("latex", "epub"):
        process = subprocess.run(
            sphinx_command(
                root,
                builder,
                LANGS[0],
                out / builder,
                site / "doctrees" / LANGS[0],
                "-q",
                "--fail-on-warning",
            ),
            env=doctest_environment(os.environ, root, LANGS[0]),
            capture_output=True,
            text=True,
        )
        if process.returncode != 0:
            sys.exit(f"the synthetic course's {builder} build warned:\n{process.stderr[-3000:]}")
    return time.perf_counter() - start


def incremental(root: Path, chapter: str, runs: int) -> dict:
    out = subprocess.run(
        [
            PY,
            "-m",
            "jaxbook_lab.bench.incremental",
            str(root),
            f"docs/{chapter}/{PAGE}.rst",
            f"locale/en/LC_MESSAGES/{chapter}/{PAGE}.po",
            marker(root / f"locale/en/LC_MESSAGES/{chapter}/{PAGE}.po"),
            "--runs",
            str(runs),
        ],
        capture_output=True,
        text=True,
        env=doctest_environment(os.environ, root),
    )
    if out.returncode != 0:
        sys.exit(f"incremental build failed:\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def live_verdict_seconds(root: Path, page: Path, runs: int) -> list[float]:
    """``jaxbook livehtml`` serving the source language: from saving ``page`` to its verdict."""
    environment = doctest_environment(os.environ, root)
    environment["JAX_COMPILATION_CACHE_DIR"] = str(root / "_live" / "jax-cache")
    port = free_port()
    live = subprocess.Popen(
        [PY, "-m", "jaxbook", "livehtml", "--port", str(port), "--builddir", "_live"],
        env=environment,
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines = Lines(live, "livehtml")
    text = page.read_text(encoding="utf-8")
    docname = f"{page.parent.name}/{page.stem}"
    samples = []
    try:
        lines.wait_for("serving http", 1800)
        # The watcher starts with the server: once it answers, a save is seen.
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        # The first edit after the start also compiles the page's programs.
        for run in range(runs + 1):
            page.write_text(text + f"\n.. live edit {run}\n", encoding="utf-8")
            start = time.perf_counter()
            line = lines.wait_for(f"doctest: {docname} ", 300)
            assert " 0 failed " in line, line
            if run:
                samples.append(time.perf_counter() - start)
            lines.wait_for("rebuilt in", 300)
    finally:
        page.write_text(text, encoding="utf-8")
        live.terminate()
        live.wait(timeout=60)
        lines.stdout.close()
    return samples


class Lines:
    """A process's output, line by line, read by a thread of its own as it comes."""

    def __init__(self, process: subprocess.Popen[str], name: str) -> None:
        assert process.stdout is not None, "the process was started with stdout=PIPE"
        self.process = process
        self.stdout = process.stdout
        self.name = name
        self.queue: queue.Queue[str] = queue.Queue()
        self.log: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.stdout:
            self.queue.put(line)

    def wait_for(self, text: str, seconds: float) -> str:
        """The first line from now on that holds ``text``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                line = self.queue.get(timeout=1)
            except queue.Empty:
                if self.process.poll() is not None and self.queue.empty():
                    break
                continue
            self.log.append(line)
            if text in line:
                return line
        sys.exit(f"{self.name} did not print {text!r}:\n{''.join(self.log)[-3000:]}")


def measure_course(tmp: Path, chapters: int, runs: int, serial: bool) -> dict:
    root = course.write(tmp / f"course{chapters}", chapters)
    last = f"ch{chapters:02d}"
    figures: dict = {"chapters": chapters}
    authored = course.authored_pages(root)
    if authored:
        # The authored chapter's outputs, as its author writes them: the source's, then
        # the translations' in their catalogs.
        for language in LANGS:
            refresh(root, language, authored)
    seconds, output = doctest_run(root, root / "_b")
    figures.update(clean_doctest_s=seconds, examples=passed(output))
    if serial:
        # One language after the other, each from a clean build directory of its own.
        figures["clean_doctest_serial_s"] = sum(
            doctest_run(root, root / f"_b-{lang}", lang=[lang])[0] for lang in LANGS
        )
    page = root / "docs" / last / f"{PAGE}.rst"
    text = page.read_text(encoding="utf-8")
    after_edit = []
    # The author's first `make doctest`, whose processes stay alive to answer the next.
    doctest_run(root, root / "_b", warm=True)
    first_lines = set()
    try:
        for run in range(runs):
            page.write_text(text + f"\n.. edited {run}\n", encoding="utf-8")
            seconds, output = doctest_run(root, root / "_b", warm=True)
            first_lines.add(pages_run(output))
            after_edit.append(seconds)
    finally:
        stop_warm(root, root / "_b")
    # The same edit in a new process per language (once), as without warm processes.
    page.write_text(text + "\n.. edited cold\n", encoding="utf-8")
    seconds, output = doctest_run(root, root / "_b")
    # Warm as cold, the same pages are read: the edited one alone (the chapter's update-notes
    # table and its list of unseen examples are written again, not read).
    assert first_lines == {pages_run(output)}, (first_lines, output[-2000:])
    figures["doctest_after_edit_cold_s"] = [seconds]
    # The same edit, every page read and run again (once: at 16 chapters, minutes).
    page.write_text(text + "\n.. edited again\n", encoding="utf-8")
    figures["doctest_after_edit_forced_s"] = [doctest_run(root, root / "_b", "--force")[0]]
    page.write_text(text, encoding="utf-8")
    figures["doctest_after_edit_s"] = after_edit
    figures["live_verdict_s"] = live_verdict_seconds(root, page, runs)
    figures["page_floor_s"] = [floor_seconds(root, f"{last}/{PAGE}") for _ in range(runs)]
    figures["clean_html_both_s"] = html_both(root, root / "_html")
    figures["single_document_editions_s"] = single_documents(root, root / "_books", root / "_html")
    figures["incremental"] = incremental(root, last, runs)
    return figures


def rows_for(results: list[dict], row) -> None:
    """Add the table rows for the measured course sizes."""
    median = statistics.median
    one = next((r for r in results if r["chapters"] == 1), None)
    for r in results:
        n = r["chapters"]
        tag = f"course {n:>2} ch:"
        row(f"{tag} clean doctest zh+en ({r['examples']} examples)", r["clean_doctest_s"], "s")
        row(f"{tag} clean doctest per chapter", r["clean_doctest_s"] / n, "s")
        if one is not None and n > 1:
            growth = r["clean_doctest_s"] / (n * one["clean_doctest_s"])
            row(f"{tag} clean doctest / ({n} x 1 chapter)", growth, "x", "<= 1.15", growth <= 1.15)
        if "clean_doctest_serial_s" in r:
            ratio = r["clean_doctest_s"] / r["clean_doctest_serial_s"]
            row(
                f"{tag} doctest languages side by side / in turn",
                ratio,
                "x",
                "<= 0.6",
                ratio <= 0.6,
            )
        floor = median(r["page_floor_s"])
        edit = median(r["doctest_after_edit_s"])
        cold = median(r["doctest_after_edit_cold_s"])
        gain = cold / median(r["doctest_after_edit_forced_s"])
        row(f"{tag} doctest after one page edit / --force", gain, "x", "<= 0.5", gain <= 0.5)
        ratio = edit / floor
        name = f"{tag} doctest after one page edit / its floor"
        row(name, ratio, "x", f"<= {EDIT_TARGET}", ratio <= EDIT_TARGET)
        row(f"{tag} doctest after one page edit, WARM=0 / its floor", cold / floor, "x")
        live = median(r["live_verdict_s"]) / floor
        name = f"{tag} livehtml verdict after one page edit / its floor"
        row(name, live, "x", "<= 1.3", live <= 1.3)
        row(f"{tag} clean html zh+en", r["clean_html_both_s"], "s")
        row(f"{tag} clean html per chapter", r["clean_html_both_s"] / n, "s")
        row(
            f"{tag} LaTeX and EPUB ({LANGS[0]}), one document", r["single_document_editions_s"], "s"
        )
        inc = r["incremental"]
        for what, key in (("one page", "after_page_s"), ("one msgstr", "after_msgstr_s")):
            ratio = median(inc[key]) / inc["clean_s"]
            row(f"{tag} html after {what} / clean (en)", ratio, "x", "<= 0.10", ratio <= 0.10)


def preview_seconds(root: Path, runs: int) -> list[float]:
    """From a saved .po to Chromium showing the page with the new text, ``runs`` times."""
    from selenium.common.exceptions import WebDriverException

    from jaxbook.testing.browser import chromium

    project = course.write(Path(tempfile.mkdtemp()) / "preview", 1, root)
    catalog = project / "locale/en/LC_MESSAGES/ch01" / f"{PAGE}.po"
    text = catalog.read_text(encoding="utf-8")
    opening = marker(catalog)
    port = free_port()
    server = subprocess.Popen(
        [PY, "-m", "jaxbook", "livehtml", "--language", "en", "--port", str(port)],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert server.stdout is not None, "the preview was started with stdout=PIPE"
    driver = None
    samples = []
    try:
        deadline = time.monotonic() + 900
        log = ""
        while "serving http" not in log:
            if server.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"the preview did not start:\n{log}{server.stdout.read()}")
            if select.select([server.stdout], [], [], 1)[0]:
                log += server.stdout.readline()
        driver = chromium(Path(tempfile.mkdtemp()), console=False)
        driver.get(f"http://127.0.0.1:{port}/ch01/{PAGE}.html")
        time.sleep(2)  # the page opens its reload websocket
        for run in range(runs):
            edit = f"(preview edit {run})"
            catalog.write_text(text.replace(opening, f"{opening} {edit}", 1), encoding="utf-8")
            start = time.perf_counter()
            while True:
                try:
                    shown = driver.execute_script(
                        "return !!document.body && document.body.innerText.includes(arguments[0])",
                        edit,
                    )
                except WebDriverException:
                    shown = False
                if shown:
                    break
                if time.perf_counter() - start > 60:
                    sys.exit("the preview never showed the edit")
                time.sleep(0.01)
            samples.append(time.perf_counter() - start)
            time.sleep(1)
    finally:
        catalog.write_text(text, encoding="utf-8")
        if driver is not None:
            driver.quit()
        server.terminate()
        server.wait(timeout=30)
    return samples
