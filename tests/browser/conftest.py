"""A live `streamlit run app.py` on localhost, driven by Debian's chromium through Playwright."""

import os
import shutil
from pathlib import Path

import pytest

from benchmarks import streamlit_server

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
_WORKER = "-" + os.environ["PYTEST_XDIST_WORKER"] if "PYTEST_XDIST_WORKER" in os.environ else ""
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Chromium as root in a sandbox with no network beyond localhost.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def app_url():
    with (
        open(ROOT / "tests" / "browser" / f"streamlit{_WORKER}.log", "wb") as log,
        streamlit_server.serve("app.py", log=log) as (_, url),
    ):
        yield url


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = context.new_page()
    yield pg
    context.close()


@pytest.fixture
def screenshot(page):
    """Save a full-page PNG under tests/browser/screenshots/ to look at."""
    SCREENSHOTS.mkdir(exist_ok=True)

    def take(name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
