"""Headless Chromium for the browser tests and the benchmark.

Debian's chromium and chromedriver, started with the flags a closed network
needs (no background networking, component updates or sync), with the
performance (network) log and, when asked, the console log enabled.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def chromium(user_data_dir: Path, console: bool = True) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--window-size=1280,900",
        f"--user-data-dir={user_data_dir}",
    ]:
        options.add_argument(argument)
    logs = {"performance": "ALL", **({"browser": "ALL"} if console else {})}
    options.set_capability("goog:loggingPrefs", logs)
    return webdriver.Chrome(
        options=options, service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    )
