"""Which browser and driver the browser tests use, and the error when they do not match.

Stand-in executables print the versions that a real Chrome, Chromium and
chromedriver print; the browser tests themselves drive the real Chromium.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxbook.testing import browser

CHROME = "Google Chrome 131.0.6778.85 "
CHROMIUM = "Chromium 156.0.8078.114 built on Debian GNU/Linux 12 (bookworm)"
DRIVER_131 = "ChromeDriver 131.0.6778.85 (3d81e41b6f3a-refs/branch-heads/6778@{#2285})"


def executable(folder: Path, name: str, prints: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"#!/bin/sh\necho '{prints}'\n", encoding="utf-8")
    path.chmod(0o755)
    return path


@pytest.fixture
def clean_env(monkeypatch):
    for name in ("JAXBOOK_CHROME", "JAXBOOK_CHROMEDRIVER", "CHROME_BIN", "CHROMEWEBDRIVER"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_runner_image_variables_are_honoured(clean_env, tmp_path):
    chrome = executable(tmp_path / "chrome", "chrome", CHROME)
    # On GitHub's image, CHROMEWEBDRIVER is the directory that holds chromedriver.
    driver = executable(tmp_path / "chromedriver-linux64", "chromedriver", DRIVER_131)
    clean_env.setenv("CHROME_BIN", str(chrome))
    clean_env.setenv("CHROMEWEBDRIVER", str(driver.parent))
    assert browser.browser_and_driver() == (chrome, driver)


def test_the_project_override_wins(clean_env, tmp_path):
    clean_env.setenv("CHROME_BIN", str(executable(tmp_path / "a", "chrome", CHROME)))
    clean_env.setenv("CHROMEWEBDRIVER", str(executable(tmp_path / "a", "chromedriver", DRIVER_131)))
    chromium = executable(tmp_path / "b", "chromium", CHROMIUM)
    driver = executable(tmp_path / "b", "chromedriver", "ChromeDriver 156.0.8078.114 (abc)")
    clean_env.setenv("JAXBOOK_CHROME", str(chromium))
    clean_env.setenv("JAXBOOK_CHROMEDRIVER", str(driver))
    assert browser.browser_and_driver() == (chromium, driver)


def test_a_version_mismatch_is_one_clear_sentence(clean_env, tmp_path):
    clean_env.setenv("JAXBOOK_CHROME", str(executable(tmp_path, "chromium", CHROMIUM)))
    clean_env.setenv("JAXBOOK_CHROMEDRIVER", str(executable(tmp_path, "chromedriver", DRIVER_131)))
    with pytest.raises(browser.BrowserSetupError, match=r"is version 156 but .* for version 131"):
        browser.browser_and_driver()


def test_a_missing_executable_is_named(clean_env, tmp_path):
    clean_env.setenv("CHROME_BIN", str(tmp_path / "no-such-chrome"))
    with pytest.raises(browser.BrowserSetupError, match=r"CHROME_BIN=.*no such executable"):
        browser.find_browser()
    clean_env.setenv("CHROMEWEBDRIVER", str(tmp_path))
    with pytest.raises(browser.BrowserSetupError, match=r"CHROMEWEBDRIVER=.*no chromedriver"):
        browser.find_driver()


def test_this_machines_pair_matches(clean_env):
    browser_path, driver_path = browser.browser_and_driver()
    assert browser.major_version(browser_path) == browser.major_version(driver_path)
