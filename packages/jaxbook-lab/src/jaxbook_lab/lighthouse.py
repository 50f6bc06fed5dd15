"""Lighthouse on every page of a deploy build of the site, both languages.

    jaxbook-lab lighthouse [--builddir _build/lighthouse] [--site-url URL]
                       [--site DIR] [--out FILE] [PAGE ...]

Without ``--site`` the site is first built the way it is deployed: ``jaxbook
html`` with ``JAXBOOK_SITE_URL`` set (from the environment, else
``--site-url``), so that canonical and hreflang links are absolute. The site is
served by ``serve`` (npm), which compresses text as GitHub Pages and Read the
Docs do, and each page (every ``.html`` file, the landing page, the 404 pages,
search and the index included; or the given ``PAGE`` paths, relative to the
site) is audited in turn by Lighthouse (npm ``lighthouse``, held at 12 in
``package.json``: Lighthouse 13 needs Node 22.19 or newer) in the project's
headless Chromium (``jaxbook.testing.browser``), with Lighthouse's default mobile
emulation and simulated throttling. One page at a time: pages audited side by
side on two cores would score each other's CPU time.

Targets, per page: SEO, accessibility and best practices 100, performance at
least 95. A page below a target is reported as ``path: category score < target:
audit (title)`` for each of the category's failing audits, and the command
exits with 1. Each page's full Lighthouse report (JSON and HTML) is kept under
``<builddir>/reports/``; ``--out`` writes the scores of every page as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from jaxbook import project
from jaxbook.testing.browser import CLOSED_NETWORK_FLAGS, BrowserSetupError, find_browser

TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
DEFAULT_SITE_URL = "https://jaxbook.example.org/"
PAGE_TIMEOUT_S = 240
# Audits left out on some pages, and why; each is printed beside the page's scores.
SKIPPED_AUDITS = {
    "search.html": (
        "is-crawlable",
        "Sphinx marks the search page noindex, so that search engines do not list result pages",
    ),
}


@dataclass
class PageAudit:
    page: str
    scores: dict[str, int] = field(default_factory=dict)
    # (category, score, audit id, audit title) for each category below its target
    failures: list[tuple[str, int, str, str]] = field(default_factory=list)
    error: str = ""
    skipped: str = ""

    @property
    def passed(self) -> bool:
        return not self.error and all(
            self.scores.get(category, -1) >= target for category, target in TARGETS.items()
        )


def node_tool(root: Path, name: str) -> Path:
    tool = root / "node_modules" / ".bin" / name
    if not tool.exists():
        raise SystemExit(
            f"{tool} is missing: run `npm ci` (make installs it from package-lock.json)"
        )
    return tool


def pages_of(site: Path) -> list[str]:
    """Every page of a built site, relative to it, in a stable order."""
    return sorted(
        str(path.relative_to(site))
        for path in site.rglob("*.html")
        if not {"_static", "_sources", "_images", "_downloads"} & set(path.parts)
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def compressing_server(root: Path, site: Path) -> Iterator[str]:
    """Serve ``site`` over HTTP with gzip, files under their own names; yield the base URL."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        # cleanUrls off: /page.html is served as itself, as on GitHub Pages.
        config = Path(tmp, "serve.json")
        config.write_text(json.dumps({"cleanUrls": False}), encoding="utf-8")
        server = subprocess.Popen(
            [
                str(node_tool(root, "serve")),
                "--no-clipboard",
                "--no-request-logging",
                "--config",
                str(config),
                "--listen",
                f"tcp://127.0.0.1:{port}",
                str(site),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}/"
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(base, timeout=1).close()
                    break
                except urllib.error.HTTPError:
                    break  # it answers, if only with "not found"
                except OSError:
                    if server.poll() is not None:
                        raise SystemExit(
                            f"serve exited with {server.returncode} on port {port}"
                        ) from None
                    time.sleep(0.1)
            else:
                raise SystemExit(f"serve did not answer on port {port} within 10 s")
            yield base
        finally:
            server.terminate()
            server.wait()


def read_report(page: str, report: dict) -> PageAudit:
    audit = PageAudit(page)
    if report.get("runtimeError"):
        audit.error = report["runtimeError"].get("message", "Lighthouse could not load the page")
        return audit
    for category, target in TARGETS.items():
        found = report["categories"][category]
        if found["score"] is None:
            audit.error = f"Lighthouse gave no {category} score"
            continue
        score = round(found["score"] * 100)
        audit.scores[category] = score
        if score >= target:
            continue
        for ref in found["auditRefs"]:
            result = report["audits"][ref["id"]]
            if ref["weight"] > 0 and result["score"] is not None and result["score"] < 1:
                audit.failures.append((category, score, ref["id"], result["title"]))
    return audit


def lighthouse(root: Path, chrome: Path, url: str, page: str, reports: Path) -> PageAudit:
    stem = reports / page.removesuffix(".html")
    stem.parent.mkdir(parents=True, exist_ok=True)
    flags = " ".join(["--headless=new", *CLOSED_NETWORK_FLAGS])
    command = [
        str(node_tool(root, "lighthouse")),
        url,
        f"--chrome-path={chrome}",
        f"--chrome-flags={flags}",
        f"--only-categories={','.join(TARGETS)}",
        "--output=json",
        "--output=html",
        f"--output-path={stem}",
        "--quiet",
    ]
    skipped = SKIPPED_AUDITS.get(Path(page).name)
    if skipped:
        command.append(f"--skip-audits={skipped[0]}")
    try:
        process = subprocess.run(command, capture_output=True, text=True, timeout=PAGE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return PageAudit(page, error=f"Lighthouse did not finish in {PAGE_TIMEOUT_S} s")
    json_report = Path(f"{stem}.report.json")
    if process.returncode or not json_report.exists():
        last = (process.stderr.strip().splitlines() or ["(no output)"])[-1]
        return PageAudit(page, error=f"Lighthouse exited with {process.returncode}: {last}")
    audit = read_report(page, json.loads(json_report.read_text(encoding="utf-8")))
    if skipped:
        audit.skipped = f"{skipped[0]} not audited: {skipped[1]}"
    return audit


def audit_site(site: Path, pages: list[str], reports: Path) -> list[PageAudit]:
    root = project.root()
    try:
        chrome = find_browser()
    except BrowserSetupError as exc:
        raise SystemExit(str(exc)) from None
    results = []
    with compressing_server(root, site) as base:
        for page in pages:
            if not (site / page).is_file():
                results.append(PageAudit(page, error="no such page in the site"))
                continue
            results.append(lighthouse(root, chrome, base + page, page, reports))
            print(summary_line(results[-1]), flush=True)
    return results


def summary_line(audit: PageAudit) -> str:
    if audit.error:
        return f"{audit.page}: {audit.error}"
    scores = "  ".join(f"{category} {audit.scores[category]}" for category in TARGETS)
    return f"{audit.page}: {scores}" + (f" ({audit.skipped})" if audit.skipped else "")


def problems(site: Path, results: list[PageAudit]) -> list[str]:
    lines = []
    for audit in results:
        where = site / audit.page
        if audit.error:
            lines.append(f"{where}: {audit.error}")
        for category, score, audit_id, title in audit.failures:
            lines.append(f"{where}: {category} {score} < {TARGETS[category]}: {audit_id} ({title})")
    return lines


def deploy_build(builddir: Path, site_url: str) -> Path:
    environment = {**os.environ, "JAXBOOK_SITE_URL": os.environ.get("JAXBOOK_SITE_URL", site_url)}
    command = [
        sys.executable,
        "-m",
        "jaxbook",
        "html",
        "--builddir",
        str(builddir),
        *project.languages(),
    ]
    if subprocess.run(command, env=environment).returncode:
        raise SystemExit("the deploy build failed; see the warnings above")
    return builddir / "html"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pages", nargs="*", help="pages relative to the site (default: all)")
    parser.add_argument("--builddir", type=Path, default=Path("_build/lighthouse"))
    parser.add_argument(
        "--site-url",
        default=DEFAULT_SITE_URL,
        help="the deploy URL, unless JAXBOOK_SITE_URL is set",
    )
    parser.add_argument("--site", type=Path, help="audit this built site instead of building one")
    parser.add_argument("--out", type=Path, help="write every page's scores here as JSON")


def run(args: argparse.Namespace) -> int:
    builddir = args.builddir.resolve()
    site = args.site.resolve() if args.site else deploy_build(builddir, args.site_url)
    pages = args.pages or pages_of(site)
    results = audit_site(site, pages, builddir / "reports")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(
            json.dumps(
                {
                    a.page: {"scores": a.scores, "error": a.error, "skipped": a.skipped}
                    for a in results
                },
                indent=1,
            ),
            encoding="utf-8",
        )
    found = problems(site, results)
    for line in found:
        print(line, file=sys.stderr)
    passed = sum(audit.passed for audit in results)
    targets = ", ".join(f"{c} >= {t}" for c, t in TARGETS.items())
    print(f"lighthouse: {passed} of {len(results)} pages meet every target ({targets})")
    return 1 if found or passed < len(results) else 0
