"""Headless Chromium for the browser tests, and the lab's benchmark and Lighthouse.

Debian's chromium and chromedriver, started with the flags a closed network
needs (no background networking, component updates or sync), with the
performance (network) log and, when asked, the console log enabled.

Which browser and driver: ``JAXBOOK_CHROME`` and ``JAXBOOK_CHROMEDRIVER``
(this project's override), else ``CHROME_BIN`` and ``CHROMEWEBDRIVER`` (the
variables GitHub's Ubuntu runner image exports; the latter names the
driver's directory), else ``chromium`` / ``google-chrome`` and
``chromedriver`` on the ``PATH``. Their major versions must match; when they
do not, or one is missing, the error says so in one sentence instead of a
Selenium trace.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

VERSION = re.compile(r"(\d+)\.\d+\.\d+(?:\.\d+)?")
# What a browser on a closed network needs: nothing fetched in the background.
CLOSED_NETWORK_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
]


class BrowserSetupError(RuntimeError):
    """The browser or its driver is missing, or their versions do not match."""


def _from_env(*names: str) -> tuple[str, str] | None:
    for name in names:
        if os.environ.get(name):
            return name, os.environ[name]
    return None


def find_browser() -> Path:
    chosen = _from_env("JAXBOOK_CHROME", "CHROME_BIN")
    if chosen:
        name, value = chosen
        path = shutil.which(value)
        if not path:
            raise BrowserSetupError(f"{name}={value}: no such executable")
        return Path(path)
    for candidate in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if path := shutil.which(candidate):
            return Path(path)
    raise BrowserSetupError(
        "no Chromium or Chrome found: install chromium (Debian) or set JAXBOOK_CHROME or CHROME_BIN"
    )


def find_driver() -> Path:
    chosen = _from_env("JAXBOOK_CHROMEDRIVER", "CHROMEWEBDRIVER")
    if chosen:
        name, value = chosen
        # CHROMEWEBDRIVER names the directory that holds chromedriver.
        candidate = Path(value) / "chromedriver" if Path(value).is_dir() else Path(value)
        path = shutil.which(str(candidate))
        if not path:
            raise BrowserSetupError(f"{name}={value}: no chromedriver executable there")
        return Path(path)
    if path := shutil.which("chromedriver"):
        return Path(path)
    raise BrowserSetupError(
        "no chromedriver found: install chromium-driver (Debian) or set JAXBOOK_CHROMEDRIVER "
        "or CHROMEWEBDRIVER"
    )


def major_version(executable: Path) -> int:
    try:
        result = subprocess.run(
            [str(executable), "--version"], capture_output=True, text=True, timeout=60
        )
    except OSError as exc:
        raise BrowserSetupError(f"{executable} does not run: {exc}") from exc
    match = VERSION.search(result.stdout)
    if result.returncode or not match:
        output = (result.stdout + result.stderr).strip()
        raise BrowserSetupError(f"{executable} --version printed no version: {output!r}")
    return int(match[1])


def browser_and_driver() -> tuple[Path, Path]:
    """The browser and driver to use, after checking that their major versions match."""
    browser, driver = find_browser(), find_driver()
    browser_major, driver_major = major_version(browser), major_version(driver)
    if browser_major != driver_major:
        raise BrowserSetupError(
            f"{browser} is version {browser_major} but {driver} is for version {driver_major}: "
            "install the driver that matches the browser, or point JAXBOOK_CHROME and "
            "JAXBOOK_CHROMEDRIVER at a matching pair"
        )
    return browser, driver


def chromium(user_data_dir: Path, console: bool = True) -> webdriver.Chrome:
    browser, driver = browser_and_driver()
    options = webdriver.ChromeOptions()
    options.binary_location = str(browser)
    for argument in [
        "--headless=new",
        *CLOSED_NETWORK_FLAGS,
        "--window-size=1280,900",
        f"--user-data-dir={user_data_dir}",
    ]:
        options.add_argument(argument)
    logs = {"performance": "ALL", **({"browser": "ALL"} if console else {})}
    options.set_capability("goog:loggingPrefs", logs)
    return webdriver.Chrome(options=options, service=Service(str(driver)))
